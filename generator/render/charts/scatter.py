"""Labelled points in the plane, optionally drawn as arrows from the origin
(2-D vectors), on axes of equal scale whose ranges stay the same in every
state: declared (x_range, y_range) or worked out by the build over all of
them. Points, arrows and labels are all layout shapes, so a new state redraws
shapes only, which Plotly does without recomputing the figure."""
from __future__ import annotations

import math

from .common import ACCENT, CATEGORICAL, MARK, Issue, axis, base_layout, declared_range, empty_trace, path_number, \
    index_problem, is_number, issues, labels_problem, minus, number_cell, rounded, table as data_table, \
    theme_colour

# The data a step's function returns for this kind: key -> what it holds.
DATA = {
    "x": "required: a list of numbers, each point's x",
    "y": "required: a list of numbers, each point's y (one per x)",
    "labels": "required: a list of labels, one per point, written beside it",
    "arrows": "optional: true to draw every point as an arrow from the origin (a 2-D vector), or a list of "
              "booleans, one per point",
    "highlight": "optional: the index of the point drawn in the accent colour",
}

_PAD = 0.15  # room around the points for their labels, as a share of the range


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
    message = labels_problem(data, "labels", len(x))
    found.append(Issue("labels", message) if message else None)
    arrows = data.get("arrows")
    if arrows is not None and not isinstance(arrows, bool) and not (
            isinstance(arrows, list) and len(arrows) == len(x) and all(isinstance(a, bool) for a in arrows)):
        found.append(Issue("arrows", f"'arrows' must be true, false or a list of {len(x)} booleans"))
    message = index_problem(data, "highlight", len(x))
    found.append(Issue("highlight", message) if message else None)
    for name in ("x", "y"):
        span = declared_range(chart, f"{name}_range") if chart is not None else None
        for index, value in enumerate(data[name]):
            if span and not span[0] <= value <= span[1]:
                found.append(Issue(name, f"{name}[{index}] = {minus(f'{value:g}')} is outside {name}_range "
                                         f"[{minus(f'{span[0]:g}')}, {minus(f'{span[1]:g}')}]"))
                break
    return issues(*found)


def ranges(chart, all_data: list[dict]) -> dict:
    found = _computed(chart, all_data)
    return {"x_range": found[0], "y_range": found[1]}


def _computed(chart, all_data) -> tuple[list, list]:
    """Both ranges, holding every point of every state and the origin, widened to
    the same length so equal scales fill the plot the same way in every state."""
    spans = []
    for name in ("x", "y"):
        declared = declared_range(chart, f"{name}_range")
        if declared:
            spans.append(list(declared))
            continue
        values = [v for d in all_data for v in d[name]] + [0.0]
        low, high = min(values), max(values)
        pad = max(high - low, 1e-9) * _PAD
        spans.append([low - pad, high + pad])
    length = max(spans[0][1] - spans[0][0], spans[1][1] - spans[1][0])
    for index, name in enumerate(("x", "y")):
        if not declared_range(chart, f"{name}_range"):
            middle = (spans[index][0] + spans[index][1]) / 2
            spans[index] = [rounded(middle - length / 2), rounded(middle + length / 2)]
    return spans[0], spans[1]


def figure(chart, data: dict) -> dict:
    x, y, labels = data["x"], data["y"], data["labels"]
    x_range = declared_range(chart, "x_range") or _computed(chart, [data])[0]
    y_range = declared_range(chart, "y_range") or _computed(chart, [data])[1]
    arrows = data.get("arrows")
    arrows = [arrows] * len(x) if isinstance(arrows, bool) or arrows is None else arrows
    unit = max(x_range[1] - x_range[0], y_range[1] - y_range[0])
    radius = unit * 0.012
    selected = data.get("highlight")
    shapes = []
    for index, (px, py, label, arrow) in enumerate(zip(x, y, labels, arrows)):
        px, py = rounded(px), rounded(py)
        colour = ACCENT if index == selected else CATEGORICAL[0]
        if arrow:
            shapes.append({"type": "line", "xref": "x", "yref": "y", "x0": 0, "y0": 0, "x1": px, "y1": py,
                           "line": {"color": colour, "width": 3 if index == selected else 2}})
            head = _arrowhead(px, py, unit * 0.035)
            if head:
                shapes.append({"type": "path", "xref": "x", "yref": "y", "path": head, "fillcolor": colour,
                               "line": {"color": colour, "width": 1}})
        else:
            shapes.append({"type": "circle", "xref": "x", "yref": "y", "x0": px - radius, "x1": px + radius,
                           "y0": py - radius, "y1": py + radius, "fillcolor": colour,
                           "line": {"color": MARK if index == selected else colour, "width": 2}})
        # The label: an invisible box at the point, its text beside it on the side away
        # from the origin, so a label does not sit on its own arrow.
        above = py >= 0
        shapes.append({"type": "rect", "xref": "x", "yref": "y", "x0": px, "x1": px, "y0": py, "y1": py,
                       "line": {"width": 0},
                       "label": {"text": f"<b>{label}</b>" if index == selected else str(label),
                                 "font": {"size": 12}, "padding": 8,
                                 "textposition": "top center" if above else "bottom center",
                                 "yanchor": "bottom" if above else "top"}})
    layout = base_layout(chart, shapes=shapes,
                         # Ticks outside part the two axes' end labels at the corner.
                         xaxis=axis(chart.x_title, range=list(x_range), constrain="domain", zeroline=True,
                                    ticks="outside", ticklen=5,
                                    zerolinecolor=theme_colour("axis")),
                         yaxis=axis(chart.y_title, range=list(y_range), constrain="domain", scaleanchor="x",
                                    ticks="outside", ticklen=5,
                                    scaleratio=1, zeroline=True, zerolinecolor=theme_colour("axis")))
    return {"data": [empty_trace()], "layout": layout}


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
    """A row per point: its label and its coordinates."""
    columns = [labels["data_item"], chart.x_title or "x", chart.y_title or "y"]
    rows = [[str(label), number_cell(float(px)), number_cell(float(py))]
            for label, px, py in zip(data["labels"], data["x"], data["y"])]
    return data_table(columns, rows, data.get("highlight"))
