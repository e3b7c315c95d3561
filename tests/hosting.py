"""Test helpers for a built site as hosts serve it: a local server that
publishes build folders under subpaths the way GitHub Pages does, and a
crawler that follows every link and loaded file over http:// or file://."""
from __future__ import annotations

import mimetypes
import re
import threading
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable
from urllib.parse import unquote, urldefrag, urljoin, urlsplit
from urllib.request import url2pathname

HOST = "127.0.0.1"


class PagesServer:
    """Serves build folders under subpaths ("/some-repo/" -> folder) like GitHub
    Pages: a folder's index.html for "dir/", a redirect for "dir", and the
    folder's own 404.html with status 404 for a missing path inside it. Every
    request outside a published subpath is answered 404 and remembered."""

    def __init__(self):
        self.sites: dict[str, Path] = {}
        self.requests: list[str] = []
        self.outside: list[str] = []
        self._httpd = ThreadingHTTPServer((HOST, 0), _handler(self))
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def origin(self) -> str:
        return f"http://{HOST}:{self._httpd.server_address[1]}"

    def publish(self, prefix: str, folder: Path) -> str:
        """Serve `folder` at "/prefix/"; returns the site's address."""
        self.sites[f"/{prefix.strip('/')}/"] = folder
        return f"{self.origin}/{prefix.strip('/')}/"

    def __enter__(self) -> "PagesServer":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()


def _handler(server: PagesServer):
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            self._serve(body=True)

        def do_HEAD(self):
            self._serve(body=False)

        def _serve(self, body: bool):
            path = unquote(urlsplit(self.path).path)
            server.requests.append(path)
            prefix = next((p for p in server.sites if path.startswith(p) or path == p.rstrip("/")), None)
            if prefix is None:
                server.outside.append(path)
                return self._send(404, b"not part of any published site", "text/plain", body)
            root = server.sites[prefix].resolve()
            target = (root / path[len(prefix):]).resolve()
            if root != target and root not in target.parents:
                return self._send(403, b"outside the site", "text/plain", body)
            if target.is_dir():
                if not path.endswith("/"):
                    self.send_response(301)
                    self.send_header("Location", path + "/")
                    self.end_headers()
                    return
                target = target / "index.html"
            if target.is_file():
                kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
                return self._send(200, target.read_bytes(), kind, body)
            return self._send(404, (root / "404.html").read_bytes(), "text/html", body)

        def _send(self, status: int, content: bytes, kind: str, body: bool):
            self.send_response(status)
            self.send_header("Content-Type", kind + ("; charset=utf-8" if kind.startswith("text/") else ""))
            self.send_header("Content-Length", str(len(content)))
            self.end_headers()
            if body:
                self.wfile.write(content)

        def log_message(self, *args):  # keep test output quiet
            pass

    return Handler


@dataclass
class Resource:
    url: str
    status: int
    content_type: str
    body: bytes


def fetch_http(url: str) -> Resource:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return Resource(response.url, response.status, response.headers.get_content_type(), response.read())
    except urllib.error.HTTPError as err:
        return Resource(url, err.code, err.headers.get_content_type(), err.read())


def fetch_file(url: str) -> Resource:
    """What a browser gets from file://: a file, or nothing (no index.html for
    folders, query strings ignored)."""
    path = Path(url2pathname(urlsplit(url).path))
    if not path.is_file():
        return Resource(url, 404, "", b"")
    kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return Resource(url, 200, kind, path.read_bytes())


# <link rel=...> values a browser loads; any other rel (canonical) only names an address.
_LOADED_RELS = {"stylesheet", "icon", "preload", "modulepreload", "manifest", "apple-touch-icon"}


class PageParser(HTMLParser):
    """The parts of a page a crawl checks: what it links to, what it loads,
    which ids it has, its <summary> texts and JSON-LD documents."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []      # addresses a reader can follow
        self.loads: list[str] = []      # addresses the browser fetches to show the page
        self.ids: set[str] = set()
        self.meta: dict[str, str] = {}  # name or property -> content
        self.canonical: str | None = None
        self.json_ld: list[str] = []
        self.summaries: list[str] = []
        self._capture: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("name"):
            self.ids.add(attrs["name"])
        href = attrs.get("href", attrs.get("xlink:href"))  # SVG 1.1 writes xlink:href
        if tag == "a" and href is not None:
            self.links.append(href)
        elif tag in ("image", "use", "feimage") and href:  # SVG: what the drawing loads
            self.loads.append(href)
        elif tag == "link" and attrs.get("href"):
            rels = set((attrs.get("rel") or "").lower().split())
            (self.loads if rels & _LOADED_RELS else self.links).append(attrs["href"])
            if "canonical" in rels:
                self.canonical = attrs["href"]
        elif tag in ("script", "img", "iframe", "source", "audio", "video", "embed") and attrs.get("src"):
            self.loads.append(attrs["src"])
        if tag == "img" and attrs.get("srcset"):
            self.loads += [part.split()[0] for part in attrs["srcset"].split(",") if part.strip()]
        if tag == "meta" and (attrs.get("property") or attrs.get("name")):
            self.meta[attrs.get("property") or attrs.get("name")] = attrs.get("content", "")
        if tag == "script" and attrs.get("type") == "application/ld+json":
            self._start("ld")
        elif tag == "summary":
            self._start("summary")

    def handle_endtag(self, tag):
        if self._capture == "ld" and tag == "script":
            self.json_ld.append("".join(self._text))
            self._capture = None
        elif self._capture == "summary" and tag == "summary":
            self.summaries.append(" ".join("".join(self._text).split()))
            self._capture = None

    def handle_data(self, data):
        if self._capture:
            self._text.append(data)

    def _start(self, what: str):
        self._capture, self._text = what, []


def parse_page(html: str) -> PageParser:
    parser = PageParser()
    parser.feed(html)
    parser.close()
    return parser


_CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)['"]?\s*\)|@import\s+['"]([^'"]+)['"]""")


@dataclass
class CrawlReport:
    pages: dict[str, PageParser] = field(default_factory=dict)  # address (no fragment) -> parsed page
    fetched: dict[str, int] = field(default_factory=dict)       # address -> status
    external_links: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)


def crawl(start: str, fetch: Callable[[str], Resource], inside: str) -> CrawlReport:
    """Follow every link, stylesheet, script and image from `start`, in pages and in
    SVG files alike. Problems:
    anything that does not load, a fragment with no matching id, an address
    outside `inside`, and any file loaded from another site."""
    report = CrawlReport()
    queue = [start]
    fragments: list[tuple[str, str, str]] = []  # (page, fragment, found on)
    while queue:
        url = queue.pop(0)
        if url in report.fetched:
            continue
        resource = fetch(url)
        report.fetched[url] = resource.status
        if resource.status != 200:
            continue
        if resource.content_type in ("text/html", "image/svg+xml"):  # a figure file links to its page
            page = parse_page(resource.body.decode("utf-8"))
            report.pages[url] = page
            references = [(ref, True) for ref in page.links] + [(ref, False) for ref in page.loads]
        elif resource.content_type == "text/css":
            css = resource.body.decode("utf-8")
            references = [(a or b, False) for a, b in _CSS_URL.findall(css)]
        else:
            continue
        for ref, followable in references:
            target = urljoin(url, ref)
            scheme = urlsplit(target).scheme
            if scheme in ("mailto", "data", "tel"):
                continue
            if not target.startswith(inside):
                if followable and scheme in ("http", "https") and urlsplit(target).netloc != urlsplit(inside).netloc:
                    report.external_links.add(target)
                elif followable or scheme in ("http", "https", "file"):
                    report.problems.append(f"{url}: {ref!r} leads outside the site ({target})")
                continue
            address, fragment = urldefrag(target)
            if fragment:
                fragments.append((address, fragment, url))
            if address not in report.fetched:
                queue.append(address)
    for address, status in report.fetched.items():
        if status != 200:
            report.problems.append(f"{address}: status {status}")
    for address, fragment, source in fragments:
        page = report.pages.get(address)
        target = link_target(unquote(fragment))
        if page is not None and target is not None and target not in page.ids:
            report.problems.append(f"{source}: links to #{fragment}, which {address} does not have")
    return report


def link_target(fragment: str) -> str | None:
    """The element a fragment scrolls to: the fragment itself, or in a deep link
    (docs/deep-links.md: "step-3&s3=head:2") its first item without "=" (None if it has none)."""
    if "&" not in fragment and "=" not in fragment:
        return fragment
    return next((item for item in fragment.split("&") if item and "=" not in item), None)


def build_with_base_url(content: Path, workdir: Path, base_url: str, themes: Path) -> Path:
    """Build a copy of `content` whose site.toml sets base_url (the original is never touched)."""
    import shutil

    from generator.build import build

    copy = workdir / "content"
    shutil.copytree(content, copy)
    config = copy / "site.toml"
    # Top-level keys must come before the first [table], so the line goes first.
    config.write_text(f"base_url = {base_url!r}\n" + config.read_text("utf-8"), "utf-8")
    out = workdir / "build"
    build(copy, out, themes)
    return out
