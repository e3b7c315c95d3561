"""Compute every state of every step: each combination of control values is
passed to the step's function in model.py, and what comes back is checked
(finite numbers, the values readouts need, chart data of the right shape)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType

import numpy as np

from ...compute.formats import formatter, plain
from ...compute.states import State, finite, grid
from ...errors import ContentError, Problem
from ...load.models import line_in
from ...load.schema import line_of
from ...render import charts
from ...render.poster import poster
from .content import Explainer, Step


@dataclass
class StepStates:
    step: Step
    states: list[State]      # in enumeration order; the first is not the default
    default_key: str
    constants: dict          # values equal in every state (usable in hint/deeper)
    # Each state's Plotly figure, filled on first use; the dict itself is handed on
    # when the dev server reuses these states for a rebuild, so figures are made once.
    figure_memo: dict = field(default_factory=dict, repr=False, compare=False)
    table_memo: dict = field(default_factory=dict, repr=False, compare=False)  # the same, for data tables
    poster_memo: dict = field(default_factory=dict, repr=False, compare=False)  # and for the default's drawing

    def by_key(self, key: str) -> State:
        return self._index[key]

    def __post_init__(self):
        self._index = {s.key: s for s in self.states}

    @property
    def figures(self) -> dict[str, dict]:
        """Each state's Plotly figure, made once: the dev server keeps a step's
        states while its model and declarations (the chart's among them) are
        unchanged, so a prose edit redraws no figure."""
        if not self.figure_memo:
            kind = charts.get(self.step.chart.kind)
            self.figure_memo.update({s.key: kind.figure(self.step.chart, s.chart) for s in self.states})
        return self.figure_memo

    @property
    def poster(self) -> str:
        """The default state drawn as a still picture for the page's HTML (render/poster.py)."""
        if self.default_key not in self.poster_memo:
            self.poster_memo.clear()
            self.poster_memo[self.default_key] = poster(self.figures[self.default_key])
        return self.poster_memo[self.default_key]

    def tables(self, labels: dict) -> dict[str, dict]:
        """Each state's chart data table, in the words of `labels`, made once per labels."""
        key = repr(sorted(labels.items()))
        if key not in self.table_memo:
            kind = charts.get(self.step.chart.kind)
            self.table_memo.clear()  # only the site's current labels are worth keeping
            self.table_memo[key] = {s.key: kind.table(self.step.chart, s.chart, labels) for s in self.states}
        return self.table_memo[key]


def compute_explainer(explainer: Explainer, model: ModuleType, max_states: int,
                      cache=None) -> list[StepStates]:
    """`cache` (a BuildCache) lends the memo tables that let equal arrays be
    converted and checked once."""
    memos = _Memos(cache.memo("finite"), cache.memo("arrays", limit=512)) if cache else _Memos(None, None)
    resolve_controls(explainer, model, memos.arrays)
    errors: list[Problem] = []
    result = []
    for step in explainer.steps:
        try:
            result.append(compute_step(step, getattr(model, step.compute), max_states, explainer, memos))
        except ContentError as err:
            errors += err.problems
    if errors:
        raise ContentError(errors)
    return result


def adopt(cached: list[StepStates], explainer: Explainer) -> list[StepStates]:
    """Attach reused states to this build's steps (whose prose may be new), with
    the control values resolved when the states were computed."""
    adopted = []
    for step, states in zip(explainer.steps, cached):
        step.controls = states.step.controls
        adopted.append(StepStates(step, states.states, states.default_key, states.constants, states.figure_memo,
                                  states.table_memo, states.poster_memo))
    return adopted


@dataclass
class _Memos:
    finite: dict | None   # id of a shared array -> (the array, whether all finite)
    arrays: dict | None   # an array's bytes -> its shared list (formats.plain)


def compute_step(step: Step, function, max_states: int, explainer: Explainer,
                 memos: _Memos | None = None) -> StepStates:
    memos = memos or _Memos(None, None)
    sizes = [len(c.values) for c in step.controls]
    total = math.prod(sizes)
    if total > max_states:
        raise ContentError.one(step.path, f"has {total:,} control combinations "
                               f"({' × '.join(map(str, sizes))}), more than max_states = {max_states:,} "
                               "(raise it in site.toml or offer fewer values)", field="controls")
    kind = charts.get(step.chart.kind)  # the schema allows only known kinds and formats
    formatters = [formatter(readout.format) for readout in step.readouts]
    where = f"{explainer.slug}, step {step.number} ({step.compute})"
    states = []
    for indices, key, to in grid(sizes):
        choice = {c.name: c.values[i] for c, i in zip(step.controls, indices)}
        label = ", ".join(f"{k}={v!r}" for k, v in choice.items()) or "its only state"
        try:
            output = function(**choice)
        except Exception as err:  # author code: name the step and the state
            raise ContentError.one(explainer.model_path, f"{where} failed for {label}: "
                                   f"{type(err).__name__}: {err}",
                                   line=line_in(explainer.model_path, err)) from None
        values, chart_data = _check_output(output, step, where, label, kind, memos)
        readouts = []
        for readout, fmt in zip(step.readouts, formatters):
            if readout.value not in values:
                raise ContentError.one(step.path, f"{where} returned no value {readout.value!r} "
                                       f"(it returned: {', '.join(sorted(values))})", field="readouts")
            try:
                readouts.append(fmt(values[readout.value]))
            except (TypeError, ValueError) as err:
                raise ContentError.one(step.path, f"value {readout.value!r} = {values[readout.value]!r} "
                                       f"cannot be shown as {readout.format!r} ({err})",
                                       field="readouts") from None
        states.append(State(key, choice, values, chart_data, readouts, to))
    default_key = ".".join(str(c.values.index(c.default)) for c in step.controls)
    constants = {
        name: value for name, value in states[0].values.items()
        if all(s.values.get(name) == value for s in states[1:])
    }
    return StepStates(step, states, default_key, constants)


def _check_output(output, step: Step, where: str, label: str, kind, memos: _Memos) -> tuple[dict, dict]:
    path = step.path
    if not isinstance(output, dict) or not isinstance(output.get("values"), dict):
        raise ContentError.one(path, f"{where} must return a dict with 'values' and 'chart' dicts, "
                               f"found {type(output).__name__}")
    if not isinstance(output.get("chart"), dict):
        raise ContentError.one(path, f"{where} returned no 'chart' dict for {label}")
    values = {str(k): plain(v, memos.arrays) for k, v in output["values"].items()}
    for name, value in values.items():
        if not finite(value, memos.finite):
            raise ContentError.one(path, f"{where} returned a NaN or infinite value {name!r} for {label}")
    chart_data = {str(k): _as_plain_array(v, memos.arrays) for k, v in output["chart"].items()}
    unknown = sorted(set(chart_data) - set(kind.DATA))
    if unknown:  # most likely a misspelt key, whose data would silently go missing
        raise ContentError.one(path, f"{where} returned {step.chart.kind} chart data with unknown key "
                               f"{unknown[0]!r} for {label} (it takes: {', '.join(kind.DATA)})", field="chart")
    for name, value in chart_data.items():
        if not finite(value, memos.finite):
            raise ContentError.one(path, f"{where} returned NaN or infinite chart data {name!r} for {label}")
    message = kind.check(chart_data)
    if message:
        raise ContentError.one(path, f"{where} returned bad {step.chart.kind} chart data for {label}: "
                               f"{message}", field="chart")
    return values, chart_data


def _as_plain_array(value, arrays):
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], np.ndarray):
        return [plain(v, arrays) for v in value]
    return plain(value, arrays)


def resolve_controls(explainer: Explainer, model: ModuleType, arrays: dict | None = None) -> None:
    """Replace control values and details named by model.py lists with the lists themselves."""
    errors: list[Problem] = []
    for step in explainer.steps:
        resolved = []
        text = _source(step.path)
        for index, control in enumerate(step.controls):
            where = f"controls[{index}]"

            def line(key: str, where=where) -> int | None:
                return line_of(text, key, where + ".") or line_of(text, None, where + ".")

            values, details = control.values, control.details
            if control.values_from:
                values = _model_list(model, control.values_from, step.path, where + ".values", errors,
                                     line("values"), arrays)
                if values is not None and control.default not in values:
                    errors.append(Problem(step.path, f"expected one of {list(values)!r} (model.py's "
                                          f"{control.values_from}), found {control.default!r}",
                                          line("default"), where + ".default"))
            if control.details_from:
                details = _model_list(model, control.details_from, step.path, where + ".details", errors,
                                      line("details"), arrays)
            if values is not None and details is not None and len(details) != len(values):
                errors.append(Problem(step.path, f"expected {len(values)} details (one per value), "
                                      f"found {len(details)}", line("details"), where + ".details"))
            resolved.append(replace(control, values=tuple(values or ()),
                                    details=tuple(details) if details is not None else None))
        step.controls = resolved
        if not callable(getattr(model, step.compute, None)):
            errors.append(Problem(step.path, f"model.py defines no function {step.compute!r}",
                                  line_of(text, "compute"), "compute"))
    if errors:
        raise ContentError(errors)


def _model_list(model, name, path, field, errors, line=None, arrays=None):
    if not hasattr(model, name):
        errors.append(Problem(path, f"model.py defines no list {name!r}", line, field))
        return None
    value = getattr(model, name)
    try:
        value = list(value)
    except TypeError:
        errors.append(Problem(path, f"expected model.py's {name!r} to be a list, found "
                              f"{type(value).__name__}", line, field))
        return None
    if not value:
        errors.append(Problem(path, f"model.py's {name!r} is empty: a control needs at least one value",
                              line, field))
        return None
    if len({str(v) for v in value}) != len(value):
        errors.append(Problem(path, f"model.py's {name!r} has repeated values", line, field))
        return None
    return [plain(v, arrays) for v in value]


def _source(path: Path) -> str:
    try:
        return path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
