"""Render the site's pages through the theme: the index and the not-found page
here, and every content page by its kind (kinds/), each with a RenderContext
(site.py: the series navigation and the context every template gets)."""
from __future__ import annotations

import re
from dataclasses import replace
from functools import partial
from urllib.parse import quote

from ..cache.build import BuildCache
from ..errors import ContentError, MarkupError, Problem
from ..site import Page, RenderContext, Site
from . import seo
from .links import resolve_page_links
from .extensions import located
from .prose import markdown_renderer
from .theme import Theme
from .urls import INDEX, NOT_FOUND, ROOT_FOLDERS, Urls


def render_pages(site: Site, computed: dict, prose: dict, theme: Theme, assets: dict[str, str],
                 cache: BuildCache | None = None) -> list[Page]:
    """Every page; with a cache, a content page whose inputs are unchanged is reused."""
    cache = cache or BuildCache()
    _check_runtimes(site, theme)
    to_html = markdown_renderer(cache, site)
    context = RenderContext(site, theme, assets, cache, to_html,
                            partial(Urls, base_url=site.config.base_url, assets=assets), to_html.extensions)
    pages = [_index_page(context), _not_found_page(context)]
    slugs = {source.slug for source in site.pages}
    errors: list[Problem] = []
    for source in site.pages:
        try:
            rendered = cache.page(source, site, theme, assets, lambda source=source: site.kind_of(source).render(
                source, computed[source.slug], prose[source.slug], context))
        except MarkupError as err:  # math or a citation in a text the page renders itself (an intro)
            errors.append(located(err, source.path))
            continue
        pages += [replace(page, html=resolve_page_links(page.html, page.path, slugs, site.root / source.slug))
                  for page in rendered]
    if errors:
        raise ContentError(errors)
    return pages


def _check_runtimes(site: Site, theme: Theme) -> None:
    """Every kind in the site drives its pages with a script of the theme's."""
    static = theme.static_files()
    for name in sorted({page.kind for page in site.pages}):
        runtime = site.kind_of(next(page for page in site.pages if page.kind == name)).runtime
        if runtime not in static:
            raise ContentError.one(theme.chain[0], f"theme {theme.name!r} has no static/{runtime}, the script "
                                   f"that runs pages of kind {name!r}")


def _index_page(context: RenderContext) -> Page:
    site, urls = context.site, context.urls(INDEX)
    html = context.theme.render("index.html", **context.common(urls), head=seo.index_head(site),
                                series=context.series(urls, None), extra=context.extra(urls))
    return Page(INDEX, html, updated=max((page.updated for page in site.pages), default=None))


# The site's icon, a file of the theme's static/ (the 404 page carries it inline).
FAVICON = "favicon.svg"
# Folders every build has at its root; with the pages' slugs they let the
# 404 page find the site's root from a missing address without any request.
TOP_LEVEL_FOLDERS = {*ROOT_FOLDERS, INDEX}


def _not_found_page(context: RenderContext) -> Page:
    """Served at any depth, so its links cannot be relative to where it sits. Its
    home link is absolute when base_url is known; otherwise it is "index.html",
    right from disk and one level deep, and the 404 template finds the site's
    root when it is served deeper."""
    site = context.site
    urls = context.urls(NOT_FOUND)
    common = {**context.common(urls), "root": None,
              "home": f"{site.config.base_url}index.html" if site.config.base_url else "index.html"}
    icon = context.theme.static_files().get(FAVICON)
    html = context.theme.render("404.html", **common, head=seo.not_found_head(site),
                                inline_css=context.theme.stylesheet_text(),
                                inline_icon="data:image/svg+xml," + quote(icon.read_text("utf-8")) if icon else "",
                                top_level=sorted(TOP_LEVEL_FOLDERS | {page.slug for page in site.pages}))
    return Page(NOT_FOUND, html, indexed=False)


def split_questions(markdown_text: str, to_html) -> list[tuple[str, str]]:
    """'### Question?' headings followed by their answers -> [(question HTML, answer HTML)].
    A question is inline Markdown (it becomes a <summary>, which holds no paragraphs)."""
    parts = re.split(r"^###\s+(.+?)\s*#*\s*$", markdown_text, flags=re.M)
    return [(_inline(to_html(parts[i].strip())), to_html(parts[i + 1].strip()))
            for i in range(1, len(parts) - 1, 2)]


def _inline(html: str) -> str:
    match = re.fullmatch(r"<p>(.*)</p>", html.strip(), flags=re.S)
    return match.group(1) if match else html


__all__ = ["TOP_LEVEL_FOLDERS", "render_pages", "split_questions"]
