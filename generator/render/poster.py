"""A still drawing of a chart's first state, put in the page's HTML, so a reader
sees the chart before plotly.js (about 460 KB) has arrived and started. It also
stands in for the chart where scripts are off. The runtime removes it when Plotly
draws the chart in its place.

It is drawn from the same Plotly figure the runtime draws, reading only the
parts the chart kinds use: axes (ranges, category, numeric or log, tick labels,
titles, domains of small multiples), layout images and shapes (with labels; bars
and lines are shapes), annotations, and heatmap and scatter traces. Anything else
is left out, never guessed. The
width is unknown at build time, so positions are percentages of the plot area
and text keeps its size. Theme colours stay CSS variables, so the drawing follows
light, dark and print like the chart.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from html import escape

from .charts.common import DIVERGING, diverging_colour, ink_on, label_depth, levelled, png_uri, sequential_colour

_FONT = 13
_TICK_GAP = 6  # px between an axis and its tick labels


@dataclass(frozen=True)
class Drawing:
    """A chart's still drawing: the plot area's SVG content, positioned in percent of
    the plot area, and how that area sits in the chart (its height and margins, and
    the width over height of square cells, if they are)."""
    body: str
    height: int
    margin: dict
    ratio: float | None
    text_style: str    # the font and text colour of the drawing
    several: bool      # small multiples (a grid of plots)

    def html(self) -> str:
        """The poster: the drawing as a sized <div> holding an <svg>, placed by CSS at
        the width the page gives it."""
        margin = self.margin
        inner = self.height - margin["t"] - margin["b"]
        if self.ratio is None:
            style = (f"left:{margin['l']}px;top:{margin['t']}px;width:calc(100% - {margin['l'] + margin['r']}px);"
                     f"height:{inner}px")
        else:
            # Square cells, as Plotly keeps them (the y axis anchored to the x axis): the
            # plot as wide as fits, no wider than the height allows, centred both ways
            # (auto margins between the insets). Sized this way rather than by a view box,
            # its text keeps its size on a narrow screen.
            side = margin["l"] + margin["r"]
            style = (f"left:{margin['l']}px;right:{margin['r']}px;top:{margin['t']}px;bottom:{margin['b']}px;"
                     f"margin:auto;width:min(100% - {side}px, {inner * self.ratio:.2f}px);"
                     f"aspect-ratio:{self.ratio:.4f}")
        grid = " poster-grid" if self.several else ""
        return (f'<div class="poster{grid}" data-poster aria-hidden="true" style="height:{self.height}px">'
                f'<svg class="poster-plot" style="{style};{self.text_style}" font-size="{_FONT}" overflow="visible">'
                f'{self.body}</svg></div>')

    def placed(self, x: float, y: float, width: float) -> str:
        """The drawing as an <svg> element of its own for a picture `width` pixels wide
        whose chart starts at (x, y): the plot area where the poster's CSS would put it
        at that width, in attributes only, so a file holds it without any style sheet."""
        margin = self.margin
        inner = self.height - margin["t"] - margin["b"]
        left, top, plot_width, plot_height = margin["l"], margin["t"], width - margin["l"] - margin["r"], inner
        if self.ratio is not None:
            plot_width = min(plot_width, inner * self.ratio)
            plot_height = plot_width / self.ratio
            left += (width - margin["l"] - margin["r"] - plot_width) / 2
            top += (inner - plot_height) / 2
        return (f'<svg x="{x + left:.2f}" y="{y + top:.2f}" width="{plot_width:.2f}" height="{plot_height:.2f}" '
                f'style="{self.text_style}" font-size="{_FONT}" overflow="visible">{self.body}</svg>')


def poster(figure: dict) -> str:
    """The drawing of `figure` as HTML (a sized <div> holding an <svg>), or "" for
    a figure with nothing it can draw."""
    found = drawing(figure)
    return found.html() if found else ""


def drawing(figure: dict) -> Drawing | None:
    """The still drawing of `figure`, or None for a figure with nothing it can draw."""
    layout = figure.get("layout", {})
    height = int(layout.get("height", 360))
    margin = {"l": 64, "r": 16, "t": 16, "b": 56, **layout.get("margin", {})}
    plots = _plots(figure)
    if not plots:
        return None
    body = "".join(plot.draw() for plot in plots.values())
    # Pictures placed on the plot area or an axis's domain (a colour bar, charts/colour_bar.py).
    body += "".join(_placed_image(image, plots) for image in layout.get("images", [])
                    if f"{image.get('xref', 'x')}{image.get('yref', 'y')}" not in plots)
    inner = height - margin["t"] - margin["b"]
    body += "".join(_shape(shape, plots, tall=inner) for shape in layout.get("shapes", [])
                    if shape.get("layer") not in _IN_PLOT)
    body += "".join(_annotation(note, plots) for note in layout.get("annotations", []))
    font = layout.get("font", {})
    text_style = f"font-family:{escape(font.get('family', 'sans-serif'))};fill:{font.get('color', 'currentColor')}"
    return Drawing(body, height, margin, _square_ratio(plots), text_style, len(plots) > 1)


def _square_ratio(plots: dict) -> float | None:
    """Width over height of a single plot whose cells are square, else None."""
    if len(plots) != 1:
        return None
    [plot] = plots.values()
    if plot.y.spec.get("scaleanchor") != "x":
        return None
    return abs(plot.x.high - plot.x.low) / abs(plot.y.high - plot.y.low)


class _Axis:
    def __init__(self, spec: dict, values: list):
        self.spec = spec
        self.categories: list | None = None
        if spec.get("type") == "category" or (values and all(isinstance(v, str) for v in values)):
            self.categories = [str(v) for v in values]
        span = spec.get("range")
        if span is None:
            if self.categories is not None:
                span = [-0.5, len(self.categories) - 0.5]
            else:
                numbers = [float(v) for v in values if isinstance(v, (int, float))] or [0.0, 1.0]
                span = [min(numbers + [0.0]), max(numbers)]
                if span[0] == span[1]:
                    span[1] = span[0] + 1
        # A log axis's range is in powers of ten, as Plotly takes it; its data are not.
        self.log = spec.get("type") == "log"
        self.low, self.high = float(span[0]), float(span[1])
        self.domain = spec.get("domain", [0, 1])

    def share(self, value) -> float:
        """Where a value falls along the axis, from 0 (its start) to 1 (its end)."""
        if self.categories is not None and isinstance(value, str):
            value = self.categories.index(value) if value in self.categories else 0
        if self.log:
            value = math.log10(value) if float(value) > 0 else self.low - (self.high - self.low)
        return self.share_of_range(value)

    def share_of_range(self, value) -> float:
        """share() of a value in the range's own units (a layout image's place on a log axis)."""
        return (float(value) - self.low) / (self.high - self.low)

    def ticks(self) -> list[tuple[float, str]]:
        if self.spec.get("showticklabels") is False:
            return []
        if "tickvals" in self.spec:
            texts = self.spec.get("ticktext") or [str(v) for v in self.spec["tickvals"]]
            return [(self.share(v), str(t)) for v, t in zip(self.spec["tickvals"], texts)]
        if self.categories is not None:
            return [(self.share(i), c) for i, c in enumerate(self.categories)]
        low, high = sorted((self.low, self.high))
        step = self.spec.get("dtick") or _nice_step(high - low)
        first = math.ceil(low / step - 1e-9) * step
        count = int((high - first) / step + 1e-9) + 1
        return [(self.share(first + k * step), _tick_text(first + k * step, self.spec.get("tickformat", "")))
                for k in range(count)]


class _Plot:
    """One pair of axes (a subplot), its place in the plot area, and its traces."""

    def __init__(self, x: _Axis, y: _Axis):
        self.x, self.y, self.traces = x, y, []
        self.images: list[dict] = []
        self.below: list[dict] = []    # shapes under the grid
        self.between: list[dict] = []  # shapes over the grid, under the traces (bars drawn as shapes)

    def box(self) -> tuple[float, float, float, float]:
        """Left, top, width, height in percent of the plot area."""
        (x0, x1), (y0, y1) = self.x.domain, self.y.domain
        return x0 * 100, (1 - y1) * 100, (x1 - x0) * 100, (y1 - y0) * 100

    def px(self, value) -> float:
        return self.x.share(value) * 100

    def py(self, value) -> float:
        return (1 - self.y.share(value)) * 100

    def range_px(self, value) -> float:
        return self.x.share_of_range(value) * 100

    def range_py(self, value) -> float:
        return (1 - self.y.share_of_range(value)) * 100

    def draw(self) -> str:
        left, top, width, height = self.box()
        parts = [_image(image, self) for image in self.images if image.get("layer") != "above"]
        parts += [_shape(shape, {"": self}, self) for shape in self.below]
        parts += [_grid(self)]
        parts += [_shape(shape, {"": self}, self) for shape in self.between]
        for trace in self.traces:
            parts.append(_TRACES.get(trace.get("type", "scatter"), _nothing)(trace, self))
        # Pictures over the data (the hatches of patterned bars), as Plotly layers them.
        parts += [_image(image, self) for image in self.images if image.get("layer") == "above"]
        parts.append(_ticks(self))
        return (f'<svg x="{left:.3f}%" y="{top:.3f}%" width="{width:.3f}%" height="{height:.3f}%" '
                f'overflow="visible">{"".join(parts)}</svg>')


def _plots(figure: dict) -> dict[str, _Plot]:
    layout, plots = figure.get("layout", {}), {}
    for trace in figure.get("data", []):
        name = f"{trace.get('xaxis', 'x')}{trace.get('yaxis', 'y')}"
        if name not in plots:
            xs = _axis_name(trace.get("xaxis", "x"))
            ys = _axis_name(trace.get("yaxis", "y"))
            values_x = list(trace.get("x") or [])
            values_y = list(trace.get("y") or [])
            if trace.get("orientation") == "h":
                values_x, values_y = values_y, values_x
            plots[name] = _Plot(_Axis(layout.get(xs, {}), values_x), _Axis(layout.get(ys, {}), values_y))
        plots[name].traces.append(trace)
    for image in layout.get("images", []):
        name = f"{image.get('xref', 'x')}{image.get('yref', 'y')}"
        if name in plots:
            plots[name].images.append(image)
    for shape in layout.get("shapes", []):
        name = f"{shape.get('xref', 'x')}{shape.get('yref', 'y')}"
        if shape.get("layer") in _IN_PLOT and name in plots:
            getattr(plots[name], shape["layer"]).append(shape)
    return plots


# Shape layers drawn with their plot, under its traces; the rest go over every plot.
_IN_PLOT = ("below", "between")


def _axis_name(ref: str) -> str:
    return ("xaxis" if ref.startswith("x") else "yaxis") + ref[1:]


def _where(ref: str, plots: dict[str, _Plot], horizontal: bool):
    """A function from a shape's coordinate to percent of the plot area."""
    if ref == "paper":
        return (lambda v: float(v) * 100) if horizontal else (lambda v: (1 - float(v)) * 100)
    axis, _, domain = ref.partition(" ")
    for plot in plots.values():
        owner = plot.traces[0].get("xaxis" if horizontal else "yaxis", "x" if horizontal else "y") \
            if plot.traces else ("x" if horizontal else "y")
        if owner != axis:
            continue
        left, top, width, height = plot.box()
        if domain:
            return (lambda v: left + float(v) * width) if horizontal else (lambda v: top + (1 - float(v)) * height)
        return (lambda v: left + plot.x.share(v) * width) if horizontal \
            else (lambda v: top + (1 - plot.y.share(v)) * height)
    return None


# Plotly's dashes, in px, for lines up to 3 px wide (Plotly scales them with wider lines).
_DASH_ARRAYS = {"dot": "3 3", "dash": "9 9", "dashdot": "9 3 3 3", "longdash": "15 9", "longdashdot": "15 6 3 6"}


def _shape(shape: dict, plots: dict[str, _Plot], inside: _Plot | None = None, tall: float | None = None) -> str:
    """A shape, in percent of the plot area; `tall`, the plot area's height in pixels,
    places a path sized in pixels across and in axis units up."""
    if shape.get("type") == "path" or "pixel" in (shape.get("xsizemode"), shape.get("ysizemode")):
        return _path(shape, plots, inside, tall)
    if inside is not None:  # drawn within its plot: its own axes, in percent of the plot
        fx, fy = (lambda v: inside.px(v)), (lambda v: inside.py(v))
    else:
        fx = _where(shape.get("xref", "x"), plots, True)
        fy = _where(shape.get("yref", "y"), plots, False)
        if fx is None or fy is None:
            return ""
    x0, x1 = sorted((fx(shape["x0"]), fx(shape["x1"])))
    y0, y1 = sorted((fy(shape["y0"]), fy(shape["y1"])))
    line = shape.get("line", {})
    stroke = line.get("color") if line.get("width", 1) else None
    style = [f"fill:{shape.get('fillcolor', 'none')}", f"stroke:{stroke or 'none'}",
             f"stroke-width:{line.get('width', 2)}px"]
    if "opacity" in shape:
        style.append(f"opacity:{shape['opacity']}")
    if line.get("dash") in _DASH_ARRAYS:
        style.append(f"stroke-dasharray:{_DASH_ARRAYS[line['dash']]}")
    out = ""
    if shape.get("type") == "circle":
        out = (f'<ellipse cx="{(x0 + x1) / 2:.3f}%" cy="{(y0 + y1) / 2:.3f}%" rx="{(x1 - x0) / 2:.3f}%" '
               f'ry="{(y1 - y0) / 2:.3f}%" style="{";".join(style)}"/>')
    elif shape.get("type") == "line":
        out = (f'<line x1="{x0:.3f}%" y1="{y0:.3f}%" x2="{x1:.3f}%" y2="{y1:.3f}%" '
               f'style="{";".join(style)}"/>')
    elif shape.get("fillcolor") or stroke:  # an empty box only carries its label
        out = (f'<rect x="{x0:.3f}%" y="{y0:.3f}%" width="{x1 - x0:.3f}%" height="{y1 - y0:.3f}%" '
               f'style="{";".join(style)}"/>')
    label = shape.get("label", {})
    if label.get("text"):
        out += _shape_label(label, x0, x1, y0, y1)
    return out


def _shape_label(label: dict, x0: float, x1: float, y0: float, y1: float) -> str:
    """A shape's label where Plotly writes it, about a box in percent (y0 its top):
    above or below the box ("top …" or "bottom …" with the text outside, as the
    kinds use them), inside its left or right edge, or in its middle (turned, for a
    narrow box)."""
    where = label.get("textposition", "middle center")
    font = label.get("font", {})
    size, colour, padding = font.get("size", _FONT), font.get("color"), label.get("padding", 3)
    above, below = where.startswith("top"), where.startswith("bottom")
    if where in ("middle left", "middle right"):  # Plotly's inset: its padding and 3 px, and 1 (measured)
        left, inset = where == "middle left", padding + 4
        return _text(label["text"], f"{x0 if left else x1:.3f}%", (y0 + y1) / 2, size, colour,
                     "start" if left else "end", "central", percent_y=True, dx=inset if left else -inset)
    if label.get("textangle") == -90 and not (above or below):
        return _turned(_text(label["text"], "0", 0, size, colour, "middle", "central"),
                       f"{(x0 + x1) / 2:.3f}%", f"{(y0 + y1) / 2:.3f}%")
    y = y0 if above else y1 if below else (y0 + y1) / 2
    return _text(label["text"], f"{(x0 + x1) / 2:.3f}%", y, size, colour, "middle",
                 "text-after-edge" if above else "hanging" if below else "central", percent_y=True,
                 dy=-padding if above else padding if below else 0)


def _path(shape: dict, plots: dict[str, _Plot], inside: _Plot | None, tall: float | None = None) -> str:
    """A path shape (an arrow, an arrowhead): in data units, drawn in a box of 100 by
    100 units over the plot area, its strokes kept their width; or, sized in pixels
    about an anchor in data units, drawn in pixels there (up the screen as y grows);
    or sized in pixels across about its x anchor and in data units up (arrowheads
    whose tips share an x), drawn in pixels from the plot area's top, `tall` pixels
    high."""
    if inside is not None:
        fx, fy = (lambda v: inside.px(v)), (lambda v: inside.py(v))
    else:
        fx = _where(shape.get("xref", "x"), plots, True)
        fy = _where(shape.get("yref", "y"), plots, False)
        if fx is None or fy is None:
            return ""
    line = shape.get("line", {})
    stroke = line.get("color", "none") if line.get("width", 1) else "none"
    style = (f"fill:{shape.get('fillcolor', 'none')};stroke:{stroke};"
             f"stroke-width:{line.get('width', 2)}px")
    if line.get("dash") in _DASH_ARRAYS:
        style += f";stroke-dasharray:{_DASH_ARRAYS[line['dash']]}"
    if "opacity" in shape:
        style += f";opacity:{shape['opacity']}"
    across = shape.get("xsizemode") == "pixel" and shape.get("ysizemode") != "pixel"
    down = shape.get("ysizemode") == "pixel" and shape.get("xsizemode") != "pixel"
    if (across or down) and shape.get("type") == "rect" and shape.get("path") is None:
        return _band(shape, fx, fy, style, across)
    if across and (tall is None or shape.get("path") is None):
        return ""  # drawn only over the whole plot area, whose height it needs
    pixels = not across and "pixel" in (shape.get("xsizemode"), shape.get("ysizemode"))
    if pixels and shape.get("type") == "circle":  # a point's marker, sized in pixels
        return (f'<circle cx="{fx(shape["xanchor"]):.3f}%" cy="{fy(shape["yanchor"]):.3f}%" '
                f'r="{(shape["x1"] - shape["x0"]) / 2:g}" style="{style}"/>')
    path = shape.get("path")
    if path is None:  # a rectangle sized in pixels, about its anchor
        path = (f"M {shape['x0']},{shape['y0']} L {shape['x1']},{shape['y0']} L {shape['x1']},{shape['y1']} "
                f"L {shape['x0']},{shape['y1']} Z")
    tokens = re.findall(r"[MLZ]|-?[\d.]+(?:e-?\d+)?", path)
    out, numbers = [], []
    for token in tokens:
        if token in "MLZ":
            out.append(token)
        else:
            numbers.append(float(token))
            if len(numbers) == 2:
                x, y = numbers
                out.append(f"{x:g},{-y:g}" if pixels else f"{x:g},{fy(y) * tall / 100:.2f}" if across
                           else f"{fx(x):.3f},{fy(y):.3f}")
                numbers = []
    d = " ".join(out)
    if across:
        return (f'<svg x="{fx(shape["xanchor"]):.3f}%" overflow="visible">'
                f'<path d="{d}" style="{style}"/></svg>')
    if pixels:
        return (f'<svg x="{fx(shape["xanchor"]):.3f}%" y="{fy(shape["yanchor"]):.3f}%" overflow="visible">'
                f'<path d="{d}" style="{style}"/></svg>')
    return (f'<svg width="100%" height="100%" viewBox="0 0 100 100" preserveAspectRatio="none" overflow="visible">'
            f'<path d="{d}" vector-effect="non-scaling-stroke" style="{style}"/></svg>')


def _band(shape: dict, fx, fy, style: str, across: bool) -> str:
    """A rectangle sized in pixels one way about its anchor and in axis units the other (a
    veil over the tick labels past a state's end, held.py): pixels up the screen as y grows."""
    if across:
        top, bottom = sorted((fy(shape["y0"]), fy(shape["y1"])))
        left = min(shape["x0"], shape["x1"])
        return (f'<svg x="{fx(shape["xanchor"]):.3f}%" y="0" overflow="visible"><rect x="{left:g}" '
                f'width="{abs(shape["x1"] - shape["x0"]):g}" y="{top:.3f}%" height="{bottom - top:.3f}%" '
                f'style="{style}"/></svg>')
    left, right = sorted((fx(shape["x0"]), fx(shape["x1"])))
    top = -max(shape["y0"], shape["y1"])
    return (f'<svg x="0" y="{fy(shape["yanchor"]):.3f}%" overflow="visible"><rect x="{left:.3f}%" '
            f'width="{right - left:.3f}%" y="{top:g}" height="{abs(shape["y1"] - shape["y0"]):g}" '
            f'style="{style}"/></svg>')


def _image(image: dict, plot: _Plot) -> str:
    # Plotly places a picture in the axes' range units (powers of ten on a log axis).
    x, y = plot.range_px(image["x"]), plot.range_py(image["y"])
    width = abs(plot.range_px(image["x"] + image["sizex"]) - x)
    height = abs(plot.range_py(image["y"] - image["sizey"]) - y) if plot.y.high > plot.y.low \
        else abs(plot.range_py(image["y"] + image["sizey"]) - y)
    top = y if image.get("yanchor", "top") == "top" else y - height
    # A matrix's PNG (a pixel per cell) keeps sharp cell edges, as on the page.
    sharp = ' style="image-rendering:pixelated"' if image["source"].startswith("data:image/png") else ""
    return (f'<image href="{_href(image["source"])}" x="{x:.3f}%" y="{top:.3f}%" width="{width:.3f}%" '
            f'height="{height:.3f}%" preserveAspectRatio="none"{sharp}/>')


def _href(source: str) -> str:
    """A picture's address in a double-quoted attribute: only what ends or breaks one is
    escaped. A data: SVG is full of single quotes, which escape() writes as six bytes each."""
    return escape(source, quote=False).replace('"', "&quot;")


def _placed_image(image: dict, plots: dict[str, "_Plot"]) -> str:
    """A picture placed in units of the plot area or of an axis's domain, sized as Plotly
    sizes it: stretched over its box, or contained in it at its own shape, against the
    side its anchor names."""
    fx = _where(image.get("xref", "paper"), plots, True)
    fy = _where(image.get("yref", "paper"), plots, False)
    if fx is None or fy is None:
        return ""
    left, right = sorted((fx(image["x"]), fx(image["x"] + image["sizex"])))
    top, bottom = sorted((fy(image["y"]), fy(image["y"] - image["sizey"])))
    fit = "none"
    if image.get("sizing") == "contain":
        fit = {"left": "xMin", "center": "xMid", "right": "xMax"}[image.get("xanchor", "left")] + \
              {"top": "YMin", "middle": "YMid", "bottom": "YMax"}[image.get("yanchor", "top")] + " meet"
    return (f'<image href="{_href(image["source"])}" x="{left:.3f}%" y="{top:.3f}%" width="{right - left:.3f}%" '
            f'height="{bottom - top:.3f}%" preserveAspectRatio="{fit}"/>')


def _heatmap(trace: dict, plot: _Plot) -> str:
    z = trace.get("z") or []
    low, high = float(trace.get("zmin", 0)), float(trace.get("zmax", 1))
    scale = trace.get("colorscale")
    if scale == DIVERGING:
        shade = diverging_colour
    elif scale in (None, "Viridis"):
        shade = sequential_colour
    else:
        return ""  # a scale this drawing does not know: left for Plotly
    if high <= low:
        return ""
    xs = trace.get("x") or list(range(len(z[0]) if z else 0))
    ys = trace.get("y") or list(range(len(z)))
    # Cells named by categories sit at their positions, 0, 1, 2…
    xs, ys = (list(range(len(v))) if any(isinstance(c, str) for c in v) else v for v in (xs, ys))
    show_text = "texttemplate" in trace
    if not show_text and len(xs) * len(ys) > _RASTER_CELLS and list(xs) == list(range(len(xs))) \
            and list(ys) == list(range(len(ys))) and all(_inside(plot.x, x) for x in (xs[0], xs[-1])) \
            and all(_inside(plot.y, y) for y in (ys[0], ys[-1])):
        return _raster(z, lambda value: shade(levelled((float(value) - low) / (high - low))), plot)
    out = []
    for row, y in zip(z, ys):
        for value, x in zip(row, xs):
            if value is None or not (_inside(plot.x, x) and _inside(plot.y, y)):
                continue  # a masked cell (a gap), or past the axes' range, as a colour bar's own trace is
            colour = shade((float(value) - low) / (high - low))
            x0, x1 = sorted((plot.px(x - 0.5), plot.px(x + 0.5)))
            y0, y1 = sorted((plot.py(y - 0.5), plot.py(y + 0.5)))
            out.append(f'<rect x="{x0:.3f}%" y="{y0:.3f}%" width="{x1 - x0:.3f}%" height="{y1 - y0:.3f}%" '
                       f'style="fill:{colour};stroke:var(--chart-gap);stroke-width:1px"/>')
            if show_text:
                out.append(_text(f"{float(value):.2f}", f"{(x0 + x1) / 2:.3f}%", (y0 + y1) / 2, 12,
                                 ink_on(colour), "middle", "central", percent_y=True, css_class="poster-value"))
    return "".join(out)


# A matrix of more cells than this, with no values written in them, is drawn as one
# small image of a pixel per cell: a rectangle each would make the poster of a
# 32 by 32 matrix larger than the rest of the page's markup.
_RASTER_CELLS = 100


def _raster(z, colour_of, plot: _Plot) -> str:
    """The matrix as a PNG of a pixel per cell (masked cells clear), stretched over its
    cells and kept sharp-edged."""
    x0, x1 = sorted((plot.px(-0.5), plot.px(len(z[0]) - 0.5)))
    y0, y1 = sorted((plot.py(-0.5), plot.py(len(z) - 0.5)))
    return (f'<image x="{x0:.3f}%" y="{y0:.3f}%" width="{x1 - x0:.3f}%" height="{y1 - y0:.3f}%" '
            f'preserveAspectRatio="none" style="image-rendering:pixelated" href="{png_uri(z, colour_of)}"/>')


def _scatter(trace: dict, plot: _Plot) -> str:
    xs, ys = list(trace.get("x") or []), list(trace.get("y") or [])
    if not xs or not ys:
        return ""
    mode = trace.get("mode", "lines+markers")
    colour = trace.get("line", {}).get("color") or trace.get("marker", {}).get("color") or "currentColor"
    if isinstance(colour, list):
        colour = colour[0]
    texts = list(trace.get("text") or []) if "text" in mode else []
    kept = [(x, y, texts[i] if i < len(texts) else None) for i, (x, y) in enumerate(zip(xs, ys))
            if x is not None and y is not None]
    points = [(plot.px(x), plot.py(y)) for x, y, _ in kept]
    out = []
    if "lines" in mode:
        out += [f'<line x1="{a[0]:.3f}%" y1="{a[1]:.3f}%" x2="{b[0]:.3f}%" y2="{b[1]:.3f}%" '
                f'style="stroke:{colour};stroke-width:{trace.get("line", {}).get("width", 2)}px"/>'
                for a, b in zip(points, points[1:])]
    # Markers and their text past the axes are clipped away, as Plotly clips them.
    shown = [(point, text) for point, (x, y, text) in zip(points, kept)
             if _inside(plot.x, x) and _inside(plot.y, y)]
    if "markers" in mode:
        out += [f'<circle cx="{x:.3f}%" cy="{y:.3f}%" r="4" style="fill:{colour}"/>' for (x, y), _ in shown]
    out += [_text(str(text), f"{x:.3f}%", y, _FONT, None, "middle", "text-after-edge", percent_y=True, dy=-6)
            for (x, y), text in shown if text is not None]
    return "".join(out)


def _inside(axis: _Axis, value) -> bool:
    return -1e-9 <= axis.share(value) <= 1 + 1e-9


def _nothing(trace: dict, plot: _Plot) -> str:
    return ""


_TRACES = {"heatmap": _heatmap, "scatter": _scatter}  # bars are shapes (charts/bar.py)


def _grid(plot: _Plot) -> str:
    if plot.y.categories is not None or plot.y.spec.get("showgrid") is False or (
            "tickvals" in plot.y.spec and not plot.y.log):
        return ""
    return "".join(f'<line x1="0%" x2="100%" y1="{(1 - share) * 100:.3f}%" y2="{(1 - share) * 100:.3f}%" '
                   f'style="stroke:{plot.y.spec.get("gridcolor", "var(--chart-grid)")};stroke-width:1px"/>'
                   for share, _ in plot.y.ticks() if 0 <= share <= 1)


def _ticks(plot: _Plot) -> str:
    out = []
    x_ticks = [(share, text) for share, text in plot.x.ticks() if -1e-9 <= share <= 1 + 1e-9]
    upright = plot.x.spec.get("tickangle", 0) == 0
    for share, text in x_ticks:
        if not text:  # a blank tick (a bar's name written on a shape instead)
            continue
        if upright:
            out.append(_text(text, f"{share * 100:.3f}%", 100, _FONT, None, "middle", "hanging",
                             percent_y=True, dy=_TICK_GAP))
        else:  # turned to read upwards, its end at the axis
            out.append(_turned(_text(text, "0", 0, _FONT, None, "end", "central"), f"{share * 100:.3f}%", "100%",
                               _TICK_GAP))
    y_ticks = [(share, text) for share, text in plot.y.ticks() if -1e-9 <= share <= 1 + 1e-9]
    for share, text in y_ticks:
        out.append(_text(text, "0%", (1 - share) * 100, _FONT, None, "end", "central",
                         percent_y=True, dx=-_TICK_GAP))
    # Titles clear the tick labels, as Plotly moves them clear.
    title = (plot.x.spec.get("title") or {}).get("text")
    if title:
        depth = max(24.0, label_depth([t for _, t in x_ticks], upright) + 6) if x_ticks else 24.0
        out.append(_text(title, "50%", 100, _FONT, None, "middle", "hanging", percent_y=True, dy=round(depth)))
    title = (plot.y.spec.get("title") or {}).get("text")
    if title:
        depth = label_depth([t for _, t in y_ticks], False) if y_ticks else 0.0
        out.append(_vertical_title(title, -max(52, round(depth + 14))))
    return "".join(out)


def _turned(text: str, x: str, y: str, down: float = 0) -> str:
    """Text drawn about the origin, moved to (x, y) (percentages of the plot) and
    `down` pixels lower, and turned to read upwards."""
    return (f'<svg x="{x}" y="{y}" overflow="visible"><g transform="translate(0 {down:g}) rotate(-90)">'
            f'{text}</g></svg>')


def _vertical_title(title: str, x: int = -52) -> str:
    # A rotated title cannot use a percentage of the plot's height for its place,
    # so it sits in a nested svg that is the plot's height, centred there.
    return (f'<svg x="{x}" y="0" width="1" height="100%" overflow="visible"><text x="0" y="50%" '
            f'text-anchor="middle" transform-origin="0 50%" style="transform:rotate(-90deg);'
            f'transform-box:view-box;transform-origin:0 50%">{escape(_plain(title))}</text></svg>')


def _text(markup: str, x: str, y: float, size: float, colour: str | None, anchor: str, baseline: str,
          percent_y: bool = False, dx: float = 0, dy: float = 0, css_class: str = "") -> str:
    """Text as Plotly writes it: <br> for new lines, <b> for bold; any other tag is dropped."""
    bold = "<b>" in markup
    lines = [_plain(line) for line in re.split(r"<br\s*/?>", markup)]
    style = f"font-size:{size}px" + (f";fill:{colour}" if colour else "") + (";font-weight:700" if bold else "")
    y_attr = f"{y:.3f}%" if percent_y else f"{y}"
    named = f' class="{css_class}"' if css_class else ""
    if len(lines) == 1:
        return (f'<text{named} x="{x}" y="{y_attr}" dx="{dx}" dy="{dy}" text-anchor="{anchor}" '
                f'dominant-baseline="{baseline}" style="{style}">{escape(lines[0])}</text>')
    # Several lines: the last one keeps the baseline given, the others stack above it.
    shift = -(len(lines) - 1) * 1.2 if baseline == "text-after-edge" else -(len(lines) - 1) * 0.6
    spans = "".join(f'<tspan x="{x}" dy="{(shift if i == 0 else 1.2):.2f}em">{escape(line)}</tspan>'
                    for i, line in enumerate(lines))
    return (f'<text{named} x="{x}" y="{y_attr}" dx="{dx}" dy="{dy}" text-anchor="{anchor}" '
            f'dominant-baseline="{baseline}" style="{style}">{spans}</text>')


def _annotation(note: dict, plots: dict[str, _Plot]) -> str:
    fx = _where(note.get("xref", "x"), plots, True)
    fy = _where(note.get("yref", "y"), plots, False)
    if fx is None or fy is None or not note.get("text"):
        return ""
    anchor = {"left": "start", "right": "end"}.get(note.get("xanchor"), "middle")
    font = note.get("font", {})
    if note.get("textangle") == -90:  # a label turned to read upwards (a diagram's narrow box)
        return _turned(_text(str(note["text"]), "0", 0, font.get("size", _FONT), font.get("color"), anchor,
                             "central"), f"{fx(note['x']):.3f}%", f"{fy(note['y']):.3f}%")
    # Shifted in pixels as Plotly shifts it (a heatmap's key, above the plot's corner).
    return _text(str(note["text"]), f"{fx(note['x']):.3f}%", fy(note["y"]), font.get("size", _FONT),
                 font.get("color"), anchor, "central", percent_y=True, dx=note.get("xshift", 0),
                 dy=-note.get("yshift", 0))


def _plain(markup: str) -> str:
    """Plotly's markup as the text it shows: tags dropped, entities decoded in one pass as
    Plotly's convertEntities decodes them (decoding "&amp;" first and then "&lt;" would turn
    a model's "&lt;", escaped as "&amp;lt;", into "<")."""
    return _ENTITY.sub(_entity, re.sub(r"<[^>]+>", "", markup))


# Plotly's entities (src/lib/svg_text_utils.js): these names, and any code point by number.
_ENTITY = re.compile(r"&(#\d+|#x[\da-fA-F]+|[a-z]+);")
_ENTITIES = {"mu": "\u03bc", "amp": "&", "lt": "<", "gt": ">", "nbsp": "\u00a0", "times": "\u00d7",
             "plusmn": "\u00b1", "deg": "\u00b0"}


def _entity(match: re.Match) -> str:
    name = match.group(1)
    if not name.startswith("#"):
        return _ENTITIES.get(name, match.group(0))
    code = int(name[2:], 16) if name[1] == "x" else int(name[1:])
    # What XML cannot hold (a control character, half of a surrogate pair) is left as written.
    if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF or (code < 0x20 and code not in (9, 10, 13)):
        return match.group(0)
    return chr(code)


def _nice_step(span: float) -> float:
    raw = span / 5 if span > 0 else 1
    power = 10 ** math.floor(math.log10(raw))
    return next(step * power for step in (1, 2, 2.5, 5, 10) if step * power >= raw)


def _tick_text(value: float, tickformat: str) -> str:
    match = re.fullmatch(r"\.(\d)%", tickformat or "")
    if match:
        return f"{value * 100:.{int(match.group(1))}f}%"
    match = re.fullmatch(r"\.(\d)f", tickformat or "")
    if match:
        return f"{value:.{int(match.group(1))}f}"
    text = f"{value:.10g}"
    return text.replace("-", "\u2212")
