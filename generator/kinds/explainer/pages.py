"""An explainer's outputs: its page (every step, with the series around it),
the whole explainer as an embed (embed/<slug>/index.html), each step alone as
an embed (embed/<slug>/step-<n>.html), each chart of a step with several charts
alone with the step's controls and text (embed/<slug>/step-<n>-chart-<k>.html),
and the single-file copy of its page.

An embed has no site navigation, only a small link to the full explainer, and
runs with no script on the host page, because LMS editors such as Canvas and
Moodle strip scripts but keep iframes. A step embed carries only its own step's
data, so it stays small."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial

from ...render import seo
from ...render.charts.common import text_width
from ...render.pages import split_questions
from ...render.sharing import EmbedCode, embed_code
from ...render.urls import Urls, embed_path, offline_path, page_path
from ...site import Page, RenderContext
from .compute import StepStates
from .content import MAIN_FILE, Control, Explainer, Step, value_text
from .figures import render_figures
from .payload import ChartPayload, chart_payload, explainer_payload, step_payload
from .quiz.view import quiz_view
from .text import StepProse

# Room an embedded step needs besides its chart, in CSS pixels at a typical course-page
# width (about 800px): the link back, the step heading, the readouts and the prose.
# The embed reports its real height once it has loaded; this only sets the first guess.
_STEP_CHROME = 720
_CONTROL_ROW = 60
_HEADER = 400  # the whole explainer's title, subtitle and introduction


@dataclass
class ChartView:
    """One chart of a step: its title, height, caption and data table in the default state."""
    index: int
    title: str
    height: int
    summary: str
    table: dict = field(default_factory=dict)  # the default state's data table (charts/__init__.py)
    poster: str = ""                           # the default state drawn, until Plotly draws it
    embed: EmbedCode | None = None             # this chart alone, for a step with several
    rescale: str = ""                          # why its axes follow each state (held.py), said under it


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
    hint: str
    deeper: str
    wide: bool
    practitioners: str = ""
    charts: list[ChartView] = field(default_factory=list)
    embed: EmbedCode | None = None             # the iframe code offered by the step's Embed button


def render_explainer(explainer: Explainer, steps: list[StepStates], prose: list[StepProse],
                     context: RenderContext) -> list[Page]:
    charts = context.cache.charts(explainer, context.site,
                                  make=lambda: chart_payload(steps, context.site.config.labels),
                                  accept=lambda found: isinstance(found, ChartPayload))
    # The page and the whole-explainer embed carry the same data.
    payload = context.cache.page(explainer, context.site, context.theme, context.assets, kind="payload",
                                 make=lambda: explainer_payload(charts, steps, prose))
    page = _explainer_page(explainer, steps, prose, payload, context)
    return [page, *render_figures(explainer, steps, prose, context),
            *_embeds(explainer, steps, prose, charts, payload, context)]


def _explainer_page(explainer: Explainer, steps: list[StepStates], step_prose: list[StepProse], payload: str,
                    context: RenderContext) -> Page:
    path = page_path(explainer.slug)
    urls = context.urls(path)
    labels = context.site.config.labels
    views = []
    for states, texts in zip(steps, step_prose):
        view = step_view(states, texts, len(steps), labels)
        view.embed = step_embed_code(urls, explainer, states.step)
        if len(view.charts) > 1:
            for chart in view.charts:
                chart.embed = chart_embed_code(urls, explainer, states.step, chart.index)
        views.append(view)
    to_html = partial(context.to_html, source=explainer.path / MAIN_FILE)
    questions = split_questions(explainer.questions, to_html)
    references = context.references(explainer)
    html = context.theme.render(
        "explainer.html", **context.common(urls), explainer=explainer, steps=views,
        payload=payload, intro=to_html(explainer.intro), key_ideas=to_html(explainer.key_ideas),
        questions=questions, description=seo.description_of(explainer), updated=context.date(explainer.updated),
        series=context.series(urls, explainer.slug), related=context.related(explainer, urls),
        neighbours=context.neighbours(explainer, urls), references=references,
        head=seo.article_head(context.site, explainer, questions, references),
        offline_href=urls.offline(explainer.slug), explainer_embed=step_embed_code(urls, explainer, None),
        figures_href=urls.figures(explainer.slug), figure_kit=figure_kit(context, urls, explainer),
        quiz=_quiz(explainer, step_prose, context),
    )
    return Page(path, html, updated=explainer.updated, offline_copy=offline_path(explainer.slug),
                source=explainer.slug)


def _embeds(explainer: Explainer, step_states: list[StepStates], step_prose: list[StepProse], charts,
            payload: str, context: RenderContext) -> list[Page]:
    steps = list(zip(step_states, step_prose))
    labels = context.site.config.labels
    # Figures and tables are made once per step and shared with the explainer page.
    views = [step_view(states, texts, len(steps), labels) for states, texts in steps]
    to_html = partial(context.to_html, source=explainer.path / MAIN_FILE)
    whole = embed_path(explainer.slug)
    intro, key_ideas = to_html(explainer.intro), to_html(explainer.key_ideas)
    html = context.theme.render(
        "embed.html", **_embed_context(context, explainer, context.urls(whole), None), steps=views,
        payload=payload, intro=intro, key_ideas=key_ideas, quiz=_quiz(explainer, step_prose, context),
        references=context.references(explainer, [intro, key_ideas, *(_shown_text(t) for t in step_prose)]),
    )
    pages = [Page(whole, html, indexed=False, source=explainer.slug)]
    for index, ((states, texts), view) in enumerate(zip(steps, views)):
        path = embed_path(explainer.slug, view.number)
        html = context.theme.render(
            "embed.html", **_embed_context(context, explainer, context.urls(path), view.number), steps=[view],
            payload=step_payload(charts, index, states, texts), intro="", key_ideas="", show_pager=False,
            show_deeper=False, step_index=0, quiz=_quiz(explainer, step_prose, context, view.number),
            references=context.references(explainer, [_shown_text(texts, False)]),
        )
        pages.append(Page(path, html, indexed=False, source=explainer.slug))
        if len(states.step.charts) > 1:
            pages += _chart_embeds(explainer, index, states, texts, charts, context,
                                   _quiz(explainer, step_prose, context, view.number))
    return pages


def _chart_embeds(explainer: Explainer, index: int, states: StepStates, texts: StepProse, charts,
                  context: RenderContext, quiz: dict | None = None) -> list[Page]:
    """Each chart of a step alone, with the step's controls, readouts and prose: for
    a course page that discusses one of the views. Its data holds that chart only."""
    pages = []
    labels = context.site.config.labels
    for chart in range(len(states.step.charts)):
        path = chart_embed_path(explainer.slug, states.step.number, chart)
        view = step_view(states, texts, len(explainer.steps), labels, only=chart)
        html = context.theme.render(
            "embed.html", **_embed_context(context, explainer, context.urls(path), view.number), steps=[view],
            payload=step_payload(charts, index, states, texts, only=chart), intro="", key_ideas="",
            show_pager=False, show_deeper=False, step_index=0, quiz=quiz,
            references=context.references(explainer, [_shown_text(texts, False)]),
        )
        pages.append(Page(path, html, indexed=False, source=explainer.slug))
    return pages


def _shown_text(texts: StepProse, deeper: bool = True) -> str:
    """The HTML a step shows in any state (its reference list is made of what that cites)."""
    return ("".join(html for html, _ in texts.states.values()) + texts.hint
            + (texts.deeper + texts.practitioners if deeper else ""))


def _quiz(explainer: Explainer, texts, context: RenderContext, step: int | None = None) -> dict | None:
    """The questions a page shows (quiz/view.py): all of them, or those of step number `step`."""
    config = context.site.config
    return quiz_view(getattr(texts, "quiz", []), explainer.slug, config.labels, config.mastery_score, step)


def chart_embed_path(slug: str, step: int, chart: int) -> str:
    """embed/<slug>/step-<n>-chart-<k>.html, k counted from 1 as a reader counts the charts."""
    return embed_path(slug, step)[:-len(".html")] + f"-chart-{chart + 1}.html"


def chart_embed_code(urls: Urls, explainer: Explainer, step: Step, chart: int) -> EmbedCode:
    """The iframe code for one chart of a step, alone with the step's controls and text."""
    title = step.charts[chart].title or f"{chart + 1}"
    return embed_code(urls, chart_embed_path(explainer.slug, step.number, chart),
                      f"{explainer.title}: {step.title}: {title}",
                      step.charts[chart].height + _STEP_CHROME + _CONTROL_ROW * len(step.controls))


def _embed_context(context: RenderContext, explainer: Explainer, urls: Urls, step_number: int | None) -> dict:
    full = urls.published(page_path(explainer.slug)) or urls.page(explainer.slug)
    if step_number is not None:
        full += f"#step-{step_number}"
    return {
        **context.common(urls), "explainer": explainer, "description": seo.description_of(explainer),
        "embed_step": step_number, "full_href": full, "figure_kit": figure_kit(context, urls, explainer),
        # The full explainer is the page for search results, not its embeds.
        "head": seo.Head(robots="noindex"),
    }


# The words figure.js shows, from the site's labels (the button's own is in the page's markup).
_FIGURE_LABELS = ("figure_svg", "figure_png", "figure_light", "figure_making", "figure_saved", "figure_opened",
                  "figure_failed", "figure_source")


def figure_kit(context: RenderContext, urls: Urls, explainer: Explainer) -> dict:
    """What Download figure needs on a page (templates/_figure_kit.html): the script
    that makes figures, the address a figure cites when the site has a base_url (the
    published explainer; without one, figure.js takes the page's own, or an embed's
    link to its explainer), and the words of its source line and its panel."""
    config = context.site.config
    published = seo.page_url(context.site, page_path(explainer.slug)) if config.base_url else ""
    labels = config.labels
    return {
        "code": urls.asset("figure.js"),
        "data": {"site": config.title, "page": explainer.title, "slug": explainer.slug, "address": published,
                 "licence": config.licence,
                 "labels": {name.removeprefix("figure_"): labels[name] for name in _FIGURE_LABELS}},
    }


def step_embed_code(urls: Urls, explainer: Explainer, step: Step | None) -> EmbedCode:
    """The iframe code for one step, or for the whole explainer when step is None."""
    path = embed_path(explainer.slug, step.number if step else None)
    if step:
        title, height = f"{explainer.title}: {step.title}", _step_height(step)
    else:
        title, height = explainer.title, _HEADER + sum(_step_height(s) for s in explainer.steps)
    return embed_code(urls, path, title, height)


def _step_height(step: Step) -> int:
    # Charts stack in a narrow frame: the first guess counts every one of them.
    return sum(chart.height for chart in step.charts) + _STEP_CHROME + _CONTROL_ROW * len(step.controls)


def step_view(states: StepStates, texts: StepProse, total: int, labels: dict, only: int | None = None) -> StepView:
    """A step as the templates show it; with `only`, that one of its charts alone."""
    step = states.step
    default = states.by_key(states.default_key)
    html, _ = texts.states[states.default_key]
    tables = states.tables(labels)
    charts = [ChartView(index, chart.title, chart.height, summary, tables[index][states.default_key], poster,
                        rescale=chart.rescale)
              for index, (chart, summary, poster)
              in enumerate(zip(step.charts, texts.summaries[states.default_key], states.posters))]
    if only is not None:  # renumbered from 0, as that page's data holds the one chart
        charts = [replace(charts[only], index=0)]
    return StepView(
        number=step.number, total=total, anchor=f"step-{step.number}", title=step.title,
        subtitle=step.subtitle, controls=[control_view(control) for control in step.controls],
        readouts=[(r.label, v) for r, v in zip(step.readouts, default.readouts)],
        prose=html, hint=texts.hint, deeper=texts.deeper, practitioners=texts.practitioners,
        # Several charts take the step's full width, side by side, with the text below.
        wide=len(charts) > 1 or any(chart.wide for chart in step.charts), charts=charts,
    )


def control_view(control: Control) -> dict:
    """What the templates need of a control: its kind, name and label, and per kind
    the buttons, the toggle's state, or the slider's positions. Values are named as
    deep links name them (value_text), never by index."""
    selected = control.values.index(control.default)
    view = {"kind": control.kind, "name": control.name, "label": control.label, "index": selected,
            "values": [value_text(value) for value in control.values],
            "texts": [control.text(index) for index in range(len(control.values))]}
    if control.kind == "toggle":
        view["pressed"] = control.default is True
    elif control.kind == "slider":
        view["text"] = view["texts"][selected]
        # The widest text, kept hidden beside the value, holds its room (see .slider-value).
        view["widest"] = max(view["texts"], key=text_width)
    else:
        view["buttons"] = [{
            "index": index, "value": value, "text": text,
            "detail": str(control.details[index]) if control.details else "",
            "pressed": index == selected,
        } for index, (value, text) in enumerate(zip(view["values"], view["texts"]))]
    return view
