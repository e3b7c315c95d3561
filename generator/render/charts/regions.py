"""Regions of a heatmap: rectangles of cells marked on the matrix, each with a label
and a style, as a chart library marks a window or a band (a kernel's window
outlined, the zero-padding ring hatched, a receptive field dashed). The matrix
keeps every colour and value; a region is drawn over it: an outline is a layout
shape, a hatch a see-through picture over the cells, so the still drawing and
the figure files draw them as the live chart does. The labels are a key above
the plot, the same in every state of the step (an annotation that changes would
have Plotly redraw the whole figure), and the data table names each labelled
cell's regions beside its value, so a screen reader meets them cell by cell."""
from __future__ import annotations

from .common import ACCENT, MARK, MASKED_HATCH, is_number, step_facts, text_width

# How a region is drawn: its outline (colour, width, dash) and whether its cells are hatched.
STYLES = {
    "outline": {"color": ACCENT, "width": 3},
    "dashed": {"color": MARK, "width": 2, "dash": "dash"},
    "dotted": {"color": MARK, "width": 2, "dash": "dot"},
    "hatched": {"color": MARK, "width": 1.5},
}
DATA = ("optional: a list of regions, each a table {\"rows\": [first, last], \"columns\": [first, last], "
        "\"label\": ..., \"style\": ...}: a rectangle of cells (ends included; a single index for one row or "
        "column) drawn over the matrix, its values kept. style: 'outline' (the accent colour, the default), "
        "'dashed', 'dotted' or 'hatched' (the cells hatched, see-through: a padding ring apart from the real "
        "pixels). A label is keyed above the plot and written beside each of its cells' values in the table")
KEY_FONT = 12
_LINE = 18          # px between two lines of the key
_SWATCH = 14        # px, a key entry's sample of its style
_KEYS = ("rows", "columns", "label", "style")


def problem(regions, rows: int, columns: int) -> str | None:
    """What is wrong with a state's 'regions', or None."""
    if regions is None:
        return None
    if not isinstance(regions, list):
        return f"'regions' must be a list of regions ({{'rows': [first, last], 'columns': [first, last]}}), " \
               f"found {type(regions).__name__}"
    for index, region in enumerate(regions):
        where = f"regions[{index}]"
        if not isinstance(region, dict):
            return f"'{where}' must be a table with 'rows' and 'columns', found {type(region).__name__}"
        unknown = sorted(set(region) - set(_KEYS))
        if unknown:
            return f"'{where}' has an unknown key {unknown[0]!r} (it takes: {', '.join(_KEYS)})"
        for name, count in (("rows", rows), ("columns", columns)):
            span = _span(region.get(name))
            if span is None or not 0 <= span[0] <= span[1] < count:
                return (f"'{where}.{name}' must be an index from 0 to {count - 1} or [first, last] within it, "
                        f"found {region.get(name)!r}")
        if not isinstance(region.get("label", ""), str):
            return f"'{where}.label' must be a string, found {region['label']!r}"
        if region.get("style", "outline") not in STYLES:
            return f"'{where}.style' must be one of {', '.join(repr(s) for s in STYLES)}, found {region['style']!r}"
    return None


def _span(value) -> tuple[int, int] | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value, value
    if isinstance(value, list) and len(value) == 2 and all(is_number(v) and int(v) == v for v in value):
        return int(value[0]), int(value[1])
    return None


def normalised(regions) -> list[tuple[int, int, int, int, str, str]]:
    """Each region as (first row, last row, first column, last column, label, style)."""
    found = []
    for region in regions or []:
        (r0, r1), (c0, c1) = _span(region["rows"]), _span(region["columns"])
        found.append((r0, r1, c0, c1, str(region.get("label", "")), region.get("style", "outline")))
    return found


def shapes(regions, xref: str = "x", yref: str = "y") -> list[dict]:
    """The outline of each region, in cell units (cells are centred on their indices)."""
    return [{"type": "rect", "xref": xref, "yref": yref, "x0": c0 - 0.5, "x1": c1 + 0.5,
             "y0": r0 - 0.5, "y1": r1 + 0.5, "line": dict(STYLES[style])}
            for r0, r1, c0, c1, _, style in normalised(regions)]


# The hatch of hatched regions, see-through over the cells: a light stroke beside a dark
# one, so it shows on any colour of either scale, and the values still read through it.
HATCH_DEFS = ("<pattern id='r' width='0.3' height='0.3' patternUnits='userSpaceOnUse' patternTransform='rotate(45)'>"
              "<rect width='0.05' height='0.3' fill='#ffffff' fill-opacity='0.8'/>"
              "<rect x='0.05' width='0.05' height='0.3' fill='#000000' fill-opacity='0.6'/></pattern>")


def hatched(regions) -> tuple[tuple[int, int, int, int], ...]:
    """The hatched regions' boxes, (first row, last row, first column, last column)."""
    return tuple((r0, r1, c0, c1) for r0, r1, c0, c1, _, style in normalised(regions) if style == "hatched")


def hatch_rects(boxes) -> str:
    """SVG rectangles filled with the hatch (HATCH_DEFS), in cell units, one per box."""
    return "".join(f"<rect x='{c0}' y='{r0}' width='{c1 - c0 + 1}' height='{r1 - r0 + 1}' fill='url(#r)'/>"
                   for r0, r1, c0, c1 in boxes)


def labels_by_cell(regions) -> dict[tuple[int, int], list[str]]:
    """The labels of the regions each labelled cell is in, (row, column) -> labels."""
    found: dict[tuple[int, int], list[str]] = {}
    for r0, r1, c0, c1, label, _ in normalised(regions):
        if label:
            for i in range(r0, r1 + 1):
                for j in range(c0, c1 + 1):
                    if label not in found.setdefault((i, j), []):
                        found[(i, j)].append(label)
    return found


def key_entries(all_data: list[dict]) -> list[list[str]]:
    """[style, label] of every labelled region of every state, in the order they first
    appear: the key of the step, the same in all its states."""
    entries: list[list[str]] = []
    for data in all_data:
        for *_, label, style in normalised(data.get("regions")):
            if label and [style, label] not in entries:
                entries.append([style, label])
    return entries


def chart_key(chart, data: dict) -> list[list[str]]:
    """The key the chart draws: the step's (worked out over its states), or this state's alone."""
    found = step_facts(chart).get("region_key")
    return found if found is not None else key_entries([data])


def key_lines(entries, width: float) -> list[list[tuple[float, str, str]]]:
    """The key's entries in lines no wider than `width` px (a phone's plot), each entry
    (its left edge in px, style, label)."""
    lines: list[list[tuple[float, str, str]]] = []
    left = width + 1
    for style, label in entries:
        room = _SWATCH + 6 + text_width(label, KEY_FONT) + 16
        if left + room > width and (not lines or lines[-1]):
            lines.append([])
            left = 0.0
        lines[-1].append((left, style, label))
        left += room
    return lines


def key_marks(lines, first: int = 0) -> tuple[list[dict], list[dict]]:
    """The key's swatches (shapes sized in pixels above the plot's top left corner) and
    labels (annotations), line by line upwards from line `first` above the plot."""
    swatches, notes = [], []
    for number, line in enumerate(lines, start=first):
        bottom = 8 + _LINE * number
        for left, style, label in line:
            swatches.append(_swatch(style, left, bottom))
            notes.append({"text": label, "xref": "paper", "yref": "paper", "x": 0, "y": 1, "xanchor": "left",
                          "yanchor": "middle", "xshift": left + _SWATCH + 6, "yshift": bottom + _SWATCH / 2,
                          "showarrow": False, "font": {"size": KEY_FONT}})
    return swatches, notes


def _swatch(style: str, left: float, bottom: float) -> dict:
    spec = {"xref": "paper", "yref": "paper", "xsizemode": "pixel", "ysizemode": "pixel", "xanchor": 0,
            "yanchor": 1, "line": dict(STYLES[style])}
    x0, x1, y0, y1 = left, left + _SWATCH, bottom, bottom + _SWATCH
    if style != "hatched":
        return {"type": "rect", **spec, "x0": x0, "x1": x1, "y0": y0, "y1": y1}
    # The box and three diagonals of the hatch, as one path in pixels.
    third = _SWATCH / 3
    path = (f"M {x0:g},{y0:g} L {x1:g},{y0:g} L {x1:g},{y1:g} L {x0:g},{y1:g} Z "
            + " ".join(f"M {x0 + k * third:g},{y0:g} L {x0:g},{y0 + k * third:g}" for k in (1, 2, 3))
            + " " + " ".join(f"M {x1:g},{y0 + k * third:g} L {x0 + k * third:g},{y1:g}" for k in (1, 2)))
    return {"type": "path", **spec, "path": path, "line": {"color": MASKED_HATCH, "width": 1}}


def top_margin(lines: int, keyed: bool) -> int:
    """The plot's top margin with the key's lines above it (over the masked cells' key, when there is one)."""
    if not lines and not keyed:
        return 16
    return 40 + _LINE * (lines + keyed - 1)
