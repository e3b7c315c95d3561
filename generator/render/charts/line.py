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

import math

from .common import exact, span_text, CATEGORICAL, MARK, Issue, axis, base_layout, declared_range, empty_trace, hover_meta, is_log, \
    is_number, issues, log_axis, log_path_number, log_problem, log_rounded, log_span, minus, number_cell, path_number, \
    rounded, span_of, step_facts, table as data_table, text_width, theme_colour, PHONE_CHART, PHONE_PLOT, \
    bottom_margin
from .held import axis_span, clear_title, held, held_labels, plot_size, x_label_shapes

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
    reach = declared_range(chart, "x_range") if chart is not None and numeric else None
    if reach and not reach[0] <= min(x) <= max(x) <= reach[1]:
        bad = min(x) if min(x) < reach[0] else max(x)
        found.append(Issue("x", f"x = {exact(bad)} is outside x_range {span_text(reach)}"))
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
    """The y axis, the same in every state: declared, or holding every line of every state;
    and the x axis, holding every state's x (numbers: from the least to the greatest, unless
    x_range is declared; labels: the longest state's places, see _names)."""
    if not held(chart):  # each state's axes fit it alone (rescale)
        return {}
    found = {} if declared_range(chart, "y_range") else {"y_range": _computed(chart, all_data)}
    if all(_numeric(data["x"]) for data in all_data):
        found["x_span"] = [min(min(data["x"]) for data in all_data), max(max(data["x"]) for data in all_data)]
    else:
        found["names"] = _names([data["x"] for data in all_data])
    return found


def extents(chart, data: dict, layout: dict) -> dict:
    """How far a numeric x reaches along its axis (held.py squeezed), in the axis's units
    (powers of ten on a log axis). Not the values: a line reads by its level against the
    held axis, and a flat one (a signal kept at 0.96) is what the reader is to see."""
    if not _numeric(data["x"]):
        return {}
    x = [math.log10(v) for v in data["x"]] if is_log(chart, "x") else data["x"]
    return {"x": (max(x) - min(x), axis_span(layout, "x"), plot_size(layout, PHONE_CHART)[0])}


def _names(lists: list[list]):
    """The x labels of every state: the axis's ticks when they are the same in all of them,
    else written on shapes (held.py)."""
    return held_labels(lists, PHONE_PLOT / max(map(len, lists)), prefixes=False)


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
            shapes += [{"type": "circle", "xref": "x", "yref": "y", "layer": "above", "xsizemode": "pixel",
                        "ysizemode": "pixel", "xanchor": p, "yanchor": v, "x0": -_MARKER_RADIUS,
                        "x1": _MARKER_RADIUS, "y0": -_MARKER_RADIUS, "y1": _MARKER_RADIUS,
                        "fillcolor": line["color"], "line": {"width": 0}} for p, v in zip(positions, values)]
    traces = traces or [empty_trace()]
    rule = data.get("rule")
    if rule is not None:
        at = rule if numeric else x.index(rule)
        shape = {"type": "line", "xref": "x", "yref": "y domain", "x0": at, "x1": at, "y0": 0, "y1": 1,
                 "layer": "above", "line": {"color": MARK, "width": 2, "dash": "dot"}}
    low, high = declared_range(chart, "x_range") or step_facts(chart).get("x_span") or \
        ((min(x), max(x)) if numeric else (0, 0))
    if rule is not None:
        if data.get("rule_label"):
            text = str(data["rule_label"])
            where = _fraction(at, low, high, numeric, log_x, len(x))
            side = _rule_side(where, text)
            # Along the x axis, the stretch of the plot the label covers on a phone.
            wide = (text_width(text, _RULE_FONT) + 6) / PHONE_PLOT
            covered = (where, where + wide) if side == "left" else (where - wide, where)
            heights = [_y_fraction(v, span, log_y) for values in series
                       for p, v in zip(positions, values)
                       if covered[0] <= _fraction(p, low, high, numeric, log_x, len(x)) <= covered[1]]
            top = _rule_end(heights, (_RULE_FONT * 1.3 + 6) / max(1, chart.height - 72))
            shape["label"] = {"text": text, "textposition": "end" if top else "start", "textangle": 0,
                              "xanchor": side, "yanchor": "top" if top else "bottom", "padding": 6,
                              "font": {"size": _RULE_FONT}}
        shapes.append(shape)
    if log_x:
        x_axis = axis(chart.x_title, **log_axis([low, high] if low < high else log_span(low, high)), showgrid=False)
    elif numeric:
        x_axis = axis(chart.x_title, range=[low, high] if low < high else [low - 1, high + 1], showgrid=False)
    else:
        labelled = step_facts(chart).get("names") or _names([x])
        ticks = {"tickvals": list(labelled.ticks[0]), "ticktext": list(labelled.ticks[1])} if labelled.ticks \
            else {"tickvals": [], "ticktext": []}
        ticks["tickangle"] = 0 if labelled.upright else -90
        bottom = bottom_margin(labelled.depth, chart.x_title)
        x_axis = axis(chart.x_title, **ticks, range=[-0.5, labelled.count - 0.5], showgrid=False)
        if labelled.ticks is None:
            shapes += x_label_shapes(labelled, x)
            x_axis = clear_title(x_axis, labelled)
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


_RULE_FONT = 12


def _fraction(at, low, high, numeric: bool, log_x: bool, count: int) -> float:
    """How far along the x axis `at` lies, from 0 at its left end to 1 at its right."""
    if not numeric:
        low, high = -0.5, count - 0.5
    elif log_x and low > 0 and at > 0:
        at, low, high = math.log10(at), math.log10(low), math.log10(high)
    return (at - low) / (high - low) if high > low else 0.5


def _y_fraction(value, span, log_y: bool) -> float:
    """How high `value` stands on the y axis, from 0 at its foot to 1 at its top."""
    low, high = span
    if log_y and value > 0 and low > 0:
        value, low, high = math.log10(value), math.log10(low), math.log10(high)
    return (value - low) / (high - low) if high > low else 0.5


def _rule_end(heights: list[float], tall: float) -> bool:
    """Whether a rule's label goes at its top (else its foot): at the top unless the lines
    under it reach that high and leave its foot clear (positional encoding step 4's label
    at 28 lay over the peak at 20 that the prose points to)."""
    return not (any(h > 1 - tall for h in heights) and all(h >= tall for h in heights))


def _rule_side(fraction: float, text: str) -> str:
    """Which side of its rule a label is written on: the right, unless it would run past the
    plot's right edge on a phone ("pos + offset" at 28 of 0 to 31), then the left."""
    room = (1 - fraction) * PHONE_PLOT
    return "left" if text_width(text, _RULE_FONT) + 6 <= room else "right"


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
