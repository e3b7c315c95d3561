"""Boxes and arrows on a grid (an encoder–decoder stack, a transformer
block), each box labelled, some highlighted (a path through the diagram, in
order) or faded in each state. Every mark is a layout shape, and the labels are
annotations whose text and colour are the same in every state: a state that
highlights or fades other boxes is then a Plotly.relayout of the (unlabelled)
shapes, a few ms, where labels on the shapes would be measured and set again
with every box (about 35 ms). A highlighted box is tinted in the accent colour
and outlined thick; a faded one is grey with a dotted edge. The data table lists
the boxes, what each leads to and its state, then the highlighted path.

A box whose label changes between the step's states (a token of a sentence the
reader picks) carries it as the label of a shape of its own, which a relayout of
the shapes rewrites; a changed annotation would have the runtime redraw the
figure with Plotly.react instead, a dozen ms for a diagram of 30 boxes.

Plotly draws every shape again on each relayout of the shapes, at a cost per
shape: marks drawn alike are one shape each. The boxes of one style are one
path, as are the arrows' lines of one colour and width, and the arrowheads of one
colour whose tips share an x: sized in pixels across (xsizemode "pixel", about
that x) and in axis units up, which the chart's fixed height turns into pixels
at build time. A diagram of 15 boxes and 14 arrows (transformer-architecture) is six shapes, not 43."""
from __future__ import annotations

import textwrap

from .common import ACCENT, PHONE_CHART, Issue, axis, base_layout, empty_trace, issues, path_number, see_through, \
    step_facts, table as data_table, text_width, theme_colour, widest
from .held import held

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


def ranges(chart, all_data: list[dict]) -> dict:
    """The boxes whose label or place is not the same in every state of the step: their
    labels are drawn as shapes' labels (see the module's docstring)."""
    seen: dict[int, set] = {}
    for data in all_data:
        boxes, at = data.get("boxes") or [], data.get("at") or []
        for index in range(max(len(boxes), *(len(d.get("boxes") or []) for d in all_data))):
            found = (str(boxes[index]), tuple(at[index])) if index < min(len(boxes), len(at)) else None
            seen.setdefault(index, set()).add(found)
    changing = sorted(index for index, found in seen.items() if len(found) > 1)
    found = {"changing_labels": changing} if changing else {}
    if held(chart):  # the grid of every state: its axes stay put as boxes come and go
        found["extent"] = [max(_extent(data.get("at") or [[0, 0]])[i] for data in all_data) for i in (0, 1)]
    return found


def _extent(at) -> tuple[int, int]:
    """The columns and rows the boxes at `at` take."""
    return max(p[0] + (p[2] if len(p) == 3 else 1) for p in at), max(p[1] for p in at) + 1


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
    columns, rows = step_facts(chart).get("extent") or _extent(at)
    arrows = []
    for a, b in data.get("arrows") or []:
        marked = (a, b) in on_path
        colour = ACCENT if marked else (_EDGE if a not in faded and b not in faded else theme_colour("grid"))
        arrows.append((_arrow_points(_box(at[a]), _box(at[b])), colour, 3 if marked else 1.5))
    # Boxes of one size in one row turn their labels together, so a row of tokens reads
    # one way even where a short word would have fitted level.
    turned = {(place[1], _width(place)) for label, place in zip(boxes, at)
              if _turns(str(label), place, columns, rows, chart.height)}
    changing = set(step_facts(chart).get("changing_labels", ()))
    labels, labelled, styled = [], [], {}
    for index, (label, place) in enumerate(zip(boxes, at)):
        x0, x1, y0, y1 = _box(place)
        style = _PLAIN if index not in path and index not in faded else _PATH if index in path else _FADED_BOX
        styled.setdefault(style, []).append((x0, x1, y0, y1))
        written = _label(str(label), place, columns, rows, chart.height, (place[1], _width(place)) in turned)
        if index in changing:  # on a shape over the box, which a relayout of the shapes rewrites
            labelled.append({"type": "rect", "xref": "x", "yref": "y", "x0": x0, "x1": x1, "y0": y0, "y1": y1,
                             "layer": "above", "line": {"width": 0},
                             "label": {**written, "textposition": "middle center", "padding": 0}})
        else:
            labels.append({"x": (x0 + x1) / 2, "y": (y0 + y1) / 2, "xref": "x", "yref": "y", "showarrow": False,
                           **written})
    margin = {"l": 8, "r": 8, "t": 8, "b": 8}
    # Axis units per pixel up the chart: its height is fixed, its width follows the page.
    per_pixel = rows / (chart.height - margin["t"] - margin["b"])
    shapes = _arrow_shapes(arrows, per_pixel)
    for style, boxes_of_style in sorted(styled.items(), key=lambda item: _STYLES.index(item[0])):
        outline = " ".join(f"M {path_number(x0)},{path_number(y0)} L {path_number(x1)},{path_number(y0)} "
                           f"L {path_number(x1)},{path_number(y1)} L {path_number(x0)},{path_number(y1)} Z"
                           for x0, x1, y0, y1 in boxes_of_style)
        shapes.append({"type": "path", "xref": "x", "yref": "y", "path": outline, "layer": "above",
                       **_box_style(style)})
    shapes += labelled
    layout = base_layout(chart, shapes=shapes, annotations=labels,
                         xaxis=axis("", range=[-0.5, columns - 0.5], showticklabels=False, showgrid=False,
                                    showline=False, ticks=""),
                         yaxis=axis("", range=[rows - 0.5, -0.5], showticklabels=False, showgrid=False,
                                    showline=False, ticks=""))
    layout["margin"] = margin
    return {"data": [empty_trace()], "layout": layout}


# A box's style: plain, on the highlighted path, or faded; drawn in this order.
_PLAIN, _PATH, _FADED_BOX = "plain", "path", "faded"
_STYLES = (_PLAIN, _FADED_BOX, _PATH)


def _box_style(style: str) -> dict:
    if style == _PATH:
        return {"fillcolor": _TINT, "line": {"color": ACCENT, "width": 3}}
    if style == _FADED_BOX:
        return {"fillcolor": _FADED, "line": {"color": _EDGE, "width": 1.5, "dash": "dot"}}
    return {"fillcolor": _BOX, "line": {"color": _EDGE, "width": 1.5}}


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


def _arrow_points(source, target) -> list[tuple[float, float]]:
    """The points of an arrow from one box's edge to another's: straight when they
    share a row or a column, else down (or up) to the gap between the rows, across,
    and on."""
    sx, tx = (source[0] + source[1]) / 2, (target[0] + target[1]) / 2
    sy, ty = (source[2] + source[3]) / 2, (target[2] + target[3]) / 2
    if abs(sy - ty) < 1e-9:  # the same row: side to side
        start, end = (source[1], sy) if tx > sx else (source[0], sy), (target[0], ty) if tx > sx else (target[1], ty)
        return [start, end]
    down = ty > sy
    start = (sx, source[3] if down else source[2])
    end = (tx, target[2] if down else target[3])
    if abs(sx - tx) < 1e-9:
        return [start, end]
    middle = (start[1] + end[1]) / 2 if abs(ty - sy) < 1.5 else end[1] + (-_MARGIN if down else _MARGIN)
    return [start, (sx, middle), (tx, middle), end]


def _arrow_shapes(arrows, per_pixel: float) -> list[dict]:
    """The arrows, (points, colour, width) each, as shapes: the lines of one colour and
    width as one path, under the boxes; then the heads of one colour whose tips share an
    x as one path, sized in pixels across and in axis units up (`per_pixel` of them a
    pixel). The highlighted path's arrows come last, over the others."""
    lines, heads = {}, {}
    for points, colour, width in arrows:
        lines.setdefault((colour, width), []).append(
            "M " + " L ".join(f"{path_number(x)},{path_number(y)}" for x, y in points))
        head = _head(points[-2], points[-1], per_pixel)
        group = heads.setdefault((colour, round(points[-1][0], 9)), [])
        if head not in group:  # two arrows into one point have one head
            group.append(head)
    order = lambda key: (key[0] == ACCENT, str(key))
    shapes = [{"type": "path", "xref": "x", "yref": "y", "path": " ".join(lines[key]),
               "line": {"color": key[0], "width": key[1]}, "layer": "below"} for key in sorted(lines, key=order)]
    shapes += [{"type": "path", "xref": "x", "yref": "y", "xsizemode": "pixel", "xanchor": key[1],
                "path": " ".join(heads[key]), "fillcolor": key[0], "line": {"color": key[0], "width": 1}}
               for key in sorted(heads, key=order)]
    return shapes


def _head(before, tip, per_pixel: float) -> str:
    """An arrowhead 9 px long and 10 px wide, its tip at `tip`, pointing away from `before`:
    x in pixels from the tip, y in axis units (the axis runs down the screen)."""
    (px, py), (x, y) = before, tip
    def sign(delta: float) -> int:
        return 0 if abs(delta) < 1e-9 else (1 if delta > 0 else -1)
    dx, dy = sign(x - px), sign(y - py)
    if dy:  # vertical: the base is 9 px back along the axis, 5 px either side
        back = y - dy * 9 * per_pixel
        corners = [(0, y), (-5, back), (5, back)]
    else:
        corners = [(0, y), (-dx * 9, y - 5 * per_pixel), (-dx * 9, y + 5 * per_pixel)]
    return "M " + " L ".join(f"{path_number(cx)},{path_number(cy)}" for cx, cy in corners) + " Z"


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
