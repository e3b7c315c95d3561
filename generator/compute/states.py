"""Compute every state of every step: each combination of control values is
passed to the step's function in model.py, and what comes back is checked
(finite numbers, the values readouts need, chart data of the right shape)."""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from types import ModuleType

import numpy as np

from ..render import charts
from ..cache.build import BuildCache
from ..load.content import Explainer, Site, Step
from ..errors import ContentError, Problem
from .formats import formatter, is_shared, plain
from ..load.models import _line_in, load_model, resolve_controls


@dataclass
class State:
    key: str                 # control value indices joined by '.', e.g. "0.1"
    choice: dict             # control name -> value
    values: dict             # plain Python values returned by the model
    chart: dict              # the chart kind's data for this state
    readouts: list[str]      # formatted, in declaration order


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

    def tables(self, labels: dict) -> dict[str, dict]:
        """Each state's chart data table, in the words of `labels`, made once per labels."""
        key = repr(sorted(labels.items()))
        if key not in self.table_memo:
            kind = charts.get(self.step.chart.kind)
            self.table_memo.clear()  # only the site's current labels are worth keeping
            self.table_memo[key] = {s.key: kind.table(self.step.chart, s.chart, labels) for s in self.states}
        return self.table_memo[key]


def compute_site(site: Site, models: dict[str, ModuleType] | None = None,
                 cache: BuildCache | None = None) -> dict[str, list[StepStates]]:
    """Every explainer's steps with all their states, keyed by explainer slug.

    With a cache, an explainer whose model and step declarations are unchanged
    is not recomputed (its model is not even imported)."""
    cache = cache or BuildCache()
    errors: list[Problem] = []
    computed = {}
    for explainer in site.explainers:
        def make(explainer=explainer):
            model = (models or {}).get(explainer.slug) or load_model(explainer)
            return compute_explainer(explainer, model, site.config.max_states)
        try:
            computed[explainer.slug] = _adopt(cache.states(explainer, site.config.max_states, make), explainer)
        except ContentError as err:
            errors += err.problems
    if errors:
        raise ContentError(errors)
    return computed


def compute_explainer(explainer: Explainer, model: ModuleType, max_states: int) -> list[StepStates]:
    resolve_controls(explainer, model)
    errors: list[Problem] = []
    result = []
    for step in explainer.steps:
        try:
            result.append(compute_step(step, getattr(model, step.compute), max_states, explainer))
        except ContentError as err:
            errors += err.problems
    if errors:
        raise ContentError(errors)
    return result


def _adopt(cached: list[StepStates], explainer: Explainer) -> list[StepStates]:
    """Attach reused states to this build's steps (whose prose may be new), with
    the control values resolved when the states were computed."""
    adopted = []
    for step, states in zip(explainer.steps, cached):
        step.controls = states.step.controls
        adopted.append(StepStates(step, states.states, states.default_key, states.constants, states.figure_memo,
                                  states.table_memo))
    return adopted


def compute_step(step: Step, function, max_states: int, explainer: Explainer) -> StepStates:
    sizes = [len(c.values) for c in step.controls]
    total = math.prod(sizes)
    if total > max_states:
        raise ContentError.one(step.path, f"has {total:,} control combinations "
                               f"({' × '.join(map(str, sizes))}), more than max_states = {max_states:,} "
                               "(raise it in site.toml or offer fewer values)", field="controls")
    kind = charts.get(step.chart.kind)
    if kind is None:
        raise ContentError.one(step.path, f"unknown chart kind {step.chart.kind!r}: expected one of "
                               f"{', '.join(charts.KINDS)}", field="chart.kind")
    formatters = []
    for index, readout in enumerate(step.readouts):
        fmt = formatter(readout.format)
        if fmt is None:
            raise ContentError.one(step.path, f"unknown format {readout.format!r}: expected text, count, "
                                   "fixed:N, percent or shape", field=f"readouts[{index}].format")
        formatters.append(fmt)
    where = f"{explainer.slug}, step {step.number} ({step.compute})"
    states = []
    for indices in itertools.product(*(range(n) for n in sizes)):
        choice = {c.name: c.values[i] for c, i in zip(step.controls, indices)}
        label = ", ".join(f"{k}={v!r}" for k, v in choice.items()) or "its only state"
        try:
            output = function(**choice)
        except Exception as err:  # author code: name the step and the state
            raise ContentError.one(explainer.model_path, f"{where} failed for {label}: "
                                   f"{type(err).__name__}: {err}",
                                   line=_line_in(explainer.model_path, err)) from None
        values, chart_data = _check_output(output, step, where, label, kind)
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
        key = ".".join(map(str, indices))
        states.append(State(key, choice, values, chart_data, readouts))
    default_key = ".".join(str(c.values.index(c.default)) for c in step.controls)
    constants = {
        name: value for name, value in states[0].values.items()
        if all(s.values.get(name) == value for s in states[1:])
    }
    return StepStates(step, states, default_key, constants)


def _check_output(output, step: Step, where: str, label: str, kind) -> tuple[dict, dict]:
    path = step.path
    if not isinstance(output, dict) or not isinstance(output.get("values"), dict):
        raise ContentError.one(path, f"{where} must return a dict with 'values' and 'chart' dicts, "
                               f"found {type(output).__name__}")
    if not isinstance(output.get("chart"), dict):
        raise ContentError.one(path, f"{where} returned no 'chart' dict for {label}")
    values = {str(k): plain(v) for k, v in output["values"].items()}
    for name, value in values.items():
        if not _finite(value):
            raise ContentError.one(path, f"{where} returned a NaN or infinite value {name!r} for {label}")
    chart_data = {str(k): _as_plain_array(v) for k, v in output["chart"].items()}
    unknown = sorted(set(chart_data) - set(kind.DATA))
    if unknown:  # most likely a misspelt key, whose data would silently go missing
        raise ContentError.one(path, f"{where} returned {step.chart.kind} chart data with unknown key "
                               f"{unknown[0]!r} for {label} (it takes: {', '.join(kind.DATA)})", field="chart")
    for name, value in chart_data.items():
        if not _finite(value):
            raise ContentError.one(path, f"{where} returned NaN or infinite chart data {name!r} for {label}")
    message = kind.check(chart_data)
    if message:
        raise ContentError.one(path, f"{where} returned bad {step.chart.kind} chart data for {label}: "
                               f"{message}", field="chart")
    return values, chart_data


def _as_plain_array(value):
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], np.ndarray):
        return [plain(v) for v in value]
    return plain(value)


def _finite(value) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if is_shared(value):  # an array many states share: checked once
        found = _FINITE.get(id(value))
        if found is None or found[0] is not value:
            found = _FINITE[id(value)] = (value, _finite(list(value)))
        return found[1]
    if isinstance(value, (list, tuple)):
        if all(type(v) is float for v in value):  # a row of numbers: no call per number
            return all(map(math.isfinite, value))
        return all(_finite(v) for v in value)
    return True


_FINITE: dict[int, tuple] = {}  # id of a shared array -> (that array, whether all finite)
