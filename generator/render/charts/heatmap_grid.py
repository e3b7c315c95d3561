"""Several matrices as small multiples in a grid, one of them emphasised.

Matrices of up to 400 cells are pictures, as in heatmap: the chosen one in
full colour, the others in colours faded towards grey, each value written in
black or white, whichever reads better on its faded cell, so the values of
every matrix read on light and dark pages alike. Choosing another matrix
changes pictures and shapes only. Larger matrices are pictures of a pixel per
cell, the ones not chosen faded the same way, beside one colour bar."""
from __future__ import annotations

import functools
import math
import textwrap

from .common import ACCENT, COLORBAR_MARGIN, Issue, axis, base_layout, empty_trace, index_problem, \
    issues, labelled_x, labels_problem, matrix_problem, picture, table as data_table
from .colour_bar import colour_bar
from .heatmap import PICTURE_CELLS, cell_range, colour_range, mask_problem, masked_key, matrix_svg, range_issues, \
    raster_pictures, row_outline, table_rows, text_plan, ticks, unmasked


# The data a step's function returns for this kind: key -> what it holds.
DATA = {
    "z": "required: a list of 2-D lists of numbers, all of the same shape, shaded over the chart's z_range",
    "x": "required: a list of column labels, one per column",
    "y": "required: a list of row labels, one per row",
    "titles": "required: a list of titles, one per matrix",
    "highlight": "optional: the index of the matrix to emphasise",
    "highlight_row": "optional: the index of a row to outline in every matrix, thick in the emphasised one",
    "mask": "optional: a list of 2-D lists of booleans, one per matrix, each of its shape; true cells are masked",
    "mask_label": "optional: the legend's name for masked cells (default 'masked')",
}
_FADE = 0.65  # how far the matrices not chosen move towards grey

_GAP_X = 0.08
_GAP_Y = 0.16
_TITLE_WIDTH = 20  # characters per line of a matrix's title


def check(data: dict, chart=None) -> list[Issue]:
    grids = data.get("z")
    if not isinstance(grids, list) or not grids:
        return [Issue("z", "'z' must be a non-empty list of 2-D arrays")]
    for index, z in enumerate(grids):
        problem = matrix_problem(z, f"z[{index}]")
        if problem:
            return [Issue("z", problem)]
    shapes = {(len(z), len(z[0])) for z in grids}
    if len(shapes) != 1:
        return [Issue("z", "'z' matrices must all have the same shape")]
    rows, cols = shapes.pop()
    masks = data.get("mask")
    found = [_labels(data, "x", cols), _labels(data, "y", rows), _labels(data, "titles", len(grids)),
             _index(data, "highlight", len(grids)), _index(data, "highlight_row", rows)]
    if masks is not None and (not isinstance(masks, list) or len(masks) != len(grids)):
        found.append(Issue("mask", f"'mask' must be a list of {len(grids)} masks, one per matrix"))
    elif masks is not None:
        found += [mask_problem(m, rows, cols, f"mask[{i}]") for i, m in enumerate(masks)]
    if not any(found):
        for index, z in enumerate(grids):
            found += range_issues(chart, z, masks[index] if masks else None, f"z[{index}]")
    return issues(*found)


def _labels(data, name, length) -> Issue | None:
    message = labels_problem(data, name, length)
    return Issue(name, message) if message else None


def _index(data, name, length) -> Issue | None:
    message = index_problem(data, name, length)
    return Issue(name, message) if message else None


def ranges(chart, all_data: list[dict]) -> dict:
    return {"z_range": colour_range(chart, [unmasked(z, (d.get("mask") or [None] * len(d["z"]))[i])
                                            for d in all_data for i, z in enumerate(d["z"])])}


def figure(chart, data: dict) -> dict:
    grids, x, y = data["z"], data["x"], data["y"]
    masks = data.get("mask") or [None] * len(grids)
    span = tuple(declared_range_or(chart, grids, masks))
    count, selected = len(grids), data.get("highlight")
    columns = min(count, _MAX_COLUMNS, math.ceil(math.sqrt(count)))
    rows = math.ceil(count / columns)
    cell_text, fmt = getattr(chart, "cell_text", "auto"), getattr(chart, "cell_format", "")
    as_pictures = len(x) * len(y) <= PICTURE_CELLS or cell_text == "on"
    plan = None  # where the values are written (heatmap.text_plan), from the cells' size on a phone
    traces, shapes, images, axes = [], [], [], {}
    # Each matrix gets a band of the figure's height, its title in the top of the band:
    # the titles then have room of their own whatever the chart's width.
    band = 1 / rows
    title_share = min(0.45, _TITLE_PIXELS / max(1.0, (chart.height - 72) * band))
    for index, z in enumerate(grids):
        suffix = "" if index == 0 else str(index + 1)
        row, column = divmod(index, columns)
        left, right = column / columns + _GAP_X / 2, (column + 1) / columns - _GAP_X / 2
        top = 1 - row * band - band * title_share
        bottom = 1 - (row + 1) * band + _GAP_Y / 2
        emphasised = selected is None or index == selected
        if as_pictures and index == 0:
            room = min((chart.height - 72) * (top - bottom) / len(y), _PHONE_WIDTH * (1 / columns - _GAP_X) / len(x))
            plan = text_plan(chart, room, len(x))
        # A colour bar beside pictures whose values a phone cannot show takes from their width.
        phone = _PHONE_WIDTH - (COLORBAR_MARGIN - 16 if as_pictures and plan != 0.0 else 0)
        if as_pictures:
            # The chosen matrix in full colour, the others faded towards grey with their
            # values still in the ink that reads best on each faded cell.
            traces.append(empty_trace(xaxis=f"x{suffix}", yaxis=f"y{suffix}"))
            image = picture(matrix_svg(z, span, chart.scale, masks[index], None if emphasised else _FADE,
                                       text=plan, cell_format=fmt), -0.5, -0.5, len(x), len(y))
            image.update(xref=f"x{suffix}", yref=f"y{suffix}")
            images.append(image)
        else:
            # Too many cells to print their values: a pixel per cell (the matrices not
            # chosen faded towards grey), the hatch of any masked ones over it, and a
            # colour bar for them all (below).
            traces.append(empty_trace(xaxis=f"x{suffix}", yaxis=f"y{suffix}"))
            cells = raster_pictures(z, span, chart.scale, masks[index], None if emphasised else _FADE)
            for image in cells:
                image.update(xref=f"x{suffix}", yref=f"y{suffix}")
            images += cells
        # Row labels on the first column and column labels on the last row only, as small
        # multiples share them: on a narrow screen, labels beside or below an inner matrix
        # would run into its neighbour or the title under it.
        # A cell's size in pixels: square cells are as wide as a phone's narrow column allows.
        room = (chart.height - 72) * (top - bottom) / len(y)
        if as_pictures:
            room = min(room, phone * (1 / columns - _GAP_X) / len(x))
        font = {"size": 13 if room >= 19 else 11}
        columns_ticks, bottom_needed = labelled_x(x, room if as_pictures else _PHONE_WIDTH / columns / len(x),
                                                  chart.x_title, size=font["size"])
        rows_ticks = ticks(y, room, font["size"])
        axes[f"xaxis{suffix}"] = axis(chart.x_title if row == rows - 1 and column == 0 else "",
                                      domain=[left, right], tickfont=font, **columns_ticks,
                                      showticklabels=row == rows - 1, showgrid=False,
                                      range=cell_range(len(x)), anchor=f"y{suffix}",
                                      **({"constrain": "domain"} if as_pictures else {}))
        axes[f"yaxis{suffix}"] = axis(chart.y_title if column == 0 else "", domain=[bottom, top],
                                      **rows_ticks, tickfont=font, showticklabels=column == 0,
                                      showgrid=False,
                                      range=cell_range(len(y), True), anchor=f"x{suffix}",
                                      # Square cells, as a picture's printed values are not to be stretched.
                                      **({"constrain": "domain", "constraintoward": "top",
                                          "scaleanchor": f"x{suffix}"} if as_pictures
                                         else {}))
        # Each title is the label of an invisible shape along the top of its matrix, not
        # an annotation: Plotly redraws changed shapes alone, while a changed annotation
        # (the bold title of the emphasised matrix) makes it recompute the whole figure.
        # Wrapped, as Plotly does not wrap: a long title over a narrow matrix would
        # run into the next one's.
        title = _wrapped(str(data["titles"][index]), max(8, int((28 // columns + 2) * phone / _PHONE_WIDTH)))
        shapes.append({"type": "rect", "xref": "paper", "yref": "paper", "x0": left, "x1": right,
                       "y0": top, "y1": top, "line": {"width": 0},
                       "label": {"text": f"<b>{title}</b>" if index == selected else title,
                                 "font": {"size": 12}, "textposition": "top center", "yanchor": "bottom",
                                 "padding": 9}})  # clear of the chosen matrix's outline
        if data.get("highlight_row") is not None:
            # In every matrix, so that the row the prose compares across them is found in each;
            # thick in the emphasised one, thin in the others.
            outline = row_outline(data["highlight_row"], len(x), f"x{suffix}", f"y{suffix}")
            if not emphasised:
                outline["line"] = {**outline["line"], "width": 1.5}
            shapes.append(outline)
    if selected is not None:
        suffix = "" if selected == 0 else str(selected + 1)
        shapes.append({"type": "rect", "xref": f"x{suffix} domain", "yref": f"y{suffix} domain",
                       "x0": -0.03, "x1": 1.03, "y0": -0.03, "y1": 1.03,
                       "line": {"color": ACCENT, "width": 2, "dash": "dot"}})
    if any(m is not None and any(any(r) for r in m) for m in masks):
        shapes += masked_key(str(data.get("mask_label") or "masked"))
    layout = base_layout(chart, shapes=shapes, **axes)
    if images:
        layout["images"] = images
    layout["margin"].update(t=32, b=bottom_needed)
    if not as_pictures or plan != 0.0:  # values left out somewhere: a colour bar says what colours mean
        layout["margin"]["r"] = COLORBAR_MARGIN
        margin = layout["margin"]
        bar = colour_bar(span, chart.scale, chart.height - margin["t"] - margin["b"], False)
        layout["images"] = layout.get("images", []) + bar["images"]
        layout["annotations"] = layout.get("annotations", []) + bar["annotations"]
    return {"data": traces, "layout": layout}


def declared_range_or(chart, grids, masks) -> list[float]:
    from .common import declared_range
    return declared_range(chart, "z_range") or colour_range(chart, [unmasked(z, m) for z, m in zip(grids, masks)])


_MAX_COLUMNS = 4
_PHONE_WIDTH = 260   # the plot's width on a 360 px phone, in pixels
_TITLE_PIXELS = 40   # room for a title of two lines over each matrix


@functools.lru_cache(maxsize=1024)
def _wrapped(title: str, width: int = _TITLE_WIDTH) -> str:
    return "<br>".join(textwrap.wrap(title, width)) or title


def table(chart, data: dict, labels: dict) -> dict:
    """Every matrix, one after another; each row is named by its matrix and its y label."""
    rows = []
    masks = data.get("mask") or [None] * len(data["z"])
    for title, z, mask in zip(data["titles"], data["z"], masks):
        rows += table_rows(z, mask, [f"{title}: {y}" for y in data["y"]],
                           str(data.get("mask_label") or labels.get("data_masked", "masked")), getattr(chart, "cell_format", ""))
    highlight = None
    if data.get("highlight") is not None and data.get("highlight_row") is not None:
        highlight = data["highlight"] * len(data["y"]) + data["highlight_row"]
    return data_table([chart.y_title or labels["data_item"]] + [str(x) for x in data["x"]], rows, highlight)
