"""Citations in an author's text, in Pandoc's syntax: `[@key]`, `[@a; @b]`, a
locator `[@key, §3.2]`, a prefix `[see @key]`, the year alone `[-@key]`, and a
narrative `@key` (with a locator, `@key [Table 3]`). Each renders author–year,
linked to its entry in the page's reference list. The entry is the citation's
card too, which the style sheet shows on hover and keyboard focus: the theme's
small script puts a copy of it beside each citation, since every citation
carrying its own in the markup cost more bytes than a page may have (without
scripts a citation is a plain link to the entry). The reference list itself is
made here, in one style, from what a page cites and lists as further reading.

Keys are found the same way when the site is loaded (load/syntax.py, which this
module reads them with too, and load/content.py), so an
unknown key is an error at its file and line, and an entry no page cites is a
warning, before anything is rendered."""
from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass

import markdown
from markdown.preprocessors import Preprocessor

from ..errors import MarkupError
from ..load.syntax import Citation, Cited, cited_keys, find_citations, prose_parts  # noqa: F401 (read at load too)
from .code import code_block

# --- The style: author–year ----------------------------------------------------------------------

class CitationStyle:
    """How the site's works are named: "Vaswani et al., 2017" in the text, with a
    letter after the year where two works would read the same (2019a, 2019b)."""

    def __init__(self, bibliography):
        self.bibliography = bibliography
        self.entries = bibliography.entries if bibliography else {}
        self._years = _years(self.entries)

    def authors(self, key: str) -> str:
        entry = self.entries[key]
        names = entry.surnames
        if len(names) == 1 and not entry.more_authors:
            return names[0]
        if len(names) == 2 and not entry.more_authors:
            return f"{names[0]} and {names[1]}"
        return f"{names[0]} et al."

    def year(self, key: str) -> str:
        return self._years[key]

    def entry(self, key: str, source: str):
        if key not in self.entries:
            if not self.entries:
                raise MarkupError(f"cites {key!r}, but the site has no bibliography (content/references.bib)", source)
            near = self.bibliography.closest(key)
            raise MarkupError(f"unknown citation key {key!r}" + (f" (did you mean {near!r}?)" if near else ""),
                              source)
        return self.entries[key]

    @functools.lru_cache(maxsize=1024)
    def entry_html(self, key: str) -> str:
        """A work as the reference list and the cards show it: authors (year), the title (linked
        to the entry's url, when it has one), the venue, its DOI and arXiv links."""
        entry = self.entries[key]
        title = html.escape(entry.title)
        title = f'<a href="{html.escape(entry.url)}">{title}</a>' if entry.url else title
        stop = "" if entry.title[-1:] in "?!." else "."
        venue = f" <i>{html.escape(entry.venue)}</i>." if entry.venue else ""
        shown = "".join(f' <a href="{html.escape(href)}">{html.escape(text)}</a>'
                        for text, href in links_of(entry) if href != entry.url)
        return f"{html.escape(_names(entry))} ({html.escape(self.year(key))}). {title}{stop}{venue}{shown}"


def _years(entries: dict) -> dict[str, str]:
    """Each entry's year as cited, lettered where authors and year would be the same."""
    groups: dict[tuple, list] = {}
    for entry in entries.values():
        first = entry.surnames[0] if entry.surnames else ""
        several = len(entry.surnames) > 2 or entry.more_authors
        names = (first, "et al.") if several else entry.surnames
        groups.setdefault((names, entry.year), []).append(entry)
    years = {}
    for group in groups.values():
        group.sort(key=lambda e: (e.title.lower(), e.key))
        for index, entry in enumerate(group):
            years[entry.key] = entry.year + (chr(ord("a") + index) if len(group) > 1 and index < 26 else "")
    return years


def _names(entry) -> str:
    names = list(entry.authors)
    if entry.more_authors:
        shown = ", ".join(names) + " et al."
    elif len(names) <= 2:
        shown = " and ".join(names)
    else:
        shown = ", ".join(names[:-1]) + " and " + names[-1]
    return f"{shown} ({entry.note})" if entry.note else shown


def links_of(entry) -> list[tuple[str, str]]:
    """(text, address) of the entry's links: its DOI and arXiv identifiers, else its URL."""
    links = []
    if entry.doi:
        links.append((f"doi:{entry.doi}", f"https://doi.org/{entry.doi}"))
    if entry.arxiv:
        links.append((f"arXiv:{entry.arxiv}", f"https://arxiv.org/abs/{entry.arxiv}"))
    if not links and entry.url:
        links.append((entry.url.split("://", 1)[-1].rstrip("/"), entry.url))
    return links


def anchor(key: str) -> str:
    """The id of an entry in a page's reference list."""
    return "ref-" + re.sub(r"[^\w:.-]", "-", key)


# --- A citation in HTML, and as plain text -------------------------------------------------------

def _parts(citation: Citation, style: CitationStyle) -> list[tuple[str, str, str, str]]:
    """(prefix, linked text, locator, key) of each work a citation names."""
    parts = []
    for item in citation.items:
        style.entry(item.key, citation.source)
        if citation.narrative:
            year = style.year(item.key) + (f", {item.locator}" if item.locator else "")
            parts.append(("", f"{style.authors(item.key)} ({year})", "", item.key))
        else:
            text = style.year(item.key) if item.year_only else f"{style.authors(item.key)}, {style.year(item.key)}"
            parts.append((item.prefix, text, item.locator, item.key))
    return parts


def citation_html(citation: Citation, style: CitationStyle) -> str:
    shown = []
    for prefix, text, locator, key in _parts(citation, style):
        cited = f'<span class="cite"><a href="#{anchor(key)}">{html.escape(text)}</a></span>'
        before, after = (f"{html.escape(prefix)} " if prefix else ""), (f", {html.escape(locator)}" if locator else "")
        shown.append(before + cited + after)
    return shown[0] if citation.narrative else "(" + "; ".join(shown) + ")"


def citation_text(citation: Citation, style: CitationStyle) -> str:
    """A citation as plain text, "(Vaswani et al., 2017, §3)": where a text is plain (a chart's summary)."""
    shown = [(f"{prefix} " if prefix else "") + text + (f", {locator}" if locator else "")
             for prefix, text, locator, _ in _parts(citation, style)]
    return shown[0] if citation.narrative else "(" + "; ".join(shown) + ")"


_CITED = re.compile(r'<span class="cite"><a href="[^"]*">(.*?)</a>(?:<span class="cite-card">.*?</span>)?</span>', re.S)


def without_cards(fragment: str) -> str:
    """An HTML fragment with each citation as the text it reads ("Vaswani et al., 2017"),
    without its link and any card a browser put beside it (for striptags, and a test's reading)."""
    return _CITED.sub(r"\1", fragment) if 'class="cite"' in fragment else fragment


def plain_citations(text: str, style: CitationStyle) -> str:
    """A plain text with its citations written out as text."""
    if "@" not in text:
        return text
    citations = find_citations(text, narrative=bool(style.entries))
    out, at = [], 0
    for citation in citations:
        out += [text[at:citation.start], citation_text(citation, style)]
        at = citation.start + len(citation.source)
    return "".join(out) + text[at:]


# --- The page's reference list ---------------------------------------------------------------------

@dataclass(frozen=True)
class ReferenceView:
    """One entry of a page's reference list, as the theme's template shows it."""
    key: str
    anchor: str              # its id, which citations link to
    cited_as: str            # "Vaswani et al., 2017"
    names: str               # every author
    year: str                # as published (a citation may add a letter: 2019a)
    title: str
    url: str                 # where the title links
    html: str                # the entry as the list and the cards show it
    bibtex: str              # the entry's BibTeX, as a block of code; "" for a page's own [[references]]


def reference_list(style: CitationStyle, keys) -> list[ReferenceView]:
    """The entries of `keys`, in author–year order."""
    views = [_view(style, key) for key in dict.fromkeys(keys) if key in style.entries]
    return sorted(views, key=lambda v: (v.cited_as.lower(), v.title.lower()))


def inline_reference(ref) -> ReferenceView:
    """A [[references]] table of a page's front matter, in the list's style (nothing cites it)."""
    title = html.escape(ref.title)
    title = f'<a href="{html.escape(ref.url)}">{title}</a>' if ref.url else title
    stop = "" if ref.title[-1:] in "?!." else "."
    return ReferenceView(key="", anchor="", cited_as="", names=ref.authors, year=str(ref.year), title=ref.title,
                         url=ref.url, html=f"{html.escape(ref.authors)} ({ref.year}). {title}{stop}", bibtex="")


@functools.lru_cache(maxsize=1024)
def _bibtex_block(bibtex: str) -> str:
    return code_block(bibtex, "bibtex")


def _view(style: CitationStyle, key: str) -> ReferenceView:
    entry = style.entries[key]
    links = links_of(entry)
    return ReferenceView(
        key=key, anchor=anchor(key), cited_as=f"{style.authors(key)}, {style.year(key)}", names=_names(entry),
        year=entry.year, title=entry.title, url=entry.url or (links[0][1] if links else ""),
        html=style.entry_html(key), bibtex=_bibtex_block(entry.bibtex),
    )


_CITED_LINK = re.compile(r'<span class="cite"><a href="#([^"]+)"')


def keys_in_html(fragment: str, style: CitationStyle) -> list[str]:
    """The keys of the entries an HTML fragment cites, in order: what its reference list holds."""
    keys = {anchor(key): key for key in style.entries}
    return [keys[found] for found in dict.fromkeys(_CITED_LINK.findall(fragment)) if found in keys]


# --- In Markdown ---------------------------------------------------------------------------------

class _CitationPreprocessor(Preprocessor):
    """After fenced code is put aside and math is rendered: each citation becomes HTML in
    Markdown's stash, and \\@ an at sign."""

    def __init__(self, md, style: CitationStyle):
        super().__init__(md)
        self.style = style

    def run(self, lines: list[str]) -> list[str]:
        text = "\n".join(lines)
        if "@" not in text:
            return lines
        out, at = [], 0
        for citation in find_citations(text, narrative=bool(self.style.entries)):
            out += [text[at:citation.start], self.md.htmlStash.store(citation_html(citation, self.style))]
            at = citation.start + len(citation.source)
        out.append(text[at:])
        return _unescaped_at("".join(out)).split("\n")


def _unescaped_at(text: str) -> str:
    return "".join(part if is_code else part.replace("\\@", "@") for is_code, part in prose_parts(text))


class CitationExtension(markdown.Extension):
    def __init__(self, style: CitationStyle):
        super().__init__()
        self.style = style

    def extendMarkdown(self, md):
        md.preprocessors.register(_CitationPreprocessor(md, self.style), "lensa_citations", 19)
