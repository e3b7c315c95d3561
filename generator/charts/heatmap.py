"""A matrix of numbers (for example attention weights, row = query, column =
key) with its values printed in the cells and one row optionally outlined."""
from __future__ import annotations

import functools

from .common import ACCENT, SEQUENTIAL, axis, base_layout, first_problem, index_problem, \
    labels_problem, matrix_problem, number_cells, rounded, table as data_table


# The data a step's function returns for this kind: key -> what it holds.
DATA = {
    "z": "required: a 2-D list of numbers from 0 to 1 (rows of equal length)",
    "x": "required: a list of column labels, one per column",
    "y": "required: a list of row labels, one per row",
    "highlight_row": "optional: the index of a row to outline",
}


def check(data: dict) -> str | None:
    problem = matrix_problem(data.get("z"))
    if problem:
        return problem
    rows, cols = len(data["z"]), len(data["z"][0])
    return first_problem(labels_problem(data, "x", cols), labels_problem(data, "y", rows),
                         index_problem(data, "highlight_row", rows))


def trace(z, x, y, **extra) -> dict:
    # Numeric axes with tick labels: category axes would merge repeated labels.
    return {
        "type": "heatmap",
        "z": rounded(z),
        "x": _positions(len(x)),
        "y": _positions(len(y)),
        "zmin": 0,
        "zmax": 1,
        "colorscale": SEQUENTIAL,
        "texttemplate": "%{z:.2f}",
        "customdata": _shared_cell_names(x, y),
        "hovertemplate": "%{customdata}: %{z:.2f}<extra></extra>",
        "xgap": 1,
        "ygap": 1,
        **extra,
    }


# Every state of a step shows the same labels: these lists are made once and
# shared, so the page's pool recognises them by identity rather than by reading
# them again (at 64 tokens, 4,096 names per state). Nothing modifies them.
@functools.lru_cache(maxsize=256)
def _positions(count: int) -> list[int]:
    return list(range(count))


def _shared_cell_names(x: list, y: list) -> list[list[str]]:
    try:
        return _cell_names(tuple(x), tuple(y))
    except TypeError:  # labels that cannot be hashed: made afresh
        return [[f"{row} → {col}" for col in x] for row in y]


@functools.lru_cache(maxsize=64)
def _cell_names(x: tuple, y: tuple) -> list[list[str]]:
    return [[f"{row} → {col}" for col in x] for row in y]


def cell_range(count: int, reversed_: bool = False) -> list[float]:
    """An axis range fixed to the cells, first row on top. A fixed range (rather than
    autorange) lets Plotly.react skip recomputing the axes when only the data changes."""
    return [count - 0.5, -0.5] if reversed_ else [-0.5, count - 0.5]


def row_outline(row: int, width: int, xref: str = "x", yref: str = "y") -> dict:
    return {"type": "rect", "xref": xref, "yref": yref, "x0": -0.5, "x1": width - 0.5,
            "y0": row - 0.5, "y1": row + 0.5, "line": {"color": ACCENT, "width": 3}}


def figure(chart, data: dict) -> dict:
    x, y = data["x"], data["y"]
    shapes = []
    if data.get("highlight_row") is not None:
        shapes.append(row_outline(data["highlight_row"], len(x)))
    layout = base_layout(
        chart,
        xaxis=axis(chart.x_title, tickvals=list(range(len(x))), ticktext=x, range=cell_range(len(x))),
        yaxis=axis(chart.y_title, tickvals=list(range(len(y))), ticktext=y, range=cell_range(len(y), True)),
        shapes=shapes,
    )
    # No colour bar: every cell has its value written in it (as in heatmap_grid), and
    # the bar cost about a quarter of each redraw when the matrix changes.
    return {"data": [trace(data["z"], x, y, showscale=False)], "layout": layout}


def table(chart, data: dict, labels: dict) -> dict:
    """The matrix itself: a row per y label, a column per x label."""
    rows = [[str(y)] + number_cells(row) for y, row in zip(data["y"], data["z"])]
    return data_table([chart.y_title or labels["data_item"]] + [str(x) for x in data["x"]], rows,
                      data.get("highlight_row"))
