"""Each question resolved against the explainer's computed states: the state
that shows its answer, its options and right options, its number, or the set
of states that reach its goal, and its text rendered with that state's values.

The answers come from the model (expressions over a state's values), so they
cannot disagree with the charts; and what would make a question wrong or
pointless is an error at the file, line and field: a right option that is not
among the options, a goal that no state (or every state) reaches, a tolerance
that accepts a likely wrong number, a control value the step does not offer."""
from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass, field
from urllib.parse import quote

import jinja2

from ....compute.formats import formatter, plain, text as value_as_text
from ....errors import ContentError, Problem, did_you_mean
from ....render import markup
from ....render.prose import _MARKER, _SLOTS, TextRenderer, check_with_values
from ....render.templating import compile_expression, compile_string, render_problem
from ..compute import StepStates
from ..content import Explainer, value_text
from .content import Question

MAX_OPTIONS = 36  # SCORM 1.2 names a choice by one letter or digit (a-z, 0-9)
_UNDEFINED = re.compile(r"'([^']+)' is undefined|has no attribute '([^']+)'")
_FIRST_PARAGRAPH = re.compile(r"\s*<p>(.*?)</p>(.*)", re.S)


@dataclass
class Resolved:
    """A question as the page shows it, and everything its page data and SCORM need."""
    question: Question
    step_number: int              # as the page numbers steps (from 1)
    step_title: str
    key: str                      # the state that shows the answer (the link's)
    fragment: str                 # its deep link: step-3&s3=head:3,query:cat
    choices: list[tuple[str, str]]  # that state's controls: (label, the value's text), for a chart's answer
    example: list[tuple[str, str]]  # and (name, value as an address names it): an LMS's correct response
    legend: str                   # HTML: the question's first paragraph
    more: str                     # HTML: the rest of the question, if any
    right: str                    # HTML
    wrong: str                    # HTML
    options: list[str] = field(default_factory=list)   # choice: each option's text
    option_ids: list[str] = field(default_factory=list)  # and a name for it (SCORM 2004's identifier)
    correct: list[int] = field(default_factory=list)     # the indices of the right options
    answer: float | None = None   # number
    answer_text: str = ""         # the answer as shown (the number, or the right options)
    keys: list[str] = field(default_factory=list)        # chart: the states that reach the goal
    version: str = ""             # changes when what counts as right changes (kept answers are dropped)

    @property
    def id(self) -> str:
        return self.question.id


def resolve_quiz(explainer: Explainer, computed: list[StepStates], text: TextRenderer) -> list[Resolved]:
    """Every question of the explainer, resolved; ContentError with every problem."""
    errors: list[Problem] = []
    resolved = []
    for question in explainer.quiz:
        try:
            resolved.append(_resolve(question, computed[question.step], text))
        except ContentError as err:
            errors += err.problems
    if errors:
        raise ContentError(errors)
    return resolved


def _resolve(question: Question, states: StepStates, text: TextRenderer) -> Resolved:
    step = states.step
    state = _state(question, states)
    values = _context(state)
    found = Resolved(question, step.number, step.title, state.key, "", [], [], "", "", "", "")
    if question.kind == "choice":
        _choice(question, values, found)
    elif question.kind == "number":
        _number(question, values, found)
    else:
        state = _chart(question, states, state, found)
        values = _context(state)
    found.key = state.key
    found.fragment = fragment(states, state)
    found.choices = [(control.label, control.text(control.values.index(state.choice[control.name])))
                     for control in step.controls]
    found.example = [(control.name, value_text(state.choice[control.name])) for control in step.controls]
    html = _html(question, "main", values, text)
    match = _FIRST_PARAGRAPH.fullmatch(html)
    if not match:
        raise ContentError.one(question.path, "a question starts with a paragraph, its fieldset's legend (found "
                               f"{html.strip()[:40]!r})", question.part_lines.get("main"), "question")
    found.legend, found.more = match.group(1), match.group(2).strip()
    found.right, found.wrong = _html(question, "right", values, text), _html(question, "wrong", values, text)
    found.version = hashlib.sha256(json.dumps(
        [question.kind, found.option_ids, found.correct, found.answer, question.tolerance, found.keys]
    ).encode()).hexdigest()[:8]
    return found


def fragment(states: StepStates, state) -> str:
    """The deep link of a state of a step (docs/deep-links.md), with every control named,
    so that it sets the step even where the reader has moved it from its defaults."""
    step = states.step
    pairs = [f"{control.name}:{quote(value_text(state.choice[control.name]), safe=_URI_SAFE)}"
             for control in step.controls]
    return f"step-{step.number}" + (f"&s{step.number}={','.join(pairs)}" if pairs else "")


_URI_SAFE = "-_.!~*'()"  # what encodeURIComponent leaves as it is


def _state(question: Question, states: StepStates):
    """The state `state` names (defaults for the controls it leaves out)."""
    wanted = {}
    for control in states.step.controls:
        if control.name not in question.state:
            wanted[control.name] = control.default
            continue
        given = question.state[control.name]
        match = [v for v in control.values if _same(v, given)]
        if not match:
            shown = [value_text(v) for v in control.values]
            raise ContentError.one(question.path, f"control {control.name!r} of step {states.step.number} has no "
                                   f"value {given!r} (its values: {', '.join(shown)})"
                                   + did_you_mean(value_text(given), shown),
                                   question.line(f"state.{control.name}"), f"state.{control.name}")
        wanted[control.name] = match[0]
    return next(s for s in states.states if all(_same(s.choice[n], v) for n, v in wanted.items()))


def _same(value, given) -> bool:
    """A value as TOML gives it against a control's value: 3 and 3, or "3" and 3 (as an
    address names it), never true and 1."""
    if isinstance(value, bool) or isinstance(given, bool):
        return isinstance(value, bool) and isinstance(given, bool) and value == given
    return value == given or value_text(value) == value_text(given)


def _context(state) -> dict:
    return {**state.choice, **state.values}


def _evaluate(question: Question, key: str, source: str, values: dict, where: str = ""):
    """An expression's value in a state, made plain (numbers at the build's precision)."""
    try:
        result = compile_expression(source)(**values)
    except jinja2.TemplateSyntaxError as err:
        raise ContentError.one(question.path, f"cannot read the expression {source!r}: {err.message}",
                               question.line(key), key) from None
    except jinja2.UndefinedError as err:
        raise _undefined(question, key, str(err), values) from None
    except Exception as err:  # a filter given the wrong value, a division by zero, the sandbox's refusal
        raise ContentError.one(question.path, f"{source!r} failed{where}: {render_problem(err)[0]}",
                               question.line(key), key) from None
    if isinstance(result, jinja2.Undefined):
        raise _undefined(question, key, f"'{result._undefined_name}' is undefined", values)
    return plain(result)


def _undefined(question: Question, key: str, message: str, values: dict) -> ContentError:
    match = _UNDEFINED.search(message)
    name = next((g for g in match.groups() if g), None) if match else None
    return ContentError.one(question.path, f"names {name or message!r}, which the state does not have (it has: "
                            f"{', '.join(sorted(values))})" + (did_you_mean(name, values) if name else ""),
                            question.line(key), _FIELDS.get(key, key))


_FIELDS = {"main": "question"}  # a part's name in messages


def _literal_or(question: Question, key: str, values: dict):
    """A key's value: a string is an expression over the state's values; anything else is as written."""
    value = getattr(question, key)
    return _evaluate(question, key, value, values) if isinstance(value, str) else value


def _choice(question: Question, values: dict, found: Resolved) -> None:
    options = _literal_or(question, "options", values)
    if not isinstance(options, list) or not all(_is_option(o) for o in options):
        raise ContentError.one(question.path, f"expected a list of strings or numbers, found {options!r}",
                               question.line("options"), "options")
    texts = [value_as_text(o) for o in options]
    repeated = sorted({t for t in texts if texts.count(t) > 1})
    if len(options) < 2 or repeated or len(options) > MAX_OPTIONS:
        message = (f"offers {texts[0]!r} more than once" if repeated and len(options) >= 2 else
                   f"expected 2 to {MAX_OPTIONS} options, found {len(options)}")
        raise ContentError.one(question.path, message, question.line("options"), "options")
    answer = _literal_or(question, "answer", values)
    right = answer if isinstance(answer, list) else [answer]
    for item in right:
        if not _is_option(item) or value_as_text(item) not in texts:
            raise ContentError.one(question.path, f"the right answer {item!r} is not among the options "
                                   f"({', '.join(texts)})" + did_you_mean(value_as_text(item), texts),
                                   question.line("answer"), "answer")
    correct = sorted({texts.index(value_as_text(item)) for item in right})
    if not correct:
        raise ContentError.one(question.path, "names no right option", question.line("answer"), "answer")
    if len(correct) > 1 and not question.multiple:
        raise ContentError.one(question.path, f"{len(correct)} options are right ("
                               f"{', '.join(texts[i] for i in correct)}), but a reader picks one: set multiple = "
                               "true to let them pick several", question.line("answer"), "answer")
    found.options, found.correct = texts, correct
    found.option_ids = _identifiers(texts)
    found.answer_text = ", ".join(texts[i] for i in correct)


def _is_option(value) -> bool:
    return isinstance(value, (str, int, float)) and not isinstance(value, bool)


def _identifiers(texts: list[str]) -> list[str]:
    """A name for each option, made of its text ("T = 0.5" -> "t-0-5"): an LMS shows these."""
    ids = []
    for number, option in enumerate(texts, start=1):
        base = re.sub(r"[^a-z0-9]+", "-", option.lower()).strip("-") or f"option-{number}"
        name, n = base, 1
        while name in ids:
            n += 1
            name = f"{base}-{n}"
        ids.append(name)
    return ids


def _number(question: Question, values: dict, found: Resolved) -> None:
    answer = _literal_or(question, "answer", values)
    if not _is_number(answer):
        raise ContentError.one(question.path, f"expected a number, found {answer!r}", question.line("answer"),
                               "answer")
    distractors = _literal_or(question, "distractors", values)
    if not isinstance(distractors, list) or not all(_is_number(d) for d in distractors):
        raise ContentError.one(question.path, f"expected a list of numbers, found {distractors!r}",
                               question.line("distractors"), "distractors")
    for wrong in distractors:
        if accepts(answer, question.tolerance, wrong):
            what = "is the answer itself" if wrong == answer else f"is within the tolerance of the answer {answer}"
            raise ContentError.one(question.path, f"a tolerance of {question.tolerance:g} accepts the likely "
                                   f"wrong answer {wrong} (it {what})", question.line("tolerance")
                                   or question.line("distractors"), "tolerance")
    try:
        shown = formatter(question.format)(answer)
    except (TypeError, ValueError) as err:
        raise ContentError.one(question.path, f"the answer {answer} cannot be shown as {question.format!r} ({err})",
                               question.line("format"), "format") from None
    found.answer, found.answer_text = answer, shown


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def accepts(answer: float, tolerance: float, value: float) -> bool:
    """Whether `value` counts as `answer`: within the tolerance, give or take the last
    digits a float cannot hold (questions.js decides the same way)."""
    return abs(value - answer) <= tolerance + 1e-9 * max(1.0, abs(answer))


def _chart(question: Question, states: StepStates, named, found: Resolved):
    """The states that reach the goal; the state the link opens (the one `state`
    names, or the closest to the defaults that reaches it)."""
    reached = []
    for state in states.states:
        label = ", ".join(f"{k}={v!r}" for k, v in state.choice.items())
        result = _evaluate(question, "goal", question.goal, _context(state), f" for {label}")
        if not isinstance(result, bool):
            raise ContentError.one(question.path, f"expected a condition, true or false, found {result!r} for "
                                   f"{label}", question.line("goal"), "goal")
        if result:
            reached.append(state)
    total = len(states.states)
    if not reached:
        raise ContentError.one(question.path, f"no state of step {states.step.number} reaches the goal "
                               f"{question.goal!r} (of its {total:,}): the question has no answer",
                               question.line("goal"), "goal")
    if len(reached) == total:
        raise ContentError.one(question.path, f"every state of step {states.step.number} ({total:,}) reaches the "
                               f"goal {question.goal!r}: the reader has nothing to find", question.line("goal"),
                               "goal")
    if question.state:
        if named not in reached:
            raise ContentError.one(question.path, f"this state does not reach the goal {question.goal!r}, so its "
                                   "link would not show the answer", question.line("state"), "state")
        shown = named
    else:
        default = states.by_key(states.default_key)
        shown = min(reached, key=lambda s: _distance(states, default, s))
    found.keys = [state.key for state in reached]
    return shown


def _distance(states: StepStates, default, state) -> tuple:
    """How far a state is from the step's defaults: controls changed, then positions moved."""
    moved = [abs(c.values.index(state.choice[c.name]) - c.values.index(default.choice[c.name]))
             for c in states.step.controls]
    return sum(1 for m in moved if m), sum(moved), states.states.index(state)


def _html(question: Question, part: str, values: dict, text: TextRenderer) -> str:
    """A part of the question (the question, or its feedback) as HTML, rendered with the
    state's values as a step's prose is: Jinja, then Markdown (render/prose.py)."""
    source = {"main": question.text, "right": question.right, "wrong": question.wrong}[part]
    first = question.part_lines.get(part)
    try:
        template = compile_string(text.html_env, source)
    except jinja2.TemplateSyntaxError as err:
        line = first + err.lineno - 1 if first and err.lineno else first
        raise ContentError.one(question.path, f"template syntax error: {err.message}", line,
                               _FIELDS.get(part, part)) from None
    slots: list[str] = []
    try:
        rendered = template.render(**values, **{_SLOTS: slots})
    except jinja2.UndefinedError as err:
        raise _undefined(question, part, str(err), values) from None
    except Exception as err:  # a filter given the wrong kind of value, the sandbox's refusal
        message, line = render_problem(err)
        raise ContentError.one(question.path, message, first + line - 1 if first and line else first,
                               _FIELDS.get(part, part)) from None
    html = text.to_html(rendered, question.path)  # HTML prose may not hold is an error at the file
    filled = _MARKER.sub(lambda m: slots[int(m.group(1))], html)
    if markup.in_tags(html, "\ue000"):  # a value in a tag of the author's (a link's address): checked with it in
        check_with_values(filled, question.path)
    return filled
