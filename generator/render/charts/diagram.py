"""Boxes and arrows on a grid (an encoder–decoder stack, a transformer
block), each box labelled, some highlighted (a path through the diagram, in
order) or faded in each state. Every mark is a layout shape, and the labels are
annotations whose text and colour are the same in every state: a state that
highlights or fades other boxes is then a Plotly.relayout of the (unlabelled)
shapes, a few ms, where labels on the shapes would be measured and set again
with every box (about 35 ms). A highlighted box is tinted in the accent colour
and outlined thick; a faded one is grey with a dotted edge. The data table lists
the boxes, what each leads to and its state, then the highlighted path."""
from __future__ import annotations

import textwrap

from .common import ACCENT, PHONE_CHART, Issue, axis, base_layout, empty_trace, issues, path_number, see_through, \
    table as data_table, text_width, theme_colour, widest

# The data a step's function returns for this kind: key -> what it holds.
DATA = {
    "boxes": "required: a list of labels, one per box",
    "at": "required: where each box sits on the grid: [column, row] (row 0 on top), or [column, row, width] "
          "for a box several columns wide",
    "arrows": "optional: a list of [from, to] pairs of box indices, each drawn as an arrow",
    "highlight": "optional: a list of box indices, the highlighted path in order (the arrows between them are "
                 "highlighted too)",
    "faded": "optional: a list of box indices drawn faded (a part not in use)",
}

_BOX = theme_colour("gap")      # a box's fill: the page's own background
_EDGE = theme_colour("axis")
_TEXT = theme_colour("text")
_FADED = theme_colour("grid")
# The accent, see-through: the label's own colour (dark on a light page, light on a
# dark one) reads on it either way, so labels need not change with the highlight.
_TINT = see_through(ACCENT, 0.3)
_MARGIN = 0.12  # between a box and its cell's edge, in cells
_FONT = 12


def _indices(data, name, count) -> Issue | None:
    value = data.get(name)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(i, int) and not isinstance(i, bool) and 0 <= i < count
                                              for i in value):
        return Issue(name, f"'{name}' must be a list of box indices from 0 to {count - 1}, found {value!r}")
    return None


def check(data: dict, chart=None) -> list[Issue]:
    boxes = data.get("boxes")
    if not isinstance(boxes, list) or not boxes:
        return [Issue("boxes", "'boxes' must be a non-empty list of labels")]
    count = len(boxes)
    at = data.get("at")
    if not isinstance(at, list) or len(at) != count:
        found = f"{len(at)} places" if isinstance(at, list) else type(at).__name__
        return [Issue("at", f"'at' must give {count} places, one per box, found {found}")]
    for index, place in enumerate(at):
        if not (isinstance(place, list) and len(place) in (2, 3) and all(
                isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in place)
                and (len(place) == 2 or place[2] >= 1)):
            return [Issue("at", f"'at[{index}]' must be [column, row] or [column, row, width] of whole numbers "
                                f"(0 or more), found {place!r}")]
    cells = {}
    for index, place in enumerate(at):
        for column in range(place[0], place[0] + (place[2] if len(place) == 3 else 1)):
            if (column, place[1]) in cells:
                return [Issue("at", f"boxes {cells[(column, place[1])]} and {index} overlap at column {column}, "
                                    f"row {place[1]}")]
            cells[(column, place[1])] = index
    found = []
    arrows = data.get("arrows")
    if arrows is not None and (not isinstance(arrows, list) or not all(
            isinstance(a, list) and len(a) == 2 and all(isinstance(i, int) and 0 <= i < count for i in a)
            and a[0] != a[1] for a in arrows)):
        found.append(Issue("arrows", f"'arrows' must be a list of [from, to] pairs of two different box indices "
                                     f"from 0 to {count - 1}"))
    found += [_indices(data, "highlight", count), _indices(data, "faded", count)]
    if not found[-1] and not found[-2] and data.get("highlight") and data.get("faded"):
        both = sorted(set(data["highlight"]) & set(data["faded"]))
        if both:
            found.append(Issue("faded", f"box {both[0]} is both highlighted and faded"))
    return issues(*found)


def _box(place) -> tuple[float, float, float, float]:
    """x0, x1, y0, y1 of a box in axis units (row 0 on top)."""
    column, row = place[0], place[1]
    width = place[2] if len(place) == 3 else 1
    return column - 0.5 + _MARGIN, column + width - 0.5 - _MARGIN, row - 0.5 + _MARGIN, row + 0.5 - _MARGIN


def figure(chart, data: dict) -> dict:
    boxes, at = data["boxes"], data["at"]
    path = data.get("highlight") or []
    faded = set(data.get("faded") or [])
    on_path = {(a, b) for a, b in zip(path, path[1:])}
    columns = max(p[0] + (p[2] if len(p) == 3 else 1) for p in at)
    rows = max(p[1] for p in at) + 1
    shapes = []
    for a, b in data.get("arrows") or []:
        marked = (a, b) in on_path
        colour = ACCENT if marked else (_EDGE if a not in faded and b not in faded else theme_colour("grid"))
        shapes += _arrow(_box(at[a]), _box(at[b]), colour, 3 if marked else 1.5)
    # Boxes of one size in one row turn their labels together, so a row of tokens reads
    # one way even where a short word would have fitted level.
    turned = {(place[1], _width(place)) for label, place in zip(boxes, at)
              if _turns(str(label), place, columns, rows, chart.height)}
    labels = []
    for index, (label, place) in enumerate(zip(boxes, at)):
        x0, x1, y0, y1 = _box(place)
        box = {"type": "rect", "xref": "x", "yref": "y", "x0": x0, "x1": x1, "y0": y0, "y1": y1, "layer": "above",
               "fillcolor": _BOX, "line": {"color": _EDGE, "width": 1.5}}
        if index in path:
            box.update(fillcolor=_TINT, line={"color": ACCENT, "width": 3})
        elif index in faded:
            box.update(fillcolor=_FADED, line={"color": _EDGE, "width": 1.5, "dash": "dot"})
        shapes.append(box)
        labels.append({"x": (x0 + x1) / 2, "y": (y0 + y1) / 2, "xref": "x", "yref": "y", "showarrow": False,
                       **_label(str(label), place, columns, rows, chart.height, (place[1], _width(place)) in turned)})
    layout = base_layout(chart, shapes=shapes, annotations=labels,
                         xaxis=axis("", range=[-0.5, columns - 0.5], showticklabels=False, showgrid=False,
                                    showline=False, ticks=""),
                         yaxis=axis("", range=[rows - 0.5, -0.5], showticklabels=False, showgrid=False,
                                    showline=False, ticks=""))
    layout["margin"] = {"l": 8, "r": 8, "t": 8, "b": 8}
    return {"data": [empty_trace()], "layout": layout}


def _width(place) -> int:
    return place[2] if len(place) == 3 else 1


def _room(place, columns: int, rows: int, height: int) -> tuple[float, float]:
    """The room for a box's label on a phone, in pixels: across the box, and up it."""
    across = (PHONE_CHART - 16) / columns * _width(place) * (1 - 2 * _MARGIN) - 4
    up = (height - 16) / rows * (1 - 2 * _MARGIN) - 4
    return across, up


def _turns(text: str, place, columns: int, rows: int, height: int) -> bool:
    """A word too wide for a narrow, tall box (a token in a row of a dozen) turns to
    read upwards, where it has the box's height."""
    across, up = _room(place, columns, rows, height)
    return widest(_lines(text, across), _FONT) > across and up > across


def _label(text: str, place, columns: int, rows: int, height: int, turned: bool) -> dict:
    """A box's label, in lines that fit the box on a phone, broken at spaces and hyphens."""
    across, up = _room(place, columns, rows, height)
    label = {"text": "<br>".join(_lines(text, up if turned else across)), "font": {"size": _FONT, "color": _TEXT}}
    if turned:
        label["textangle"] = -90
    return label


def _lines(text: str, room: float) -> list[str]:
    return textwrap.wrap(text, max(4, int(room / text_width("n", _FONT)))) or [text]


def _arrow(source, target, colour, width) -> list[dict]:
    """An arrow from one box's edge to another's: straight when they share a row or
    a column, else down (or up) to the gap between the rows, across, and on."""
    sx, tx = (source[0] + source[1]) / 2, (target[0] + target[1]) / 2
    sy, ty = (source[2] + source[3]) / 2, (target[2] + target[3]) / 2
    line = {"color": colour, "width": width}
    if abs(sy - ty) < 1e-9:  # the same row: side to side
        start, end = (source[1], sy) if tx > sx else (source[0], sy), (target[0], ty) if tx > sx else (target[1], ty)
        points = [start, end]
    else:
        down = ty > sy
        start = (sx, source[3] if down else source[2])
        end = (tx, target[2] if down else target[3])
        if abs(sx - tx) < 1e-9:
            points = [start, end]
        else:
            middle = (start[1] + end[1]) / 2 if abs(ty - sy) < 1.5 else end[1] + (-_MARGIN if down else _MARGIN)
            points = [start, (sx, middle), (tx, middle), end]
    path = "M " + " L ".join(f"{path_number(x)},{path_number(y)}" for x, y in points)
    (px, py), (ex, ey) = points[-2], points[-1]
    def sign(delta: float) -> int:
        return 0 if abs(delta) < 1e-9 else (1 if delta > 0 else -1)
    direction = (sign(ex - px), sign(ey - py))
    return [{"type": "path", "xref": "x", "yref": "y", "path": path, "line": line, "layer": "below"},
            _head(ex, ey, direction, colour)]


def _head(x, y, direction, colour) -> dict:
    """An arrowhead in pixels, its tip at (x, y): the same size whatever the chart's shape.
    Pixel offsets go up the screen as y grows; the axis runs down, so a head pointing
    down the axis points down the screen."""
    dx, dy = direction
    if dy:  # vertical: down the axis is down the screen, negative pixel y
        tip_dy = -1 if dy > 0 else 1
        path = f"M 0,0 L -5,{-tip_dy * 9} L 5,{-tip_dy * 9} Z"
    else:
        path = f"M 0,0 L {-dx * 9},-5 L {-dx * 9},5 Z"
    return {"type": "path", "xref": "x", "yref": "y", "xsizemode": "pixel", "ysizemode": "pixel",
            "xanchor": x, "yanchor": y, "path": path, "fillcolor": colour, "line": {"color": colour, "width": 1}}


def table(chart, data: dict, labels: dict) -> dict:
    """A row per box: its label, its state in this view and the boxes it leads to;
    then the highlighted path, box by box."""
    boxes = [str(b) for b in data["boxes"]]
    path = data.get("highlight") or []
    faded = set(data.get("faded") or [])
    leads: dict[int, list[str]] = {}
    for a, b in data.get("arrows") or []:
        leads.setdefault(a, []).append(boxes[b])
    rows = []
    for index, label in enumerate(boxes):
        if index in path:
            state = f"{labels.get('data_highlighted', 'highlighted')} ({path.index(index) + 1} / {len(path)})"
        elif index in faded:
            state = labels.get("data_faded", "faded")
        else:
            state = ""
        rows.append([label, state, ", ".join(leads.get(index, []))])
    if path:
        rows.append([labels.get("data_path", "Highlighted path"), " → ".join(boxes[i] for i in path), ""])
    return data_table([labels["data_item"], labels.get("data_state", "State"),
                       labels.get("data_leads_to", "Leads to")], rows)
