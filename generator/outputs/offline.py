"""Single-file copies: offline/<slug>.html is a page with every
file it uses inlined (plotly.js, CSS, the runtime, data, images), so a reader
can keep one file that works from any folder with no network.

The copy is made from the rendered page, not from a template of its own, so
it always shows exactly what the site shows. Inside it:
- scripts and stylesheets of the build become inline <script> and <style>
  (deferred scripts move to the end of <body>, where they run in the same order);
- a script the page preloads to run later (plotly.js, which runtime.js runs when a
  chart needs it) becomes its text in a <script type="text/plain"> that does not
  run, keeping the preload's other attributes, for the page's script to run;
- any other file of the build it refers to (an image, a font) becomes a data: URI;
- links to other pages of the site point at base_url when there is one, and
  otherwise stop being links, because those pages are not beside the copy;
- elements marked data-offline="omit" (the Embed buttons, the link to this very
  copy) are left out, and so is the canonical link: search engines should index
  the site's page, not a copy of it (the copy says noindex).

The page is read with the standard library's HTML parser, so a theme may quote
its attributes any way HTML allows; every byte the copy does not change is the
page's own. A reference to a file the build lacks, or markup the parser cannot
read, stops the build with one line naming the page, rather than making a copy
that is quietly broken.

What a SCORM package's copy of a page (outputs/scorm/page.py) builds on is public
here: the walk over a page (`Copy`, its `Attribute`s, `PARSED_TAGS`, `TAG_NAME`,
`plain_tag`), the patterns of what a page refers to (`CSS_URL`, `DATA_LINK`), how a
reference reads (`build_path`, `stays`, `is_absolute`) and a build file's bytes
(`Files`, `content_of`).
"""
from __future__ import annotations

import base64
import mimetypes
import posixpath
import re
from dataclasses import dataclass
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from ..cache.build import BuildCache
from ..cache.disk import digest, kept
from ..errors import BuildError
from ..site import Site

# One attribute in the text of a start tag, as HTML reads it: a name, then
# optionally "=" and a value, double-quoted, single-quoted or bare.
_ATTRIBUTE = re.compile(r"""(?P<space>[\s/]*)(?P<name>[^\s/>][^\s/=>]*)"""
                        r"""(?:\s*=\s*(?P<value>"[^"]*"|'[^']*'|[^\s>]*))?""")
TAG_NAME = re.compile(r"<[a-zA-Z][^\t\n\r\f />\x00]*")
_TAG_END = re.compile(r"[\s/]*>")
CSS_URL = re.compile(r"""url\(\s*(['"]?)([^'")]+)\1\s*\)""")
# Characters an HTML document may not contain (controls other than whitespace,
# and the BMP's noncharacters); minified libraries keep some raw inside strings.
_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff]")
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# Elements whose content is text, not markup: a "<" inside them starts no tag.
_TEXT_ELEMENTS = {"script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript",
                  "plaintext"}
_REFERENCES = {"href", "src"}
# What an inlined script or stylesheet keeps of its element: nothing that fetches the file
# or only makes sense for a fetched one.
_SCRIPT_DROPS = {"src", "defer", "async", "integrity", "crossorigin", "referrerpolicy", "fetchpriority",
                 "charset", "blocking"}
_STYLE_KEEPS = {"media", "title", "id", "nonce"}
# What a preloaded script's inert copy drops of its <link>: what fetches the file.
_PRELOAD_DROPS = {"rel", "href", "as", "type", "fetchpriority", "crossorigin", "integrity", "referrerpolicy",
                  "media", "blocking", "imagesrcset", "imagesizes"}
_PAGE_SUFFIXES = {"", ".html", ".htm", ".xhtml"}
# A link in a page's JSON data (prose HTML inside a JSON string): href=\"...\".
DATA_LINK = re.compile(r'href=\\"([^"\\]*)\\"')
# A start tag that a walk neither changes nor looks into (most tags of a page: the
# cells of a data table, the shapes of a drawing): a simple name, attributes with
# double-quoted values or none, none marked data-offline, and any href or src one the
# walk keeps as it is (for a copy: an address with a scheme, a data: URI, a fragment).
# The parser's own reading of a tag's attributes (an expression and an unescape per
# attribute) is most of what a copy costs; a tag that matches is read with one
# expression instead, and any other tag, however unusual, goes through the parser.
def plain_tag(kept_references: str) -> re.Pattern:
    """The expression of a plain start tag whose href and src values start as `kept_references` says."""
    return re.compile(r"""<(?P<name>[a-zA-Z][a-zA-Z0-9-]*)(?:\s+(?:"""
                      rf"""(?:href|src)="(?:{kept_references})[^"]*\""""
                      r"""|(?!(?:href|src|data-offline)[\s=/>])[a-zA-Z_:][-a-zA-Z0-9_:.]*(?:="[^"]*")?))*"""
                      r"""\s*(?P<closed>/?)>""", re.I)


_PLAIN_TAG = plain_tag("[a-zA-Z][a-zA-Z0-9+.-]*:|#")
# Tags that always go through the parser: those a copy edits, and those that change how
# the parser reads what follows (text elements; svg and math, whose content newer
# parsers read as foreign content).
PARSED_TAGS = frozenset(_TEXT_ELEMENTS | {"script", "link", "body", "svg", "math"})

Files = dict[str, "bytes | Path"]


def render_offline(site: Site, pages: list, files: Files, theme=None, assets: dict[str, str] | None = None,
                   cache: BuildCache | None = None) -> Files:
    """The single-file copy of every page that asks for one (Page.offline_copy),
    made from that page among `files`. With a cache (and the theme and asset
    names its key is made of), an unchanged page's copy is reused."""
    sources = {source.slug: source for source in site.pages}
    scripts = cache.memo("scripts", limit=16) if cache else None
    inlined: dict[str, str] = {}  # every copy inlines the same scripts: each is read and escaped once
    copies: Files = {}
    for page in pages:
        if not page.offline_copy:
            continue

        def make(path=page.path) -> bytes:
            html = content_of(files[path]).decode("utf-8")
            return single_file(html, path, files, site.config.base_url, scripts, inlined).encode("utf-8")

        source = sources.get(page.source)
        copies[page.offline_copy] = cache.page(source, site, theme, assets, kind="offline", make=make) \
            if cache and source else make()
    return copies


def single_file(html: str, page: str, files: Files, base_url: str = "", scripts: dict | None = None,
                inlined: dict[str, str] | None = None) -> str:
    """The page at build path `page`, with the build's files it uses inlined.

    Raises BuildError, naming the page, for a reference to a file the build
    lacks and for markup the parser cannot read. `scripts` (a build cache table)
    keeps escaped scripts in memory for the next copy; `inlined` keeps them by
    build path, for the copies made from the same `files`."""
    return Copy(html, page, files, base_url, scripts, inlined).walk().text()


def script_text(js: str) -> str:
    """JavaScript that cannot end its inline <script> early, and holds no character
    HTML forbids. "</script" becomes "<\\/script", "<!--" becomes "\\x3C!--" and a
    control character becomes its \\u escape: the same text inside strings,
    template literals and regular expressions, the only places they can occur."""
    js = re.sub(r"</(script)", r"<\\/\1", js, flags=re.I)
    js = _FORBIDDEN.sub(lambda m: f"\\u{ord(m.group(0)):04X}", js)
    return js.replace("<!--", "\\x3C!--")


def _script_file(content: bytes, memory: dict | None = None) -> str:
    """script_text of a file, kept by its content: escaping plotly.js (1.4 MB)
    costs more than the rest of a copy. Kept in memory for the dev server's
    rebuilds and, for a large file, on disk for the next build (a smaller one
    costs less to escape than to read back); the key covers this module's
    source, so changed escaping rules never reuse old text."""
    return kept("scripts", digest(content, _SOURCE), lambda: script_text(content.decode("utf-8")), memory,
                on_disk=len(content) >= 64 * 1024)


_SOURCE = Path(__file__).read_bytes()


def style_text(css: str) -> str:
    """CSS that cannot end its inline <style> early ("\\/" is "/" in CSS)."""
    return re.sub(r"</(style)", r"<\\/\1", css, flags=re.I)


def drop_marked(html: str, page: str = "the page") -> str:
    """Remove every element marked data-offline="omit", with its content."""
    return _Walk(html, page).walk().text()


def data_uri(path: str, content: bytes) -> str:
    kind = mimetypes.guess_type(path)[0] or "application/octet-stream"
    return f"data:{kind};base64,{base64.b64encode(content).decode('ascii')}"


# Attributes that HTML allows on <a> and <area> only together with an href.
_LINK_ONLY = frozenset({"rel", "target", "download", "hreflang", "type", "ping", "referrerpolicy"})


@dataclass(frozen=True)
class Attribute:
    """One attribute of a start tag, and where it stands in the tag's text."""

    name: str           # lowercase, as the parser reports it
    value: str | None   # with its character references resolved; None when it has no "="
    raw: str            # the value as written, without its quotes
    start: int          # where the space before it starts,
    begin: int          # where its name starts,
    end: int            # and where it ends

    def written_name(self, tag: str) -> str:
        return tag[self.begin:self.begin + len(self.name)]


class _Walk(HTMLParser):
    """One pass over a page that collects edits, (start, end, new text) spans of
    the page's text; everything between them is kept byte for byte. This base
    leaves out the elements marked data-offline="omit"; Copy makes the copy."""

    def __init__(self, html: str, page: str):
        super().__init__(convert_charrefs=True)
        self._source, self._page = html, page
        self._edits: list[tuple[int, int, str]] = []
        self._lines = [0] + [match.end() for match in re.finditer("\n", html)]
        self._text_of: str | None = None     # the open element whose content is text
        self._marked: list | None = None     # [name, depth, start] while inside a marked element

    def walk(self) -> "_Walk":
        self.feed(self._source)
        self.close()
        # A tag the page leaves open at its end: older parsers hand it on as text
        # (handle_data fails then), newer ones drop it; either way the page is broken.
        end = self._source.rfind(">") + 1
        if self._text_of is None and (opened := re.search(r"<[a-zA-Z!/?]", self._source[end:])):
            self._unreadable(end + opened.start())
        if self._marked:
            raise self._fail(self._marked[2], f"the marked <{self._marked[0]}> element is never closed")
        self._on_finish()
        return self

    def text(self) -> str:
        pieces, at = [], 0
        # By start, an insertion before an edit at the same place; sorted() keeps the order
        # in which insertions at one place came.
        for start, end, text in sorted(self._edits, key=lambda edit: edit[:2]):
            pieces += (self._source[at:start], text)
            at = end
        pieces.append(self._source[at:])
        return "".join(pieces)

    # What Copy adds: called for the tags outside marked elements, and once at the end.
    def _on_start(self, tag: str, attrs: list, closed: bool) -> None:
        pass

    def _on_end(self, tag: str) -> None:
        pass

    def _on_finish(self) -> None:
        pass

    # What this walk may read without the parser's attribute loop: a subclass that looks
    # at more tags or references narrows them.
    plain_tag, parsed_tags = _PLAIN_TAG, PARSED_TAGS

    def parse_starttag(self, i):
        plain = self.plain_tag.match(self.rawdata, i)
        tag = plain.group("name").lower() if plain else None
        if tag is None or tag in self.parsed_tags:
            return super().parse_starttag(i)
        self.lasttag = tag
        if self._marked and tag == self._marked[0] and not plain.group("closed"):
            self._marked[1] += 1  # all that _start does with a tag neither marked nor edited
        return plain.end()

    def handle_starttag(self, tag, attrs):
        self._start(tag, attrs, False)

    def handle_startendtag(self, tag, attrs):
        self._start(tag, attrs, True)

    def _start(self, tag: str, attrs: list, closed: bool) -> None:
        if tag in _TEXT_ELEMENTS and not closed:
            self._text_of = tag
        if self._marked:
            if tag == self._marked[0] and not closed:
                self._marked[1] += 1
        elif ("data-offline", "omit") in attrs:
            at = self._at()
            if closed or tag in _VOID:
                self._edits.append((at, at + len(self.get_starttag_text()), ""))
            else:
                self._marked = [tag, 1, at]
        else:
            self._on_start(tag, attrs, closed)

    def handle_endtag(self, tag):
        if tag == self._text_of:
            self._text_of = None
        if not self._marked:
            self._on_end(tag)
        elif tag == self._marked[0]:
            self._marked[1] -= 1
            if not self._marked[1]:
                self._edits.append((self._marked[2], self._end_tag_end(), ""))
                self._marked = None

    def handle_data(self, data):
        # The parser hands on, as text, a "<" it could not read as a tag or a comment
        # (one left open at the end of the page): the copy would not be what the site shows.
        if data[:1] == "<" and self._text_of is None:
            at = self._at()
            if re.match(r"<[a-zA-Z!/?]", self._source[at:at + 2]):
                self._unreadable(at)

    def handle_comment(self, data):
        # Newer parsers read a comment that is never closed to the end of the page.
        at = self._at()
        if self._source.startswith("<!--", at) and at + 4 + len(data) == len(self._source):
            self._unreadable(at)

    def _unreadable(self, at: int):
        raise self._fail(at, f"cannot read the markup {_shown(self._source[at:at + 60])}")

    def _at(self) -> int:
        """Where in the page the construct being handled starts."""
        line, column = self.getpos()
        return self._lines[line - 1] + column

    def _end_tag_end(self) -> int:
        """Where the end tag being handled ends."""
        end = self._source.find(">", self._at())
        return len(self._source) if end < 0 else end + 1

    def _fail(self, at: int, message: str) -> BuildError:
        line = self._source.count("\n", 0, at) + 1
        return BuildError(f"{self._page}:{line}: single-file copy: {message}")

    def _attributes(self, tag: str, attrs: list, at: int) -> list[Attribute]:
        """The attributes of the start tag `tag` (its text), where they are in it: read
        again with HTML's rules, and checked against what the parser read."""
        found, position = [], TAG_NAME.match(tag).end()
        while match := _ATTRIBUTE.match(tag, position):
            written = match.group("value")
            quoted = written is not None and len(written) > 1 and written[0] == written[-1] and written[0] in "\"'"
            raw = written[1:-1] if quoted else written
            found.append(Attribute(match.group("name").lower(), None if written is None else unescape(raw),
                                    raw or "", match.start(), match.start("name"), match.end()))
            position = match.end()
        if [(a.name, a.value) for a in found] != attrs or not _TAG_END.fullmatch(tag, position):
            raise self._fail(at, f"cannot read the attributes of {_shown(tag)}")
        return found


class Copy(_Walk):
    """The single-file copy of a page: build files inlined, links to the site
    rewritten, the canonical link dropped, noindex added."""

    def __init__(self, html: str, page: str, files: Files, base_url: str, scripts: dict | None = None,
                 inlined: dict[str, str] | None = None):
        super().__init__(html, page)
        self._files, self._base_url, self._scripts = files, base_url, scripts
        self._inlined = {} if inlined is None else inlined
        # Inline elements are edits, so the parser never walks the megabytes of plotly.js,
        # and text() copies them only once.
        self._deferred: list[str] = []
        self._script: tuple[int, str, bool] | None = None  # a <script src> until its </script>
        self._head_end = self._body_start = self._body_end = None
        self._in_data = False  # inside a <script type="application/json">

    def _on_start(self, tag, attrs, closed):
        if tag not in ("script", "link", "body") and not any(name in _REFERENCES for name, _ in attrs):
            return  # most tags: nothing to look at
        at = self._at()
        text = self.get_starttag_text()
        attributes = self._attributes(text, attrs, at)
        values = {a.name: a.value for a in reversed(attributes)}  # the first of a repeated name counts
        rel = (values.get("rel") or "").lower().split()
        if tag == "body" and self._body_start is None:
            self._body_start = at
        if tag == "script" and (values.get("type") or "").strip().lower() == "application/json":
            self._in_data = True
        if tag == "script" and (values.get("src") or "").strip():
            self._inline_script(text, attributes, values, at, closed)
        elif tag == "link" and "canonical" in rel:
            # A copy is for keeping, not for search results: the site's own page is the one to index.
            end = at + len(text)
            self._edits.append((at, end + 1 if self._source.startswith("\n", end) else end, ""))
        elif tag == "link" and "stylesheet" in rel and "alternate" not in rel and (values.get("href") or "").strip():
            self._inline_stylesheet(text, attributes, values["href"], at)
        elif tag == "link" and "preload" in rel and (values.get("as") or "").strip().lower() == "script" \
                and (values.get("href") or "").strip():
            self._inline_preload(text, attributes, values["href"], at)
        else:
            self._rewrite_references(text, attributes, at)

    def handle_data(self, data):
        super().handle_data(data)
        if self._in_data and not self._marked:
            self._rewrite_data_links(data, self._at())

    def _rewrite_data_links(self, data: str, at: int):
        """The links in a page's JSON data (the prose of states the reader has not
        seen yet) follow the page's own: absolute under base_url, or dropped."""
        for match in DATA_LINK.finditer(data):
            value = match.group(1)
            if stays(value):
                continue
            path = build_path(self._page, value)
            if path is None or path in self._files and not path.endswith(".html") or \
                    posixpath.splitext(path)[1] not in _PAGE_SUFFIXES:
                continue  # a file, not a page: left as it is
            address = self._page_address(value)
            self._edits.append((at + match.start(), at + match.end(), f'href=\\"{address}\\"' if address else ""))

    def _on_end(self, tag):
        if tag == "script":
            self._in_data = False
        if tag == "script" and self._script:
            start, script, deferred = self._script
            self._script = None
            if deferred:
                self._deferred.append(script)
            self._edits.append((start, self._end_tag_end(), "" if deferred else script))
        elif tag == "head" and self._head_end is None:
            self._head_end = self._at()
        elif tag == "body":
            self._body_end = self._at()

    def _on_finish(self):
        if self._script:
            raise self._fail(self._script[0], "a <script src> element is never closed")
        noindex = self._head_end if self._head_end is not None else self._body_start
        if noindex is None:
            raise self._fail(0, "the page has no </head> or <body> to put noindex before")
        self._edits.append((noindex, noindex, '<meta name="robots" content="noindex">\n'))
        # Deferred scripts go last, where they run in the order they had; one edit each, so
        # text() is the only copy of them (edits at one place keep the order they came in).
        at = len(self._source) if self._body_end is None else self._body_end
        pieces = [piece for script in self._deferred for piece in ("\n", script)][1:]
        if pieces and self._body_end is not None:
            pieces.append("\n")
        self._edits += [(at, at, piece) for piece in pieces]

    def _inline_script(self, text: str, attributes: list[Attribute], values: dict, at: int, closed: bool):
        path = self._file(values["src"], text, at)
        if path is None:
            return
        if closed:  # HTML ignores "/>" here, and reads the rest of the page as the script
            raise self._fail(at, f"{_shown(text)} needs its </script> (\"/>\" does not close a script)")
        kept_attributes = "".join(f" {text[a.begin:a.end]}" for a in attributes if a.name not in _SCRIPT_DROPS)
        script = f"<script{kept_attributes}>{self._script_text(path)}</script>"
        deferred = "defer" in values or "async" in values or (values.get("type") or "").strip().lower() == "module"
        self._script = (at, script, deferred)

    def _inline_preload(self, text: str, attributes: list[Attribute], href: str, at: int):
        path = self._file(href, text, at)
        if path is None:
            return  # a file of another site: the copy preloads it as the page does
        kept_attributes = "".join(f" {text[a.begin:a.end]}" for a in attributes if a.name not in _PRELOAD_DROPS)
        script = self._script_text(path)
        self._edits.append((at, at + len(text), f'<script type="text/plain"{kept_attributes}>{script}</script>'))

    def _script_text(self, path: str) -> str:
        found = self._inlined.get(path)
        if found is None:
            found = self._inlined[path] = _script_file(content_of(self._files[path]), self._scripts)
        return found

    def _inline_stylesheet(self, text: str, attributes: list[Attribute], href: str, at: int):
        path = self._file(href, text, at)
        if path is None:
            return
        css = self._inline_css_urls(content_of(self._files[path]).decode("utf-8"), path, at)
        kept_attributes = "".join(f" {text[a.begin:a.end]}" for a in attributes if a.name in _STYLE_KEEPS)
        self._edits.append((at, at + len(text), f"<style{kept_attributes}>{style_text(css)}</style>"))

    def _rewrite_references(self, text: str, attributes: list[Attribute], at: int):
        values = {id(a): self._reference(a, text, at) for a in attributes if a.name in _REFERENCES}
        # A link to a page that is not beside the copy loses its href: the attributes that
        # only mean something on a link (rel="next", download...) go with it, as HTML asks.
        unlinked = any(values.get(id(a)) == "" for a in attributes if a.name == "href")
        pieces, last = [], 0
        for attribute in attributes:
            value = values.get(id(attribute))
            if value is None and not (unlinked and attribute.name in _LINK_ONLY):
                continue
            if value:
                pieces += (text[last:attribute.begin], f'{attribute.written_name(text)}="{value}"')
            else:  # a page of the site that is not beside this copy: the text stays, the link goes
                pieces.append(text[last:attribute.start])
            last = attribute.end
        if pieces:
            self._edits.append((at, at + len(text), "".join(pieces) + text[last:]))

    def _reference(self, attribute: Attribute, text: str, at: int) -> str | None:
        """The new value of an href or src: a data: URI for a file of the build, an
        address under base_url for a page of the site, "" to drop it, None to keep it."""
        value = (attribute.value or "").strip()  # browsers ignore the spaces around an address
        if stays(value):
            return None
        path = build_path(self._page, value)
        if path in self._files and not path.endswith(".html"):
            return data_uri(path, content_of(self._files[path]))
        if path is not None and path not in self._files and posixpath.splitext(path)[1] not in _PAGE_SUFFIXES:
            raise self._missing(text, path, at)
        return self._page_address(attribute.raw.strip()).replace('"', "&quot;")

    def _page_address(self, reference: str) -> str:
        """Where a link to a page of the site goes from a copy: its address under
        base_url, or "" (no link) when the site has none."""
        return urljoin(self._base_url + self._page, reference) if self._base_url else ""

    def _file(self, reference: str, text: str, at: int) -> str | None:
        """The file of the build a script or stylesheet names; None for one on another site."""
        reference = reference.strip()
        if is_absolute(reference):
            return None
        path = build_path(self._page, reference)
        if path not in self._files:
            raise self._missing(text, path or reference, at)
        return path

    def _inline_css_urls(self, css: str, css_path: str, at: int) -> str:
        def url(match: re.Match) -> str:
            reference = match.group(2)
            if is_absolute(reference):
                return match.group(0)
            path = build_path(css_path, reference)
            if path is None:  # url(#filter)
                return match.group(0)
            if path not in self._files:
                raise self._missing(f"{css_path} (url({reference}))", path, at)
            return f'url("{data_uri(path, content_of(self._files[path]))}")'
        return CSS_URL.sub(url, css)

    def _missing(self, where: str, path: str, at: int) -> BuildError:
        return self._fail(at, f"{_shown(where)} refers to {path}, which is not in the build")


def build_path(page: str, reference: str) -> str | None:
    """The build path a relative reference from `page` names (None when it names no file)."""
    path = urlsplit(reference).path
    if not path:
        return None
    return posixpath.normpath(posixpath.join(posixpath.dirname(page), path))


def stays(reference: str) -> bool:
    """A reference a copy keeps as it is: none, within the page, or to another site."""
    return not reference or reference.startswith("#") or is_absolute(reference)


def is_absolute(reference: str) -> bool:
    return bool(re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", reference)) or reference.startswith("//")


def _shown(text: str) -> str:
    """Markup for a one-line message: whitespace collapsed, and cut short."""
    text = " ".join(text.split())
    return text if len(text) <= 80 else text[:77] + "..."


def content_of(content: bytes | Path) -> bytes:
    return content.read_bytes() if isinstance(content, Path) else content
