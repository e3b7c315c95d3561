"""Bars: one per label, with the selected bar drawn in the accent colour; or
several named series per label, side by side or stacked. Values are signed,
on an axis whose range is the same in every state of the step: declared
(y_range) or worked out by the build over all of them, on a log scale with
y_scale = "log" (bars then rise from the axis's foot, as zero has no place on
it; they are not stacked there). An optional threshold
is a rule across the bars; faded bars (tokens cut by top-k, say) are greyed,
over a grey band, and the data table calls them removed.

Bars are drawn as shapes, as the selected bar always was, over traces that
stay the same in every state: an empty one, or one per series holding no
values, for the legend. A click that changes their heights is then a
Plotly.relayout of the shapes (a few ms), where a changed bar trace has Plotly
redo the whole figure (10 to 30 ms). Written labels are the shapes' labels.
Several series are told apart by colour and by pattern, the patterns (and the
hatch of faded bars) drawn as one picture over the bars, since a shape takes
no pattern; a faded bar of one series has a dotted edge. The values are in the
table, and pointing at a bar shows its row of the table."""
from __future__ import annotations

import math

from .common import exact, span_text, ACCENT, CATEGORICAL, MARK, MUTED, Issue, axis, base_layout, declared_range, hover_meta, \
    empty_trace, index_problem, is_log, is_number, issues, labels_problem, log_axis, log_problem, log_rounded, \
    log_span, minus, nice_span, number_cell, numbers_problem, outside, picture, rounded, span_of, \
    step_facts, table as data_table, theme_colour, widest, PHONE_CHART, PHONE_PLOT, TICK_FONT, labelled_x, \
    left_margin


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
    "faded": "optional: a list of booleans, one per bar: true bars are greyed, with a dotted edge (hatched with "
             "several series), over a grey band (removed, as tokens cut "
             "by top-k), and the table says so",
}

_HALF_BAR = 0.4  # half a bar's width, in category units
_HEADROOM = 0.2  # room beyond the longest bar for its label, as a share of the range
_LABEL_FONT = 13  # px, a bar's written label
_LABEL_INSET = 7  # px, where Plotly starts a label inside a box's edge (measured)
_FADED = theme_colour("grid")
_PATTERNS = ["", "/", ".", "x", "-", "|", "+", "\\"]  # each series its own fill, beyond its colour
SCALES = ("y",)  # y_scale = "log" puts the values on a log scale; the labels' axis is never one


def options(chart) -> list[Issue]:
    if is_log(chart, "y") and chart.stacked:
        return [Issue("stacked", "stacked bars start at zero, which a log axis (y_scale = \"log\") cannot show: "
                                 "draw the series side by side, or on a linear axis")]
    return []


def _series(data: dict) -> list[list]:
    return data["y"] if data.get("series") is not None else [data["y"]]


# More bars than a wide screen has room for (two pixels each on a 1,000-pixel plot): a reader
# could not tell them apart, and drawing each as a shape would take minutes.
MAX_BARS = 500


def check(data: dict, chart=None) -> list[Issue]:
    series = data.get("series")
    y = data.get("y")
    bars = sum(len(values) if isinstance(values, list) else 1 for values in y) if series is not None \
        and isinstance(y, list) else len(y) if isinstance(y, list) else 0
    if bars > MAX_BARS:
        return [Issue("y", f"{bars:,} bars are more than a bar chart shows ({MAX_BARS:,}): a reader could not "
                           "tell them apart; show the largest ones, or draw a line chart")]
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
    if chart is not None and is_log(chart, "y"):
        message = log_problem(y, "y", "y_scale")
        if message:
            return [Issue("y", message)]
        if is_number(threshold) and threshold <= 0:
            return [Issue("threshold", f"'threshold' = {exact(threshold)} cannot be drawn on a log axis "
                                       "(y_scale = \"log\"): it must be above zero")]
    span = declared_range(chart, "y_range") if chart is not None else None
    if span and not chart.stacked:
        bad = outside(y, span, "y")
        if bad:
            found.append(Issue("y", f"{bad[0]} = {exact(bad[1])} is outside y_range {span_text(span)}"))
    if span and chart is not None and chart.stacked:
        total = span_of(_stack_ends(_series(data)))
        if total and not (span[0] <= total[0] and total[1] <= span[1]):
            found.append(Issue("y", f"the stacked bars reach {exact(total[0])} to "
                                    f"{exact(total[1])}, outside y_range {span_text(span)}"))
    if span and is_number(threshold) and not span[0] <= threshold <= span[1]:
        found.append(Issue("threshold", f"'threshold' = {exact(threshold)} is outside y_range "
                                        f"{span_text(span)}"))
    return issues(*found)



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
    every state (and its label), the threshold and zero; and whether the bars' names
    are written on shapes (see _names_on_shapes)."""
    found = {} if declared_range(chart, "y_range") else {"y_range": _computed(chart, all_data)}
    if _names_on_shapes(chart, all_data):
        found["names_on_shapes"] = True
    return found


def _names_on_shapes(chart, all_data: list[dict]) -> bool:
    """Whether the names under the bars are those of the state in most states of the step
    (the five likeliest next words), staying upright in every one: they are then written
    as the labels of shapes under the axis, where its ticks would write them, so a click is
    a relayout of the shapes alone. A changed tick text has Plotly draw both axes again,
    which doubles the cost of a click (5 ms where the bars take 2 here); but the labels
    are drawn again with the bars on every click, so names that change in a few states
    only (a sentence shuffled or not) stay ticks. Turned names stay ticks too."""
    names = {tuple(map(str, data["x"])) for data in all_data}
    if chart.horizontal or len(names) < 2 or len(names) * 2 <= len(all_data):
        return False
    return all(labelled_x([str(v) for v in data["x"]], PHONE_PLOT / len(data["x"]), chart.x_title,
                          thin=False)[0]["tickangle"] == 0 for data in all_data)


# Where Plotly writes an upright tick label below the axis, as a shape's label's padding (measured).
_NAME_PADDING = 4


def _computed(chart, all_data) -> list[float]:
    if is_log(chart, "y"):
        return _log_computed(chart, all_data)
    low, high = 0.0, 0.0
    for data in all_data:
        values = _stack_ends(_series(data)) if chart.stacked else _series(data)
        found = span_of(values)
        if found:
            low, high = min(low, found[0]), max(high, found[1])
        if is_number(data.get("threshold")):
            low, high = min(low, data["threshold"]), max(high, data["threshold"])
    return nice_span(low, high, _headroom(chart, all_data))


def _log_computed(chart, all_data) -> list[float]:
    """A log axis holding every bar and threshold, a little room below the shortest bar
    (which rises from the axis's foot) and the usual headroom above the longest."""
    found = span_of([[_series(d), d.get("threshold")] for d in all_data]) or (1.0, 10.0)
    first, last = math.log10(found[0]), math.log10(found[1])
    length = max(last - first, 1.0)  # at least a decade: the shortest bar still shows
    foot, top = log_span(10 ** (first - length * 0.2), 10 ** (last + length * _headroom(chart, all_data)), 0)
    return [foot, top]


def _headroom(chart, all_data) -> float:
    """Room beyond the longest bar for its label, as a share of the values' span: 1.2
    times the largest value, as bars always had; more where a horizontal bar's written
    label needs it on a phone (a shape's label is not shrunk to fit, as a trace's is)."""
    texts = [str(t) for data in all_data for t in (data.get("text") or [])]
    if not chart.horizontal or not texts:
        return _HEADROOM
    room = PHONE_CHART - left_margin([str(v) for data in all_data for v in data["x"]], chart.y_title) - 16
    needed = min((widest(texts, _LABEL_FONT) + _LABEL_INSET + 4) / max(room, 1), 0.75)  # of the whole axis
    return max(_HEADROOM, needed / (1 - needed))


def figure(chart, data: dict) -> dict:
    series, x = _series(data), data["x"]
    span = declared_range(chart, "y_range") or _computed(chart, [data])
    horizontal, names = chart.horizontal, data.get("series")
    faded = data.get("faded") or [False] * len(x)
    positions = list(range(len(x)))
    log = is_log(chart, "y")
    # Bars rise from zero; on a log axis, which has no zero, from the axis's foot.
    base, rounding = (span[0], log_rounded) if log else (0, rounded)
    if names is None:
        traces, shapes, hatched = [empty_trace()], _one_series(rounding(series[0]), faded, data.get("text"),
                                                               horizontal, span, base), []
    else:
        traces = [_legend_entry(index, str(name)) for index, name in enumerate(names)]
        shapes, hatched = _several_series([rounding(values) for values in series], faded, horizontal, chart.stacked,
                                          base, log)
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
        shapes.append(_box(horizontal, selected - _HALF_BAR, selected + _HALF_BAR, base, rounding(series[0][selected]),
                           layer="above", fillcolor=ACCENT, line={"color": MARK, "width": 3}))
    elif selected is not None:
        reach = span_of(_stack_ends([s[selected:selected + 1] for s in series]) if chart.stacked
                        else [s[selected] for s in series])
        shapes.append(_box(horizontal, selected - 0.5, selected + 0.5, min(base, reach[0]), max(base, reach[1]),
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
    if log:
        values_axis = axis(chart.x_title if horizontal else chart.y_title, **log_axis(span, chart.y_format))
    else:
        values_axis = axis(chart.x_title if horizontal else chart.y_title, range=list(span),
                           tickformat=chart.y_format or None, zeroline=True, zerolinecolor=theme_colour("axis"))
    names_of_bars = [str(v) for v in x]
    if horizontal:
        label_ticks, margin = {"tickvals": positions, "ticktext": names_of_bars}, {"l": left_margin(names_of_bars, chart.y_title)}
    else:  # every bar keeps its label: they turn rather than thin out
        label_ticks, bottom = labelled_x(names_of_bars, PHONE_PLOT / len(x), chart.x_title, thin=False)
        margin = {"b": bottom}
        if step_facts(chart).get("names_on_shapes") and label_ticks["tickangle"] == 0:
            # The ticks stay, blank and the same in every state (the title keeps its place).
            label_ticks["ticktext"] = [""] * len(names_of_bars)
            shapes += [_name(name, at) for at, name in enumerate(names_of_bars)]
    labels_axis = axis(chart.y_title if horizontal else chart.x_title, **label_ticks,
                       range=[len(x) - 0.5, -0.5] if horizontal else [-0.5, len(x) - 0.5], showgrid=False)
    layout = base_layout(chart, xaxis=values_axis if horizontal else labels_axis,
                         yaxis=labels_axis if horizontal else values_axis, shapes=shapes,
                         # Pointing at a bar shows its row of the table (the runtime reads it).
                         meta=hover_meta("rows", along="y" if horizontal else "x"))
    if hatched:
        if log:  # a picture is placed in the axis's own units: powers of ten
            hatched = [(pattern, _log_box(box, horizontal)) for pattern, box in hatched]
        layout["images"] = [_hatches(hatched, values_axis["range"] if horizontal else labels_axis["range"],
                                     labels_axis["range"] if horizontal else values_axis["range"], chart.height)]
    if names is not None:
        layout.update(showlegend=True, legend={"orientation": "h", "x": 0, "y": 1, "yanchor": "bottom",
                                               "font": {"size": 12}})
        layout["margin"] = dict(layout["margin"], t=40)
    layout["margin"] = dict(layout["margin"], **margin)
    return {"data": traces, "layout": layout}


def _one_series(values: list, faded: list, written: list | None, horizontal: bool, span,
                base: float = 0) -> list[dict]:
    """A shape per bar, between the grid and the traces (where Plotly draws a bar
    trace's bars), its label written beyond its end; a faded bar grey, with a dotted edge."""
    shapes = []
    for at, (value, gone) in enumerate(zip(values, faded)):
        shapes.append(_box(horizontal, at - _HALF_BAR, at + _HALF_BAR, base, value, layer="between",
                           fillcolor=_FADED if gone else MUTED,
                           line={"color": MARK, "width": 1, "dash": "dot"} if gone else {"width": 0}))
        if written is not None:
            shapes.append(_written(str(written[at]), at, value, horizontal, span, base))
    return shapes


def _several_series(series: list[list], faded: list, horizontal: bool, stacked: bool, base: float = 0,
                    log: bool = False):
    """A shape per bar of each series, side by side or stacked (positive values up from
    zero, negative ones down, as Plotly's relative bars), in the series' colour; and the
    bars a pattern marks, as (pattern, box) for the picture of hatches over them."""
    shapes, hatched = [], []
    width = 2 * _HALF_BAR / (1 if stacked else len(series))
    ends = {True: [0.0] * len(faded), False: [0.0] * len(faded)}  # how far the stack of each bar reaches, up and down
    for index, values in enumerate(series):
        for at, (value, gone) in enumerate(zip(values, faded)):
            start = at - _HALF_BAR + (0 if stacked else index * width)
            start_at = ends[value >= 0][at] if stacked else float(base)
            # 0.1 + 0.2 is drawn to 0.3; on a log axis (no stacks) a bar ends at its value, however small
            end = value if log else round(start_at + value, 9)
            if stacked:
                ends[value >= 0][at] = end
            bar = _box(horizontal, start, start + width, start_at, end, layer="between",
                       fillcolor=_FADED if gone else CATEGORICAL[index % len(CATEGORICAL)],
                       line={"color": MARK, "width": 1})
            shapes.append(bar)
            pattern = "/" if gone else _PATTERNS[index % len(_PATTERNS)]
            if pattern and value:
                hatched.append((pattern, (bar["x0"], bar["x1"], bar["y0"], bar["y1"])))
    return shapes, hatched


def _legend_entry(index: int, name: str) -> dict:
    """A series' entry in the legend: a bar trace of one missing value (Plotly leaves a
    trace with no values out of the legend), the same in every state."""
    marker = {"color": CATEGORICAL[index % len(CATEGORICAL)], "line": {"color": MARK, "width": 1}}
    if _PATTERNS[index % len(_PATTERNS)]:
        marker["pattern"] = {"shape": _PATTERNS[index % len(_PATTERNS)], "fgcolor": MARK, "fgopacity": 0.5,
                             "size": 6, "fillmode": "overlay"}
    return {"type": "bar", "x": [None], "y": [None], "name": name, "marker": marker, "hoverinfo": "skip"}


# The hatches are one picture stretched over the plot area, drawn for a plot of about
# this width (px; its height is the chart's less its margins): elsewhere they stretch a
# little. A picture sees none of the page's colours, so their ink is a see-through black,
# which reads on every bar colour and on the faded grey, in light and dark pages alike.
_HATCH_WIDTH = 420
_HATCH_INK = "stroke='#000' stroke-opacity='0.45' stroke-width='1'"
_HATCH_TILES = {"/": "M-2,2 L2,-2 M0,8 L8,0 M6,10 L10,6", "\\": "M-2,6 L2,10 M0,0 L8,8 M6,-2 L10,2",
                "x": "M0,8 L8,0 M0,0 L8,8", "-": "M0,4 L8,4", "|": "M4,0 L4,8", "+": "M0,4 L8,4 M4,0 L4,8"}


def _log_box(box: tuple, horizontal: bool) -> tuple:
    """A bar's box (x0, x1, y0, y1) with its value coordinates in powers of ten."""
    x0, x1, y0, y1 = box
    if horizontal:
        return math.log10(x0), math.log10(x1), y0, y1
    return x0, x1, math.log10(y0), math.log10(y1)


def _hatches(hatched: list[tuple[str, tuple]], x_range: list, y_range: list, chart_height: int) -> dict:
    """The picture of every patterned bar's hatch, over the plot area: (pattern, (x0, x1,
    y0, y1) in data units) each. Axis ranges run left to right and bottom to top (a
    range given top first is a reversed axis)."""
    width, height = _HATCH_WIDTH, max(chart_height - 72, 40)
    def px(v):
        return (v - x_range[0]) / (x_range[1] - x_range[0]) * width
    def py(v):
        return (y_range[1] - v) / (y_range[1] - y_range[0]) * height
    kinds = sorted({pattern for pattern, _ in hatched})
    defs = "".join(
        f"<pattern id='p{i}' width='8' height='8' patternUnits='userSpaceOnUse'>"
        + (f"<circle cx='4' cy='4' r='1.2' fill='#000' fill-opacity='0.45'/>" if kind == "." else
           f"<path d='{_HATCH_TILES[kind]}' {_HATCH_INK}/>") + "</pattern>" for i, kind in enumerate(kinds))
    rects = []
    for pattern, (x0, x1, y0, y1) in hatched:
        left, right = sorted((px(x0), px(x1)))
        top, bottom = sorted((py(y0), py(y1)))
        rects.append(f"<rect x='{left:.1f}' y='{top:.1f}' width='{right - left:.1f}' height='{bottom - top:.1f}' "
                     f"fill='url(#p{kinds.index(pattern)})'/>")
    svg = (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width} {height}' preserveAspectRatio='none'>"
           f"<defs>{defs}</defs>{''.join(rects)}</svg>")
    image = picture(svg, x_range[0], y_range[1], x_range[1] - x_range[0], abs(y_range[1] - y_range[0]))
    return {**image, "layer": "above"}


def _written(text: str, at: int, value: float, horizontal: bool, span, base: float = 0) -> dict:
    """A bar's label, written beyond its end (below or left of a negative bar), above
    every other mark. Plotly writes a shape's label above or below a shape, but only
    inside it sideways: a horizontal bar's label is on an empty box from the bar's end
    to the axis's, inside that box's near edge."""
    negative = value < 0
    if not horizontal:
        where = {"textposition": "bottom center", "yanchor": "top"} if negative \
            else {"textposition": "top center", "yanchor": "bottom"}
        box = _box(False, at - _HALF_BAR, at + _HALF_BAR, base, value)
    else:
        where = {"textposition": "middle right" if negative else "middle left"}
        box = _box(True, at - _HALF_BAR, at + _HALF_BAR, span[0] if negative else value,
                   value if negative else span[1])
    return {**box, "layer": "above", "line": {"width": 0},
            "label": {"text": text, "padding": 4, "font": {"size": _LABEL_FONT}, **where}}


def _name(text: str, at: int) -> dict:
    """A bar's name under the axis, where an upright tick label would be, as the label of
    an empty box on the axis (see _names_on_shapes)."""
    return {"type": "rect", "xref": "x", "yref": "paper", "x0": at - _HALF_BAR, "x1": at + _HALF_BAR, "y0": 0,
            "y1": 0, "layer": "above", "line": {"width": 0},
            "label": {"text": text, "textposition": "bottom center", "yanchor": "top", "padding": _NAME_PADDING,
                      "font": {"size": TICK_FONT}}}


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
        log = is_log(chart, "y")
        shown = data.get("text") or [number_cell(v, chart.y_format, log) for v in data["y"]]
        columns = [chart.x_title or labels["data_item"], chart.y_title or labels["data_value"]]
        cells = [[str(v)] for v in shown]
    else:
        columns = [chart.x_title or labels["data_item"]] + [str(n) for n in names]
        cells = [[number_cell(v, chart.y_format, is_log(chart, "y")) for v in row] for row in zip(*data["y"])]
    rows = [[str(x)] + [minus(c) for c in row] + ([removed] if gone else []) for x, row, gone in
            zip(data["x"], cells, faded)]
    if any(faded):
        columns.append(labels.get("data_state", "State"))
        rows = [row if len(row) == len(columns) else row + [""] for row in rows]
    if data.get("threshold") is not None:
        rows.append([str(data.get("threshold_label") or labels.get("data_threshold", "Threshold")),
                     number_cell(data["threshold"], chart.y_format, is_log(chart, "y"))] + [""] * (len(columns) - 2))
    return data_table(columns, rows, data.get("highlight"))
