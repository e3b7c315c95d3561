"""Render the Markdown prose of every state, and of each step's static parts.

Prose is rendered at build time for every state, so the page needs no
template engine and every sentence goes through the same checks as the data.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import jinja2
import markdown
import markupsafe
from markdown.extensions.abbr import AbbrExtension
from markdown.extensions.attr_list import AttrListExtension
from markdown.extensions.def_list import DefListExtension
from markdown.extensions.fenced_code import FencedCodeExtension
from markdown.extensions.footnotes import FootnoteExtension
from markdown.extensions.md_in_html import MarkdownInHtmlExtension
from markdown.extensions.sane_lists import SaneListExtension
from markdown.extensions.tables import TableExtension

from ..cache.build import BuildCache
from ..load.content import Explainer, Site, Step
from ..cache.disk import digest, kept
from ..errors import ContentError, Problem
from ..load.schema import line_of
from ..compute.states import StepStates
from .templating import compile_string, make_env

# "extra" and "sane_lists", given as objects: naming them makes Markdown scan
# every installed package's metadata for extensions, which costs more than a build's prose.
_MARKDOWN_EXTENSIONS = (AbbrExtension, AttrListExtension, DefListExtension, FencedCodeExtension,
                        FootnoteExtension, MarkdownInHtmlExtension, TableExtension, SaneListExtension)
_UNDEFINED = re.compile(r"'(?:[^']*object' has no attribute '|)([^']+)' is undefined|has no attribute '([^']+)'")


@dataclass
class StepProse:
    states: dict[str, tuple[str, str]]   # state key -> (prose HTML, chart summary text)
    hint: str                            # HTML
    deeper: str                          # HTML


class MarkdownRenderer:
    """Markdown to HTML, kept (diskcache.kept): many states render to the same
    text, and a build renders mostly the texts of the build before. What is kept
    is shared by every renderer (the output depends only on the text), in memory
    for the rest of the process and on disk for the next build."""

    def __init__(self):
        self._md = None  # made on first use: a renderer whose texts are all kept needs none

    def __call__(self, text: str) -> str:
        return kept("markdown", digest(_MARKDOWN_VERSION, text), lambda: self._convert(text))

    def _convert(self, text: str) -> str:
        if self._md is None:
            self._md = markdown.Markdown(extensions=[make() for make in _MARKDOWN_EXTENSIONS], output_format="html")
        return self._md.reset().convert(text)


# What the HTML of a text depends on, besides the text: the library and the extensions in use.
_MARKDOWN_VERSION = f"{markdown.__version__} {[e.__name__ for e in _MARKDOWN_EXTENSIONS]} html"


# While a state's prose goes through Markdown, each value it prints stands as a
# numbered marker; the values go back into the HTML afterwards. States whose
# prose differs only in its numbers then share one Markdown conversion (the
# costly part), and a value always reads as text, never as Markdown syntax.
_SLOTS = "_printed_values"
_MARKER = re.compile("\ue000(\\d+)\ue001")


@jinja2.pass_context
def _to_slot(context, value):
    slots = context.get(_SLOTS)
    if slots is None:
        return value
    slots.append(str(markupsafe.escape(value)))  # autoescape's job, done here for the real value
    return f"\ue000{len(slots) - 1}\ue001"


def render_prose(site: Site, computed: dict[str, list[StepStates]],
                 cache: BuildCache | None = None) -> dict[str, list[StepProse]]:
    """The prose of every state of every step; with a cache, an explainer whose
    folder is unchanged is not rendered again."""
    cache = cache or BuildCache()
    html_env, text_env = make_env(autoescape=True, finalize=_to_slot), make_env(autoescape=False)
    to_html = MarkdownRenderer()
    errors: list[Problem] = []
    result = {}
    for explainer in site.explainers:
        def make(explainer=explainer):
            return _render_explainer(explainer, computed[explainer.slug], html_env, text_env, to_html)
        try:
            result[explainer.slug] = cache.prose(explainer, make)
        except ContentError as err:
            errors += err.problems
    if errors:
        raise ContentError(errors)
    return result


def _render_explainer(explainer: Explainer, computed: list[StepStates], html_env, text_env,
                      to_html) -> list[StepProse]:
    errors: list[Problem] = []
    steps = []
    for step_states in computed:
        try:
            steps.append(_render_step(explainer, step_states, html_env, text_env, to_html))
        except ContentError as err:
            errors += err.problems
    if errors:
        raise ContentError(errors)
    return steps


def render_markdown(text: str, to_html: MarkdownRenderer | None = None) -> str:
    return (to_html or MarkdownRenderer())(text)


def _render_step(explainer: Explainer, computed: StepStates, html_env, text_env, to_html) -> StepProse:
    step = computed.step
    prose = _compile(html_env, step.prose, step, "prose", step.prose_line)
    summary_line = line_of(_source(step), "summary")
    summary = _compile(text_env, step.summary, step, "summary", summary_line) if step.summary else None
    states = {}
    markers = "\ue000" not in step.prose  # an author's own private-use characters turn them off
    for state in computed.states:
        slots: list[str] | None = [] if markers else None
        text = _render(prose, state.values, explainer, step, "prose", state.choice, slots=slots)
        html = _MARKER.sub(lambda m: slots[int(m.group(1))], to_html(text)) if markers else to_html(text)
        text = _render(summary, state.values, explainer, step, "summary", state.choice) if summary else ""
        states[state.key] = (html, " ".join(text.split()))
    static = {}
    for part in ("hint", "deeper"):
        source = getattr(step, part)
        template = _compile(html_env, source, step, part, step.part_lines.get(part)) if source else None
        static[part] = to_html(_render(template, computed.constants, explainer, step, part, None,
                                       all_values=computed.states[0].values)) if template else ""
    return StepProse(states=states, hint=static["hint"], deeper=static["deeper"])


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
        return template.render(**values, **{_SLOTS: slots}) if slots is not None else template.render(**values)
    except jinja2.UndefinedError as err:
        match = _UNDEFINED.search(str(err))
        name = next((g for g in match.groups() if g), None) if match else None
        where = f"explainer {explainer.slug}, step {step.number} ({step.path.name}), template {part}"
        line = _line_using(step, part, name)
        if all_values is not None and name in all_values:
            message = (f"{where}: value {name!r} changes with the controls; hint and deeper may use "
                       "only values that are the same in every state")
        else:
            known = ", ".join(sorted(all_values or values))
            message = f"{where}: uses undefined value {name or str(err)!r} (the state has: {known})"
        raise ContentError.one(step.path, message, line=line, field=part) from None
    except Exception as err:  # a filter given the wrong kind of value, a bad expression
        state = ", ".join(f"{k}={v!r}" for k, v in (choice or {}).items())
        raise ContentError.one(step.path, f"explainer {explainer.slug}, step {step.number}, template {part}: "
                               f"{type(err).__name__}: {err}" + (f" (state {state})" if state else ""),
                               field=part) from None


def _source(step: Step) -> str:
    try:
        return step.path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def _line_using(step: Step, part: str, name: str | None) -> int | None:
    """The file line where a template part first names `name`, best effort."""
    if part == "summary":
        return line_of(_source(step), "summary")
    first = step.prose_line if part == "prose" else step.part_lines.get(part)
    source = {"prose": step.prose, "hint": step.hint, "deeper": step.deeper}.get(part, "")
    if not first or not name:
        return first
    pattern = re.compile(rf"{{[{{%][^}}]*\b{re.escape(name)}\b")
    for offset, text in enumerate(source.split("\n")):
        if pattern.search(text):
            return first + offset
    return first

