"""What a reader downloads to see an explainer: the page and the styles and
scripts it references, each gzipped as a server would send it."""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from .common import gz

# The states a page carries: an explainer's steps, or a game's rounds.
DATA_SCRIPT = re.compile(r'<script type="application/json" id="(?:explainer|game)-data">(.*?)</script>', re.S)


def measure(build_dir: Path, slugs: list[str]) -> dict:
    return {slug: page_bytes(build_dir / slug / "index.html") for slug in slugs}


def page_bytes(page: Path) -> dict:
    html = page.read_bytes()
    refs = _References()
    refs.feed(html.decode("utf-8"))
    match = DATA_SCRIPT.search(html.decode("utf-8"))
    data = match.group(1).encode("utf-8") if match else b""
    sizes = {"html": gz(html), "data": gz(data), "css": 0, "runtime": 0, "plotly": 0, "icon": 0}
    files = []
    for ref, kind in refs.found:
        path = (page.parent / ref.split("?")[0].split("#")[0]).resolve()
        size = gz(path.read_bytes())
        if kind == "script" and "plotly" in path.name:
            sizes["plotly"] += size
        else:
            sizes[{"style": "css", "icon": "icon"}.get(kind, "runtime")] += size
        files.append({"file": path.name, "gzip": size, "raw": path.stat().st_size})
    sizes["markup"] = sizes["html"] - sizes["data"]  # approximate: the two compress together
    sizes["own"] = sizes["html"] + sizes["css"] + sizes["runtime"] + sizes["icon"]
    sizes["total"] = sizes["own"] + sizes["plotly"]
    sizes["files"] = files
    sizes["html_raw"] = len(html)
    sizes["data_raw"] = len(data)
    return sizes


class _References(HTMLParser):
    """Stylesheets, scripts and the icon a page loads (all of them load on first view;
    a preloaded script is fetched with the page, whether or not it runs), and plotly.js,
    which a page holds in <template data-plotly> and fetches once it has loaded; but not
    other scripts inside a <template>, which the browser neither fetches nor runs (the
    figure kit's figure.js, run only when a reader asks for a figure)."""

    def __init__(self):
        super().__init__()
        self.found: list[tuple[str, str]] = []
        self._templates: list[bool] = []  # open <template>s: whether each holds plotly.js

    def handle_endtag(self, tag):
        if tag == "template" and self._templates:
            self._templates.pop()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "template":
            self._templates.append("data-plotly" in attrs)
        if self._templates:
            if self._templates[-1] and tag == "script" and attrs.get("src"):
                self.found.append((attrs["src"], "script"))
            return
        rel = (attrs.get("rel") or "").split()
        if tag == "link" and "stylesheet" in rel and attrs.get("href"):
            self.found.append((attrs["href"], "style"))
        elif tag == "link" and "preload" in rel and attrs.get("as") == "script" and attrs.get("href"):
            self.found.append((attrs["href"], "script"))
        elif tag == "link" and "icon" in rel and attrs.get("href") and not attrs["href"].startswith("data:"):
            self.found.append((attrs["href"], "icon"))
        elif tag == "script" and attrs.get("src"):
            self.found.append((attrs["src"], "script"))
