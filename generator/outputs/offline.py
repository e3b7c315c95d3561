"""Single-file copies: offline/<slug>.html is a page with every
file it uses inlined (plotly.js, CSS, the runtime, data, images), so a reader
can keep one file that works from any folder with no network.

The copy is made from the rendered page, not from a template of its own, so
it always shows exactly what the site shows. Inside it:
- scripts and stylesheets of the build become inline <script> and <style>
  (deferred scripts move to the end of <body>, where they run in the same order);
- any other file of the build it refers to (an image, a font) becomes a data: URI;
- links to other pages of the site point at base_url when there is one, and
  otherwise stop being links, because those pages are not beside the copy;
- elements marked data-offline="omit" (the Embed buttons, the link to this very
  copy) are left out, and so is the canonical link: search engines should index
  the site's page, not a copy of it (the copy says noindex).
"""
from __future__ import annotations

import base64
import mimetypes
import posixpath
import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from ..cache.build import BuildCache
from ..load.content import Site
from ..cache.disk import digest, kept

_TAG = re.compile(r"<([a-zA-Z][a-zA-Z0-9-]*)\b[^<>]*>")
_ATTRIBUTE = re.compile(r'(\s)(href|src)="([^"]*)"')
_SCRIPT = re.compile(r"<script\b([^<>]*)\bsrc=\"([^\"]*)\"([^<>]*)>\s*</script>", re.I)
_STYLESHEET = re.compile(r"<link\b[^<>]*>", re.I)
_INLINE = re.compile(r"<(script|style)\b[^<>]*>.*?</\1>", re.I | re.S)
_CSS_URL = re.compile(r"""url\(\s*(['"]?)([^'")]+)\1\s*\)""")
_OMIT = re.compile(r"<([a-zA-Z][a-zA-Z0-9-]*)\b[^<>]*\bdata-offline=\"omit\"[^<>]*>")
# Characters an HTML document may not contain (controls other than whitespace,
# and the BMP's noncharacters); minified libraries keep some raw inside strings.
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff]")
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}

Files = dict[str, "bytes | Path"]


def render_offline(site: Site, pages: list, files: Files, theme=None, assets: dict[str, str] | None = None,
                   cache: BuildCache | None = None) -> Files:
    """The single-file copy of every page that asks for one (Page.offline_copy),
    made from that page among `files`. With a cache (and the theme and asset
    names its key is made of), an unchanged page's copy is reused."""
    sources = {source.slug: source for source in site.pages}
    copies: Files = {}
    for page in pages:
        if not page.offline_copy:
            continue

        def make(path=page.path) -> bytes:
            html = _read(files[path]).decode("utf-8")
            return single_file(html, path, files, site.config.base_url).encode("utf-8")

        source = sources.get(page.source)
        copies[page.offline_copy] = cache.page(source, site, theme, assets, kind="offline", make=make) \
            if cache and source else make()
    return copies


def single_file(html: str, page: str, files: Files, base_url: str = "") -> str:
    """The page at build path `page`, with the build's files it uses inlined."""
    html = drop_marked(html)
    # Inline elements stand as "\0<index>\0" until the end: they are kept out of the
    # link rewriting, and the megabytes of plotly.js are copied only once.
    inline: list[str] = []
    deferred: list[str] = []

    def script(match: re.Match) -> str:
        attributes = match.group(1) + match.group(3)
        path = _build_path(page, match.group(2), files)
        if path is None:
            return match.group(0)
        inline.append(f"<script>{_script_file(_read(files[path]))}</script>")
        if re.search(r"\b(defer|async)\b", attributes):
            deferred.append(f"\0{len(inline) - 1}\0")
            return ""
        return f"\0{len(inline) - 1}\0"

    def stylesheet(match: re.Match) -> str:
        tag = match.group(0)
        href = re.search(r'\bhref="([^"]*)"', tag)
        if not re.search(r'\brel="stylesheet"', tag) or not href:
            return tag
        path = _build_path(page, href.group(1), files)
        if path is None:
            return tag
        css = _inline_css_urls(_read(files[path]).decode("utf-8"), path, files)
        inline.append(f"<style>{style_text(css)}</style>")
        return f"\0{len(inline) - 1}\0"

    def keep(match: re.Match) -> str:
        inline.append(match.group(0))
        return f"\0{len(inline) - 1}\0"

    html = _SCRIPT.sub(script, html)
    html = _STYLESHEET.sub(stylesheet, html)
    # The page's own inline scripts and styles (data, JSON-LD) are text, not tags to rewrite.
    html = _INLINE.sub(keep, html)
    html = _TAG.sub(lambda m: _rewrite_tag(m.group(0), page, files, base_url), html)
    # A copy is for keeping, not for search results: the site's own page is the one to index.
    html = re.sub(r'<link rel="canonical" href="[^"]*">\n?', "", html)
    html = html.replace("</head>", '<meta name="robots" content="noindex">\n</head>', 1)
    html = _insert_before_body_end(html, "\n".join(deferred))
    return re.sub("\0(\\d+)\0", lambda m: inline[int(m.group(1))], html)


def script_text(js: str) -> str:
    """JavaScript that cannot end its inline <script> early, and holds no character
    HTML forbids. "</script" becomes "<\\/script", "<!--" becomes "\\x3C!--" and a
    control character becomes its \\u escape: the same text inside strings,
    template literals and regular expressions, the only places they can occur."""
    js = re.sub(r"</(script)", r"<\\/\1", js, flags=re.I)
    js = _FORBIDDEN.sub(lambda m: f"\\u{ord(m.group(0)):04X}", js)
    return js.replace("<!--", "\\x3C!--")


def _script_file(content: bytes) -> str:
    """script_text of a file, kept by its content: escaping plotly.js (1.4 MB)
    costs more than the rest of a copy. Kept in memory for the dev server's
    rebuilds and, for a large file, on disk for the next build (a smaller one
    costs less to escape than to read back); the key covers this module's
    source, so changed escaping rules never reuse old text."""
    return kept("scripts", digest(content, _SOURCE), lambda: script_text(content.decode("utf-8")),
                on_disk=len(content) >= 64 * 1024)


_SOURCE = Path(__file__).read_bytes()


def style_text(css: str) -> str:
    """CSS that cannot end its inline <style> early ("\\/" is "/" in CSS)."""
    return re.sub(r"</(style)", r"<\\/\1", css, flags=re.I)


def drop_marked(html: str) -> str:
    """Remove every element marked data-offline="omit", with its content."""
    start = 0
    while match := _OMIT.search(html, start):
        name, start = match.group(1).lower(), match.start()
        if name in _VOID:
            html = html[:match.start()] + html[match.end():]
            continue
        depth, position = 1, match.end()
        tags = re.compile(rf"<(/?){name}\b[^<>]*>", re.I)
        while depth:
            inner = tags.search(html, position)
            if inner is None:  # unclosed: drop to the end rather than keep half an element
                position = len(html)
                break
            depth += -1 if inner.group(1) else 1
            position = inner.end()
        html = html[:match.start()] + html[position:]
    return html


def data_uri(path: str, content: bytes) -> str:
    kind = mimetypes.guess_type(path)[0] or "application/octet-stream"
    return f"data:{kind};base64,{base64.b64encode(content).decode('ascii')}"


def _rewrite_tag(tag: str, page: str, files: Files, base_url: str) -> str:
    def attribute(match: re.Match) -> str:
        space, name, value = match.groups()
        if _is_absolute(value) or value.startswith("#") or not value:
            return match.group(0)
        path = _build_path(page, value, files)
        if path is not None and not path.endswith(".html"):
            return f'{space}{name}="{data_uri(path, _read(files[path]))}"'
        if base_url:
            return f'{space}{name}="{urljoin(base_url + page, value)}"'
        # A page of the site that is not beside this copy: the text stays, the link goes.
        return ""
    return _ATTRIBUTE.sub(attribute, tag)


def _build_path(page: str, reference: str, files: Files) -> str | None:
    """The build path a relative reference from `page` names, if the build has that file."""
    if _is_absolute(reference):
        return None
    parts = urlsplit(reference.replace("&amp;", "&"))
    if not parts.path:
        return None
    path = posixpath.normpath(posixpath.join(posixpath.dirname(page), parts.path))
    return path if path in files else None


def _inline_css_urls(css: str, css_path: str, files: Files) -> str:
    def url(match: re.Match) -> str:
        path = _build_path(css_path, match.group(2), files)
        return f'url("{data_uri(path, _read(files[path]))}")' if path else match.group(0)
    return _CSS_URL.sub(url, css)


def _insert_before_body_end(html: str, text: str) -> str:
    at = html.rfind("</body>")
    return html + text if at < 0 else html[:at] + text + "\n" + html[at:]


def _is_absolute(reference: str) -> bool:
    return bool(re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", reference)) or reference.startswith("//")


def _read(content: bytes | Path) -> bytes:
    return content.read_bytes() if isinstance(content, Path) else content
