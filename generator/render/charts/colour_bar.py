"""The colour bar of a chart drawn as pictures (a matrix, a heat strip), drawn by the build
into the layout: the scale as a picture beside the plot and its values as text, where
Plotly would draw a colour bar from a trace.

A trace's colour bar is part of the figure's data: a state on another scale (scores that
are signed, then weights from 0 to 1) changes it, and Plotly then lays the whole figure
out again (restyling only the bar's colours costs as much, measured in
docs/performance.md). In the layout, a change of scale is a change of the picture and of
the labels, which Plotly redraws by themselves, and the page's still drawing and its
figure files, which draw layouts, show the bar too.

Geometry as Plotly's own bar: 12 px thick, 10 px clear of the plot, 90% of its height,
its values on the right, in the margin charts/common.py keeps for it (COLORBAR_MARGIN). The picture is sized in px by fitting
a view box exactly as tall as that, which a layout image can only be sized so: its box is
in plot units, and the plot's height is fixed while its width follows the page.
"""
from __future__ import annotations

import math

from ...compute.formats import minus
from .common import picture, rounded, scale_stops

THICKNESS = 12   # px, as Plotly's
GAP = 10         # px between the plot and the bar
LENGTH = 0.9     # of the plot's height
_LABEL_GAP = 4   # px between the bar and its values


def colour_bar(span, scale: str, plot_height: float, changing: bool, xref: str = "paper",
               yref: str = "paper") -> dict:
    """The layout's parts of a colour bar over `span` on `scale`, for a plot `plot_height` px
    high: {"images": [...], "annotations": [...]} when it is the same in every state of the
    step, or {"images": [...], "shapes": [...]} when it `changing`: its values are then the
    labels of shapes, which Plotly redraws with the marks (a changed annotation has it lay
    the whole figure out again). `xref` and `yref`: the box it stands beside ("x domain"
    beside a single plot's axes, which square cells narrow; "paper" beside small multiples)."""
    low, high = span
    tall = round(plot_height * LENGTH)
    # The scale's own stops, high end on top: the gradient is then the scale exactly, in a
    # third of the bytes of 33 evenly spaced ones (a page holds a bar per chart and state).
    stops = "".join(f"<stop offset='{1 - position:.4g}' stop-color='{colour}'/>"
                    for position, colour in reversed(scale_stops(scale)))
    # Its size given as well as its view box: without one, an image's SVG is 300 by 150 px,
    # which the browser would fit in the box before placing the bar in the middle of it.
    svg = (f"<svg xmlns='http://www.w3.org/2000/svg' width='{GAP + THICKNESS}' height='{tall}' "
           f"viewBox='0 0 {GAP + THICKNESS} {tall}' preserveAspectRatio='xMinYMid meet'>"
           f"<defs><linearGradient id='g' x1='0' y1='0' x2='0' y2='1'>{stops}</linearGradient></defs>"
           f"<rect x='{GAP + 0.5}' y='0.5' width='{THICKNESS - 1}' height='{tall - 1}' fill='url(#g)' "
           "stroke='#444' stroke-width='1'/></svg>")
    # Contained in a box as wide as the plot, the picture keeps its view box's shape: as
    # tall as the bar, it is GAP + THICKNESS px wide whatever the page's width.
    image = {**picture(svg, 1, 0.5 + LENGTH / 2, 1, LENGTH), "xref": xref, "yref": yref, "sizing": "contain",
             "layer": "above"}
    values = []
    for value in ticks(low, high, tall):
        at = 0.5 - LENGTH / 2 + LENGTH * (value - low) / (high - low)
        values.append((rounded(at, 6), tick_text(value)))
    shift = GAP + THICKNESS + _LABEL_GAP
    if changing:
        # A box of no width at the plot's edge; its label starts its padding and 3 px inside it.
        return {"images": [image], "shapes": [
            {"type": "rect", "xref": xref, "yref": yref, "x0": 1, "x1": 1, "y0": at, "y1": at, "layer": "above",
             "line": {"width": 0}, "label": {"text": text, "textposition": "middle left", "padding": shift - 3}}
            for at, text in values]}
    return {"images": [image], "annotations": [
        {"text": text, "xref": xref, "yref": yref, "x": 1, "y": at, "xanchor": "left", "yanchor": "middle",
         "xshift": shift, "showarrow": False} for at, text in values]}


def ticks(low: float, high: float, length: float) -> list[float]:
    """The values a bar `length` px long labels: multiples of 1, 2 or 5 times a power of
    ten, about one per 40 px, as Plotly chooses a colour bar's ticks."""
    if high <= low:
        return [low]
    rough = (high - low) / max(2.0, length / 40)
    power = 10 ** math.floor(math.log10(rough))
    step = next(k * power for k in (1, 2, 5, 10) if k * power >= rough * (1 - 1e-9))
    first = math.ceil(low / step - 1e-9)
    return [round(k * step, 12) + 0.0 for k in range(first, math.floor(high / step + 1e-9) + 1)]


def tick_text(value: float) -> str:
    """A value as Plotly writes a tick: as short as it is, with a true minus sign."""
    return minus(f"{value:.10g}")
