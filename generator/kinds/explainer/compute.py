"""Compute every state of every step: each combination of control values is
passed to the step's function in model.py, and what comes back is checked
(finite numbers, the values readouts need, chart data of the right shape)."""
from __future__ import annotations

import inspect
import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType

import numpy as np

from ...compute.formats import formatter, plain
from ...compute.states import NumericWarning, State, finite, grid, run_model
from ...errors import ContentError, Interrupted, Problem, did_you_mean
from ...load.models import ModelStopped, line_in, model_failure
from ...load.toml_lines import line_of
from ...load.validation import forbidden_character
from ...render.prose import _SLOTS
from ...render import charts
from ...render.charts import held
from ...render.poster import Drawing, drawing
from .content import Explainer, Step


@dataclass
class StepState(State):
    """A state of a step: `chart` is its first (often only) chart's data, `charts`
    every chart's data in the step's order."""
    charts: list = field(default_factory=list)


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
    # What the chart checks found suspicious (a value the colour scale would clip), one per
    # step and data key; reported with the site's warnings on every build, cached or not.
    warnings: list = field(default_factory=list, compare=False)

    def by_key(self, key: str) -> State:
        return self._index[key]

    def __post_init__(self):
        self._index = {s.key: s for s in self.states}

    @property
    def figures(self) -> list[dict[str, dict]]:
        """Each chart's Plotly figure in each state, made once: the dev server keeps a
        step's states while its model and declarations (the charts' among them) are
        unchanged, so a prose edit redraws no figure."""
        if not self.figure_memo:
            for index, chart in enumerate(self.step.charts):
                kind = charts.get(chart.kind)
                # Labels as the model wrote them, never as Plotly's markup; the tables take the data as it is.
                data = [charts.plotly_text(s.charts[index]) for s in self.states]
                # Ranges that stay fixed across states are worked out once, over every state.
                chart = charts.resolved(chart, data, several=len(self.step.charts) > 1)
                self.figure_memo[index] = {s.key: kind.figure(chart, d) for s, d in zip(self.states, data)}
        return [self.figure_memo[index] for index in range(len(self.step.charts))]

    @property
    def drawings(self) -> list[Drawing | None]:
        """The default state of each chart drawn as a still picture (render/poster.py), for
        the page's HTML and the figure files; None for a chart with nothing to draw."""
        if self.default_key not in self.poster_memo:
            self.poster_memo.clear()
            self.poster_memo[self.default_key] = [drawing(figures[self.default_key]) for figures in self.figures]
        return self.poster_memo[self.default_key]

    @property
    def posters(self) -> list[str]:
        """The drawings as the page's HTML shows them until Plotly draws."""
        return [found.html() if found else "" for found in self.drawings]

    def tables(self, labels: dict) -> list[dict[str, dict]]:
        """Each chart's data table in each state, in the words of `labels`, made once per labels."""
        key = repr(sorted(labels.items()))
        if key not in self.table_memo:
            self.table_memo.clear()  # only the site's current labels are worth keeping
            self.table_memo[key] = [
                {s.key: charts.get(chart.kind).table(chart, s.charts[index], labels) for s in self.states}
                for index, chart in enumerate(self.step.charts)]
        return self.table_memo[key]


def compute_explainer(explainer: Explainer, model: ModuleType, max_states: int,
                      cache=None, time_limit: float | None = None) -> list[StepStates]:
    """`cache` (a BuildCache) lends the memo tables that let equal arrays be
    converted and checked once; `time_limit` is the seconds each call of a step's
    function may take."""
    memos = _Memos(cache.memo("finite"), cache.memo("arrays", limit=512)) if cache else _Memos(None, None)
    resolve_controls(explainer, model, memos.arrays)
    errors: list[Problem] = []
    result = []
    for step in explainer.steps:
        try:
            result.append(compute_step(step, getattr(model, step.compute), max_states, explainer, memos,
                                       time_limit))
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
                                  states.table_memo, states.poster_memo, states.warnings))
    return adopted


@dataclass
class _Memos:
    finite: dict | None   # id of a shared array -> (the array, whether all finite)
    arrays: dict | None   # an array's bytes -> its shared list (formats.plain)


def compute_step(step: Step, function, max_states: int, explainer: Explainer,
                 memos: _Memos | None = None, time_limit: float | None = None) -> StepStates:
    memos = memos or _Memos(None, None)
    sizes = [len(c.values) for c in step.controls]
    total = math.prod(sizes)
    if total > max_states:
        raise ContentError.one(step.path, f"has {total:,} control combinations "
                               f"({' × '.join(map(str, sizes))}), more than max_states = {max_states:,} "
                               "(raise it in site.toml or offer fewer values)", field="controls")
    kinds = [charts.get(chart.kind) for chart in step.charts]  # the schema allows only known kinds and formats
    formatters = [formatter(readout.format) for readout in step.readouts]
    where = f"{explainer.slug}, step {step.number} ({step.compute})"
    states = []
    warned: dict[str, list] = {}  # chart data key -> [first warning, its state, how many states]
    numeric_warned: dict[tuple, list] = {}  # (file, line, message) -> [its first state, how many states]
    for indices, key, to in grid(sizes):
        choice = {c.name: c.values[i] for c, i in zip(step.controls, indices)}
        label = ", ".join(f"{k}={v!r}" for k, v in choice.items()) or "its only state"
        try:
            output, numeric = run_model(function, choice, time_limit)
        except KeyboardInterrupt:
            raise Interrupted(f"while computing {where} for {label}") from None
        except Exception as err:  # author code: name the step and the state
            verb = "" if isinstance(err, ModelStopped) else "failed "
            raise ContentError.one(explainer.model_path, f"{where} {verb}for {label}: "
                                   f"{model_failure(err)}", line=line_in(explainer.model_path, err)) from None
        numeric = [_located(warning, explainer) for warning in numeric]
        values, chart_data, warnings = _check_output(output, step, where, label, kinds, memos,
                                                     numeric[0] if numeric else None)
        for warning in numeric:
            numeric_warned.setdefault((warning.file, warning.line, warning.message), [label, 0])[1] += 1
        for field, kind_name, issue in warnings:
            warned.setdefault(f"{field}.{issue.key}", [issue.message, label, 0, kind_name])[2] += 1
        readouts = []
        for readout, fmt in zip(step.readouts, formatters):
            if readout.value not in values:
                raise ContentError.one(step.path, f"{where} returned no value {readout.value!r}"
                                       f"{did_you_mean(readout.value, values)} "
                                       f"(it returned: {', '.join(sorted(values))})", field="readouts")
            try:
                readouts.append(fmt(values[readout.value]))
            except (TypeError, ValueError) as err:
                raise ContentError.one(step.path, f"value {readout.value!r} = {values[readout.value]!r} "
                                       f"cannot be shown as {readout.format!r} ({err})",
                                       field="readouts") from None
        states.append(StepState(key, choice, values, chart_data[0], readouts, to, chart_data))
    default_key = ".".join(str(c.values.index(c.default)) for c in step.controls)
    constants = {
        name: value for name, value in states[0].values.items()
        if all(s.values.get(name) == value for s in states[1:])
    }
    found = [Problem(step.path, f"{where} returned {kind_name} chart data for {first}: {message}"
                     + (f" (and {count - 1} other states)" if count > 1 else ""), field=name)
             for name, (message, first, count, kind_name) in warned.items()]
    # A floating-point warning whose value still came out finite (a division by zero inside
    # np.where, say): one line at the model's line, and --strict fails on it.
    found += [Problem(file, f"{where}: numpy warned '{message}' for {first}"
                      + (f" (and {count - 1} other states)" if count > 1 else ""), line)
              for (file, line, message), (first, count) in numeric_warned.items()]
    computed = StepStates(step, states, default_key, constants, warnings=found)
    computed.warnings += _layout_warnings(computed, where)
    return computed


def _layout_warnings(computed: StepStates, where: str) -> list[Problem]:
    """Each chart holds one layout across the step's states, or says why not (held.py):
    what its figures show otherwise, as warnings at the step file's chart."""
    found = []
    for index, (chart, figures) in enumerate(zip(computed.step.charts, computed.figures)):
        states = [(", ".join(f"{name}={value!r}" for name, value in s.choice.items()) or "its only state",
                   s.charts[index], figures[s.key]) for s in computed.states]
        field = "chart" if len(computed.step.charts) == 1 else f"charts[{index}]"
        found += [Problem(computed.step.path, f"{where}: the {chart.kind} chart {message}", field=field)
                  for message in held.layout_problems(charts.get(chart.kind), chart, states)]
    return found


def _located(warning: NumericWarning, explainer: Explainer) -> NumericWarning:
    """A numpy warning at the content file it points at (the model, or a helper of
    content/_lib/), or, raised inside a library, at the model with no line."""
    content = explainer.path.parent.resolve()
    file = warning.file.resolve() if warning.file.is_absolute() else warning.file
    if content in file.parents:
        return NumericWarning(explainer.model_path if file == explainer.model_path.resolve() else file,
                              warning.line, warning.message)
    return NumericWarning(explainer.model_path, None, warning.message)


def _not_finite(path: Path, message: str, cause: NumericWarning | None) -> ContentError:
    """A NaN or infinity: at the step file, or at the model's line numpy warned on while
    computing it (an overflow that became an infinity)."""
    if cause is None:
        return ContentError.one(path, message)
    return ContentError.one(cause.file, f"{message}: numpy warned '{cause.message}' on this line", cause.line)


def _check_output(output, step: Step, where: str, label: str, kinds: list,
                  memos: _Memos, cause: NumericWarning | None = None) -> tuple[dict, list[dict], list[tuple]]:
    """The values, each chart's data and the charts' warnings (field, chart kind,
    issue): `"chart": {...}` for a step with one chart, or `"charts": [{...}, ...]`,
    one per chart in the step file's order."""
    path = step.path
    if not isinstance(output, dict) or not isinstance(output.get("values"), dict):
        raise ContentError.one(path, f"{where} must return a dict with 'values' and 'chart' dicts, "
                               f"found {type(output).__name__}")
    count = len(step.charts)
    if "charts" in output:
        returned = output["charts"]
        if not isinstance(returned, (list, tuple)) or len(returned) != count \
                or not all(isinstance(c, dict) for c in returned):
            found = f"{len(returned)} items" if isinstance(returned, (list, tuple)) else type(returned).__name__
            raise ContentError.one(path, f"{where} must return 'charts' as a list of {count} dicts (one per "
                                   f"chart of the step) for {label}, found {found}", field="charts")
    elif count == 1 and isinstance(output.get("chart"), dict):
        returned = [output["chart"]]
    elif count == 1:
        raise ContentError.one(path, f"{where} returned no 'chart' dict for {label}")
    else:
        raise ContentError.one(path, f"{where} returned no 'charts' list for {label} (the step has {count} "
                               "charts)", field="charts")
    values = {str(k): plain(v, memos.arrays) for k, v in output["values"].items()}
    for name, value in values.items():
        if name in UNNAMEABLE:
            raise ContentError.one(path, f"{where} returned a value named {name!r} for {label}, a name prose "
                                   f"cannot use for a value ({UNNAMEABLE[name]}): rename it in model.py",
                                   field="values")
        if not finite(value, memos.finite):
            raise _not_finite(path, f"{where} returned a NaN or infinite value {name!r} for {label}", cause)
        if message := _forbidden_text(value):
            raise ContentError.one(path, f"{where} returned a value {name!r} for {label} that {message}",
                                   field="values")
    field = "chart" if count == 1 else "charts[{}]"
    data, warnings = [], []
    for index, (raw, chart, kind) in enumerate(zip(returned, step.charts, kinds)):
        chart_data, issues = _check_chart(raw, chart, kind, path, where, label, memos, field.format(index), cause)
        data.append(chart_data)
        warnings += [(field.format(index), chart.kind, issue) for issue in issues]
    return values, data, warnings


def _check_chart(raw: dict, chart, kind, path, where: str, label: str, memos: _Memos,
                 field: str, cause: NumericWarning | None = None) -> tuple[dict, list]:
    """A chart's data, checked by its kind; what the kind only warns about is returned."""
    chart_data = {str(k): _as_plain_array(v, memos.arrays) for k, v in raw.items()}
    unknown = sorted(set(chart_data) - set(kind.DATA))
    if unknown:  # most likely a misspelt key, whose data would silently go missing
        raise ContentError.one(path, f"{where} returned {chart.kind} chart data with unknown key "
                               f"{unknown[0]!r}{did_you_mean(unknown[0], kind.DATA)} for {label} "
                               f"(it takes: {', '.join(kind.DATA)})", field=field)
    for name, value in chart_data.items():
        if not finite(value, memos.finite):
            raise _not_finite(path, f"{where} returned NaN or infinite chart data {name!r} for {label}", cause)
        if message := _forbidden_text(value):
            raise ContentError.one(path, f"{where} returned {chart.kind} chart data {name!r} for {label} that "
                                   f"{message}", field=f"{field}.{name}")
    found = charts.check(kind, chart_data, chart)
    for issue in found:
        if not issue.warning:
            raise ContentError.one(path, f"{where} returned bad {chart.kind} chart data for {label}: "
                                   f"{issue.message}", field=f"{field}.{issue.key}" if issue.key else field)
    return chart_data, [issue for issue in found if issue.warning]


# Names prose cannot reach a value by: Jinja's own `self` (the template), its literals and
# operators, and the name under which prose.py keeps the printed values.
UNNAMEABLE = {"self": "Jinja keeps 'self' for the template itself", _SLOTS: "Lensa keeps it for the printed values",
              **{word: "it is a word of Jinja's own" for word in ("true", "false", "none", "True", "False", "None",
                                                                 "and", "or", "not", "in", "is", "if", "else")}}


def _forbidden_text(value) -> str | None:
    """What forbidden_character() says of the first string in a value (a label, a list of them)."""
    if isinstance(value, str):
        return forbidden_character(value)
    if isinstance(value, (list, tuple)) and value and not isinstance(value[0], (int, float)):
        return next((found for item in value if (found := _forbidden_text(item))), None)
    return None


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
            labels = control.labels
            if control.labels_from:  # labels may repeat: two tokens can read the same
                labels = _model_list(model, control.labels_from, step.path, where + ".labels", errors,
                                     line("labels"), arrays, unique=False)
            for key, items in (("details", details), ("labels", labels)):
                if values is not None and items is not None and len(items) != len(values):
                    errors.append(Problem(step.path, f"expected {len(values)} {key} (one per value), "
                                          f"found {len(items)}", line(key), f"{where}.{key}"))
            resolved.append(replace(control, values=tuple(values or ()),
                                    details=tuple(details) if details is not None else None,
                                    labels=tuple(str(v) for v in labels) if labels is not None else None))
        step.controls = resolved
        function = getattr(model, step.compute, None)
        if not callable(function):
            errors.append(Problem(step.path, f"model.py defines no function {step.compute!r}",
                                  line_of(text, "compute"), "compute"))
        else:
            errors += _signature_problems(step, function, text)
    if errors:
        raise ContentError(errors)


def _signature_problems(step: Step, function, text: str) -> list[Problem]:
    """Each control is passed as a keyword argument: a name the function does not
    take is the step file's mistake (or the function's), found before any call."""
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):  # a builtin or C function: nothing to check against
        return []
    kinds = {p.kind for p in parameters.values()}
    takes = [name for name, p in parameters.items()
             if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    problems = []
    if inspect.Parameter.VAR_KEYWORD not in kinds:
        for index, control in enumerate(step.controls):
            if control.name not in takes:
                where = f"controls[{index}]"
                problems.append(Problem(
                    step.path, f"model.py's {step.compute}() has no parameter {control.name!r} "
                    f"(it takes: {', '.join(takes) or 'none'})",
                    line_of(text, "name", where + ".") or line_of(text, None, where + "."), where + ".name"))
    names = {c.name for c in step.controls}
    if problems:  # a misspelt control: the parameter it should name is missing for the same reason
        return problems
    for name, p in parameters.items():
        if p.default is p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and name not in names:
            problems.append(Problem(step.path, f"model.py's {step.compute}() needs {name!r}, which no control "
                                    "of the step gives (add a control named so, or a default)",
                                    line_of(text, "compute"), "controls"))
    return problems


def _model_list(model, name, path, field, errors, line=None, arrays=None, unique=True):
    if not hasattr(model, name):
        lists = [key for key, value in vars(model).items()
                 if not key.startswith("_") and isinstance(value, (list, tuple, range, np.ndarray))]
        errors.append(Problem(path, f"model.py defines no list {name!r}{did_you_mean(name, lists)}", line, field))
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
    if unique and len({str(v) for v in value}) != len(value):
        errors.append(Problem(path, f"model.py's {name!r} has repeated values", line, field))
        return None
    endless = [v for v in value if isinstance(v, (float, np.floating)) and not math.isfinite(v)]
    if endless:
        errors.append(Problem(path, f"model.py's {name!r} holds {float(endless[0])!r}: a control's values must be "
                              "finite numbers or strings", line, field))
        return None
    return [plain(v, arrays) for v in value]


def _source(path: Path) -> str:
    try:
        return path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
