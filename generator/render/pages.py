"""Render the site's pages through the theme: the index, one page per
explainer, and the not-found page. Every link is relative and names an
explicit index.html, so one build works at a domain root, under a subpath
and straight from disk (file:// does not resolve directory URLs)."""
from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass, field

from . import seo
from ..cache.build import BuildCache
from ..load.content import Explainer, SeriesEntry, Site
from .payload import chart_payload, explainer_payload
from .prose import MarkdownRenderer, StepProse
from .sharing import EmbedCode, embed_code, offline_path
from ..compute.states import StepStates
from .theme import Theme


@dataclass
class Page:
    path: str                          # relative to the build root, e.g. "multi-head-attention/index.html"
    html: str
    updated: _dt.date | None = None    # when its content last changed (for the sitemap)
    indexed: bool = True               # belongs in search results; the not-found page does not


@dataclass
class SeriesLink:
    number: int | None
    slug: str
    title: str
    subtitle: str
    href: str | None    # None for a planned explainer that is not in the build
    current: bool = False


@dataclass
class StepView:
    number: int
    total: int
    anchor: str
    title: str
    subtitle: str
    controls: list[dict]
    readouts: list[tuple[str, str]]
    prose: str
    summary: str
    hint: str
    deeper: str
    chart_height: int
    wide: bool
    chart_title: str = ""
    table: dict = field(default_factory=dict)  # the default state's data table (charts/__init__.py)
    embed: EmbedCode | None = None             # the iframe code offered by the step's Embed button


def explainer_href(slug: str, root: str) -> str:
    return f"{root}{slug}/index.html"


def render_pages(site: Site, computed: dict[str, list[StepStates]], prose: dict[str, list[StepProse]],
                 theme: Theme, assets: dict[str, str], cache: BuildCache | None = None) -> list[Page]:
    """Every page; with a cache, an explainer page whose inputs are unchanged is reused."""
    cache = cache or BuildCache()
    to_html = MarkdownRenderer()
    pages = [_index_page(site, theme, assets), _not_found_page(site, theme, assets)]
    for explainer in site.explainers:
        pages.append(cache.page(explainer, site, theme, assets, lambda explainer=explainer: _explainer_page(
            site, explainer, computed[explainer.slug], prose[explainer.slug], theme, assets, to_html, cache)))
    return pages


def _index_page(site: Site, theme: Theme, assets: dict[str, str]) -> Page:
    html = theme.render("index.html", **_common(site, assets, ""), head=seo.index_head(site),
                        series=_series(site, "", None), extra=_extra(site, ""))
    return Page("index.html", html, updated=max((e.updated for e in site.explainers), default=None))


# Folders every build has at its root; with the explainers' slugs they let the
# 404 page find the site's root from a missing address without any request.
TOP_LEVEL_FOLDERS = {"assets", "embed", "offline", "index.html"}


def _not_found_page(site: Site, theme: Theme, assets: dict[str, str]) -> Page:
    html = theme.render("404.html", **_common(site, assets, None), head=seo.not_found_head(site),
                        inline_css=theme.stylesheet_text(),
                        top_level=sorted(TOP_LEVEL_FOLDERS | {e.slug for e in site.explainers}))
    return Page("404.html", html, indexed=False)


def _explainer_page(site: Site, explainer: Explainer, steps: list[StepStates], step_prose: list[StepProse],
                    theme: Theme, assets: dict[str, str], to_html: MarkdownRenderer, cache: BuildCache) -> Page:
    root = "../"
    views = []
    for states, texts in zip(steps, step_prose):
        view = step_view(states, texts, len(steps), states.tables(site.config.labels)[states.default_key])
        view.embed = embed_code(site, explainer, states.step, root)
        views.append(view)
    payload = cache.page(explainer, site, theme, assets, kind="payload",
                         make=lambda: explainer_payload(page_charts(site, explainer, steps, cache), steps, step_prose))
    questions = split_questions(explainer.questions, to_html)
    html = theme.render(
        "explainer.html", **_common(site, assets, root), explainer=explainer, steps=views,
        payload=payload, intro=to_html(explainer.intro), key_ideas=to_html(explainer.key_ideas),
        questions=questions, description=seo.description_of(explainer),
        updated=format_date(explainer.updated, site.config.labels),
        series=_series(site, root, explainer.slug), related=_related(site, explainer, root),
        neighbours=_neighbours(site, explainer, root), head=seo.explainer_head(site, explainer, questions),
        offline_href=f"{root}{offline_path(explainer.slug)}",
        explainer_embed=embed_code(site, explainer, None, root),
    )
    return Page(f"{explainer.slug}/index.html", html, updated=explainer.updated)


def page_charts(site: Site, explainer: Explainer, steps: list[StepStates], cache: BuildCache):
    """The explainer's interned charts and tables, shared by its page and embeds."""
    return cache.charts(explainer, site, make=lambda: chart_payload(steps, site.config.labels))


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


def step_view(states: StepStates, texts: StepProse, total: int, table: dict) -> StepView:
    step = states.step
    default = states.by_key(states.default_key)
    html, summary = texts.states[states.default_key]
    controls = []
    for control in step.controls:
        buttons = []
        for index, value in enumerate(control.values):
            buttons.append({
                "index": index,
                "value": str(value),  # deep links name values, not indices
                "text": control.button.replace("{value}", str(value)),
                "detail": str(control.details[index]) if control.details else "",
                "pressed": value == control.default,
            })
        controls.append({"name": control.name, "label": control.label, "buttons": buttons})
    return StepView(
        number=step.number, total=total, anchor=f"step-{step.number}", title=step.title,
        subtitle=step.subtitle, controls=controls,
        readouts=[(r.label, v) for r, v in zip(step.readouts, default.readouts)],
        prose=html, summary=summary, hint=texts.hint, deeper=texts.deeper, chart_height=step.chart.height,
        wide=step.chart.wide, chart_title=step.chart.title, table=table,
    )


def _common(site: Site, assets: dict[str, str], root: str | None) -> dict:
    """Context every template gets. root=None: the page may be served at any depth
    (404.html). Its home link is then absolute when base_url is known; otherwise it
    is "index.html", right from disk and one level deep, and the 404 template
    finds the site's root when it is served deeper."""
    if root is None:
        home = f"{site.config.base_url}index.html" if site.config.base_url else "index.html"
    else:
        home = f"{root}index.html"
    return {"site": site.config, "labels": site.config.labels, "root": root, "home": home,
            "asset": lambda name: f"{root or ''}assets/{assets[name]}"}


def _neighbours(site: Site, explainer: Explainer, root: str) -> dict[str, SeriesLink | None]:
    """The explainers before and after this one in the series' reading order. A
    planned neighbour is still named (without a link), so the order reads the same
    on every page."""
    order = _series(site, root, explainer.slug) + _extra(site, root)
    index = next(i for i, link in enumerate(order) if link.slug == explainer.slug)
    return {"previous": order[index - 1] if index > 0 else None,
            "next": order[index + 1] if index + 1 < len(order) else None}


def _link(site: Site, explainer: Explainer, root: str) -> SeriesLink:
    return SeriesLink(None, explainer.slug, explainer.title, explainer.subtitle,
                      explainer_href(explainer.slug, root))


def _entry_link(site: Site, entry: SeriesEntry, root: str, number: int | None, current: str | None) -> SeriesLink:
    built = {e.slug: e for e in site.explainers}
    explainer = built.get(entry.slug)
    return SeriesLink(
        number=number, slug=entry.slug, title=explainer.title if explainer else entry.title,
        subtitle=explainer.subtitle if explainer and explainer.subtitle else entry.subtitle,
        href=explainer_href(entry.slug, root) if explainer else None, current=entry.slug == current,
    )


def _series(site: Site, root: str, current: str | None) -> list[SeriesLink]:
    links = [_entry_link(site, e, root, i, current) for i, e in enumerate(site.config.series, start=1)]
    listed = {e.slug for e in site.config.series + site.config.extra}
    # Explainers in content/ but not in site.toml still belong in the series.
    for explainer in site.explainers:
        if explainer.slug not in listed:
            links.append(SeriesLink(len(links) + 1, explainer.slug, explainer.title, explainer.subtitle,
                                    explainer_href(explainer.slug, root), explainer.slug == current))
    return links


def _extra(site: Site, root: str) -> list[SeriesLink]:
    return [_entry_link(site, e, root, None, None) for e in site.config.extra]


def _related(site: Site, explainer: Explainer, root: str) -> list[SeriesLink]:
    entries = {e.slug: e for e in site.config.series + site.config.extra}
    built = {e.slug: e for e in site.explainers}
    links = []
    for slug in explainer.related:
        if slug in built:
            links.append(_link(site, built[slug], root))
        elif slug in entries:
            links.append(_entry_link(site, entries[slug], root, None, None))
    return links
