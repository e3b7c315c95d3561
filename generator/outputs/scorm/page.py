"""A page as a SCORM package carries it: the built page with its files kept
beside it (not inlined, as the single-file copy does), because a package
holds its files, and the manifest lists them.

What changes, and why:
- the files it uses (scripts, stylesheets, and what those stylesheets load)
  are found, so the package holds exactly those;
- links to other pages of the site are made absolute under base_url, or stop
  being links, as in the single-file copy: a package holds only its own pages,
  and the LMS, not a link, moves a learner from one to the next;
- every link that leaves the page opens a new tab: followed inside the LMS's
  frame, it would unload the page and end the learner's session;
- the Embed buttons and the "Save offline" link (data-offline="omit") are left
  out, and so is the canonical link;
- the bridge to the LMS (the theme's scorm.js) is loaded as a classic script
  before the first script of <head> (or at its end when it has none), so it runs
  before any of the page's own scripts, and a resumed place is in the address
  before they read it.
"""
from __future__ import annotations

import posixpath
import re
from urllib.parse import urlsplit

from ..offline import (CSS_URL, DATA_LINK, PARSED_TAGS, TAG_NAME, Attribute, Copy, Files, build_path, content_of,
                       is_absolute, plain_tag, stays)

_LINKS = {"a", "area"}
_PAGES = {".html", ".htm", ".xhtml", ""}
_NEW_TAB = ' target="_blank"'  # target=_blank implies rel=noopener in today's browsers


def package_page(html: str, page: str, files: Files, base_url: str, bridge: str) -> tuple[str, set[str]]:
    """The page at build path `page` as a package holds it, and the build paths of
    the files it needs. `bridge` is the markup that loads the LMS bridge.

    Raises BuildError, naming the page, for a reference to a file the build lacks."""
    walk = _PackagePage(html, page, files, base_url, bridge).walk()
    return walk.text(), walk.needed


class _PackagePage(Copy):
    # A package page also looks at <template> and at links that leave the page (for a new tab).
    plain_tag, parsed_tags = plain_tag("data:|#"), PARSED_TAGS | {"template"}

    def __init__(self, html: str, page: str, files: Files, base_url: str, bridge: str):
        super().__init__(html, page, files, base_url)
        self._bridge = bridge
        self.needed: set[str] = set()
        self._first_head_script: int | None = None
        self._templates = 0  # a script inside a <template> is never run: the bridge does not go there

    def _on_start(self, tag, attrs, closed):
        if tag == "template" and not closed:
            self._templates += 1
        elif tag == "script" and not self._templates and self._head_end is None and self._body_start is None \
                and self._first_head_script is None:
            self._first_head_script = self._at()
        super()._on_start(tag, attrs, closed)

    def _on_end(self, tag):
        if tag == "template" and self._templates:
            self._templates -= 1
        super()._on_end(tag)

    # Scripts and stylesheets stay files of the package.
    def _inline_script(self, text, attributes, values, at, closed):
        path = self._file(values["src"], text, at)
        if path is not None:
            self.needed.add(path)

    def _inline_stylesheet(self, text, attributes, href, at):
        path = self._file(href, text, at)
        if path is not None:
            self._need_stylesheet(path, at)

    def _need_stylesheet(self, path: str, at: int) -> None:
        if path in self.needed:
            return
        self.needed.add(path)
        for match in CSS_URL.finditer(content_of(self._files[path]).decode("utf-8")):
            reference = match.group(2)
            target = None if is_absolute(reference) else build_path(path, reference)
            if target is None:
                continue  # another site's file, or url(#filter)
            if target not in self._files:
                raise self._missing(f"{path} (url({reference}))", target, at)
            if target.endswith(".css"):
                self._need_stylesheet(target, at)
            else:
                self.needed.add(target)

    def _reference(self, attribute: Attribute, text: str, at: int) -> str | None:
        value = (attribute.value or "").strip()
        if not stays(value):
            path = build_path(self._page, value)
            if path in self._files and not path.endswith(".html"):
                self.needed.add(path)
                return None
        return super()._reference(attribute, text, at)

    def _rewrite_references(self, text: str, attributes: list[Attribute], at: int):
        edits = len(self._edits)
        super()._rewrite_references(text, attributes, at)
        name = TAG_NAME.match(text).group(0)[1:].lower()
        href = next((a.value for a in attributes if a.name == "href"), None)
        if name not in _LINKS or href is None or any(a.name == "target" for a in attributes):
            return
        if not self._leaves(href.strip()):
            return
        tag = self._edits.pop()[2] if len(self._edits) > edits else text
        self._edits.append((at, at + len(text), f"{tag[:len(name) + 1]}{_NEW_TAB}{tag[len(name) + 1:]}"))

    def _leaves(self, href: str) -> bool:
        """Whether following the link `href` would take the page's frame somewhere
        else: another site, or a page of the site (when it stays a link at all)."""
        if not href or href.startswith("#"):
            return False
        if is_absolute(href):
            return href.split(":", 1)[0].lower() in ("http", "https") or href.startswith("//")
        path = build_path(self._page, href)
        return bool(self._base_url) and path != self._page and posixpath.splitext(path or "")[1] in _PAGES

    def _page_address(self, reference: str) -> str:
        # A link to this very page stays on it: following it must not reload the page.
        if build_path(self._page, reference) == self._page:
            return "#" + urlsplit(reference).fragment
        return super()._page_address(reference)

    def _rewrite_data_links(self, data: str, at: int):
        """The prose of states the reader has not seen yet follows the page's own
        links: absolute or dropped, and a new tab for those that leave."""
        for match in DATA_LINK.finditer(data):
            value = match.group(1)
            if value.startswith("#") or not value:
                continue
            new = value
            if not is_absolute(value):
                path = build_path(self._page, value)
                if path is None or path in self._files and not path.endswith(".html"):
                    if path is not None:
                        self.needed.add(path)
                    continue
                new = self._page_address(value)
                if not new:
                    self._edits.append((at + match.start(), at + match.end(), ""))
                    continue
            opened = data.rfind("<", 0, match.start())
            targeted = "target=" in data[opened:match.start()] or \
                re.match(r'[^>]*?target=', data[match.end():match.end() + 200])
            tab = "" if targeted or not self._leaves(new) else 'target=\\"_blank\\" '
            if tab or new != value:
                self._edits.append((at + match.start(), at + match.end(), f'{tab}href=\\"{new}\\"'))

    def _on_finish(self):
        if self._head_end is None:
            raise self._fail(0, "the page has no </head> to load the LMS bridge in")
        # An insertion sorts before an edit of the script at the same place (text()).
        at = self._head_end if self._first_head_script is None else self._first_head_script
        self._edits.append((at, at, self._bridge + "\n"))
