"""Render the Markdown prose of every state, and of each step's static parts.

Prose is rendered at build time for every state, so the page needs no
template engine and every sentence goes through the same checks as the data.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import jinja2
import markdown

from .content import Explainer, Site, Step
from .errors import ContentError, Problem
from .states import StepStates
from .templating import make_env

_MARKDOWN_EXTENSIONS = ["extra", "sane_lists"]
_UNDEFINED = re.compile(r"'(?:[^']*object' has no attribute '|)([^']+)' is undefined|has no attribute '([^']+)'")


@dataclass
class StepProse:
    states: dict[str, tuple[str, str]]   # state key -> (prose HTML, chart summary text)
    hint: str                            # HTML
    deeper: str                          # HTML


class MarkdownRenderer:
    """Markdown to HTML, memoised: many states render to the same text."""

    def __init__(self):
        self._md = markdown.Markdown(extensions=_MARKDOWN_EXTENSIONS, output_format="html")
        self._cache: dict[str, str] = {}

    def __call__(self, text: str) -> str:
        if text not in self._cache:
            self._cache[text] = self._md.reset().convert(text)
        return self._cache[text]


def render_prose(site: Site, computed: dict[str, list[StepStates]]) -> dict[str, list[StepProse]]:
    html_env, text_env = make_env(autoescape=True), make_env(autoescape=False)
    to_html = MarkdownRenderer()
    errors: list[Problem] = []
    result = {}
    for explainer in site.explainers:
        steps = []
        for step_states in computed[explainer.slug]:
            try:
                steps.append(_render_step(explainer, step_states, html_env, text_env, to_html))
            except ContentError as err:
                errors += err.problems
        result[explainer.slug] = steps
    if errors:
        raise ContentError(errors)
    return result


def render_markdown(text: str, to_html: MarkdownRenderer | None = None) -> str:
    return (to_html or MarkdownRenderer())(text)


def _render_step(explainer: Explainer, computed: StepStates, html_env, text_env, to_html) -> StepProse:
    step = computed.step
    prose = _compile(html_env, step.prose, step, "prose", step.prose_line)
    summary = _compile(text_env, step.summary, step, "summary", None) if step.summary else None
    states = {}
    for state in computed.states:
        html = to_html(_render(prose, state.values, explainer, step, "prose", state.choice))
        text = _render(summary, state.values, explainer, step, "summary", state.choice) if summary else ""
        states[state.key] = (html, " ".join(text.split()))
    static = {}
    for part in ("hint", "deeper"):
        source = getattr(step, part)
        template = _compile(html_env, source, step, part, None) if source else None
        static[part] = to_html(_render(template, computed.constants, explainer, step, part, None,
                                       all_values=computed.states[0].values)) if template else ""
    return StepProse(states=states, hint=static["hint"], deeper=static["deeper"])


def _compile(env: jinja2.Environment, source: str, step: Step, part: str, first_line: int | None):
    try:
        return env.from_string(source)
    except jinja2.TemplateSyntaxError as err:
        line = first_line + err.lineno - 1 if first_line and err.lineno else None
        raise ContentError.one(step.path, f"template syntax error in {part}: {err.message}", line=line,
                               field=part) from None


def _render(template, values: dict, explainer: Explainer, step: Step, part: str, choice: dict | None,
            all_values: dict | None = None) -> str:
    try:
        return template.render(**values)
    except jinja2.UndefinedError as err:
        match = _UNDEFINED.search(str(err))
        name = next((g for g in match.groups() if g), None) if match else None
        where = f"{explainer.slug}, step {step.number}, {part}"
        if all_values is not None and name in all_values:
            message = (f"{where}: value {name!r} changes with the controls; hint and deeper may use "
                       "only values that are the same in every state")
        else:
            known = ", ".join(sorted(all_values or values))
            message = f"{where}: uses undefined value {name or str(err)!r} (the state has: {known})"
        raise ContentError.one(step.path, message, field=part) from None
    except Exception as err:  # a filter given the wrong kind of value, a bad expression
        state = ", ".join(f"{k}={v!r}" for k, v in (choice or {}).items())
        raise ContentError.one(step.path, f"{explainer.slug}, step {step.number}, {part}: "
                               f"{type(err).__name__}: {err}" + (f" (state {state})" if state else ""),
                               field=part) from None

