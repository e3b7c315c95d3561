"""`lensa proof`: every text a page shows, state after state, as plain text to read
through. The build renders a sentence for every state of every step, and a
reader may reach any of them; an author or reviewer proofreads them all here,
where a number that rounds badly or a "1 words" in one state out of forty
stands out as it never does in a browser.

Each page's kind says what its text is and in which order (PageKind.proof);
this module computes the pages' states as a build does (from the build cache
where it can), turns the HTML into plain text and writes it."""
from __future__ import annotations

import html.parser
from pathlib import Path

from ..cache.build import BuildCache
from ..compute.states import compute_site
from ..errors import ContentError, Problem, did_you_mean
from ..kinds import discover
from .leftovers import site_leftovers
from ..load.content import load_site
from ..render.extensions import plain_text_of
from ..render.prose import markdown_renderer, render_prose
from ..site import ProofSection, ProofText


def proofread(content_dir: Path, slugs: list[str], part: int | None = None, skip_repeats: bool = False,
              warnings: list[Problem] | None = None) -> list[str]:
    """The lines of the proof of the pages named by `slugs` (every page, if none), in
    the site's order; only step (or round) `part` of each, if given. With
    `skip_repeats`, a text that reads exactly as in an earlier state of its step
    is written as a pointer to that state."""
    site = load_site(content_dir, discover(), warnings)
    site.warnings += site_leftovers(site)  # as build() reads the site
    pages = _chosen(site, slugs, content_dir)
    site.pages = pages  # the states and text of these pages alone
    cache = BuildCache()
    cache.begin()
    computed = compute_site(site, cache=cache)
    texts = render_prose(site, computed, cache)
    to_html = markdown_renderer(cache, site)  # with the site's bibliography, for its citations
    cache.store()
    lines: list[str] = []
    for page in pages:
        sections = site.kind_of(page).proof(page, computed[page.slug], texts[page.slug], to_html)
        if part is not None:
            found = [s for s in sections if s.part == part]
            if not found:
                raise ContentError.one(page.path, f"{page.slug} has no step or round {part} "
                                                  f"(it has {_parts(sections)})")
            sections = found
        lines += _page_lines(page, sections, skip_repeats)
    return lines


def _chosen(site, slugs: list[str], content_dir: Path) -> list:
    by_slug = {page.slug: page for page in site.pages}
    unknown = [slug for slug in slugs if slug not in by_slug]
    if unknown:
        raise ContentError([Problem(content_dir, f"{slug!r} is not a page of the site{did_you_mean(slug, by_slug)} "
                                    f"(its pages: {', '.join(by_slug)})") for slug in unknown])
    wanted = set(slugs)
    return [page for page in site.pages if not wanted or page.slug in wanted]


def _parts(sections: list[ProofSection]) -> str:
    numbers = sorted({s.part for s in sections if s.part is not None})
    return f"{numbers[0]} to {numbers[-1]}" if numbers else "none"


def _page_lines(page, sections: list[ProofSection], skip_repeats: bool) -> list[str]:
    title = f"{page.title} ({page.slug})"
    lines = ["=" * len(title), title, "=" * len(title), ""]
    seen: dict[tuple[int | None, str, str], str] = {}  # (part, label, text) -> the state it was first in
    for section in sections:
        lines += [section.heading, "-" * len(section.heading)]
        for found in section.texts:
            text = plain_text(found.text) if found.html else found.text.strip()
            if not text:
                continue
            key = (section.part, found.label, text)
            if skip_repeats and section.state and key in seen:
                text = f"(as in {seen[key]})"
            elif section.state:
                seen.setdefault(key, section.state)
            if found.label and "\n" not in text:
                lines.append(f"{found.label}: {text}")
            else:
                lines += ([f"{found.label}:"] if found.label else []) + text.split("\n")
        lines.append("")
    return lines


# --- HTML as plain text ----------------------------------------------------------------------
_BLOCKS = {"p", "div", "section", "blockquote", "pre", "table", "tr", "ul", "ol", "dl", "dt", "dd",
           "h1", "h2", "h3", "h4", "h5", "h6", "figure", "figcaption", "details", "summary", "hr"}


_BREAK = "\ue003"  # where a <br> was (private use: never in a page's text)


class _TextParser(html.parser.HTMLParser):
    """HTML as a reader reads it: a paragraph, heading or list item a line each, list
    items marked (and indented when nested), table cells apart, scripts left out."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks: list[tuple[bool, str]] = []  # (a list item, its text)
        self.current: list[str] = []
        self.item = False              # the text being read is a list item's
        self.lists: list[list] = []    # for each open list: [ordered, items so far]
        self.skipping = 0              # inside <script> or <style>

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skipping += 1
        elif tag in ("ul", "ol"):
            self._end_block()
            self.lists.append([tag == "ol", 0])
        elif tag == "li":
            self._end_block()
            if self.lists:
                self.lists[-1][1] += 1
            ordered, done = self.lists[-1] if self.lists else (False, 1)
            self.current.append("  " * max(0, len(self.lists) - 1) + (f"{done}. " if ordered else "- "))
            self.item = True
        elif tag == "tr":  # a table's rows follow one another, as a list's items do
            self._end_block()
            self.item = True
        elif tag in ("td", "th"):
            if "".join(self.current).strip():
                self.current.append(" | ")
        elif tag == "br":
            self.current.append(_BREAK)
        elif tag in _BLOCKS and not self._only_marker():  # <li><p>: the paragraph is the item's text
            self._end_block()

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skipping = max(0, self.skipping - 1)
        elif tag in ("ul", "ol"):
            self._end_block()
            if self.lists:
                self.lists.pop()
        elif tag == "li" or tag in _BLOCKS:
            self._end_block()

    def _only_marker(self) -> bool:
        text = "".join(self.current).strip()
        return self.item and (text == "-" or text.endswith(".") and text[:-1].isdigit())

    def handle_data(self, data):
        if not self.skipping:
            self.current.append(data)

    def _end_block(self):
        text, item = "".join(self.current), self.item
        self.current, self.item = [], False
        indent = text[:len(text) - len(text.lstrip(" "))] if item else ""
        lines = [" ".join(line.split()) for line in text.split(_BREAK)]  # a line break in HTML is a space
        lines = [line for line in lines if line]
        if lines and not (item and len(lines) == 1 and (lines[0] == "-" or lines[0].rstrip(".").isdigit())):
            self.blocks.append((item, indent + "\n".join(lines)))


def plain_text(html_text: str) -> str:
    """HTML as plain text: one line per paragraph, heading or list item, with a blank
    line between paragraphs (not between the items of a list); math in its plain form
    (√d_k = 2), a citation as it reads."""
    parser = _TextParser()
    parser.feed(plain_text_of(html_text))
    parser.close()
    parser._end_block()
    out: list[str] = []
    after_item = False
    for item, text in parser.blocks:
        if out and not (item and after_item):
            out.append("")
        out.append(text)
        after_item = item
    return "\n".join(out)
