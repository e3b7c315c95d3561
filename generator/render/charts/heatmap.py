"""A matrix of numbers (for example attention weights, row = query, column =
key), rectangular or square, with one row optionally outlined and masked
cells drawn as masked: hatched grey, with a legend entry, never a colour of
the scale.

Its colours follow a sequential scale (values of one sign, 0 to 1 unless
declared) or a diverging one (signed values, zero in the middle), over a range
declared in the chart's options or worked out by the build over every state,
so a colour means the same value whatever the reader chooses.

A matrix of up to 400 cells (20 × 20) is drawn as one picture of its cells and
printed values on square cells. The axes hold the largest matrix of the step, so a
smaller one grows out of the top-left corner (charts/held.py). A larger matrix, whose printed values would be too
small to read, is a picture of a pixel per cell, drawn with sharp edges, beside a
colour bar (masked cells are clear in it, and a picture of them alone hatches them). Either
way, choosing another matrix redraws just that picture, in a millisecond or two,
where a heatmap trace would have Plotly recompute and redraw the whole figure (30 to
90 ms for 32 × 32 to 48 × 48 cells). Pointing at a cell shows its row, column and
value, as the step's data table writes them: the page reads them from the table,
which lists every value. With cell_text = "auto" the printed values are left out
wherever the picture is drawn too small to read them (a colour bar then stands beside
the matrix, drawn by the build into the layout: colour_bar.py), and cell_format writes them as a readout format does (count: 9, not
9.00). Regions mark rectangles of cells over the matrix (a kernel's window outlined,
a padding ring hatched), keyed above the plot and named in the table beside each value.
"""
from __future__ import annotations

import functools

from .common import exact, span_text, ACCENT, COLORBAR_MARGIN, FONT_FAMILY, MASKED_FILL, MASKED_HATCH, PHONE_CHART, Issue, axis, \
    base_layout, declared_range, empty_trace, grey, hover_meta, index_problem, ink_on, is_number, \
    issues, labelled_x, labels_problem, left_margin, levelled, matrix_problem, number_cells, outward, \
    picture, placed, png_uri, scale_colour, span_of, table as data_table, tick_labels
from . import regions as marks
from .common import bottom_margin, side_margin, step_facts
from .colour_bar import colour_bar
from .held import axis_span, clear_title, held, held_labels, plot_size, tick_spec, veils, x_label_shapes, \
    y_label_shapes
from ...compute.formats import is_shared


# The data a step's function returns for this kind: key -> what it holds.
DATA = {
    "z": "required: a 2-D list of numbers (rows of equal length), shaded over the chart's z_range",
    "x": "required: a list of column labels, one per column",
    "y": "required: a list of row labels, one per row",
    "mask": "optional: a 2-D list of booleans of the same shape as 'z'; true cells are masked (drawn hatched "
            "grey, 'masked' in the table, and left out of the colour range). Give one (all false) in the states "
            "with nothing masked too: the key's room then stays, and the matrix with it",
    "mask_label": "optional: the legend's name for masked cells (default 'masked')",
    "highlight_row": "optional: the index of a row to outline",
    "scale": "optional: this state's colour scale, 'sequential' or 'diverging', overriding the chart's (for a "
             "control that switches between signed scores and weights); a diverging one needs 'range'",
    "range": "optional: [low, high], this state's colour range, overriding the chart's z_range (give the same "
             "in every state of one scale, so a colour keeps its meaning)",
    "regions": marks.DATA,
}

PICTURE_CELLS = 400
# Values are written at TEXT_SHARE of a cell's side, and only where that is at least
# READABLE_TEXT px (cell_text = "auto"): a smaller number cannot be read.
TEXT_SHARE = 0.3
READABLE_TEXT = 9
SEQUENTIAL_RANGE = (0.0, 1.0)  # the sequential scale's ends when none is declared


def check(data: dict, chart=None) -> list[Issue]:
    problem = matrix_problem(data.get("z"))
    if problem:
        return [Issue("z", problem)]
    rows, cols = len(data["z"]), len(data["z"][0])
    found = [_labels(data, "x", cols, "columns"), _labels(data, "y", rows, "rows"),
             mask_problem(data.get("mask"), rows, cols, "mask")]
    message = index_problem(data, "highlight_row", rows)
    found.append(Issue("highlight_row", message) if message else None)
    message = marks.problem(data.get("regions"), rows, cols)
    found.append(Issue("regions", message) if message else None)
    found.append(_state_problem(data, chart))
    if not any(found):
        found += range_issues(state_chart(chart, data), data["z"], data.get("mask"), "z")
    return issues(*found)


def _state_problem(data: dict, chart) -> Issue | None:
    scale, span = data.get("scale"), data.get("range")
    if scale is not None and scale not in ("sequential", "diverging"):
        return Issue("scale", f"'scale' must be 'sequential' or 'diverging', found {scale!r}")
    if span is not None and not (isinstance(span, list) and len(span) == 2 and all(is_number(v) for v in span)
                                 and span[0] < span[1]):
        return Issue("range", f"'range' must be [low, high] with low < high, found {span!r}")
    if scale == "diverging" and span is None and chart is not None and chart.scale != "diverging":
        return Issue("range", "a state with 'scale' = 'diverging' on a chart of another scale needs 'range' "
                              "(the same in every such state)")
    return None


def state_chart(chart, data: dict):
    """The chart as one state draws it: with the state's own scale and range, if it gives them."""
    scale, span = data.get("scale"), data.get("range")
    if chart is None or (scale is None and span is None):
        return chart
    import dataclasses
    if span is None and scale is not None and scale != chart.scale:
        return dataclasses.replace(chart, scale=scale, z_range=None)  # the sequential default, 0 to 1
    return dataclasses.replace(chart, scale=scale or chart.scale, z_range=list(span) if span else chart.z_range)


def _labels(data: dict, name: str, length: int, what: str) -> Issue | None:
    message = labels_problem(data, name, length)
    return Issue(name, f"{message} (one per {what[:-1]} of 'z', which has {length} {what})") if message else None


def mask_problem(mask, rows: int, cols: int, name: str) -> Issue | None:
    if mask is None:
        return None
    if not isinstance(mask, list) or len(mask) != rows or not all(
            isinstance(row, list) and len(row) == cols for row in mask):
        shape = (f"{len(mask)}×{len(mask[0]) if mask and isinstance(mask[0], list) else '?'}"
                 if isinstance(mask, list) else type(mask).__name__)
        return Issue(name.split("[")[0], f"'{name}' must have the shape of 'z', {rows}×{cols}, found {shape}")
    if not (is_shared(mask) or all(isinstance(v, bool) or v in (0, 1) for row in mask for v in row)):
        return Issue(name.split("[")[0], f"'{name}' must hold only booleans")
    return None


def unmasked(z, mask) -> list:
    """The values of z that are not masked."""
    if mask is None:
        return z
    return [[v for v, m in zip(row, mask_row) if not m] for row, mask_row in zip(z, mask)]


def range_issues(chart, z, mask, name: str) -> list[Issue]:
    """A value outside a declared z_range is an error; outside the sequential scale's
    default 0 to 1, a warning (it would be drawn in the scale's end colour)."""
    if chart is None:
        return []
    declared = declared_range(chart, "z_range")
    span = declared or (SEQUENTIAL_RANGE if chart.scale == "sequential" and chart.z_range is None else None)
    if span is None:
        return []
    low, high = span
    for i, row in enumerate(z):
        masks = mask[i] if mask is not None else None
        for j, value in enumerate(row):
            if (low <= value <= high) or (masks is not None and masks[j]):
                continue
            where = f"{name}[{i}][{j}] = {exact(value)}"
            if declared:
                return [Issue(name.split("[")[0], f"{where} is outside z_range {span_text(span)}")]
            return [Issue(name.split("[")[0], f"{where} is outside the sequential scale's default 0 to 1 and would "
                          "be drawn in its end colour: declare z_range (or scale = 'diverging' for signed values)",
                          warning=True)]
    return []



def colour_range(chart, matrices: list) -> list[float]:
    """The colour scale's ends: declared, the sequential default, or worked out over
    `matrices` (unmasked values): ± the largest size on the diverging scale."""
    declared = declared_range(chart, "z_range")
    if declared:
        return list(declared)
    if chart.scale == "sequential" and chart.z_range is None:
        return list(SEQUENTIAL_RANGE)
    found = span_of(matrices) or (0.0, 1.0)
    if chart.scale == "diverging":
        reach = outward(0, max(abs(found[0]), abs(found[1])) or 1.0)[1]
        return [-reach, reach]
    low, high = found
    return outward(low, high) if low < high else outward(low - 1, high + 1)


def ranges(chart, all_data: list[dict]) -> dict:
    """The colour range over every state drawn on the chart's own scale and range, the
    regions' key and the layout every state holds (frame)."""
    own = [d for d in all_data if d.get("range") is None and d.get("scale", chart.scale) == chart.scale]
    found = {"z_range": colour_range(chart, [unmasked(d["z"], d.get("mask")) for d in own])}
    key = marks.key_entries(all_data)
    if key:  # the regions' key, the same in every state: a fact of the step, not an option
        found["region_key"] = key
    if held(chart):  # the layout of every state, unless the chart rescales
        found["frame"] = frame(chart, all_data)
    # Whether the colour bar differs between states (a state on a scale of its own): its
    # values are then written on shapes (colour_bar.py).
    keys = {(tuple(d["range"]) if d.get("range") else tuple(found["z_range"]) if d.get("scale", chart.scale)
             == chart.scale else SEQUENTIAL_RANGE, d.get("scale", chart.scale)) for d in all_data}
    if len(keys) > 1:
        found["bar_changes"] = True
    return found


def text_plan(chart, room: float, columns: int) -> float | None:
    """Where the cells' values are written, with each cell `room` px wide on a phone: None for
    nowhere (cell_text = "off"); else the width in px of the matrix's picture below which
    they are left out, 0 for everywhere ("on", or "auto" when a phone's cells hold them)."""
    mode = getattr(chart, "cell_text", "auto")
    if mode == "off":
        return None
    if mode == "on" or room * TEXT_SHARE >= READABLE_TEXT:
        return 0.0
    return columns * READABLE_TEXT / TEXT_SHARE


def cell_range(count: int, reversed_: bool = False) -> list[float]:
    """An axis range fixed to the cells, first row on top. A fixed range (rather than
    autorange) lets Plotly.react skip recomputing the axes when only the data changes."""
    return [count - 0.5, -0.5] if reversed_ else [-0.5, count - 0.5]


def row_outline(row: int, width: int, xref: str = "x", yref: str = "y") -> dict:
    return {"type": "rect", "xref": xref, "yref": yref, "x0": -0.5, "x1": width - 0.5,
            "y0": row - 0.5, "y1": row + 0.5, "line": {"color": ACCENT, "width": 3}}


def ticks(labels: list, room: float, size: float = 13) -> dict:
    """tickvals and ticktext for a label per cell, each cell `room` pixels."""
    positions, texts = tick_labels(labels, room, size)
    return {"tickvals": positions, "ticktext": texts}


def masked_key(text: str) -> list[dict]:
    """The legend entry of masked cells, above the plot's top right corner: a swatch
    of their grey, hatched as they are (sized in pixels), and, left of it, their name."""
    pixels = {"xref": "paper", "yref": "paper", "xsizemode": "pixel", "ysizemode": "pixel", "xanchor": 1, "yanchor": 1}
    swatch = {"type": "rect", **pixels, "x0": -14, "x1": 0, "y0": 8, "y1": 22,
              "fillcolor": MASKED_FILL, "line": {"color": MASKED_HATCH, "width": 2}}
    # The cells' diagonal hatch, as lines across the swatch (a shape takes no pattern).
    hatch = {"type": "path", **pixels, "path": "M-14,15L-7,22M-14,8L0,22M-7,8L0,15",
             "line": {"color": MASKED_HATCH, "width": 2}}
    # The name ends in no-break spaces that leave the swatch its room: a label on a shape
    # sized in pixels is not drawn, so the name is on a shape across the top of the plot.
    name = {"type": "rect", "xref": "paper", "yref": "paper", "x0": 0, "x1": 1, "y0": 1, "y1": 1,
            "line": {"width": 0},
            "label": {"text": text + "\u00a0" * 6, "font": {"size": 12}, "textposition": "top right",
                      "yanchor": "bottom", "xanchor": "right", "padding": 7}}
    return [swatch, hatch, name]


def frame(chart, all_data: list[dict]) -> dict:
    """The layout the heatmap holds in every state of `all_data`: the cells of the largest
    matrix (square when any state is a picture, whose printed values are not to be
    stretched), the labels of every state (the longest list's on the axis when every
    state's begin it, else written on shapes), the margins of the widest, the key's room
    when any state masks cells, and a colour bar when any state's values are left out."""
    xs, ys = [d["x"] for d in all_data], [d["y"] for d in all_data]
    columns, rows = max(map(len, xs)), max(map(len, ys))
    keyed = any(d.get("mask") is not None for d in all_data)
    cell_text = getattr(chart, "cell_text", "auto")
    # Square cells when the largest matrix is a picture, whose printed values are not to be
    # stretched (a smaller one's are left out at its size in this frame).
    square = cell_text == "on" or columns * rows <= PICTURE_CELLS
    right = 16 if square and cell_text != "off" else COLORBAR_MARGIN
    row_labels = held_labels(ys, (chart.height - 72 - (24 if keyed else 0)) / rows, turns=False)
    left = side_margin(row_labels.depth, chart.y_title)
    # The regions' key above the plot, in lines that fit a phone's plot; then the top margin.
    key = step_facts(chart).get("region_key")
    lines = marks.key_lines(marks.key_entries(all_data) if key is None else key, PHONE_CHART - left - right)
    top = marks.top_margin(len(lines), keyed)
    plan = None
    for _ in range(2):  # again with a colour bar's margin, when a phone's cells cannot hold the values
        # The room of a column on a phone; square cells may make the plot narrower still.
        room = (PHONE_CHART - left - right) / columns
        column_labels = held_labels(xs, room)
        if square:
            room = min(room, (chart.height - bottom_margin(column_labels.depth, chart.x_title) - top) / rows)
            column_labels = held_labels(xs, room)
            row_labels = held_labels(ys, room, turns=False)
            plan = text_plan(chart, room, columns)
        if right == COLORBAR_MARGIN or plan == 0.0:
            break
        right = COLORBAR_MARGIN
    return {"columns": columns, "rows": rows, "keyed": keyed, "square": square, "room": room,
            "x": column_labels, "y": row_labels, "lines": lines, "colour_bar": right == COLORBAR_MARGIN,
            "margin": {"l": left, "r": right, "t": top, "b": bottom_margin(column_labels.depth, chart.x_title)}}


def extents(chart, data: dict, layout: dict) -> dict:
    """How many of the held frame's columns and rows this state's matrix takes, and the px
    the frame's cells take on a phone (held.py squeezed)."""
    width, height = plot_size(layout, PHONE_CHART)
    columns, rows = axis_span(layout, "x"), axis_span(layout, "y")
    if layout["yaxis"].get("scaleanchor"):  # square cells, as large as both sides allow
        cell = min(width / columns, height / rows)
        width, height = cell * columns, cell * rows
    return {"x": (len(data["x"]), columns, width), "y": (len(data["y"]), rows, height)}


def figure(chart, data: dict) -> dict:
    facts = step_facts(chart)  # before state_chart, which keeps no step facts
    held_frame = facts.get("frame") or frame(chart, [data])
    chart = state_chart(chart, data)
    x, y, z, mask = data["x"], data["y"], data["z"], data.get("mask")
    span = declared_range(chart, "z_range") or colour_range(chart, [unmasked(z, mask)])
    shapes = []
    if data.get("highlight_row") is not None:
        shapes.append(row_outline(data["highlight_row"], len(x)))
    shapes += marks.shapes(data.get("regions"))
    masked = mask is not None and any(any(row) for row in mask)
    if masked:
        shapes += masked_key(str(data.get("mask_label") or "masked"))
    # Labels that change between states: on shapes, or veiled past this state's end.
    columns, rows = held_frame["x"], held_frame["y"]
    shapes += veils(columns, len(x), "x") + veils(rows, len(y), "y")
    if columns.ticks is None:
        shapes += x_label_shapes(columns, x)
    if rows.ticks is None:
        shapes += y_label_shapes(rows, y)
    cell_text = getattr(chart, "cell_text", "auto")
    as_picture = len(x) * len(y) <= PICTURE_CELLS or cell_text == "on"
    square = held_frame["square"]
    # The values are written where this matrix's picture is drawn wide enough for them.
    plan = text_plan(chart, held_frame["room"], len(x)) if as_picture else None
    x_ticks = tick_spec(columns)
    if columns.ticks is not None:
        x_ticks["tickangle"] = 0 if columns.upright else -90
    x_axis = axis(chart.x_title, **x_ticks, range=cell_range(held_frame["columns"]),
                  **(_SQUARE_X if square else {"showgrid": False}))
    y_axis = axis(chart.y_title, **tick_spec(rows), range=cell_range(held_frame["rows"], True),
                  **(_SQUARE_Y if square else {"showgrid": False}))
    layout = base_layout(
        chart,
        xaxis=clear_title(x_axis, columns),
        yaxis=clear_title(y_axis, rows, vertical=True),
        shapes=shapes,
        # The runtime names the cell under the pointer from the step's table.
        meta=hover_meta("cells"),
    )
    margin = held_frame["margin"]
    layout["margin"].update(l=margin["l"], r=margin["r"], b=margin["b"])
    if margin["t"] != 16:
        layout["margin"]["t"] = margin["t"]
    lines = held_frame["lines"]
    if lines:
        swatches, notes = marks.key_marks(lines, 1 if held_frame["keyed"] else 0)
        layout["shapes"] = shapes + swatches
        layout["annotations"] = notes
    hatched = marks.hatched(data.get("regions"))
    fmt = getattr(chart, "cell_format", "")
    if as_picture:
        layout["images"] = [picture(matrix_svg(z, span, chart.scale, mask, text=plan, cell_format=fmt,
                                               hatched=hatched), -0.5, -0.5, len(x), len(y))]
    else:  # too many cells to print their values: a pixel per cell
        layout["images"] = raster_pictures(z, span, chart.scale, mask, hatched=hatched)
    # A colour bar says what the colours mean wherever some state's values are left out (none
    # where every cell has its value written in it, as in heatmap_grid): beside the matrix.
    if held_frame["colour_bar"]:
        bar = colour_bar(span, chart.scale, chart.height - margin["t"] - margin["b"],
                         facts.get("bar_changes", False), xref="x domain")
        layout["images"] += bar["images"]
        layout["shapes"] = layout["shapes"] + bar.get("shapes", [])
        if bar.get("annotations"):
            layout["annotations"] = layout.get("annotations", []) + bar["annotations"]
    return {"data": [empty_trace()], "layout": layout}


def raster_pictures(z, span, scale: str, mask=None, fade=None, hatched=()) -> list[dict]:
    """A large matrix as pictures: a pixel per cell (masked cells clear) and, over it, a
    picture of any masked cells alone, hatched, and of hatched regions. `fade` moves every
    colour towards grey, as matrix_svg's does."""
    low, high = span
    values = z if mask is None else [[None if m else v for v, m in zip(row, mask_row)]
                                     for row, mask_row in zip(z, mask)]
    # Rows as tuples: the picture is made once per matrix (many states show the same one).
    pictures = [placed(_png_of(tuple(map(tuple, values)), low, high, scale, fade), -0.5, -0.5, len(z[0]), len(z))]
    masked = mask is not None and any(any(row) for row in mask)
    if masked or hatched:
        # Plotly keeps one picture per place and size (it keys them so): the one over the
        # cells is a millionth of a cell wider, so that it is drawn too.
        pictures.append(picture(mask_svg(mask if masked else None, hatched, len(z), len(z[0])),
                                -0.5, -0.5, len(z[0]) + 1e-6, len(z)))
    return pictures


@functools.lru_cache(maxsize=256)
def _png_of(values, low: float, high: float, scale: str, fade) -> str:
    shades: dict[float, str] = {}  # by level: a picture has many more cells than its 256 levels

    def colour(value):
        level = levelled((value - low) / (high - low))
        shade = shades.get(level)
        if shade is None:
            shade = scale_colour(scale, level)
            shade = shades[level] = grey(shade, fade) if fade else shade
        return shade
    return png_uri(values, colour)


# Square cells keep the picture's printed values from being stretched; the plot
# narrows (or shortens) to fit rather than the axes showing more than the cells.
_SQUARE_X = {"constrain": "domain", "showgrid": False}
_SQUARE_Y = {"constrain": "domain", "showgrid": False, "scaleanchor": "x", "scaleratio": 1}
_SVG_FONT = FONT_FAMILY.replace("'", "")  # unquoted names: the picture's attributes are in single quotes
_GAP = 0.03  # between cells, in cells: the page's background shows through, as xgap/ygap do
# The hatch of masked cells: dark diagonal lines on the grey, a pattern no scale has.
_HATCH = (f"<defs><pattern id='m' width='0.25' height='0.25' patternUnits='userSpaceOnUse' "
          f"patternTransform='rotate(45)'><rect width='0.25' height='0.25' fill='{MASKED_FILL}'/>"
          f"<rect width='0.08' height='0.25' fill='{MASKED_HATCH}'/></pattern></defs>")


def matrix_svg(z, span=SEQUENTIAL_RANGE, scale: str = "sequential", mask=None, fade=None, text: float | None = 0.0,
               cell_format: str = "", hatched=()) -> str:
    """An SVG of the matrix: each cell shaded by its value on the scale over `span`,
    with the value written in black or white, whichever reads better on it; masked
    cells hatched grey with no value. `fade` moves every colour towards grey (the
    matrices of a grid that are not chosen). `text` (text_plan): None writes no
    values; a width in px leaves them out wherever the picture is drawn narrower
    (a media query of the picture's own, so the live chart, the still drawing and a
    figure file each follow the size they draw it at); 0, everywhere. Values are
    written in `cell_format` (a readout format) when given, and the cells of `hatched`
    boxes (regions.hatched) hatched over their colours and values. Made once per
    matrix: many states show the same one."""
    try:
        key = (tuple(map(tuple, z)), tuple(span), scale,
               None if mask is None else tuple(map(tuple, mask)), fade, text, cell_format, tuple(hatched))
    except TypeError:  # not hashable: made afresh
        return _matrix_svg_of.__wrapped__(z, tuple(span), scale, mask, fade, text, cell_format, tuple(hatched))
    return _matrix_svg_of(*key)


@functools.lru_cache(maxsize=1024)
def _matrix_svg_of(z, span, scale, mask, fade, text, cell_format, hatched) -> str:
    low, high = span
    # Every cell is one use of a rect in the defs, at whole coordinates in a group moved by
    # half the gap: the same picture in fewer bytes than a full rect per cell (a page holds many).
    cells, values = [], []
    for i, (row, texts) in enumerate(zip(z, (number_cells(list(z_row), "", cell_format) for z_row in z))):
        for j, (value, shown) in enumerate(zip(row, texts)):
            if mask is not None and mask[i][j]:
                cells.append(f"<use href='#c' x='{j}' y='{i}' fill='url(#m)'/>")
                continue
            fill = scale_colour(scale, (value - low) / (high - low))
            if fade:
                fill = grey(fill, fade)
            cells.append(f"<use href='#c' x='{j}' y='{i}' fill='{fill}'/>")
            if text is not None:
                values.append(f"<text x='{j + 0.5:g}' y='{i + 0.5:g}' fill='{ink_on(fill)}'>{shown}</text>")
    # Too narrow for readable values: the picture leaves them out at its drawn width.
    hidden = f"<style>@media (max-width:{text - 0.5:g}px){{text{{display:none}}}}</style>" if text else ""
    defs = (f"<defs><rect id='c' width='{1 - _GAP:g}' height='{1 - _GAP:g}'/>"
            + (_HATCH[len("<defs>"):-len("</defs>")] if mask is not None else "")
            + (marks.HATCH_DEFS if hatched else "") + "</defs>")
    return (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {len(z[0])} {len(z)}'>" + hidden + defs
            + f"<g transform='translate({_GAP / 2:g} {_GAP / 2:g})'>" + "".join(cells) + "</g>"
            + (f"<g font-family='{_SVG_FONT}' font-size='{TEXT_SHARE:g}' text-anchor='middle' "
               f"dominant-baseline='central'>{''.join(values)}</g>" if values else "")
            + marks.hatch_rects(hatched) + "</svg>")


def mask_svg(mask, hatched=(), rows: int = 0, columns: int = 0) -> str:
    """The masked cells alone, hatched, and the hatched regions' cells, to lay over a picture
    of a pixel per cell (where masked cells are clear)."""
    rows, columns = (len(mask), len(mask[0])) if mask is not None else (rows, columns)
    cells = "".join(f"<rect x='{j}' y='{i}' width='1' height='1' fill='url(#m)'/>"
                    for i, row in enumerate(mask or []) for j, m in enumerate(row) if m)
    defs = _HATCH[:-len("</defs>")] + marks.HATCH_DEFS + "</defs>"
    return (f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {columns} {rows}' "
            f"preserveAspectRatio='none'>{defs}{cells}{marks.hatch_rects(hatched)}</svg>")


def cell_texts(z, mask, masked: str, cell_format: str = "", regions=None) -> list[list[str]]:
    """A matrix's values as the table writes them, row by row, masked cells as `masked`,
    and a cell in labelled regions with their labels after its value; a row with
    neither is number_cells' own (shared) list."""
    named = marks.labels_by_cell(regions)
    rows = []
    for index, row in enumerate(z):
        cells = number_cells(row, "", cell_format)
        if mask is not None and any(mask[index]):
            cells = [masked if m else c for c, m in zip(cells, mask[index])]
        if any(i == index for i, _ in named):
            cells = [f"{c} ({', '.join(named[(index, j)])})" if (index, j) in named else c
                     for j, c in enumerate(cells)]
        rows.append(cells)
    return rows


def table_rows(z, mask, row_names, masked: str, cell_format: str = "", regions=None) -> list[list[str]]:
    return [[str(name)] + cells for name, cells in zip(row_names, cell_texts(z, mask, masked, cell_format, regions))]


def table(chart, data: dict, labels: dict) -> dict:
    """The matrix itself: a row per y label, a column per x label, masked cells named so,
    and each cell of a labelled region with its value and the region's label."""
    # Masked cells are named as the chart's key names them ("not computed yet", say).
    masked = str(data.get("mask_label") or labels.get("data_masked", "masked"))
    rows = table_rows(data["z"], data.get("mask"), data["y"], masked, getattr(chart, "cell_format", ""),
                      data.get("regions"))
    return data_table([chart.y_title or labels["data_item"]] + [str(x) for x in data["x"]], rows,
                      data.get("highlight_row"))
