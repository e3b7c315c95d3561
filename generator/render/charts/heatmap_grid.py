"""Several matrices as small multiples in a grid, one of them emphasised."""
from __future__ import annotations

import functools
import math
import textwrap

from .common import ACCENT, axis, base_layout, first_problem, index_problem, labels_problem, matrix_problem, \
    number_cells, table as data_table, theme_colour
from .heatmap import cell_range, row_outline, trace


# The data a step's function returns for this kind: key -> what it holds.
DATA = {
    "z": "required: a list of 2-D lists of numbers from 0 to 1, all of the same shape",
    "x": "required: a list of column labels, one per column",
    "y": "required: a list of row labels, one per row",
    "titles": "required: a list of titles, one per matrix",
    "highlight": "optional: the index of the matrix to emphasise",
    "highlight_row": "optional: the index of a row to outline in the emphasised matrices",
}

_GAP_X = 0.08
_GAP_Y = 0.16
_TITLE_WIDTH = 20  # characters per line of a matrix's title


def check(data: dict) -> str | None:
    grids = data.get("z")
    if not isinstance(grids, list) or not grids:
        return "'z' must be a non-empty list of 2-D arrays"
    for index, z in enumerate(grids):
        problem = matrix_problem(z, f"z[{index}]")
        if problem:
            return problem
    shapes = {(len(z), len(z[0])) for z in grids}
    if len(shapes) != 1:
        return "'z' matrices must all have the same shape"
    rows, cols = shapes.pop()
    return first_problem(labels_problem(data, "x", cols), labels_problem(data, "y", rows),
                         labels_problem(data, "titles", len(grids)),
                         index_problem(data, "highlight", len(grids)),
                         index_problem(data, "highlight_row", rows))


def figure(chart, data: dict) -> dict:
    grids, x, y = data["z"], data["x"], data["y"]
    count, selected = len(grids), data.get("highlight")
    columns = math.ceil(math.sqrt(count))
    rows = math.ceil(count / columns)
    traces, shapes, axes = [], [], {}
    for index, z in enumerate(grids):
        suffix = "" if index == 0 else str(index + 1)
        row, column = divmod(index, columns)
        left, right = column / columns + _GAP_X / 2, (column + 1) / columns - _GAP_X / 2
        top, bottom = 1 - row / rows - _GAP_Y / 2, 1 - (row + 1) / rows + _GAP_Y / 2
        emphasised = selected is None or index == selected
        # The traces never change with the selection: a veil in the page's colour
        # dims the other matrices, so choosing another one only moves shapes,
        # which Plotly redraws without recomputing the heatmaps.
        traces.append(trace(z, x, y, xaxis=f"x{suffix}", yaxis=f"y{suffix}", showscale=False))
        if not emphasised:
            shapes.append({"type": "rect", "xref": f"x{suffix} domain", "yref": f"y{suffix} domain",
                           "x0": 0, "x1": 1, "y0": 0, "y1": 1, "layer": "above", "opacity": 0.6,
                           "fillcolor": theme_colour("gap"), "line": {"width": 0}})
        # Row labels on the first column and column labels on the last row only, as small
        # multiples share them: on a narrow screen, labels beside or below an inner matrix
        # would run into its neighbour or the title under it.
        axes[f"xaxis{suffix}"] = axis(chart.x_title if row == rows - 1 and column == 0 else "",
                                      domain=[left, right], tickvals=list(range(len(x))), ticktext=x,
                                      showticklabels=row == rows - 1,
                                      range=cell_range(len(x)), anchor=f"y{suffix}")
        axes[f"yaxis{suffix}"] = axis(chart.y_title if column == 0 else "", domain=[bottom, top],
                                      tickvals=list(range(len(y))), ticktext=y, showticklabels=column == 0,
                                      range=cell_range(len(y), True), anchor=f"x{suffix}")
        # Each title is the label of an invisible shape along the top of its matrix, not
        # an annotation: Plotly redraws changed shapes alone, while a changed annotation
        # (the bold title of the emphasised matrix) makes it recompute the whole figure.
        # Wrapped, as Plotly does not wrap: a long title over a narrow matrix would
        # run into the next one's.
        title = _wrapped(str(data["titles"][index]))
        shapes.append({"type": "rect", "xref": "paper", "yref": "paper", "x0": left, "x1": right,
                       "y0": top, "y1": top, "line": {"width": 0},
                       "label": {"text": f"<b>{title}</b>" if index == selected else title,
                                 "font": {"size": 12}, "textposition": "top center", "yanchor": "bottom",
                                 "padding": 6}})
        if data.get("highlight_row") is not None and emphasised:
            shapes.append(row_outline(data["highlight_row"], len(x), f"x{suffix}", f"y{suffix}"))
    if selected is not None:
        suffix = "" if selected == 0 else str(selected + 1)
        shapes.append({"type": "rect", "xref": f"x{suffix} domain", "yref": f"y{suffix} domain",
                       "x0": -0.03, "x1": 1.03, "y0": -0.03, "y1": 1.03,
                       "line": {"color": ACCENT, "width": 2, "dash": "dot"}})
    layout = base_layout(chart, shapes=shapes, **axes)
    layout["margin"]["t"] = 48  # room for the matrices' titles (two lines)
    return {"data": traces, "layout": layout}


@functools.lru_cache(maxsize=1024)
def _wrapped(title: str) -> str:
    return "<br>".join(textwrap.wrap(title, _TITLE_WIDTH)) or title


def table(chart, data: dict, labels: dict) -> dict:
    """Every matrix, one after another; each row is named by its matrix and its y label."""
    rows = []
    for title, z in zip(data["titles"], data["z"]):
        rows += [[f"{title}: {y}"] + number_cells(row) for y, row in zip(data["y"], z)]
    highlight = None
    if data.get("highlight") is not None and data.get("highlight_row") is not None:
        highlight = data["highlight"] * len(data["y"]) + data["highlight_row"]
    return data_table([chart.y_title or labels["data_item"]] + [str(x) for x in data["x"]], rows, highlight)
