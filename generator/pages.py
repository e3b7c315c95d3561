"""Render the site's pages through the theme: the index, one page per
explainer, and the not-found page. Every link is relative and names an
explicit index.html, so one build works at a domain root, under a subpath
and straight from disk (file:// does not resolve directory URLs)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import charts
from .content import Explainer, SeriesEntry, Site
from .payload import Pool, script_json, step_payload
from .prose import MarkdownRenderer, StepProse
from .states import StepStates
from .theme import Theme


@dataclass
class Page:
    path: str           # relative to the build root, e.g. "multi-head-attention/index.html"
    html: str


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


def explainer_href(slug: str, root: str) -> str:
    return f"{root}{slug}/index.html"


def render_pages(site: Site, computed: dict[str, list[StepStates]], prose: dict[str, list[StepProse]],
                 theme: Theme, assets: dict[str, str]) -> list[Page]:
    to_html = MarkdownRenderer()
    pages = [Page("index.html", theme.render("index.html", **_common(site, assets, ""),
                                             series=_series(site, "", None), extra=_extra(site, ""))),
             Page("404.html", theme.render("404.html", **_common(site, assets, None),
                                           inline_css=theme.stylesheet_text()))]
    for explainer in site.explainers:
        root = "../"
        steps = computed[explainer.slug]
        step_prose = prose[explainer.slug]
        pool = Pool()
        payload_steps, views = [], []
        for states, texts in zip(steps, step_prose):
            kind, chart = charts.get(states.step.chart.kind), states.step.chart
            figures = {s.key: kind.figure(chart, s.chart) for s in states.states}
            tables = {s.key: kind.table(chart, s.chart, site.config.labels) for s in states.states}
            payload_steps.append(step_payload(states, texts, figures, tables, pool))
            views.append(_step_view(states, texts, len(steps), tables[states.default_key]))
        data = {"steps": payload_steps, "pool": pool.items}
        index = [e.slug for e in site.explainers].index(explainer.slug)
        neighbours = {
            "previous": _link(site, site.explainers[index - 1], root) if index > 0 else None,
            "next": _link(site, site.explainers[index + 1], root) if index + 1 < len(site.explainers) else None,
        }
        html = theme.render(
            "explainer.html", **_common(site, assets, root), explainer=explainer, steps=views,
            payload=script_json(data), intro=to_html(explainer.intro), key_ideas=to_html(explainer.key_ideas),
            questions=split_questions(explainer.questions, to_html),
            series=_series(site, root, explainer.slug), related=_related(site, explainer, root),
            neighbours=neighbours, canonical=f"{site.config.base_url}{explainer.slug}/" if site.config.base_url
            else "",
        )
        pages.append(Page(f"{explainer.slug}/index.html", html))
    return pages


def split_questions(markdown_text: str, to_html) -> list[tuple[str, str]]:
    """'### Question?' headings followed by their answers -> [(question, answer HTML)]."""
    parts = re.split(r"^###\s+(.+?)\s*#*\s*$", markdown_text, flags=re.M)
    return [(parts[i].strip(), to_html(parts[i + 1].strip())) for i in range(1, len(parts) - 1, 2)]


def _step_view(states: StepStates, texts: StepProse, total: int, table: dict) -> StepView:
    step = states.step
    default = states.by_key(states.default_key)
    html, summary = texts.states[states.default_key]
    controls = []
    for control in step.controls:
        buttons = []
        for index, value in enumerate(control.values):
            buttons.append({
                "index": index,
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
    (404.html), so only absolute addresses work there."""
    if root is None:
        home = f"{site.config.base_url}index.html" if site.config.base_url else "/"
    else:
        home = f"{root}index.html"
    return {"site": site.config, "labels": site.config.labels, "root": root, "home": home,
            "asset": lambda name: f"{root or ''}assets/{assets[name]}"}


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
