"""Points in the plane: labelled or not, optionally drawn as arrows from the
origin (2-D vectors) or joined in order into a path (an optimiser's steps, a
trajectory, a walk through an embedding space), on axes whose ranges stay the
same in every state: declared (x_range, y_range) or worked out by the build
over all of them. Vectors get axes of equal scale, so their angles and lengths
compare; other points get axes that fit the data (equal_scale decides), and
either axis may be a log scale.

Points, arrows, the path and the labels are all layout shapes, so a new state
redraws shapes only, which Plotly does without recomputing the figure. Labels
are placed at build time for a phone's plot: beside their point, on the first
side where they cover no other label or point, and left out (the data table
still names the point) where no side is free, highlighted, first and last
points first."""
from __future__ import annotations

import math

from .common import exact, span_text, ACCENT, CATEGORICAL, MARK, PHONE_PLOT, Issue, axis, base_layout, declared_range, empty_trace, \
    index_problem, is_log, is_number, issues, log_axis, log_path_number, log_problem, log_rounded, log_span, \
    number_cell, path_number, rounded, table as data_table, text_width, theme_colour

# The data a step's function returns for this kind: key -> what it holds.
DATA = {
    "x": "required: a list of numbers, each point's x",
    "y": "required: a list of numbers, each point's y (one per x)",
    "labels": "optional: a list of labels, one per point, written beside it; an empty one ('' or null) leaves its "
              "point unlabelled (label a path's start, its end and the points the text names). A label with no "
              "free room beside its point is left out of the drawing, never printed over another; the data "
              "table names every point",
    "path": "optional: true to join the points in order with a line (an optimiser's steps, a trajectory), or a "
            "list of booleans, one per point: the points joined, in order (the others stand alone, as a target "
            "or a minimum)",
    "arrows": "optional: true to draw every point as an arrow from the origin (a 2-D vector), or a list of "
              "booleans, one per point",
    "highlight": "optional: the index of the point drawn in the accent colour",
}
SCALES = ("x", "y")  # the axes x_scale and y_scale may make logarithmic

_PAD = 0.15         # room around the points of equal axes for their labels, as a share of the range
_FITTED_PAD = 0.1   # the same on axes that fit the data
_POINT_RADIUS = 4   # px, a point on axes that fit the data (a circle sized in pixels stays round)
_LABEL_FONT = 12    # px
_LABEL_PADDING = 8  # px between a point and its label
_LABEL_HEIGHT = 15  # px, a line of label text


def options(chart) -> list[Issue]:
    if chart.equal_scale is True and (is_log(chart, "x") or is_log(chart, "y")):
        return [Issue("equal_scale", "a log axis has no scale to share: leave equal_scale out, or draw both "
                                     "axes linear")]
    return []


def check(data: dict, chart=None) -> list[Issue]:
    x, y = data.get("x"), data.get("y")
    if not isinstance(x, list) or not x or not all(is_number(v) for v in x):
        return [Issue("x", "'x' must be a non-empty list of numbers")]
    if not isinstance(y, list) or not all(is_number(v) for v in y):
        return [Issue("y", "'y' must be a list of numbers, one per x")]
    if len(y) != len(x):  # the shorter of the two is blamed: the likelier slip
        short, other = ("y", "x") if len(y) < len(x) else ("x", "y")
        return [Issue(short, f"'{short}' has {len(data[short])} values but '{other}' has {len(data[other])}: "
                             "give one per point")]
    found = []
    labels = data.get("labels")
    if labels is not None and not (isinstance(labels, list) and len(labels) == len(x) and all(
            label is None or isinstance(label, (str, int, float)) and not isinstance(label, bool)
            for label in labels)):
        size = len(labels) if isinstance(labels, list) else type(labels).__name__
        found.append(Issue("labels", f"'labels' must be a list of {len(x)} labels ('' for a point without one), "
                                     f"found {size}"))
    for name in ("arrows", "path"):
        value = data.get(name)
        if value is not None and not isinstance(value, bool) and not (
                isinstance(value, list) and len(value) == len(x) and all(isinstance(a, bool) for a in value)):
            found.append(Issue(name, f"'{name}' must be true, false or a list of {len(x)} booleans"))
    message = index_problem(data, "highlight", len(x))
    found.append(Issue("highlight", message) if message else None)
    for name in ("x", "y"):
        if chart is not None and is_log(chart, name):
            message = log_problem(data[name], name, f"{name}_scale")
            if message:
                return issues(Issue(name, message), *found)
            if any(_flags(data.get("arrows"), len(x))):
                return issues(Issue("arrows", f"an arrow starts at the origin, which a log axis ({name}_scale = "
                                              "\"log\") does not have"), *found)
        span = declared_range(chart, f"{name}_range") if chart is not None else None
        for index, value in enumerate(data[name]):
            if span and not span[0] <= value <= span[1]:
                found.append(Issue(name, f"{name}[{index}] = {exact(value)} is outside {name}_range "
                                         f"{span_text(span)}"))
                break
    return issues(*found)


def _flags(value, count: int) -> list[bool]:
    """A per-point option given as one boolean, a list of them, or nothing."""
    return [bool(value)] * count if isinstance(value, bool) or value is None else list(value)


def ranges(chart, all_data: list[dict]) -> dict:
    equal = _equal(chart, all_data)
    found = _computed(chart, all_data, equal)
    return {"x_range": found[0], "y_range": found[1], "equal_scale": equal}


def _equal(chart, all_data: list[dict]) -> bool:
    """Whether a unit is as long on both axes: as declared, else ('auto') when any state
    draws arrows (vectors, whose angles compare); never with a log axis."""
    if is_log(chart, "x") or is_log(chart, "y"):
        return False
    if isinstance(chart.equal_scale, bool):
        return chart.equal_scale
    return any(any(_flags(data.get("arrows"), len(data["x"]))) for data in all_data)


def _computed(chart, all_data, equal: bool) -> tuple[list, list]:
    """Both ranges, holding every point of every state. Equal axes hold the origin
    too and are widened to the same length, so equal scales fill the plot the same
    way in every state; fitted axes hold the origin only for arrows."""
    arrows = any(any(_flags(data.get("arrows"), len(data["x"]))) for data in all_data)
    spans = []
    for name in ("x", "y"):
        declared = declared_range(chart, f"{name}_range")
        if declared:
            spans.append(list(declared))
            continue
        values = [v for d in all_data for v in d[name]] + ([0.0] if equal or arrows else [])
        low, high = min(values), max(values)
        if is_log(chart, name):
            spans.append(log_span(low, high, _FITTED_PAD))
            continue
        pad = max(high - low, 1e-9) * (_PAD if equal else _FITTED_PAD)
        spans.append([low - pad, high + pad] if equal else [rounded(low - pad), rounded(high + pad)])
    if not equal:
        return spans[0], spans[1]
    length = max(spans[0][1] - spans[0][0], spans[1][1] - spans[1][0])
    for index, name in enumerate(("x", "y")):
        if not declared_range(chart, f"{name}_range"):
            middle = (spans[index][0] + spans[index][1]) / 2
            spans[index] = [rounded(middle - length / 2), rounded(middle + length / 2)]
    return spans[0], spans[1]


def figure(chart, data: dict) -> dict:
    equal = chart.equal_scale if isinstance(chart.equal_scale, bool) and not (
        is_log(chart, "x") or is_log(chart, "y")) else _equal(chart, [data])
    found = None if declared_range(chart, "x_range") and declared_range(chart, "y_range") \
        else _computed(chart, [data], equal)
    x_range = declared_range(chart, "x_range") or found[0]
    y_range = declared_range(chart, "y_range") or found[1]
    log_x, log_y = is_log(chart, "x"), is_log(chart, "y")
    x = log_rounded(data["x"]) if log_x else rounded(data["x"])
    y = log_rounded(data["y"]) if log_y else rounded(data["y"])
    labels = [("" if label is None else str(label)) for label in (data.get("labels") or [""] * len(x))]
    arrows, joined = _flags(data.get("arrows"), len(x)), _flags(data.get("path") or False, len(x))
    selected = data.get("highlight")
    unit = max(x_range[1] - x_range[0], y_range[1] - y_range[0])
    shapes = []
    order = [index for index, on in enumerate(joined) if on]
    if len(order) > 1:  # under the points, over the grid
        nx, ny = (log_path_number if log_x else path_number), (log_path_number if log_y else path_number)
        shapes.append({"type": "path", "xref": "x", "yref": "y", "layer": "between",
                       "line": {"color": CATEGORICAL[0], "width": 2},
                       "path": "".join(f"{'L' if k else 'M'}{nx(x[i])},{ny(y[i])}" for k, i in enumerate(order))})
    places = _label_places(chart, x, y, labels, selected, x_range, y_range, equal)
    for index, (px, py, label, arrow) in enumerate(zip(x, y, labels, arrows)):
        colour = ACCENT if index == selected else CATEGORICAL[0]
        if arrow:
            shapes.append({"type": "line", "xref": "x", "yref": "y", "x0": 0, "y0": 0, "x1": px, "y1": py,
                           "line": {"color": colour, "width": 3 if index == selected else 2}})
            head = _arrowhead(px, py, unit * 0.035)
            if head:
                shapes.append({"type": "path", "xref": "x", "yref": "y", "path": head, "fillcolor": colour,
                               "line": {"color": colour, "width": 1}})
        elif equal:
            radius = unit * 0.012
            shapes.append({"type": "circle", "xref": "x", "yref": "y", "x0": px - radius, "x1": px + radius,
                           "y0": py - radius, "y1": py + radius, "fillcolor": colour,
                           "line": {"color": MARK if index == selected else colour, "width": 2}})
        else:  # sized in pixels: round on axes of any scale
            size = _POINT_RADIUS + (1 if index == selected else 0)
            shapes.append({"type": "circle", "xref": "x", "yref": "y", "xsizemode": "pixel", "ysizemode": "pixel",
                           "xanchor": px, "yanchor": py, "x0": -size, "x1": size, "y0": -size, "y1": size,
                           "fillcolor": colour, "line": {"color": MARK if index == selected else colour,
                                                          "width": 2 if index == selected else 0}})
        if places.get(index):
            # The label: an invisible box at the point, its text on the side placing chose.
            shapes.append({"type": "rect", "xref": "x", "yref": "y", "x0": px, "x1": px, "y0": py, "y1": py,
                           "line": {"width": 0},
                           "label": {"text": f"<b>{label}</b>" if index == selected else label,
                                     "font": {"size": _LABEL_FONT}, "padding": _LABEL_PADDING,
                                     **_SIDES[places[index]]}})
    # Ticks outside part the two axes' end labels at the corner.
    x_axis = axis(chart.x_title, ticks="outside", ticklen=5,
                  **(log_axis(x_range) if log_x else {"range": list(x_range), "zeroline": True,
                                                      "zerolinecolor": theme_colour("axis")}))
    y_axis = axis(chart.y_title, ticks="outside", ticklen=5,
                  **(log_axis(y_range, chart.y_format) if log_y else {
                      "range": list(y_range), "zeroline": True, "zerolinecolor": theme_colour("axis"),
                      "tickformat": chart.y_format or None}))
    if equal:
        x_axis = {**x_axis, "constrain": "domain"}
        y_axis = {**y_axis, "constrain": "domain", "scaleanchor": "x", "scaleratio": 1}
        # (keys in the order the chart has always had: the page's bytes stay the same)
        y_axis = {key: y_axis[key] for key in ("title", "gridcolor", "linecolor", "fixedrange", "zeroline",
                                               "ticklabeloverflow", "range", "constrain", "scaleanchor", "ticks",
                                               "ticklen", "scaleratio", "zerolinecolor", "tickformat")
                  if key in y_axis}
        x_axis = {key: x_axis[key] for key in ("title", "gridcolor", "linecolor", "fixedrange", "zeroline",
                                               "ticklabeloverflow", "range", "constrain", "ticks", "ticklen",
                                               "zerolinecolor") if key in x_axis}
    layout = base_layout(chart, shapes=shapes, xaxis=x_axis, yaxis=y_axis)
    return {"data": [empty_trace()], "layout": layout}


# Where a label sits about its point, as Plotly words it for a box of no size there.
_SIDES = {"above": {"textposition": "top center", "yanchor": "bottom"},
          "below": {"textposition": "bottom center", "yanchor": "top"},
          "right": {"textposition": "middle left"},
          "left": {"textposition": "middle right"}}


def _label_places(chart, x, y, labels, selected, x_range, y_range, equal: bool) -> dict[int, str]:
    """The side of its point each label is written on, for the plot a 360 px phone
    gives the chart (the narrowest, where labels crowd most): the first side, of above,
    below, right and left, where it stays inside the plot and covers no label placed
    before it and no other point. A label with no such side is left out. The highlighted
    point is placed first, then the first and the last labelled point (a path's start
    and end), then the others in order."""
    width = PHONE_PLOT
    height = max(chart.height - 72, 40)  # less the default top and bottom margins
    if equal:  # equal axes keep a square plot of the shorter side
        width = height = min(width, height)

    def share(value, span, log):
        if log:
            value, span = math.log10(value), [math.log10(v) for v in span]
        return (value - span[0]) / (span[1] - span[0])
    at = [(share(px, x_range, is_log(chart, "x")) * width, (1 - share(py, y_range, is_log(chart, "y"))) * height)
          for px, py in zip(x, y)]
    named = [index for index, label in enumerate(labels) if label]
    first = [i for i in (selected, named[0] if named else None, named[-1] if named else None) if i in named]
    order = list(dict.fromkeys(first + named))
    taken = [(cx - _POINT_RADIUS - 1, cy - _POINT_RADIUS - 1, cx + _POINT_RADIUS + 1, cy + _POINT_RADIUS + 1)
             for cx, cy in at]
    places = {}
    for index in order:
        cx, cy = at[index]
        w = text_width(labels[index], _LABEL_FONT) * (1.1 if index == selected else 1.0)
        h, gap = _LABEL_HEIGHT, _LABEL_PADDING
        boxes = {"above": (cx - w / 2, cy - gap - h, cx + w / 2, cy - gap),
                 "below": (cx - w / 2, cy + gap, cx + w / 2, cy + gap + h),
                 "right": (cx + gap, cy - h / 2, cx + gap + w, cy + h / 2),
                 "left": (cx - gap - w, cy - h / 2, cx - gap, cy + h / 2)}
        # A vector's label goes on the side away from the origin, so it is not on its arrow.
        preferred = ["above", "below"] if y[index] >= 0 else ["below", "above"]
        own = taken[index]
        for side in preferred + ["right", "left"]:
            box = boxes[side]
            inside = box[0] >= 0 and box[1] >= 0 and box[2] <= width and box[3] <= height
            if inside and not any(_overlap(box, other) for other in taken if other is not own):
                places[index] = side
                taken.append(box)
                break
    return places


def _overlap(a: tuple, b: tuple) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _arrowhead(x: float, y: float, size: float) -> str | None:
    length = math.hypot(x, y)
    if length < size:
        return None
    ux, uy = x / length, y / length
    bx, by = x - ux * size, y - uy * size  # the head's base, on the shaft
    wx, wy = -uy * size * 0.5, ux * size * 0.5
    n = path_number
    return f"M {n(x)},{n(y)} L {n(bx + wx)},{n(by + wy)} L {n(bx - wx)},{n(by - wy)} Z"


def table(chart, data: dict, labels: dict) -> dict:
    """A row per point, in order: its label (or, unlabelled, its place in the order,
    1, 2, 3…) and its coordinates."""
    columns = [labels["data_item"], chart.x_title or "x", chart.y_title or "y"]
    names = data.get("labels") or [None] * len(data["x"])
    log_x, log_y = is_log(chart, "x"), is_log(chart, "y")
    rows = [[str(label) if label not in (None, "") else str(index + 1), number_cell(float(px), "", log_x),
             number_cell(float(py), chart.y_format if log_y else "", log_y)]
            for index, (label, px, py) in enumerate(zip(names, data["x"], data["y"]))]
    return data_table(columns, rows, data.get("highlight"))
