"""An explainer's outputs: its page (every step, with the series around it),
the whole explainer as an embed (embed/<slug>/index.html), each step alone as
an embed (embed/<slug>/step-<n>.html), and the single-file copy of its page.

An embed has no site navigation, only a small link to the full explainer, and
runs with no script on the host page, because LMS editors such as Canvas and
Moodle strip scripts but keep iframes. A step embed carries only its own step's
data, so it stays small."""
from __future__ import annotations

from dataclasses import dataclass, field

from ...render import seo
from ...render.pages import Page, RenderContext, split_questions
from ...render.sharing import EmbedCode, embed_code
from ...render.urls import Urls, embed_path, offline_path, page_path
from .compute import StepStates
from .content import Explainer, Step
from .payload import chart_payload, explainer_payload, step_payload
from .text import StepProse

# Room an embedded step needs besides its chart, in CSS pixels at a typical course-page
# width (about 800px): the link back, the step heading, the readouts and the prose.
# The embed reports its real height once it has loaded; this only sets the first guess.
_STEP_CHROME = 720
_CONTROL_ROW = 60
_HEADER = 400  # the whole explainer's title, subtitle and introduction


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
    poster: str = ""                           # the default state drawn, until Plotly draws it
    embed: EmbedCode | None = None             # the iframe code offered by the step's Embed button


def render_explainer(explainer: Explainer, steps: list[StepStates], prose: list[StepProse],
                     context: RenderContext) -> list[Page]:
    charts = context.cache.charts(explainer, context.site,
                                  make=lambda: chart_payload(steps, context.site.config.labels))
    # The page and the whole-explainer embed carry the same data.
    payload = context.cache.page(explainer, context.site, context.theme, context.assets, kind="payload",
                                 make=lambda: explainer_payload(charts, steps, prose))
    page = _explainer_page(explainer, steps, prose, payload, context)
    return [page, *_embeds(explainer, steps, prose, charts, payload, context)]


def _explainer_page(explainer: Explainer, steps: list[StepStates], step_prose: list[StepProse], payload: str,
                    context: RenderContext) -> Page:
    path = page_path(explainer.slug)
    urls = context.urls(path)
    labels = context.site.config.labels
    views = []
    for states, texts in zip(steps, step_prose):
        view = step_view(states, texts, len(steps), states.tables(labels)[states.default_key])
        view.embed = step_embed_code(urls, explainer, states.step)
        views.append(view)
    to_html = context.to_html
    questions = split_questions(explainer.questions, to_html)
    html = context.theme.render(
        "explainer.html", **context.common(urls), explainer=explainer, steps=views,
        payload=payload, intro=to_html(explainer.intro), key_ideas=to_html(explainer.key_ideas),
        questions=questions, description=seo.description_of(explainer), updated=context.date(explainer.updated),
        series=context.series(urls, explainer.slug), related=context.related(explainer, urls),
        neighbours=context.neighbours(explainer, urls), head=seo.article_head(context.site, explainer, questions),
        offline_href=urls.offline(explainer.slug), explainer_embed=step_embed_code(urls, explainer, None),
    )
    return Page(path, html, updated=explainer.updated, offline_copy=offline_path(explainer.slug),
                source=explainer.slug)


def _embeds(explainer: Explainer, step_states: list[StepStates], step_prose: list[StepProse], charts,
            payload: str, context: RenderContext) -> list[Page]:
    steps = list(zip(step_states, step_prose))
    labels = context.site.config.labels
    # Figures and tables are made once per step and shared with the explainer page.
    views = [step_view(states, texts, len(steps), states.tables(labels)[states.default_key])
             for states, texts in steps]
    to_html = context.to_html
    whole = embed_path(explainer.slug)
    html = context.theme.render(
        "embed.html", **_embed_context(context, explainer, context.urls(whole), None), steps=views,
        payload=payload, intro=to_html(explainer.intro), key_ideas=to_html(explainer.key_ideas),
    )
    pages = [Page(whole, html, indexed=False, source=explainer.slug)]
    for index, ((states, texts), view) in enumerate(zip(steps, views)):
        path = embed_path(explainer.slug, view.number)
        html = context.theme.render(
            "embed.html", **_embed_context(context, explainer, context.urls(path), view.number), steps=[view],
            payload=step_payload(charts, index, states, texts), intro="", key_ideas="", show_pager=False,
            show_deeper=False, step_index=0,
        )
        pages.append(Page(path, html, indexed=False, source=explainer.slug))
    return pages


def _embed_context(context: RenderContext, explainer: Explainer, urls: Urls, step_number: int | None) -> dict:
    full = urls.published(page_path(explainer.slug)) or urls.page(explainer.slug)
    if step_number is not None:
        full += f"#step-{step_number}"
    return {
        **context.common(urls), "explainer": explainer, "description": seo.description_of(explainer),
        "embed_step": step_number, "full_href": full,
        # The full explainer is the page for search results, not its embeds.
        "head": seo.Head(robots="noindex"),
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
    return step.chart.height + _STEP_CHROME + _CONTROL_ROW * len(step.controls)


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
        wide=step.chart.wide, chart_title=step.chart.title, table=table, poster=states.poster,
    )
