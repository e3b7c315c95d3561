"""The text of an explainer: each step's prose and chart summary in every
state, and its hint and deeper parts (which may use only values equal in every
state). Rendered at build time for every state, so the page needs no template
engine and every sentence goes through the same checks as the data."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import jinja2

from ...errors import ContentError, Problem, did_you_mean
from ...load.toml_lines import line_of
from ...render import markup
from ...render.prose import _MARKER, _SLOTS, TextRenderer, check_with_values
from ...render.templating import compile_string, render_problem
from .compute import StepStates
from .content import Explainer, Step

_MARKER_START = "\ue000"  # how a value's marker starts (prose.py)
_UNDEFINED = re.compile(r"'(?:[^']*object' has no attribute '|)([^']+)' is undefined|has no attribute '([^']+)'")


@dataclass
class StepProse:
    states: dict[str, tuple[str, str]]   # state key -> (prose HTML, the first chart's summary text)
    hint: str                            # HTML
    deeper: str                          # HTML
    summaries: dict[str, list[str]] = field(default_factory=dict)  # state key -> every chart's summary
    practitioners: str = ""              # HTML, shown in a closed box


def render_explainer_text(explainer: Explainer, computed: list[StepStates], text: TextRenderer) -> list[StepProse]:
    html_env, text_env, to_html = text.html_env, text.text_env, text.to_html
    errors: list[Problem] = []
    steps = []
    for step_states in computed:
        try:
            steps.append(_render_step(explainer, step_states, html_env, text_env, to_html, text.plain))
        except ContentError as err:
            errors += err.problems
    if errors:
        raise ContentError(errors)
    return steps


def _render_step(explainer: Explainer, computed: StepStates, html_env, text_env, to_html, plain) -> StepProse:
    step = computed.step
    prose = _compile(html_env, step.prose, step, "prose", step.prose_line)
    several = len(step.charts) > 1 or step.summaries != [step.summary]
    parts = [f"charts[{i}].summary" if several else "summary" for i in range(len(step.summaries))]
    summaries = [_compile(text_env, source, step, part, _summary_line(step, part)) if source else None
                 for source, part in zip(step.summaries, parts)]
    states, texts = {}, {}
    markers = _MARKER_START not in step.prose  # an author's own private-use characters turn them off
    in_tags: dict[str, bool] = {}  # HTML of the prose with markers -> whether one is inside a tag
    for state in computed.states:
        slots: list[str] | None = [] if markers else None
        text = _render(prose, state.values, explainer, step, "prose", state.choice, slots=slots)
        html = to_html(text, step.path)
        if markers:
            marked = in_tags.get(html)
            if marked is None:
                marked = in_tags[html] = markup.in_tags(html, _MARKER_START)
            html = _MARKER.sub(lambda m: slots[int(m.group(1))], html)
            if marked:  # a value in a tag of the author's (a link's address): checked with it in
                check_with_values(html, step.path)
        # A summary is plain text (a caption, a figure's alt text): math and citations in their plain forms.
        shown = [plain(" ".join(_render(summary, state.values, explainer, step, part, state.choice).split()))
                 if summary else "" for summary, part in zip(summaries, parts)]
        states[state.key] = (html, shown[0] if shown else "")
        texts[state.key] = shown
    static = {}
    for part in ("hint", "deeper", "practitioners"):
        source = getattr(step, part)
        template = _compile(html_env, source, step, part, step.part_lines.get(part)) if source else None
        static[part] = to_html(_render(template, computed.constants, explainer, step, part, None,
                                       all_values=computed.states[0].values), step.path) if template else ""
    return StepProse(states=states, hint=static["hint"], deeper=static["deeper"], summaries=texts,
                     practitioners=static["practitioners"])


def _compile(env: jinja2.Environment, source: str, step: Step, part: str, first_line: int | None):
    try:
        return compile_string(env, source)
    except jinja2.TemplateSyntaxError as err:
        line = first_line + err.lineno - 1 if first_line and err.lineno else first_line
        raise ContentError.one(step.path, f"step {step.number}, {part}: template syntax error: {err.message}",
                               line=line, field=part) from None


def _render(template, values: dict, explainer: Explainer, step: Step, part: str, choice: dict | None,
            all_values: dict | None = None, slots: list | None = None) -> str:
    try:
        return template.render({**values, _SLOTS: slots} if slots is not None else values)
    except jinja2.UndefinedError as err:
        match = _UNDEFINED.search(str(err))
        name = next((g for g in match.groups() if g), None) if match else None
        where = f"explainer {explainer.slug}, step {step.number} ({step.path.name}), template {part}"
        line = _line_using(step, part, name)
        if all_values is not None and name in all_values:
            message = (f"{where}: value {name!r} changes with the controls; hint, deeper and practitioners parts may use "
                       "only values that are the same in every state")
        else:
            known = ", ".join(sorted(all_values or values))
            near = did_you_mean(name, all_values or values) if name else ""
            message = f"{where}: uses undefined value {name or str(err)!r}{near} (the state has: {known})"
        raise ContentError.one(step.path, message, line=line, field=part) from None
    except Exception as err:  # a filter given the wrong kind of value, a bad expression, the sandbox's refusal
        state = ", ".join(f"{k}={v!r}" for k, v in (choice or {}).items())
        message, line = render_problem(err)
        first = _first_line(step, part)
        raise ContentError.one(step.path, f"explainer {explainer.slug}, step {step.number}, template {part}: "
                               f"{message}" + (f" (state {state})" if state else ""),
                               line=first + line - 1 if first and line else first, field=part) from None


def _summary_line(step: Step, part: str) -> int | None:
    """The line of a summary: the step's `summary`, or `charts[i].summary`."""
    if part == "summary":
        return line_of(_source(step), "summary")
    prefix = part[:-len("summary")]
    return line_of(_source(step), "summary", prefix) or line_of(_source(step), None, prefix)


def _source(step: Step) -> str:
    try:
        return step.path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def _first_line(step: Step, part: str) -> int | None:
    """The file line where a template part starts."""
    if part.endswith("summary"):
        return _summary_line(step, part)
    return step.prose_line if part == "prose" else step.part_lines.get(part)


def _line_using(step: Step, part: str, name: str | None) -> int | None:
    """The file line where a template part first names `name`, best effort."""
    first = _first_line(step, part)
    if part.endswith("summary"):
        return first
    source = {"prose": step.prose, "hint": step.hint, "deeper": step.deeper,
              "practitioners": step.practitioners}.get(part, "")
    if not first or not name:
        return first
    pattern = re.compile(rf"{{[{{%][^}}]*\b{re.escape(name)}\b")
    for offset, text in enumerate(source.split("\n")):
        if pattern.search(text):
            return first + offset
    return first

