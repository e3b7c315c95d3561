"""Bars: one per label, with the selected bar drawn in the accent colour; or
several named series per label, side by side or stacked. Values are signed,
on an axis whose range is the same in every state of the step: declared
(y_range) or worked out by the build over all of them. An optional threshold
is a rule across the bars; faded bars (tokens cut by top-k, say) are greyed
and hatched, over a grey band, and the data table calls them removed.

Bars of one series, with no labels written beyond them and none faded, are drawn
as shapes over an empty trace, as the selected bar always was: a click that
changes their heights is then a Plotly.relayout of the shapes (a few ms), where
a changed bar trace has Plotly redo the whole figure (10 to 30 ms). The values
are in the table; these bars have no hover labels, as matrix pictures have none."""
from __future__ import annotations

from .common import ACCENT, CATEGORICAL, MARK, MUTED, Issue, axis, base_layout, declared_range, \
    empty_trace, index_problem, is_number, issues, labels_problem, minus, nice_span, number_cell, numbers_problem, \
    outside, rounded, span_of, table as data_table, theme_colour, PHONE_PLOT, labelled_x, left_margin


# The data a step's function returns for this kind: key -> what it holds.
DATA = {
    "y": "required: a list of numbers, one bar each (signed); or, with 'series', a list of such lists, one "
         "per series",
    "x": "required: a list of labels, one per bar",
    "series": "optional: the names of the series, one per list in 'y' (drawn side by side, or stacked with "
              "stacked = true)",
    "text": "optional: a list of labels written beyond the bars (one series only)",
    "highlight": "optional: the index of the bar drawn in the accent colour (outlined, with several series)",
    "threshold": "optional: a value marked by a dashed rule across the bars",
    "threshold_label": "optional: the rule's label",
    "faded": "optional: a list of booleans, one per bar: true bars are greyed and hatched (removed, as tokens cut "
             "by top-k), and the table says so",
}

_HALF_BAR = 0.4  # half a bar's width, in category units
_HEADROOM = 0.2  # room beyond the longest bar for its label, as a share of the range
_FADED = theme_colour("grid")
_PATTERNS = ["", "/", ".", "x", "-", "|", "+", "\\"]  # each series its own fill, beyond its colour


def _series(data: dict) -> list[list]:
    return data["y"] if data.get("series") is not None else [data["y"]]


def check(data: dict, chart=None) -> list[Issue]:
    series = data.get("series")
    y = data.get("y")
    if series is not None:
        if not isinstance(series, list) or not series:
            return [Issue("series", "'series' must be a non-empty list of names")]
        if not isinstance(y, list) or len(y) != len(series) or not all(isinstance(s, list) for s in y):
            found = f"{len(y)} items" if isinstance(y, list) else type(y).__name__
            return [Issue("y", f"'y' must be a list of {len(series)} lists of numbers (one per series), "
                               f"found {found}")]
        for index, values in enumerate(y):
            problem = numbers_problem({"y": values}, "y", len(y[0]) if index else None)
            if problem:
                return [Issue("y", problem.message.replace("'y'", f"'y[{index}]'"))]
        length = len(y[0])
        if data.get("text") is not None:
            return [Issue("text", "'text' takes one series only: give the values in the table instead")]
    else:
        problem = numbers_problem(data, "y")
        if problem:
            return [problem]
        length = len(y)
    x = data.get("x")
    if isinstance(x, list) and x and len(x) != length:
        # Of two lists that should match, the shorter is blamed: a list cut short (a slice
        # one too small) is the likelier slip, and a short 'y' is a problem with 'y'.
        values = "'y'" if series is None else "each list in 'y'"
        if length < len(x):
            return [Issue("y", f"{values} has {length} values but 'x' has {len(x)} labels: give one value per bar")]
        return [Issue("x", f"'x' must be a list of {length} labels, found {len(x)} (one per value of 'y')")]
    found = [_labels(data, "x", length)]
    if data.get("text") is not None:
        found.append(_labels(data, "text", length))
    found.append(_index(data, "highlight", length))
    threshold = data.get("threshold")
    if threshold is not None and not is_number(threshold):
        found.append(Issue("threshold", f"'threshold' must be a number, found {threshold!r}"))
    faded = data.get("faded")
    if faded is not None and (not isinstance(faded, list) or len(faded) != length
                              or not all(isinstance(f, bool) for f in faded)):
        found.append(Issue("faded", f"'faded' must be a list of {length} booleans, one per bar"))
    span = declared_range(chart, "y_range") if chart is not None else None
    if span and not chart.stacked:
        bad = outside(y, span, "y")
        if bad:
            found.append(Issue("y", f"{bad[0]} = {minus(f'{bad[1]:g}')} is outside y_range {_span_text(span)}"))
    if span and chart is not None and chart.stacked:
        total = span_of(_stack_ends(_series(data)))
        if total and not (span[0] <= total[0] and total[1] <= span[1]):
            found.append(Issue("y", f"the stacked bars reach {minus(f'{total[0]:g}')} to "
                                    f"{minus(f'{total[1]:g}')}, outside y_range {_span_text(span)}"))
    if span and is_number(threshold) and not span[0] <= threshold <= span[1]:
        found.append(Issue("threshold", f"'threshold' = {minus(f'{threshold:g}')} is outside y_range "
                                        f"{_span_text(span)}"))
    return issues(*found)


def _span_text(span) -> str:
    return "[" + ", ".join(minus(f"{v:g}") for v in span) + "]"


def _labels(data, name, length) -> Issue | None:
    message = labels_problem(data, name, length)
    return Issue(name, message) if message else None


def _index(data, name, length) -> Issue | None:
    message = index_problem(data, name, length)
    return Issue(name, message) if message else None


def _stack_ends(series: list[list]) -> list[float]:
    """Where stacked bars end: the sum of the positive and of the negative values of each bar."""
    ends = []
    for column in zip(*series):
        ends += [sum(v for v in column if v > 0), sum(v for v in column if v < 0)]
    return ends


def ranges(chart, all_data: list[dict]) -> dict:
    """The value axis, the same in every state: declared, or holding every bar of
    every state (and its label), the threshold and zero."""
    if declared_range(chart, "y_range"):
        return {}
    return {"y_range": _computed(chart, all_data)}


def _computed(chart, all_data) -> list[float]:
    low, high = 0.0, 0.0
    for data in all_data:
        values = _stack_ends(_series(data)) if chart.stacked else _series(data)
        found = span_of(values)
        if found:
            low, high = min(low, found[0]), max(high, found[1])
        if is_number(data.get("threshold")):
            low, high = min(low, data["threshold"]), max(high, data["threshold"])
    # Room beyond the longest bar for its label: 1.2 times the largest value, as bars always had.
    return nice_span(low, high, _HEADROOM)


def figure(chart, data: dict) -> dict:
    series, x = _series(data), data["x"]
    span = declared_range(chart, "y_range") or _computed(chart, [data])
    horizontal, names = chart.horizontal, data.get("series")
    faded = data.get("faded") or [False] * len(x)
    positions = list(range(len(x)))
    as_shapes = names is None and data.get("text") is None and not any(faded)
    traces, shapes = [], []
    if as_shapes:
        traces.append(empty_trace())
        # Between the grid and the traces, where Plotly draws a bar trace's bars.
        shapes += [_box(horizontal, at - _HALF_BAR, at + _HALF_BAR, 0, value, layer="between",
                        fillcolor=MUTED, line={"width": 0}) for at, value in zip(positions, rounded(series[0]))]
    for index, values in enumerate([] if as_shapes else series):
        values = rounded(values)
        several = names is not None
        colour = CATEGORICAL[index % len(CATEGORICAL)] if several else MUTED
        pattern = _PATTERNS[index % len(_PATTERNS)] if several else ""
        marker = {"color": [_FADED if f else colour for f in faded] if any(faded) else colour,
                  "line": {"color": MARK if several else colour, "width": 1 if several else 0}}
        if any(faded) or pattern:
            marker["pattern"] = {"shape": ["/" if f else pattern for f in faded], "fgcolor": MARK,
                                 "fgopacity": 0.5, "size": 6, "fillmode": "overlay"}
        # The hover text is made here, as the table's cells are: with the minus sign,
        # which Plotly's own number format leaves a hyphen.
        trace = {"type": "bar", "marker": marker, "cliponaxis": False,
                 "customdata": [f"{label}: {number_cell(v, chart.y_format)}" for label, v in zip(x, values)],
                 "hovertemplate": "%{customdata}<extra>" + (str(names[index]) if several else "") + "</extra>"}
        trace.update({"x": values, "y": positions, "orientation": "h"} if horizontal else {"x": positions, "y": values})
        if several:
            trace["name"] = str(names[index])
        if data.get("text") is not None:
            trace.update(text=data["text"], textposition="outside")
        traces.append(trace)
    # Faded bars stand over a grey band the height of the axis, so a removed token
    # whose bar is zero still shows where it was.
    for index, gone in enumerate(faded):
        if gone:
            shapes.append(_box(horizontal, index - 0.5, index + 0.5, span[0], span[1],
                               fillcolor=_FADED, opacity=0.45, layer="below", line={"width": 0}))
    selected = data.get("highlight")
    # The selected bar is painted over by a shape in the accent colour, outlined so
    # it stands out without colour. As a shape, a change of selection leaves the
    # trace as it was, and Plotly.relayout redraws only the shape.
    if selected is not None and names is None:
        shapes.append(_box(horizontal, selected - _HALF_BAR, selected + _HALF_BAR, 0, rounded(series[0][selected]),
                           layer="above", fillcolor=ACCENT, line={"color": MARK, "width": 3}))
    elif selected is not None:
        reach = span_of(_stack_ends([s[selected:selected + 1] for s in series]) if chart.stacked
                        else [s[selected] for s in series])
        shapes.append(_box(horizontal, selected - 0.5, selected + 0.5, min(0, reach[0]), max(0, reach[1]),
                           layer="above", line={"color": ACCENT, "width": 3}))
    threshold = data.get("threshold")
    if threshold is not None:
        rule = {"type": "line", "layer": "above", "line": {"color": MARK, "width": 2, "dash": "dash"}}
        if horizontal:
            rule.update(xref="x", yref="y domain", x0=threshold, x1=threshold, y0=0, y1=1)
        else:
            rule.update(xref="x domain", yref="y", x0=0, x1=1, y0=threshold, y1=threshold)
        if data.get("threshold_label"):
            rule["label"] = {"text": str(data["threshold_label"]), "font": {"size": 12},
                             "textposition": "end", "yanchor": "bottom", "padding": 4}
        shapes.append(rule)
    values_axis = axis(chart.x_title if horizontal else chart.y_title, range=list(span),
                       tickformat=chart.y_format or None, zeroline=True, zerolinecolor=theme_colour("axis"))
    names_of_bars = [str(v) for v in x]
    if horizontal:
        label_ticks, margin = {"tickvals": positions, "ticktext": names_of_bars}, {"l": left_margin(names_of_bars, chart.y_title)}
    else:  # every bar keeps its label: they turn rather than thin out
        label_ticks, bottom = labelled_x(names_of_bars, PHONE_PLOT / len(x), chart.x_title, thin=False)
        margin = {"b": bottom}
    labels_axis = axis(chart.y_title if horizontal else chart.x_title, **label_ticks,
                       range=[len(x) - 0.5, -0.5] if horizontal else [-0.5, len(x) - 0.5], showgrid=False)
    layout = base_layout(chart, xaxis=values_axis if horizontal else labels_axis,
                         yaxis=labels_axis if horizontal else values_axis,
                         shapes=shapes, bargap=1 - 2 * _HALF_BAR, barmode="relative" if chart.stacked else "group")
    if names is not None:
        layout.update(showlegend=True, legend={"orientation": "h", "x": 0, "y": 1, "yanchor": "bottom",
                                               "font": {"size": 12}})
        layout["margin"] = dict(layout["margin"], t=40)
    layout["margin"] = dict(layout["margin"], **margin)
    return {"data": traces, "layout": layout}


def _box(horizontal: bool, along0, along1, value0, value1, **style) -> dict:
    shape = {"type": "rect", "xref": "x", "yref": "y", **style}
    if horizontal:
        shape.update(x0=value0, x1=value1, y0=along0, y1=along1)
    else:
        shape.update(x0=along0, x1=along1, y0=value0, y1=value1)
    return shape


def table(chart, data: dict, labels: dict) -> dict:
    """One row per bar: its label and its value (or each series' value) as the
    chart labels it; a faded bar's row says it was removed."""
    names = data.get("series")
    removed = labels.get("data_removed", "removed")
    faded = data.get("faded") or [False] * len(data["x"])
    if names is None:
        shown = data.get("text") or [number_cell(v, chart.y_format) for v in data["y"]]
        columns = [chart.x_title or labels["data_item"], chart.y_title or labels["data_value"]]
        cells = [[str(v)] for v in shown]
    else:
        columns = [chart.x_title or labels["data_item"]] + [str(n) for n in names]
        cells = [[number_cell(v, chart.y_format) for v in row] for row in zip(*data["y"])]
    rows = [[str(x)] + [minus(c) for c in row] + ([removed] if gone else []) for x, row, gone in
            zip(data["x"], cells, faded)]
    if any(faded):
        columns.append(labels.get("data_state", "State"))
        rows = [row if len(row) == len(columns) else row + [""] for row in rows]
    if data.get("threshold") is not None:
        rows.append([str(data.get("threshold_label") or labels.get("data_threshold", "Threshold")),
                     number_cell(data["threshold"], chart.y_format)] + [""] * (len(columns) - 2))
    return data_table(columns, rows, data.get("highlight"))
