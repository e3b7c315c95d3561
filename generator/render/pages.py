"""Render the site's pages through the theme: the index and the not-found page
here, and every content page by its kind (kinds/), with the series navigation
and the context every template gets."""
from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, replace

from ..cache.build import BuildCache
from ..errors import ContentError
from ..kinds import PageSource, kind_of
from ..load.content import SeriesEntry, Site
from . import seo
from .links import resolve_page_links
from .prose import MarkdownRenderer, markdown_renderer
from .theme import Theme
from .urls import ASSETS_DIR, EMBED_DIR, OFFLINE_DIR, Urls, page_path


@dataclass
class Page:
    path: str                          # relative to the build root, e.g. "multi-head-attention/index.html"
    html: str
    updated: _dt.date | None = None    # when its content last changed (for the sitemap)
    indexed: bool = True               # belongs in search results; the not-found page and embeds do not
    offline_copy: str | None = None    # where its single-file copy goes, if it gets one
    source: str | None = None          # the slug of the content page it shows, if any


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
    theme: Theme
    assets: dict[str, str]      # name -> versioned name
    cache: BuildCache
    to_html: MarkdownRenderer

    def urls(self, at: str) -> Urls:
        return Urls(at, self.site.config.base_url, self.assets)

    def common(self, urls: Urls) -> dict:
        """Context every template gets."""
        return {"site": self.site.config, "labels": self.site.config.labels, "root": urls.root,
                "home": urls.home(), "asset": urls.asset, "play": self.play(urls)}

    def play(self, urls: Urls) -> SeriesLink | None:
        """The page site.toml's `play` names (the explainers' "Play with this concept" box), or None."""
        page = next((page for page in self.site.pages if page.slug == self.site.config.play), None)
        if page is None:
            return None
        return SeriesLink(None, page.slug, page.title, page.description or page.subtitle, urls.page(page.slug))

    def series(self, urls: Urls, current: str | None) -> list[SeriesLink]:
        site = self.site
        links = [_entry_link(site, e, urls, i, current) for i, e in enumerate(site.config.series, start=1)]
        listed = {e.slug for e in site.config.series + site.config.extra}
        # Pages in content/ but not in site.toml still belong in the series.
        for page in site.pages:
            if page.slug not in listed:
                links.append(SeriesLink(len(links) + 1, page.slug, page.title, page.subtitle,
                                        urls.page(page.slug), page.slug == current))
        return links

    def extra(self, urls: Urls) -> list[SeriesLink]:
        return [_entry_link(self.site, e, urls, None, None) for e in self.site.config.extra]

    def neighbours(self, source: PageSource, urls: Urls) -> dict[str, SeriesLink | None]:
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

    def related(self, source: PageSource, urls: Urls) -> list[SeriesLink]:
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


def render_pages(site: Site, computed: dict, prose: dict, theme: Theme, assets: dict[str, str],
                 cache: BuildCache | None = None) -> list[Page]:
    """Every page; with a cache, a content page whose inputs are unchanged is reused."""
    cache = cache or BuildCache()
    _check_runtimes(site, theme)
    context = RenderContext(site, theme, assets, cache, markdown_renderer(cache))
    pages = [_index_page(context), _not_found_page(context)]
    slugs = {source.slug for source in site.pages}
    for source in site.pages:
        rendered = cache.page(source, site, theme, assets, lambda source=source: kind_of(source).render(
            source, computed[source.slug], prose[source.slug], context))
        pages += [replace(page, html=resolve_page_links(page.html, page.path, slugs, site.root / source.slug))
                  for page in rendered]
    return pages


def _check_runtimes(site: Site, theme: Theme) -> None:
    """Every kind in the site drives its pages with a script of the theme's."""
    static = theme.static_files()
    for name in sorted({page.kind for page in site.pages}):
        runtime = kind_of(next(page for page in site.pages if page.kind == name)).runtime
        if runtime not in static:
            raise ContentError.one(theme.chain[0], f"theme {theme.name!r} has no static/{runtime}, the script "
                                   f"that runs pages of kind {name!r}")


def _index_page(context: RenderContext) -> Page:
    site, urls = context.site, context.urls("index.html")
    html = context.theme.render("index.html", **context.common(urls), head=seo.index_head(site),
                                series=context.series(urls, None), extra=context.extra(urls))
    return Page("index.html", html, updated=max((page.updated for page in site.pages), default=None))


# Folders every build has at its root; with the pages' slugs they let the
# 404 page find the site's root from a missing address without any request.
TOP_LEVEL_FOLDERS = {ASSETS_DIR, EMBED_DIR, OFFLINE_DIR, "index.html"}


def _not_found_page(context: RenderContext) -> Page:
    """Served at any depth, so its links cannot be relative to where it sits. Its
    home link is absolute when base_url is known; otherwise it is "index.html",
    right from disk and one level deep, and the 404 template finds the site's
    root when it is served deeper."""
    site = context.site
    urls = context.urls("404.html")
    common = {**context.common(urls), "root": None,
              "home": f"{site.config.base_url}index.html" if site.config.base_url else "index.html"}
    html = context.theme.render("404.html", **common, head=seo.not_found_head(site),
                                inline_css=context.theme.stylesheet_text(),
                                top_level=sorted(TOP_LEVEL_FOLDERS | {page.slug for page in site.pages}))
    return Page("404.html", html, indexed=False)


def format_date(date: _dt.date, labels: dict) -> str:
    """A date in the site's language: the words come from labels, not the machine's locale."""
    return (labels["date_format"].replace("{day}", str(date.day))
            .replace("{month}", labels["months"][date.month - 1]).replace("{year}", str(date.year)))


def split_questions(markdown_text: str, to_html) -> list[tuple[str, str]]:
    """'### Question?' headings followed by their answers -> [(question HTML, answer HTML)].
    A question is inline Markdown (it becomes a <summary>, which holds no paragraphs)."""
    parts = re.split(r"^###\s+(.+?)\s*#*\s*$", markdown_text, flags=re.M)
    return [(_inline(to_html(parts[i].strip())), to_html(parts[i + 1].strip()))
            for i in range(1, len(parts) - 1, 2)]


def _inline(html: str) -> str:
    match = re.fullmatch(r"<p>(.*)</p>", html.strip(), flags=re.S)
    return match.group(1) if match else html


def _entry_link(site: Site, entry: SeriesEntry, urls: Urls, number: int | None, current: str | None) -> SeriesLink:
    built = {page.slug: page for page in site.pages}
    page = built.get(entry.slug)
    return SeriesLink(
        number=number, slug=entry.slug, title=page.title if page else entry.title,
        subtitle=page.subtitle if page and page.subtitle else entry.subtitle,
        href=urls.page(entry.slug) if page else None, current=entry.slug == current,
    )


__all__ = ["Page", "RenderContext", "SeriesLink", "format_date", "page_path", "render_pages", "split_questions"]
