"""A matrix of numbers (for example attention weights, row = query, column =
key) with its values printed in the cells and one row optionally outlined.

A matrix of up to 400 cells (20 × 20) is drawn as one picture of its cells and
printed values on square cells, without hover labels: choosing another matrix
then redraws just that picture, in a millisecond or two, where a heatmap trace
would have Plotly recompute and redraw the whole figure. A larger matrix, whose
printed values would be too small to read, is a Plotly heatmap trace. Either
way the step's data table lists every value.
"""
from __future__ import annotations

import functools

from .common import ACCENT, FONT_FAMILY, SEQUENTIAL, axis, base_layout, empty_trace, first_problem, index_problem, \
    ink_on, labels_problem, matrix_problem, number_cells, picture, rounded, sequential_colour, table as data_table


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
    as_picture = len(x) * len(y) <= PICTURE_CELLS
    layout = base_layout(
        chart,
        xaxis=axis(chart.x_title, tickvals=list(range(len(x))), ticktext=x, range=cell_range(len(x)),
                   **(_SQUARE_X if as_picture else {})),
        yaxis=axis(chart.y_title, tickvals=list(range(len(y))), ticktext=y, range=cell_range(len(y), True),
                   **(_SQUARE_Y if as_picture else {})),
        shapes=shapes,
    )
    # No colour bar: every cell has its value written in it (as in heatmap_grid).
    if not as_picture:
        return {"data": [trace(data["z"], x, y, showscale=False)], "layout": layout}
    layout["images"] = [picture(_matrix_svg(data["z"]), -0.5, -0.5, len(x), len(y))]
    return {"data": [empty_trace()], "layout": layout}


PICTURE_CELLS = 400
# Square cells keep the picture's printed values from being stretched; the plot
# narrows (or shortens) to fit rather than the axes showing more than the cells.
_SQUARE_X = {"constrain": "domain", "showgrid": False}
_SQUARE_Y = {"constrain": "domain", "showgrid": False, "scaleanchor": "x", "scaleratio": 1}
_SVG_FONT = FONT_FAMILY.replace("'", "")  # unquoted names: the picture's attributes are in single quotes
_GAP = 0.03  # between cells, in cells: the page's background shows through, as xgap/ygap do


def _matrix_svg(z: list[list[float]]) -> str:
    """An SVG of the matrix: each cell shaded by its value from 0 to 1
    on the sequential scale, with the value written in black or white, whichever
    reads better on it. Made once per matrix: many states show the same one."""
    try:
        return _matrix_svg_of(tuple(map(tuple, z)))
    except TypeError:  # not hashable: made afresh
        return _matrix_svg_of.__wrapped__(z)


@functools.lru_cache(maxsize=1024)
def _matrix_svg_of(z) -> str:
    cells = []
    for i, (row, texts) in enumerate(zip(z, (number_cells(list(z_row)) for z_row in z))):
        for j, (value, text) in enumerate(zip(row, texts)):
            fill = sequential_colour(value)
            cells.append(f"<rect x='{j + _GAP / 2:g}' y='{i + _GAP / 2:g}' width='{1 - _GAP:g}' "
                         f"height='{1 - _GAP:g}' fill='{fill}'/>"
                         f"<text x='{j + 0.5:g}' y='{i + 0.5:g}' fill='{ink_on(fill)}'>{text}</text>")
    return (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {len(z[0])} {len(z)}'>"
            f"<g font-family='{_SVG_FONT}' font-size='0.3' text-anchor='middle' dominant-baseline='central'>"
            + "".join(cells) + "</g></svg>")


def table(chart, data: dict, labels: dict) -> dict:
    """The matrix itself: a row per y label, a column per x label."""
    rows = [[str(y)] + number_cells(row) for y, row in zip(data["y"], data["z"])]
    return data_table([chart.y_title or labels["data_item"]] + [str(x) for x in data["x"]], rows,
                      data.get("highlight_row"))
