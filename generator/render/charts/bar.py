"""One bar per label, with the selected bar drawn in the accent colour."""
from __future__ import annotations

from .common import ACCENT, MARK, MUTED, axis, base_layout, first_problem, index_problem, labels_problem, \
    number_cell, rounded, table as data_table


# The data a step's function returns for this kind: key -> what it holds.
DATA = {
    "y": "required: a list of numbers, one bar each",
    "x": "required: a list of labels, one per bar",
    "text": "optional: a list of labels written above the bars",
    "highlight": "optional: the index of the bar drawn in the accent colour",
}


def check(data: dict) -> str | None:
    y = data.get("y")
    if not isinstance(y, list) or not y or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in y):
        return "'y' must be a non-empty list of numbers"
    problem = labels_problem(data, "x", len(y))
    if problem:
        return problem
    if data.get("text") is not None:
        problem = labels_problem(data, "text", len(y))
    return first_problem(problem, index_problem(data, "highlight", len(y)))


def figure(chart, data: dict) -> dict:
    y, selected = rounded(data["y"]), data.get("highlight")
    bar = {
        "type": "bar",
        "x": data["x"],
        "y": y,
        "marker": {"color": MUTED},
        "hovertemplate": "%{x}: %{y}<extra></extra>",
    }
    if data.get("text") is not None:
        bar.update(text=data["text"], textposition="outside", cliponaxis=False)
    top = max(y) * 1.2 if max(y) > 0 else 1
    # The selected bar is painted over by a shape in the accent colour, outlined so
    # it stands out without colour. As a shape, a change of selection leaves the
    # trace as it was, and Plotly.react redraws only the shape.
    shapes = [] if selected is None else [{
        "type": "rect", "xref": "x", "yref": "y", "layer": "above",
        "x0": selected - _HALF_BAR, "x1": selected + _HALF_BAR, "y0": 0, "y1": y[selected],
        "fillcolor": ACCENT, "line": {"color": MARK, "width": 3},
    }]
    layout = base_layout(chart, xaxis=axis(chart.x_title, type="category"),
                         yaxis=axis(chart.y_title, range=[0, rounded(top)], tickformat=chart.y_format or None),
                         shapes=shapes, bargap=1 - 2 * _HALF_BAR)
    return {"data": [bar], "layout": layout}


_HALF_BAR = 0.4  # half a bar's width, in category units


def table(chart, data: dict, labels: dict) -> dict:
    """One row per bar: its label and its value as the chart labels it."""
    shown = data.get("text") or [number_cell(v, chart.y_format) for v in data["y"]]
    return data_table([chart.x_title or labels["data_item"], chart.y_title or labels["data_value"]],
                      [[str(x), str(v)] for x, v in zip(data["x"], shown)], data.get("highlight"))
