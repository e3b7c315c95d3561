"""Lines: one or more named series over a numeric or categorical x, with
signed values, on a y range that stays the same in every state of the step
(declared as y_range or worked out by the build over all of them). Either axis
may be a log scale (y_scale or x_scale = "log"), for values that span orders of
magnitude, such as a loss that falls to 0.0001 in one state and climbs to 2,000
in another. An optional rule marks one x per state (a position, an offset),
drawn as a shape.

The lines themselves are shapes too (a path per series over a trace that holds
no points, or one per series for the legend), so a click that changes them is a
Plotly.relayout of the shapes, a few ms, where changed traces have Plotly redo
the whole figure (10 to 30 ms). Points are marked while there are few of them
(a circle each costs a shape to draw). The values are in the table, and pointing
at the chart shows the table's row at the nearest x."""
from __future__ import annotations

from .common import exact, span_text, CATEGORICAL, MARK, Issue, axis, base_layout, declared_range, empty_trace, hover_meta, is_log, \
    is_number, issues, log_axis, log_path_number, log_problem, log_rounded, log_span, minus, number_cell, path_number, \
    rounded, span_of, table as data_table, theme_colour, PHONE_PLOT, labelled_x

# The data a step's function returns for this kind: key -> what it holds.
DATA = {
    "x": "required: a list of numbers (a numeric axis) or of labels (one tick each), one per point",
    "y": "required: a list of numbers, one per x (signed); or, with 'series', a list of such lists",
    "series": "optional: the names of the series, one per list in 'y', shown in a legend",
    "rule": "optional: an x value (a number, or one of the labels) marked by a vertical rule",
    "rule_label": "optional: the rule's label",
    "highlight": "optional: the index of the series drawn thicker",
}

_DASHES = ["solid", "dash", "dot", "dashdot", "longdash", "longdashdot"]  # a series is not told by colour alone
_PAD = 0.06  # room above and below the lines, as a share of the range
_MARKED_POINTS = 12  # up to this many points in all, each is marked by a circle
_MARKER_RADIUS = 3.5  # px
SCALES = ("x", "y")  # the axes x_scale and y_scale may make logarithmic


def _series(data) -> list[list]:
    return data["y"] if data.get("series") is not None else [data["y"]]


def _numeric(x) -> bool:
    return all(is_number(v) for v in x)


def check(data: dict, chart=None) -> list[Issue]:
    x = data.get("x")
    if not isinstance(x, list) or not x:
        return [Issue("x", f"'x' must be a non-empty list of numbers or labels, found {type(x).__name__}")]
    numeric = _numeric(x)
    if not numeric and not all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in x):
        return [Issue("x", "'x' must hold numbers or labels")]
    names, y = data.get("series"), data.get("y")
    if names is not None:
        if not isinstance(names, list) or not names:
            return [Issue("series", "'series' must be a non-empty list of names")]
        if not isinstance(y, list) or len(y) != len(names) or not all(isinstance(s, list) for s in y):
            found = f"{len(y)} items" if isinstance(y, list) else type(y).__name__
            return [Issue("y", f"'y' must be a list of {len(names)} lists of numbers (one per series), "
                               f"found {found}")]
        lists = [(f"y[{i}]", s) for i, s in enumerate(y)]
    else:
        lists = [("y", y)]
    for name, values in lists:
        if not isinstance(values, list) or not all(is_number(v) for v in values):
            return [Issue("y", f"'{name}' must be a list of numbers, one per x")]
        if len(values) < len(x):  # the shorter of the two is blamed: the likelier slip
            return [Issue("y", f"'{name}' has {len(values)} values but 'x' has {len(x)}: give one value per x")]
        if len(values) > len(x):
            return [Issue("x", f"'x' has {len(x)} values but '{name}' has {len(values)}: give one x per value")]
    found = []
    rule = data.get("rule")
    if rule is not None:
        if numeric and not (is_number(rule) and min(x) <= rule <= max(x)):
            found.append(Issue("rule", f"'rule' must be a number from {minus(f'{min(x):g}')} to "
                                       f"{minus(f'{max(x):g}')} (the x axis), found {rule!r}"))
        elif not numeric and rule not in x:
            found.append(Issue("rule", f"'rule' must be one of the x labels, found {rule!r}"))
    highlight = data.get("highlight")
    if highlight is not None and not (isinstance(highlight, int) and 0 <= highlight < len(lists)):
        found.append(Issue("highlight", f"'highlight' must be a series index from 0 to {len(lists) - 1}"))
    if chart is not None and is_log(chart, "x"):
        if not numeric:
            return [Issue("x", "'x' must hold numbers on a log axis (x_scale = \"log\"), found labels")]
        message = log_problem(x, "x", "x_scale")
        if message:
            return [Issue("x", message)]
    if chart is not None and is_log(chart, "y"):
        message = log_problem([values for _, values in lists], "y", "y_scale")
        if message:
            if names is None:
                message = message.replace("y[0]", "y", 1)
            return [Issue("y", message)]
    span = declared_range(chart, "y_range") if chart is not None else None
    if span:
        for name, values in lists:
            for index, value in enumerate(values):
                if not span[0] <= value <= span[1]:
                    found.append(Issue("y", f"{name}[{index}] = {exact(value)} is outside y_range "
                                            f"{span_text(span)}"))
                    break
            if len(found) and found[-1].key == "y":
                break
    return issues(*found)


def ranges(chart, all_data: list[dict]) -> dict:
    """The y axis, the same in every state: declared, or holding every line of every state."""
    if declared_range(chart, "y_range"):
        return {}
    return {"y_range": _computed(chart, all_data)}


def _computed(chart, all_data) -> list[float]:
    found = span_of([_series(d) for d in all_data]) or (0.0, 1.0)
    if is_log(chart, "y"):
        return log_span(*found)
    low, high = found
    if low == high:
        low, high = low - 1, high + 1
    pad = (high - low) * _PAD
    return [rounded(low - pad), rounded(high + pad)]


def figure(chart, data: dict) -> dict:
    x, names = data["x"], data.get("series")
    numeric = _numeric(x)
    positions = x if numeric else list(range(len(x)))
    span = declared_range(chart, "y_range") or _computed(chart, [data])
    series = _series(data)
    marked = len(x) * len(series) <= _MARKED_POINTS
    log_x, log_y = numeric and is_log(chart, "x"), is_log(chart, "y")
    positions = log_rounded(positions) if log_x else positions
    x_number = log_path_number if log_x else path_number
    y_number = log_path_number if log_y else path_number
    shapes, traces = [], []
    for index, values in enumerate(series):
        values = log_rounded(values) if log_y else rounded(values)
        line = {"color": CATEGORICAL[index % len(CATEGORICAL)], "width": 2.5, "dash": _DASHES[index % len(_DASHES)]}
        if names is not None:
            # The legend's entry: a trace of one missing point (Plotly leaves a trace with no
            # points out of the legend), the same in every state.
            traces.append({**empty_trace(), "x": [None], "y": [None], "name": str(names[index]), "line": line,
                           "mode": "lines+markers" if marked else "lines", "marker": {"size": 2 * _MARKER_RADIUS}})
        # Between the grid and the traces, where Plotly draws a trace's lines.
        thick = {**line, "width": 4} if data.get("highlight") == index else line
        shapes.append({"type": "path", "xref": "x", "yref": "y", "layer": "between", "line": thick,
                       "path": "".join(f"{'L' if i else 'M'}{x_number(p)},{y_number(v)}"
                                       for i, (p, v) in enumerate(zip(positions, values)))})
        if marked:
            shapes += [{"type": "circle", "xref": "x", "yref": "y", "layer": "between", "xsizemode": "pixel",
                        "ysizemode": "pixel", "xanchor": p, "yanchor": v, "x0": -_MARKER_RADIUS,
                        "x1": _MARKER_RADIUS, "y0": -_MARKER_RADIUS, "y1": _MARKER_RADIUS,
                        "fillcolor": line["color"], "line": {"width": 0}} for p, v in zip(positions, values)]
    traces = traces or [empty_trace()]
    rule = data.get("rule")
    if rule is not None:
        at = rule if numeric else x.index(rule)
        shape = {"type": "line", "xref": "x", "yref": "y domain", "x0": at, "x1": at, "y0": 0, "y1": 1,
                 "layer": "above", "line": {"color": MARK, "width": 2, "dash": "dot"}}
        if data.get("rule_label"):
            shape["label"] = {"text": str(data["rule_label"]), "textposition": "end", "textangle": 0,
                              "xanchor": "left", "yanchor": "top", "padding": 6, "font": {"size": 12}}
        shapes.append(shape)
    if log_x:
        x_axis = axis(chart.x_title, **log_axis([min(x), max(x)] if min(x) < max(x) else log_span(min(x), max(x))),
                      showgrid=False)
    elif numeric:
        low, high = min(x), max(x)
        x_axis = axis(chart.x_title, range=[low, high] if low < high else [low - 1, high + 1], showgrid=False)
    else:
        ticks, bottom = labelled_x(x, PHONE_PLOT / len(x), chart.x_title)
        x_axis = axis(chart.x_title, **ticks, range=[-0.5, len(x) - 0.5], showgrid=False)
    if log_y:
        y_axis = axis(chart.y_title, **log_axis(span, chart.y_format))
    else:
        y_axis = axis(chart.y_title, range=list(span), zeroline=True, zerolinecolor=theme_colour("axis"),
                      zerolinewidth=1, tickformat=chart.y_format or None)
    # Pointing at the chart shows the row of the table at the nearest x (in powers of ten on a log axis).
    meta = hover_meta("rows", along="x", **({"numeric": True} if numeric else {}), **({"log": True} if log_x else {}))
    layout = base_layout(chart, xaxis=x_axis, yaxis=y_axis, shapes=shapes, meta=meta)
    if not numeric:
        layout["margin"]["b"] = bottom
    if names is not None:
        layout.update(showlegend=True, legend={"orientation": "h", "x": 0, "y": 1, "yanchor": "bottom",
                                               "font": {"size": 12}})
        layout["margin"] = dict(layout["margin"], t=40)
    return {"data": traces, "layout": layout}


def table(chart, data: dict, labels: dict) -> dict:
    """A row per x, a column per series; the rule's row is highlighted."""
    names = data.get("series")
    columns = [chart.x_title or labels["data_position"]] + (
        [str(n) for n in names] if names is not None else [chart.y_title or labels["data_value"]])
    x = data["x"]
    log = is_log(chart, "y")
    rows = [[minus(f"{v:g}") if is_number(v) else str(v)] + [number_cell(v, chart.y_format, log) for v in values]
            for v, values in zip(x, zip(*_series(data)))]
    rule = data.get("rule")
    highlight = None
    if rule is not None:
        highlight = x.index(rule) if rule in x else min(range(len(x)), key=lambda i: abs(x[i] - rule))
    return data_table(columns, rows, highlight)
