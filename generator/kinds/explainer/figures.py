"""An explainer's figures for slides and papers: every chart of every step in its
default state as an SVG file (figures/<slug>/step-<n>-chart-<k>.svg), drawn from
the same still drawing as the page's pictures, and the page that shows them with
their captions and the code to cite them (figures/<slug>/index.html), linked
from the explainer. A state the reader chose is made in the browser
(Download figure, themes/default/static/figure.js)."""
from __future__ import annotations

from dataclasses import dataclass

from ...errors import BuildError
from ...render import seo
from ...render.charts.common import FONT_FAMILY
from ...render.figures import Source, bibtex, citation_text, figure_svg, theme_palette
from ...site import Page, RenderContext
from ...render.urls import figures_path, page_path
from .compute import StepStates
from .content import Explainer
from .text import StepProse


@dataclass
class FigureView:
    """One figure as its page shows it."""
    file: str         # the SVG's name, beside the page
    title: str
    caption: str
    width: int
    height: int
    link: str         # to the chart's step in the explainer, from the page of figures
    citation: str
    bibtex: str


@dataclass
class FigureStep:
    number: int
    title: str
    anchor: str
    figures: list[FigureView]


def render_figures(explainer: Explainer, steps: list[StepStates], prose: list[StepProse],
                   context: RenderContext) -> list[Page]:
    """The figure files and the page of figures of an explainer."""
    site, config = context.site, context.site.config
    labels = config.labels
    palette = theme_palette(context.theme.stylesheet_text())
    path = figures_path(explainer.slug)
    urls = context.urls(path)
    # The address a figure cites: the published page when the site has one, else its
    # place in the site, from the site's root (a file copied into slides has no "here").
    # The file's own link goes there from where the file sits, beside the page of figures.
    address = seo.page_url(site, page_path(explainer.slug)) if config.base_url else page_path(explainer.slug)
    followed = address if config.base_url else urls.page(explainer.slug)
    line = labels["figure_source"].replace("{page}", explainer.title).replace("{site}", config.title)
    year = explainer.updated.year
    files, views = [], []
    for states, texts in zip(steps, prose):
        step = states.step
        figures = []
        for index, (chart, drawing, caption) in enumerate(
                zip(step.charts, states.drawings, texts.summaries[states.default_key])):
            name = figure_name(step.number, index)
            title = chart.title or step.title
            link = f"{address}#step-{step.number}"
            source = Source(line, link, config.licence, href=f"{followed}#step-{step.number}")
            try:
                made = figure_svg(drawing, title, caption, source, palette, FONT_FAMILY)
            except BuildError as err:
                raise BuildError(f"theme {context.theme.name!r}, {explainer.slug} step {step.number}: {err}") from None
            files.append(Page(figures_path(explainer.slug, name), made.svg, indexed=False, source=explainer.slug))
            key = f"{explainer.slug}-{name.removesuffix('.svg')}"
            figures.append(FigureView(
                name, title, caption, made.width, made.height, f"{urls.page(explainer.slug)}#step-{step.number}",
                citation_text(title, explainer.title, config.title, year, link, config.licence),
                bibtex(key, title, explainer.title, config.title, year, link, config.licence)))
        if figures:
            views.append(FigureStep(step.number, step.title, f"step-{step.number}", figures))
    title = labels["figures_title"].replace("{title}", explainer.title)
    description = labels["figures_intro"]
    html = context.theme.render(
        "figures.html", **context.common(urls), explainer=explainer, steps=views, title=title,
        description=description, explainer_href=urls.page(explainer.slug),
        head=seo.figures_head(site, path, title, description),
    )
    page = Page(path, html, updated=explainer.updated, source=explainer.slug,
                images=tuple(figures_path(explainer.slug, view.file) for step in views for view in step.figures))
    return [page, *files]


def figure_name(step: int, chart: int) -> str:
    """step-<n>-chart-<k>.svg, k counted from 1; the name Download figure gives a state's file too."""
    return f"step-{step}-chart-{chart + 1}.svg"
