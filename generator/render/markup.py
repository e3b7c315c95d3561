"""What HTML an author's Markdown may hold. Prose is data: it may use HTML for
markup (<abbr>, <kbd>, <sup>, <span class="...">, <details>), but nothing that
runs code or brings in a page or a file of its own. The pages must work where an
LMS's sanitizer strips scripts, offline from disk, and without any request of
their own, so a script there would be a bug at best.

check_html() is run on the HTML every Markdown text becomes (prose.py), so what
a template printed and what Markdown made of a link are checked too. Values
printed into prose are text (escaped), never HTML; where the author put one
inside a tag (a link's address), the state's HTML is checked with it in.
"""
from __future__ import annotations

import hashlib
import re
from html.parser import HTMLParser
from pathlib import Path

# Elements that run code, load another document or restyle the whole page.
REFUSED_ELEMENTS = frozenset({"script", "style", "iframe", "frame", "frameset", "object", "embed", "applet",
                              "base", "link", "meta", "form", "portal"})
# Attributes that load a file from an address (the rest may hold text that only looks like one).
_LOADING = frozenset({"src", "srcset", "poster", "background", "data", "lowsrc", "dynsrc"})
_SCHEME = re.compile(r"^([a-z][a-z0-9+.-]*):")
_CONTROL = re.compile(r"[\x00-\x20\x7f]+")
_RASTER = re.compile(r"^data:image/(?:png|gif|jpeg|webp|avif)[;,]")
# These rules, as a part of the key of the HTML kept for a Markdown text (prose.py).
RULES = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]

WHY = ("prose is data: nothing in a page's text may run code or load a file (docs/authoring.md, HTML in prose)")


class UnsafeHtml(ValueError):
    """HTML that prose may not hold: `snippets` are what to look for in the source file,
    the likeliest first (the HTML is what Markdown and the parser made of it)."""

    def __init__(self, message: str, *snippets: str):
        super().__init__(message)
        self.snippets = tuple(s for s in snippets if s.strip())


def check_html(html: str) -> None:
    """Raise UnsafeHtml for the first element, attribute or address in `html` that runs
    code or loads a file: a refused element, an event handler (on...=), a javascript:,
    vbscript: or data: address (a raster image's data: aside), or a file loaded from
    another host (src="https://..."). Parsing costs far less than the Markdown
    conversion it follows (a few ms for every text of the bundled site)."""
    _Checker().read(html)


def in_tags(html: str, mark: str) -> bool:
    """Whether `mark` occurs inside a tag (its name, an attribute's name or value) rather
    than in text: there, a value printed into prose (prose.py) is checked once it is in."""
    if mark not in html:
        return False
    checker = _Checker(mark)
    checker.read(html)
    return checker.marked


class _Checker(HTMLParser):
    def __init__(self, mark: str | None = None):
        super().__init__(convert_charrefs=True)
        self.mark, self.marked = mark, False

    def read(self, html: str) -> None:
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if self.mark is not None:  # only looking for the mark
            self.marked = self.marked or self.mark in self.get_starttag_text()
            return
        if tag in REFUSED_ELEMENTS:
            raise UnsafeHtml(f"a <{tag}> element is not allowed in prose: {WHY}", f"<{tag}")
        for name, value in attrs:
            if name.startswith("on"):
                raise UnsafeHtml(f"the event handler {name}= (on <{tag}>) is not allowed in prose: {WHY}", f"{name}=",
                             name)
            if value:
                _check_address(tag, name, value)

    handle_startendtag = handle_starttag


def _check_address(tag: str, name: str, value: str) -> None:
    # As a browser reads an address: entities decoded (the parser did), spaces and
    # control characters dropped, any case.
    address = _CONTROL.sub("", value).lower()
    scheme = _SCHEME.match(address)
    shown = value if len(value) <= 60 else value[:57] + "..."
    if scheme and scheme.group(1) in ("javascript", "vbscript", "data") and not _RASTER.match(address):
        raise UnsafeHtml(f"the address {shown!r} ({name}= on <{tag}>) is not allowed in prose: {WHY}",
                         value[:24], value.partition(":")[2][:24], f"{scheme.group(1)}:")
    if name in _LOADING and (address.startswith("//") or (scheme and scheme.group(1) in ("http", "https"))):
        raise UnsafeHtml(f"<{tag} {name}={shown!r}> loads a file from another host, which a page never does "
                         f"(it must work offline and in an LMS): {WHY}", value[:24], f"{name}=")
