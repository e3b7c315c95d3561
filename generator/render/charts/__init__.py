"""Chart kinds: each turns the data a model returns for one state into a
Plotly figure ({"data": [...], "layout": {...}}).

A kind is a module with
- `DATA`: the data keys its figure takes, key -> what it holds (documented
  in the field reference);
- `check(data, chart) -> list[Issue]`: what is wrong with one state's data,
  each Issue blaming one data key; an error first (one at most), then
  warnings (values the chart would draw as something else: --strict refuses
  them);
- `figure(chart, data) -> dict` and
  `table(chart, data, labels) -> {"columns": [...], "rows": [[...]]}`: the same
  state as an accessible data table of strings (Plotly charts are opaque to
  screen readers), with "highlight" naming the selected row if there is one;
- optionally `SCALES`: the axes ("x", "y") whose x_scale or y_scale may be "log",
  and `options(chart) -> list[Issue]`: what is wrong with the chart's own options
  together (a log axis with a range reaching zero), each Issue blaming an option;
- optionally `ranges(chart, all_data) -> dict`: chart options worked out once
  from the data of every state of the step (an axis or colour range that stays
  fixed whatever the reader chooses), which `resolved` applies to the chart the
  figures are drawn with; a key that is no option is a fact about the step's
  states (a diagram's labels that change, the frame of a matrix), which the
  figures read from the chart's `step_facts` (a dict, empty for a chart drawn
  alone). Every state's figure then has one layout but for its marks, shapes and
  pictures (held.py), unless the chart declares `rescale`;
- optionally `extents(chart, data, layout) -> {axis: (extent, span, px)}`: how far
  one state's data reach along an axis of the held layout, for the build's warning
  about a state squeezed into a few pixels (held.py).
Colours come from colour-blind-safe palettes; text, grid and outline colours
are left to the page's theme (see common.theme_colour).
"""
from __future__ import annotations

import dataclasses
import re
from types import ModuleType

from . import bar, blocks, diagram, heatmap, heatmap_grid, line, scatter
from .common import Issue, as_issue

_KINDS: dict[str, ModuleType] = {
    "bar": bar,
    "blocks": blocks,
    "diagram": diagram,
    "heatmap": heatmap,
    "heatmap_grid": heatmap_grid,
    "line": line,
    "scatter": scatter,
}
KINDS = tuple(sorted(_KINDS))


def get(name: str) -> ModuleType | None:
    return _KINDS.get(name)


# Plotly reads its text as markup: <br>, <b>, <a href>... and entities (&lt;, &#960;). A label
# a model returns is shown as written: "<mask>" or "a<b" read as they are, in the live chart
# and in the still drawing made from the same figure. The figure's own markup (a bold
# highlighted label, a wrapped title) is added by the kinds around the escaped text.
_PLOTLY_MARKUP = re.compile(r"[<>]|&(?=#?[A-Za-z0-9]+;)")
_PLOTLY_ESCAPES = {"<": "&lt;", ">": "&gt;", "&": "&amp;"}


def plotly_text(value):
    """The data of one state for its figure: every string escaped for Plotly's markup;
    what holds none is returned as it is (the same object: shared arrays stay shared)."""
    if isinstance(value, str):
        return _PLOTLY_MARKUP.sub(lambda m: _PLOTLY_ESCAPES[m.group(0)], value) if _PLOTLY_MARKUP.search(value) \
            else value
    if isinstance(value, dict):
        escaped = {key: plotly_text(item) for key, item in value.items()}
        return value if all(escaped[key] is item for key, item in value.items()) else escaped
    if isinstance(value, list) and value and type(value[0]) not in (int, float, bool):  # numbers: nothing to do
        escaped = [plotly_text(item) for item in value]
        return value if all(new is old for new, old in zip(escaped, value)) else escaped
    return value


def check(kind: ModuleType, data: dict, chart) -> list[Issue]:
    """The kind's issues with one state's data (a kind may still return a message)."""
    found = kind.check(data, chart)
    if isinstance(found, str):
        return [as_issue(found)]
    return list(found or [])


def check_options(kind: ModuleType, chart) -> list[Issue]:
    """What is wrong with a chart's options for its kind, before any state is computed:
    a log scale on an axis the kind cannot draw so, or a declared range a log axis
    cannot hold. Each Issue names the option."""
    found = []
    scales = getattr(kind, "SCALES", ())
    for name in ("x", "y"):
        option = f"{name}_scale"
        if getattr(chart, option, "linear") != "log":
            continue
        if name not in scales:
            takes = " and ".join(f"{s}_scale" for s in scales)
            found.append(Issue(option, f"a {chart.kind} chart cannot draw its {name} axis on a log scale"
                               + (f" (it takes {takes})" if takes else " (line, scatter and bar charts can)")))
            continue
        span = getattr(chart, f"{name}_range", None)
        if isinstance(span, (list, tuple)) and span[0] <= 0:
            found.append(Issue(f"{name}_range", f"a log axis ({option} = \"log\") holds only values above zero, "
                               f"found [{span[0]:g}, {span[1]:g}]"))
    hook = getattr(kind, "options", None)
    return found + (list(hook(chart)) if hook else [])


def resolved(chart, all_data: list[dict], several: bool = False):
    """The chart with the options its kind works out from every state's data, and the
    facts about them that are not options in its `step_facts`; "several" among them for
    one of a step's several charts, which stand side by side on a wide screen."""
    hook = getattr(get(chart.kind), "ranges", None)
    found = dict(hook(chart, all_data) or {}) if hook else {}
    if several:
        found["several"] = True
    if not found:
        return chart
    options = {field.name for field in dataclasses.fields(chart)}
    chart = dataclasses.replace(chart, **{key: value for key, value in found.items() if key in options})
    facts = {key: value for key, value in found.items() if key not in options}
    if facts:  # a fresh copy of a frozen record: set where its fields cannot be
        object.__setattr__(chart, "step_facts", facts)
    return chart
