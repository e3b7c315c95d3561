"""The types every stage shares: the site and its config, a content page's
source and the interface of its kind, a rendered page, and the context pages
are rendered in.

This module imports no stage (load, compute, render, outputs, kinds) and no cache,
so every stage can import it and the import graph has no circle
(tests/generator/test_imports.py). Fields whose classes a stage defines (a theme,
the schema's records, the cache) say which in a comment.
"""
from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, ClassVar

from .errors import Problem

DEFAULT_KIND = "explainer"  # the kind of a content folder whose main file names none

# The names the build writes at its root (render/urls.py says where everything sits).
EMBED_DIR = "embed"
OFFLINE_DIR = "offline"
ASSETS_DIR = "assets"
FIGURES_DIR = "figures"
INDEX = "index.html"
NOT_FOUND = "404.html"
SITEMAP = "sitemap.xml"
ROBOTS = "robots.txt"
NO_JEKYLL = ".nojekyll"

# Everything a build writes at its root beside the pages' own folders, named once: a page's
# slug may be none of them (load/schema.py's check_slug, for the build and for `new`), or
# its folder would share paths with them (an explainer "offline" and an "index" would
# both write offline/index.html).
ROOT_FOLDERS = (ASSETS_DIR, EMBED_DIR, FIGURES_DIR, OFFLINE_DIR)
ROOT_NAMES = ROOT_FOLDERS + (INDEX, NOT_FOUND, SITEMAP, ROBOTS, NO_JEKYLL)


@dataclass(frozen=True)
class SiteConfig:
    """site.toml, validated against load/schema.py's SITE table."""
    path: Path
    title: str
    description: str
    language: str
    theme: str
    base_url: str
    max_states: int
    labels: dict
    series: tuple     # SeriesEntry records (load/content.py), in reading order
    extra: tuple      # the same, for pages beside the series
    play: str = ""    # the page the explainers' "Play with this concept" box links to
    licence: str = ""  # the reuse terms every figure's source line ends with
    bibliography: str = "references.bib"  # the BibTeX file in content/ that pages cite
    mastery_score: int = 80  # percent of a page's questions to answer right to pass (SCORM)
    time_limit: float = 30  # seconds one call of model code may run


@dataclass
class Site:
    root: Path
    config: SiteConfig
    pages: list            # PageSource of every kind, in series order
    warnings: list[Problem] = field(default_factory=list)
    bibliography: Any = None   # load/bibliography.py's Bibliography, or None: the site has no .bib file
    # name -> PageKind: the registry the build owns (kinds.discover()) and passes down with the
    # site, so that no stage imports kinds/ to reach a page's kind.
    kinds: dict = field(default_factory=dict, repr=False)

    def kind_of(self, source: PageSource) -> PageKind:
        return self.kinds[source.kind]


@dataclass
class PageSource:
    """What every kind's content has, and all that the stages outside the kind
    read: the series navigation, the index, the sitemap and the cache."""
    kind: str
    path: Path          # the content folder
    slug: str
    title: str
    subtitle: str
    description: str
    updated: _dt.date
    related: list[str] = field(default_factory=list)
    references: list = field(default_factory=list)   # Reference records (load/content.py)
    further_reading: list[str] = field(default_factory=list)  # keys of the bibliography it lists uncited
    cites: list[str] = field(default_factory=list)   # keys its texts cite, in order (filled in when loaded)


class PageKind:
    """The interface of a kind. Subclasses set the class attributes and
    implement the methods; nothing else about them is assumed."""

    name: ClassVar[str]        # the `kind` key's value, e.g. "explainer"
    main_file: ClassVar[str]   # the folder's main file, e.g. "explainer.md"
    model_file: ClassVar[str | None] = "model.py"  # the author's numpy code, if the kind has one
    runtime: ClassVar[str]     # the script under the theme's static/ that drives its pages
    schema: ClassVar[dict]     # {file description: option table}, for the field reference

    def load(self, folder: Path, warnings: list) -> PageSource:
        """Read and validate the folder; raise ContentError with every problem."""
        raise NotImplementedError

    def declarations(self, source: PageSource) -> str:
        """Everything besides the model's files that computing the states reads (a cache key part)."""
        raise NotImplementedError

    def content_files(self, source: PageSource) -> list[Path]:
        """The Markdown files the kind reads as the page's content: what computing the states reads
        of them is in declarations(), so the rest (their prose) is no input of the states. Every
        other file of the folder is (a Markdown table the model reads as much as its data.json)."""
        return [source.path / self.main_file]

    def compute(self, source: PageSource, model: Any, config, memo) -> Any:
        """Every state of the page, each with its key and where each control leads."""
        raise NotImplementedError

    def adopt(self, computed: Any, source: PageSource) -> Any:
        """States computed by an earlier build, attached to this build's source (its prose may be new)."""
        return computed

    def warnings(self, computed: Any) -> list:
        """Problems found while computing (or kept with reused states) that do not stop
        the build: reported with the site's warnings, and failing it under --strict."""
        return []

    def render_text(self, source: PageSource, computed: Any, text) -> Any:
        """The text of every state (prose.TextRenderer gives Markdown and Jinja)."""
        raise NotImplementedError

    def render(self, source: PageSource, computed: Any, texts: Any, context: RenderContext) -> list[Page]:
        """The page and its other outputs (embeds); a Page with `offline_copy` set gets a single-file copy."""
        raise NotImplementedError

    def state_count(self, computed: Any) -> int:
        raise NotImplementedError

    def scored(self, source: PageSource) -> int:
        """How many scored questions the page asks (an explainer's quiz/): a SCORM package
        states the site's mastery score for a page with some, and weighs the page by them."""
        return 0

    def proof(self, source: PageSource, computed: Any, texts: Any, to_html: Callable[[str], str]) -> list[ProofSection]:
        """Every text a reader can meet on the page, in reading order and state after
        state, for `lensa proof` (dev/proof.py writes it as plain text). `to_html`
        renders Markdown the page shows as it is (an introduction)."""
        raise NotImplementedError


@dataclass
class ProofText:
    """One text of a page as a reader meets it: a label ("Try this", "Chart", "" for a
    state's prose) and the text, HTML or, with `html` false, plain text."""
    label: str
    text: str
    html: bool = True


@dataclass
class ProofSection:
    """A part of a page (its introduction, a step, one state of a step) and its texts.
    `part` is the step's or round's number (None for what the whole page shows);
    `state` names a state briefly ("state 3"), for a text that repeats an earlier one."""
    heading: str
    texts: list[ProofText]
    part: int | None = None
    state: str | None = None


@dataclass
class Page:
    path: str                          # relative to the build root, e.g. "multi-head-attention/index.html"
    html: str                          # its text: HTML, or the SVG of a figure file
    updated: _dt.date | None = None    # when its content last changed (for the sitemap)
    indexed: bool = True               # belongs in search results; the not-found page and embeds do not
    offline_copy: str | None = None    # where its single-file copy goes, if it gets one
    source: str | None = None          # the slug of the content page it shows, if any
    images: tuple[str, ...] = ()       # build paths of the figures it shows, for the sitemap


@dataclass
class SeriesLink:
    number: int | None
    slug: str
    title: str
    subtitle: str
    href: str | None    # None for a planned page that is not in the build
    current: bool = False


@dataclass
class RenderContext:
    """What a kind renders its pages with, and the site-wide parts of every page."""
    site: Site
    theme: Any                        # render/theme.py's Theme
    assets: dict[str, str]            # name -> versioned name
    cache: Any                        # cache/build.py's BuildCache
    to_html: Callable[..., str]       # Markdown (and the file it is from) to HTML (render/prose.py's MarkdownRenderer)
    urls: Callable[[str], Any]        # a build path -> the links of the page there (render/urls.py's Urls)
    extensions: Any = None            # math, citations and code (render/extensions.py's TextExtensions)

    def references(self, source: PageSource, shown: list[str] | None = None) -> list:
        """A page's reference list: the works it cites and lists as further reading, then
        its own [[references]]; with `shown`, the HTML an embed shows, the works that cites."""
        keys = self.extensions.cited_in(*shown) if shown is not None else [*source.cites, *source.further_reading]
        views = self.extensions.references(keys)
        return views + (self.extensions.inline_references(source.references) if shown is None else [])

    def common(self, urls) -> dict:
        """Context every template gets."""
        return {"site": self.site.config, "labels": self.site.config.labels, "root": urls.root,
                "home": urls.home(), "asset": urls.asset, "play": self.play(urls)}

    def play(self, urls) -> SeriesLink | None:
        """The page site.toml's `play` names (the explainers' "Play with this concept" box), or None."""
        page = next((page for page in self.site.pages if page.slug == self.site.config.play), None)
        if page is None:
            return None
        return SeriesLink(None, page.slug, page.title, page.description or page.subtitle, urls.page(page.slug))

    def series(self, urls, current: str | None) -> list[SeriesLink]:
        site = self.site
        links = [_entry_link(site, e, urls, i, current) for i, e in enumerate(site.config.series, start=1)]
        listed = {e.slug for e in site.config.series + site.config.extra}
        # Pages in content/ but not in site.toml still belong in the series.
        for page in site.pages:
            if page.slug not in listed:
                links.append(SeriesLink(len(links) + 1, page.slug, page.title, page.subtitle,
                                        urls.page(page.slug), page.slug == current))
        return links

    def extra(self, urls) -> list[SeriesLink]:
        return [_entry_link(self.site, e, urls, None, None) for e in self.site.config.extra]

    def neighbours(self, source: PageSource, urls) -> dict[str, SeriesLink | None]:
        """The nearest published pages before and after this one in its reading
        order: planned pages in between are skipped, and the numbered series and
        the related extras are separate orders, so the series' last explainer does
        not lead into the extras (nor an extra back into the series)."""
        series = self.series(urls, source.slug)
        extra = self.extra(urls)
        order = series if any(link.slug == source.slug for link in series) else extra
        index = next((i for i, link in enumerate(order) if link.slug == source.slug), None)
        if index is None:
            return {"previous": None, "next": None}
        published = lambda links: next((link for link in links if link.href), None)  # noqa: E731
        return {"previous": published(reversed(order[:index])), "next": published(order[index + 1:])}

    def related(self, source: PageSource, urls) -> list[SeriesLink]:
        entries = {e.slug: e for e in self.site.config.series + self.site.config.extra}
        built = {page.slug: page for page in self.site.pages}
        links = []
        for slug in source.related:
            if slug in built:
                page = built[slug]
                links.append(SeriesLink(None, page.slug, page.title, page.subtitle, urls.page(page.slug)))
            elif slug in entries:
                links.append(_entry_link(self.site, entries[slug], urls, None, None))
        return links

    def date(self, date: _dt.date) -> str:
        return format_date(date, self.site.config.labels)


def format_date(date: _dt.date, labels: dict) -> str:
    """A date in the site's language: the words come from labels, not the machine's locale."""
    return (labels["date_format"].replace("{day}", str(date.day))
            .replace("{month}", labels["months"][date.month - 1]).replace("{year}", str(date.year)))


def _entry_link(site: Site, entry, urls, number: int | None, current: str | None) -> SeriesLink:
    built = {page.slug: page for page in site.pages}
    page = built.get(entry.slug)
    return SeriesLink(
        number=number, slug=entry.slug, title=page.title if page else entry.title,
        subtitle=page.subtitle if page and page.subtitle else entry.subtitle,
        href=urls.page(entry.slug) if page else None, current=entry.slug == current,
    )
