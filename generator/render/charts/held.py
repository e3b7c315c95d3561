"""What a chart holds still across the states of its step: one layout, worked out over
all of them, so a click changes the marks and never the ruler they are read against.

A chart's *frame* is its layout without the marks (shapes and pictures): axis ranges,
ticks, margins, legend, size, fixed notes. Each kind works it out once for the step
(its `ranges` hook), and `changes` names what still differs, which the build reports
for a chart that does not declare `rescale`. A categorical axis whose labels change
between states keeps its ticks: every state's labels are a prefix of one list (a
sentence that grows), so the longest list's ticks label the axis and a veil fades
those past a state's end; or the labels are written on shapes under the axis, where
its ticks would write them, which a click redraws with the marks (Plotly redraws
changed ticks by laying both axes out again).
"""
from __future__ import annotations

from dataclasses import dataclass

from .common import GAP, TICK_FONT, label_depth, tick_labels, widest

# The layout's marks, which change with the state; everything else is the frame.
MARKS = ("shapes", "images")


def held(chart) -> bool:
    """Whether the chart keeps one layout across its step (it does unless it declares
    `rescale`, and a chart drawn alone has nothing to hold)."""
    return not getattr(chart, "rescale", "")


def frame(figure: dict) -> dict:
    """The part of a figure's layout a chart holds still."""
    return {key: value for key, value in figure["layout"].items() if key not in MARKS}


def changes(figures) -> list[str]:
    """The attributes of the frame (dotted paths, "xaxis.range", "margin.b") that differ
    between the figures of a step's states, in order; none for a chart that holds still."""
    figures = list(figures)
    found: list[str] = []
    first = frame(figures[0])
    for figure in figures[1:]:
        _differences(first, frame(figure), "", found)
    return found


def _differences(one: dict, other: dict, path: str, found: list[str]) -> None:
    for key in list(one) + [k for k in other if k not in one]:
        a, b = one.get(key), other.get(key)
        if a == b:
            continue
        at = f"{path}.{key}" if path else key
        if isinstance(a, dict) and isinstance(b, dict):
            _differences(a, b, at, found)
        elif at not in found:
            found.append(at)


@dataclass(frozen=True)
class Labels:
    """A categorical axis's labels over a step's states, a label per position 0, 1, 2…:
    `count` positions (the longest state's); `ticks` (positions, texts), the axis's own
    ticks, when every state's labels begin the longest state's list (else None: each
    state's labels are written on shapes); whether they stand upright (x axes); and how
    far they reach from the axis, in px."""
    count: int
    ticks: tuple | None
    upright: bool
    depth: float
    room: float
    size: float

    def own(self, labels: list) -> tuple[list[int], list[str]]:
        """One state's labels as the axis shows them: thinned, as the ticks are, to its room."""
        return tick_labels(labels, self.room, self.size)


def held_labels(lists: list[list], room: float, size: float = TICK_FONT, thin: bool = True,
                turns: bool = True, prefixes: bool = True) -> Labels:
    """The labels of every state (`lists`, one list per state) on an axis whose positions are
    `room` px apart on a phone: thinned to every k-th where they would overlap (with `thin`),
    turned to read upwards where an x axis's upright labels would not fit (`turns`), the same
    in every state. `prefixes`: a family of lists that begin alike may share the longest's ticks."""
    texts = [[str(v) for v in labels] for labels in lists]
    longest = max(texts, key=len)
    count = len(longest)
    spacing = room if thin else max(room, size * 1.4)  # not thinned: tick_labels then keeps them all
    same = all(labels == longest[:len(labels)] for labels in texts) if prefixes else \
        all(labels == longest for labels in texts)
    if same:
        shown = [tick_labels(longest, spacing, size)]
    else:
        shown = [tick_labels(labels, spacing, size) for labels in texts]
    every = max((positions[1] - positions[0] for positions, _ in shown if len(positions) > 1), default=1)
    words = [text for _, found in shown for text in found]
    upright = not turns or widest(words, size) + 8 <= room * every
    # How far they reach across the axis: a line of text under an x axis, else the longest label.
    depth = label_depth(words, upright if turns else False, size)
    return Labels(count, shown[0] if same else None, upright, depth, spacing, size)


def tick_spec(labels: Labels) -> dict:
    """The axis's tick attributes: the held ticks, or none where shapes write the labels
    (the axis title then stands clear of them by its standoff)."""
    if labels.ticks is not None:
        positions, texts = labels.ticks
        return {"tickvals": list(positions), "ticktext": list(texts)}
    return {"tickvals": [], "ticktext": []}


def clear_title(spec: dict, labels: Labels, vertical: bool = False) -> dict:
    """An axis whose labels shapes write, with its title as far from the axis as Plotly puts
    it beyond tick labels that deep (it moves a title clear of its own tick labels only)."""
    if labels.ticks is not None or not spec.get("title"):
        return spec
    return {**spec, "title": {**spec["title"], "standoff": round(labels.depth + (4 if vertical else 2))}}


def x_label_shapes(labels: Labels, own: list, xref: str = "x", yref: str = "y domain") -> list[dict]:
    """One state's labels under an x axis, each the label of an empty box on the axis at its
    position: upright below it, or turned to read upwards with its end at the axis. On the
    axes' domains, which square cells may make narrower than the plot."""
    positions, texts = labels.own(own)
    shapes = []
    for at, text in zip(positions, texts):
        label = {"text": text, "font": {"size": labels.size}}
        if labels.upright:
            label.update(textposition="bottom center", yanchor="top", padding=NAME_PADDING)
        else:
            label.update(textposition="bottom center", textangle=-90, xanchor="right", yanchor="middle",
                         padding=_TICK_GAP)
        shapes.append({"type": "rect", "xref": xref, "yref": yref, "x0": at - 0.5, "x1": at + 0.5, "y0": 0, "y1": 0,
                       "layer": "above", "line": {"width": 0}, "label": label})
    return shapes


def y_label_shapes(labels: Labels, own: list, xref: str = "x domain", yref: str = "y") -> list[dict]:
    """One state's labels left of a y axis, each ending where a tick label ends: the label
    of an empty box from far left of the plot to the axis, written inside its right edge."""
    positions, texts = labels.own(own)
    return [{"type": "rect", "xref": xref, "yref": yref, "x0": -1, "x1": 0, "y0": at - 0.5, "y1": at + 0.5,
             "layer": "above", "line": {"width": 0},
             "label": {"text": text, "font": {"size": labels.size}, "textposition": "middle right",
                       "padding": _TICK_GAP - _LABEL_INSET}}
            for at, text in zip(positions, texts)]


def veils(labels: Labels, length: int, axis: str) -> list[dict]:
    """Over the held ticks past a state's last position (`length` of `labels.count`): a band
    of the page's background that fades them, so a label beside no row of this state reads
    as the rest of the list, not as part of it. `axis`: "x" or "y"."""
    if labels.ticks is None or length >= labels.count:
        return []
    band = {"type": "rect", "layer": "above", "line": {"width": 0}, "fillcolor": GAP, "opacity": 0.7}
    across = {"x0": length - 0.5, "x1": labels.count - 0.5}
    if axis == "x":
        return [{**band, "xref": "x", "yref": "y domain", "ysizemode": "pixel", "yanchor": 0,
                 "y0": -round(labels.depth + 2), "y1": 0, **across}]
    return [{**band, "xref": "x domain", "yref": "y", "xsizemode": "pixel", "xanchor": 0,
             "x0": -round(labels.depth + 2), "x1": 0, "y0": across["x0"], "y1": across["x1"]}]


# Where Plotly writes an upright tick label below the axis, as a shape's label's padding
# (measured), and the gap between an axis and its labels; a label written inside a box's
# edge starts this far in beyond its padding (Plotly adds 3 px).
NAME_PADDING = 4
_TICK_GAP = 6
_LABEL_INSET = 3


# A state's data drawn in fewer pixels than this on a phone, under a range held for the
# whole step, is squeezed: its marks could not be told apart.
SQUEEZE_PX = 8


def squeezed(extent: float, span: float, length: float) -> float | None:
    """The px a state's data takes along an axis `length` px long on a phone, when it reaches
    `extent` of the held range's `span` (in the axis's units); None when that is not squeezed
    (SQUEEZE_PX or more), or the state has no extent (a flat line, bars all zero)."""
    if span <= 0 or extent <= 0:
        return None
    px = extent / span * length
    return px if px < SQUEEZE_PX else None


def plot_size(layout: dict, chart_width: float) -> tuple[float, float]:
    """The plot's width on a chart `chart_width` px wide, and its height, in px."""
    margin = layout.get("margin", {})
    return (chart_width - margin.get("l", 64) - margin.get("r", 16),
            layout.get("height", 360) - margin.get("t", 16) - margin.get("b", 56))


def axis_span(layout: dict, name: str) -> float:
    """The length of an axis's range, in its units (powers of ten on a log axis)."""
    found = layout.get(f"{name}axis", {}).get("range")
    return abs(found[1] - found[0]) if found else 0.0


def layout_problems(kind, chart, states: list[tuple[str, dict, dict]]) -> list[str]:
    """What is wrong with a chart's layout across the (label, data, figure) of its step's
    states: a chart that changes its layout without declaring `rescale`, one that declares
    it but holds still, and a range held for the step that squeezes one state's data into
    a few pixels on a phone (the kind's `extents` hook says how far its data reach)."""
    moved = changes(figure for _, _, figure in states)
    if not held(chart):
        return [] if moved or len(states) < 2 else [
            f"declares rescale (\"{chart.rescale}\") but holds one layout in every state: the reader would be told "
            "its scale changed when it does not; remove rescale"]
    found = []
    if moved:
        shown = ", ".join(moved[:4]) + (f" and {len(moved) - 4} more" if len(moved) > 4 else "")
        found.append(f"changes its layout between states ({shown}), which one layout cannot hold: declare "
                     "rescale = \"<why its scale must change>\" in the step file, and the page will say so")
    hook = getattr(kind, "extents", None)
    if hook is None:
        return found
    squeezes: dict[str, list] = {}  # axis -> [first state, its px, how many states]
    for label, data, figure in states:
        for name, (extent, span, length) in hook(chart, data, figure["layout"]).items():
            px = squeezed(extent, span, length)
            if px is not None:
                squeezes.setdefault(name, [label, px, 0])[2] += 1
    for name, (label, px, count) in squeezes.items():
        others = f" (and {count - 1} other states)" if count > 1 else ""
        found.append(f"its {name} axis, held for every state of the step, leaves the data of {label}{others} "
                     f"{px:.0f} px on a phone, squeezed by what the other states need: declare rescale = "
                     "\"<why>\", or give the step's states more alike ranges")
    return found
