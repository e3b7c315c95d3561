"""Pieces shared by the chart kinds: palettes, theme colours, checks, layout
defaults and the cells of the data tables."""
from __future__ import annotations

import base64
import math
import struct
import zlib
from dataclasses import dataclass

from ...compute.formats import fixed, formatter, is_shared, minus, percent, power_of_ten, significant

# Okabe & Ito's palette: distinguishable with every common colour-vision deficiency.
CATEGORICAL = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#999999"]
# The sequential scale: Plotly's Viridis, perceptually uniform and colour-blind-safe on a light
# or dark page, as (position, colour) stops, for what the build shades itself.
_VIRIDIS = [(0.0, "#440154"), (0.06274509803921569, "#48186a"), (0.12549019607843137, "#472d7b"),
            (0.18823529411764706, "#424086"), (0.25098039215686274, "#3b528b"), (0.3137254901960784, "#33638d"),
            (0.3764705882352941, "#2c728e"), (0.4392156862745098, "#26828e"), (0.5019607843137255, "#21918c"),
            (0.5647058823529412, "#1fa088"), (0.6274509803921569, "#28ae80"), (0.6901960784313725, "#3fbc73"),
            (0.7529411764705882, "#5ec962"), (0.8156862745098039, "#84d44b"), (0.8784313725490196, "#addc30"),
            (0.9411764705882353, "#d8e219"), (1.0, "#fde725")]
FONT_FAMILY = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"


def theme_colour(name: str) -> str:
    """A colour the page's theme decides (light or dark, screen or print): the
    runtime replaces 'var(--chart-NAME)' with the CSS custom property's value
    when it draws, and draws again when the colour scheme changes."""
    return f"var(--chart-{name})"


ACCENT = "#D55E00"                 # the selected item, on light and dark pages alike
MUTED = theme_colour("bar")        # the items that are not selected
MARK = theme_colour("mark")        # outline of the selected item, so it never rests on colour
GAP = theme_colour("gap")          # lines that separate marks: the page's own background


def base_layout(chart, **extra) -> dict:
    layout = {
        "height": chart.height,
        "margin": {"l": 64, "r": 16, "t": 16, "b": 56},
        "paper_bgcolor": "rgba(0,0,0,0)",
        "plot_bgcolor": "rgba(0,0,0,0)",
        "showlegend": False,
        "font": {"family": FONT_FAMILY, "size": 13,
                 "color": theme_colour("text")},
    }
    # The chart's title is the page's own text above the chart (templates/_step.html),
    # which wraps on a narrow screen where a Plotly title would be cut off.
    layout.update(extra)
    return layout


# The right margin of a chart with a colour bar (colour_bar.py): room for the bar and its
# values ("−1.5", "10") from the start, so the plot keeps its width whatever the scale.
COLORBAR_MARGIN = 90


def axis(title: str = "", **extra) -> dict:
    # ticklabeloverflow "allow": the margins leave room for the labels, and Plotly's
    # default check for labels past the edge measures every label once per label.
    spec = {"title": {"text": title} if title else None,
            "gridcolor": theme_colour("grid"), "linecolor": theme_colour("axis"), "fixedrange": True, "zeroline": False,
            "ticklabeloverflow": "allow"}
    spec.update(extra)
    return {k: v for k, v in spec.items() if v is not None}


def rounded(values, digits: int = 4):
    """Round numbers for the page: shorter JSON, stable bytes between builds."""
    if is_shared(values):  # an array many states share: rounded once, and the result shared too
        return values.derived(("rounded", digits), lambda: _rounded_items(values, digits))
    if isinstance(values, (list, tuple)):
        return _rounded_items(values, digits)
    if isinstance(values, float):
        return round(values, digits) + 0.0  # + 0.0 turns -0.0 into 0.0
    return values


def _rounded_items(values, digits: int) -> list:
    # One comprehension per row rather than a call per number: charts hold thousands.
    return [rounded(v, digits) if isinstance(v, (list, tuple))
            else round(v, digits) + 0.0 if isinstance(v, float) else v for v in values]


def sequential_colour(value: float) -> str:
    """The '#rrggbb' the sequential scale gives a value from 0 to 1, as Plotly
    would shade it (straight lines in RGB between the scale's stops)."""
    return _scale_colour(_VIRIDIS_RGB, value)


def diverging_colour(value: float) -> str:
    """The '#rrggbb' the diverging scale gives a value from 0 (the low end) to 1."""
    return _scale_colour(_DIVERGING_RGB, value)


def scale_colour(scale: str, value: float) -> str:
    """The colour of `value` (0 to 1 along the scale) on the scale named 'sequential' or 'diverging'."""
    return diverging_colour(value) if scale == "diverging" else sequential_colour(value)


def scale_stops(scale: str) -> list[tuple[float, str]]:
    """The scale's own (position, '#rrggbb') stops: scale_colour is a straight line in RGB
    between them, as an SVG gradient through them is, so they draw the scale exactly."""
    return list(_DIVERGING_STOPS if scale == "diverging" else _VIRIDIS)


def _scale_colour(stops, value: float) -> str:
    value = min(1.0, max(0.0, float(value)))
    for (low, start), (high, end) in zip(stops, stops[1:]):
        if value <= high:
            share = (value - low) / (high - low)
            # + 0.5 then down: halves round up, as JavaScript's Math.round does in Plotly.
            return "#" + "".join(f"{int(a + (b - a) * share + 0.5):02x}" for a, b in zip(start, end))
    return "#" + "".join(f"{c:02x}" for c in stops[-1][1])


def _rgb(colour: str) -> tuple:
    return tuple(int(colour[k:k + 2], 16) for k in (1, 3, 5))


_VIRIDIS_RGB = [(position, _rgb(colour)) for position, colour in _VIRIDIS]
# ColorBrewer's RdBu, blue for the low end and red for the high: diverging and
# colour-blind-safe, with a light neutral middle for zero.
_DIVERGING_STOPS = [(0.0, "#053061"), (0.1, "#2166ac"), (0.2, "#4393c3"), (0.3, "#92c5de"), (0.4, "#d1e5f0"),
                    (0.5, "#f7f7f7"), (0.6, "#fddbc7"), (0.7, "#f4a582"), (0.8, "#d6604d"), (0.9, "#b2182b"),
                    (1.0, "#67001f")]
DIVERGING = [[position, colour] for position, colour in _DIVERGING_STOPS]
_DIVERGING_RGB = [(position, _rgb(colour)) for position, colour in _DIVERGING_STOPS]
# Masked cells: a neutral grey hatched with a darker one, unlike any colour of either
# scale, and drawn the same on light and dark pages.
MASKED_FILL = "#bdbdbd"
MASKED_HATCH = "#6f6f6f"


def grey(colour: str, share: float = 0.6) -> str:
    """A colour moved `share` of the way to a neutral grey: a faded mark that still
    takes black or white text (ink_on) on any page, light or dark."""
    return "#" + "".join(f"{int(c + (0x9e - c) * share + 0.5):02x}" for c in _rgb(colour))


def see_through(colour: str, alpha: float) -> str:
    """A '#rrggbb' colour as rgba with the given opacity."""
    return "rgba({}, {}, {}, {:g})".format(*_rgb(colour), alpha)


def empty_trace(**extra) -> dict:
    """A trace with nothing in it: it gives Plotly the axes for a chart drawn with
    shapes and pictures."""
    return {"type": "scatter", "x": [], "y": [], "hoverinfo": "skip", **extra}


def picture(svg: str, left: float, top: float, width: float, height: float) -> dict:
    """A Plotly layout image of an SVG, stretched over a box in data units (left and
    top edges, width and height), under the data and shapes. Plotly redraws a changed picture
    by itself, where a changed trace has it recompute and redraw the whole figure."""
    return placed(_svg_uri(svg), left, top, width, height)


def path_number(value) -> str:
    """A coordinate in a shape's SVG path: short, and never in exponent form, which
    Plotly's path parser does not read (it takes digits, a sign and a dot), as a
    computed 2.7e-17 that means zero would otherwise be written."""
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def hover_meta(hover: str, **extra) -> dict:
    """The layout's meta for a chart drawn as pictures and shapes, which Plotly cannot
    hover: the runtime labels the point under the pointer from the step's data table
    (runtime.js, hoverText), in the table's own strings. "cells": a matrix, a cell per
    unit. "rows": a row of the table per position along one axis (`along`, "x" or
    "y"), at 0, 1, 2… over the axis's range or, with `numeric`, at the numbers the
    rows' headers write. The same in every state of a chart: a changed meta has Plotly
    draw the whole figure again."""
    return {"hover": hover, **extra}


def placed(source: str, left: float, top: float, width: float, height: float) -> dict:
    """A Plotly layout image of a data: URI, stretched over a box in data units, as picture()."""
    return {"source": source, "xref": "x", "yref": "y", "x": left, "y": top, "sizex": width,
            "sizey": height, "xanchor": "left", "yanchor": "top", "sizing": "stretch", "layer": "below"}


def png_uri(z, colour_of) -> str:
    """A data: URI of a PNG of the matrix `z`, a pixel per cell coloured '#rrggbb' by
    colour_of(value), cells that are None clear. Drawn pixelated over the cells (the
    theme's style sheet, and the poster, say so), it is far smaller than a shape or an
    SVG rectangle per cell, and a new matrix is a new picture, which Plotly swaps alone.
    Up to 256 colours (as colour_of gives when it keeps to 256 levels of a scale) are a
    palette of a byte per cell; more, three or four bytes each."""
    colours = [[None if value is None else colour_of(value) for value in row] for row in z]
    distinct = sorted({c for row in colours for c in row if c is not None})
    clear = any(c is None for row in colours for c in row)
    if len(distinct) + clear <= 256:
        index = {c: i for i, c in enumerate(distinct)}
        blank = bytes([len(distinct)])
        rows = [b"\0" + b"".join(blank if c is None else bytes([index[c]]) for c in row) for row in colours]
        palette = bytes.fromhex("".join(c[1:7] for c in distinct)) + (b"\0\0\0" if clear else b"")
        chunks = [(b"PLTE", palette)] + ([(b"tRNS", b"\xff" * len(distinct) + b"\0")] if clear else [])
        kind = 3
    else:
        rows = [b"\0" + b"".join(b"\0\0\0\0" if c is None else bytes.fromhex(c[1:7]) + (b"\xff" if clear else b"")
                                 for c in row) for row in colours]
        chunks, kind = [], 6 if clear else 2
    def chunk(name: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + name + data + struct.pack(">I", zlib.crc32(name + data))
    header = struct.pack(">IIBBBBB", len(z[0]), len(z), 8, kind, 0, 0, 0)
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + b"".join(chunk(n, d) for n, d in chunks)
           + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b""))
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def levelled(fraction: float, levels: int = 256) -> float:
    """A position along a colour scale kept to one of `levels` steps, as a screen's 8-bit
    channels show it anyway: a picture then needs no more colours than a palette holds."""
    return round(min(1.0, max(0.0, fraction)) * (levels - 1)) / (levels - 1)


def _svg_uri(svg: str) -> str:
    """A data: URI of an SVG, for a Plotly layout image (a picture Plotly redraws by
    itself when only it changes). "#" would start a fragment, and "<" ">" "%" '"'
    are not URI characters."""
    for character, escaped in _URI_ESCAPES:  # "%" first: the others bring "%" in
        svg = svg.replace(character, escaped)
    return "data:image/svg+xml," + svg


_URI_ESCAPES = (("%", "%25"), ("#", "%23"), ("<", "%3C"), (">", "%3E"), ('"', "%22"))


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on a '#rrggbb' fill (WCAG contrast)."""
    def luminance(hex_colour: str) -> float:
        channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    fill = luminance(colour)
    return "#000000" if (fill + 0.05) / 0.05 >= 1.05 / (fill + 0.05) else "#ffffff"



def number_cell(value, y_format: str = "", log: bool = False) -> str:
    """A number as the data table shows it: as a percent where the axis shows
    percents, else with two decimals like the chart's own labels, or with three
    significant digits on a log axis (whose values span orders of magnitude, where
    two decimals would write 0.00); negative numbers with the minus sign (−)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return minus(f"{value:,}" if log else str(value))
    if y_format.endswith("%"):
        return percent(value)
    return significant(value, 3) if log else fixed(value, 2)


def number_cells(values: list, y_format: str = "", cell_format: str = "") -> list[str]:
    """number_cell of each value, or the readout format `cell_format` of each (a heatmap's
    cell_format: "count", "fixed:1"...); worked out once for a row many states share."""
    def cells():
        if cell_format:
            shown = formatter(cell_format)
            return [shown(value) for value in values]
        return [number_cell(value, y_format) for value in values]
    if is_shared(values):
        return values.derived(("cells", y_format, cell_format), cells)
    return cells()


def table(columns: list[str], rows: list[list[str]], highlight: int | None = None) -> dict:
    """A chart's data table: the first cell of each row is its header."""
    result = {"columns": columns, "rows": rows}
    if highlight is not None:
        result["highlight"] = highlight
    return result


def matrix_problem(z, name: str = "z") -> str | None:
    if not isinstance(z, list) or not z or not all(isinstance(row, list) and row for row in z):
        return f"'{name}' must be a non-empty 2-D array"
    width = len(z[0])
    if any(len(row) != width for row in z):
        return f"'{name}' rows have different lengths"
    if is_shared(z):  # made from a numeric numpy array: numbers only, already seen
        return None
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for row in z for v in row):
        return f"'{name}' must hold only numbers"
    return None


def labels_problem(data: dict, name: str, length: int) -> str | None:
    labels = data.get(name)
    if not isinstance(labels, list) or len(labels) != length:
        found = len(labels) if isinstance(labels, list) else type(labels).__name__
        return f"'{name}' must be a list of {length} labels, found {found}"
    return None


def index_problem(data: dict, name: str, length: int, optional: bool = True) -> str | None:
    value = data.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < length:
        return f"'{name}' must be an index from 0 to {length - 1}, found {value!r}"
    return None


def first_problem(*problems) -> str | None:
    return next((p for p in problems if p), None)


@dataclass(frozen=True)
class Issue:
    """What is wrong with one state's chart data: the data key to blame, and
    whether it is only a warning (something drawn differently from its value,
    which --strict refuses) rather than an error."""
    key: str
    message: str
    warning: bool = False


def issues(*found) -> list[Issue]:
    """The errors among `found` (Issues or None), first; the first error alone, as
    one error at a time reads best, with every warning after it."""
    found = [f for f in found if f]
    errors = [f for f in found if not f.warning]
    return errors[:1] + [f for f in found if f.warning]


def as_issue(message: str | None) -> Issue | None:
    """An Issue from a message of the form "'key' must ...", blaming that key."""
    if not message:
        return None
    key = message.split("'")[1] if message.startswith("'") else ""
    return Issue(key.split("[")[0], message)


def exact(value) -> str:
    """A number as an error names it: exactly (Python's shortest text that reads back
    as the same float, 4.000001 rather than 4), a whole float without its ".0", and
    with the minus sign. A value just past a range's end must not look inside it."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:
        value = int(value)
    return minus(repr(value) if isinstance(value, float) else str(value))


def span_text(span) -> str:
    """A range [low, high] as an error names it, each end exact."""
    return "[" + ", ".join(exact(v) for v in span) + "]"


def is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def numbers_problem(data: dict, name: str, length: int | None = None, optional: bool = False) -> Issue | None:
    """'name' must be a list of numbers (of `length` of them)."""
    values = data.get(name)
    if values is None and optional:
        return None
    size = "" if length is None else f"{length} "
    if not isinstance(values, list) or not values or (length is not None and len(values) != length) or \
            not (is_shared(values) or all(is_number(v) for v in values)):
        found = (f"{len(values)} item{'' if len(values) == 1 else 's'}" if isinstance(values, list)
                 else type(values).__name__)
        return Issue(name, f"'{name}' must be a list of {size}numbers, found {found}")
    return None


def span_of(values) -> tuple[float, float] | None:
    """The lowest and highest number in nested lists of numbers (None when there is none)."""
    low = high = None
    stack = [values]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            numbers = [v for v in item if is_number(v)]
            if numbers:
                lo, hi = min(numbers), max(numbers)
                low = lo if low is None or lo < low else low
                high = hi if high is None or hi > high else high
            stack.extend(v for v in item if isinstance(v, (list, tuple)))
        elif is_number(item):
            low = item if low is None or item < low else low
            high = item if high is None or item > high else high
    return None if low is None else (low, high)


def outside(values, span, name: str) -> tuple[str, float] | None:
    """The first value (as 'name[i][j]', value) of nested lists outside [low, high]."""
    low, high = span
    found = span_of(values)
    if found is None or (low <= found[0] and found[1] <= high):
        return None
    return first_value(values, name, lambda v: not low <= v <= high)


def first_value(values, name: str, wrong) -> tuple[str, float] | None:
    """The first number of nested lists for which wrong(number) holds, as ('name[i][j]', number)."""
    def walk(item, where):
        if isinstance(item, (list, tuple)):
            for index, value in enumerate(item):
                found = walk(value, f"{where}[{index}]")
                if found:
                    return found
        elif is_number(item) and wrong(item):
            return where, item
        return None
    return walk(values, name)


def nice_span(low: float, high: float, headroom: float = 0.0) -> list[float]:
    """An axis range holding low..high and zero, with `headroom` (a share of the
    span) added on the sides the values reach beyond zero."""
    low, high = min(low, 0.0), max(high, 0.0)
    if low == high:
        return [0.0, 1.0]
    extra = (high - low) * headroom
    return [rounded(low - extra if low < 0 else low), rounded(high + extra if high > 0 else high)]


def outward(low: float, high: float, digits: int = 4) -> list[float]:
    """A range rounded for the page, outwards: it still holds low and high."""
    scale = 10 ** digits
    return [math.floor(low * scale) / scale + 0.0, math.ceil(high * scale) / scale + 0.0]


def step_facts(chart) -> dict:
    """The facts charts.resolved found about a step's states, which are no chart options
    (a diagram's labels that change): none for a chart drawn alone."""
    return getattr(chart, "step_facts", {})


def declared_range(chart, name: str):
    """A chart option that is [low, high], or None when it is absent or 'auto'."""
    value = getattr(chart, name, None)
    return tuple(value) if isinstance(value, (list, tuple)) else None


def tick_labels(labels: list, room: float, size: float = 13) -> tuple[list[int], list[str]]:
    """Tick positions and texts for a label per cell when the cells are `room`
    pixels each: every label when they fit, else every k-th, so no two overlap."""
    step = 1
    while room * step < size * 1.4 and step < len(labels):
        step += 1
    positions = list(range(0, len(labels), step))
    return positions, [str(labels[i]) for i in positions]


# The width of a chart on a 360 px phone, in pixels, and of its plot with the default
# margins: labels are fitted to what they get there, the narrowest screen.
PHONE_CHART = 310
PHONE_PLOT = 230
TICK_FONT = 13
_TICK_GAP = 6      # between an axis and its tick labels
_TITLE_ROOM = 30   # beyond the tick labels, for an axis title (Plotly moves it clear of them)
_BARE_ROOM = 10    # beyond the tick labels of an axis with no title


def text_width(text, size: float = TICK_FONT) -> float:
    """An estimate of the width of one line of text in the charts' font, in pixels.
    On the wide side (no font is measured at build time), so a label judged to fit does."""
    ems = 0.0
    for letter in str(text):
        if letter in "iljtfrI.,:;'|!()[] ":
            ems += 0.34
        elif letter in "mwMW%@" or letter.isupper():
            ems += 0.82
        else:  # digits, lower case and the rest
            ems += 0.58
    return ems * size


def widest(texts, size: float = TICK_FONT) -> float:
    return max((text_width(t, size) for t in texts), default=0.0)


def label_depth(texts, upright: bool, size: float = TICK_FONT) -> float:
    """How far tick labels reach out from their axis, in pixels: a line of text when
    upright, the longest label when turned to read upwards."""
    return (1.5 * size if upright else widest(texts, size)) + _TICK_GAP


def labelled_x(labels: list, room: float, title: str, thin: bool = True,
               size: float = TICK_FONT) -> tuple[dict, int]:
    """Ticks for an x axis with a label per cell of `room` pixels (on a phone), and the
    bottom margin they and the title need. Labels stay upright when each fits its
    room, else they turn to read upwards (thinned to every k-th when `thin` and even
    that is too tight); Plotly's own choice, 30 degrees, runs them into each other
    and past the chart's edge."""
    if thin:
        positions, texts = tick_labels(labels, room, size)
    else:
        positions, texts = list(range(len(labels))), [str(v) for v in labels]
    every = positions[1] - positions[0] if len(positions) > 1 else 1
    upright = widest(texts, size) + 8 <= room * every
    spec = {"tickvals": positions, "ticktext": texts, "tickangle": 0 if upright else -90}
    return spec, bottom_margin(label_depth(texts, upright, size), title)


def bottom_margin(depth: float, title: str) -> int:
    return max(56, math.ceil(depth + (_TITLE_ROOM if title else _BARE_ROOM)))


def left_margin(texts, title: str) -> int:
    """The left margin a y axis needs for its tick labels (written out, as a category
    axis's are) and its title."""
    return side_margin(label_depth(texts, False), title)


def side_margin(depth: float, title: str) -> int:
    """The left margin for labels reaching `depth` px from the y axis, and its title."""
    return max(64, math.ceil(depth + (_TITLE_ROOM if title else _BARE_ROOM)))


# --- Log axes (x_scale or y_scale = "log") ------------------------------------------------
# A chart's ranges stay in data units in the build (a declared y_range is what the author
# wrote); Plotly takes a log axis's range in powers of ten, and its shapes, ticks and
# paths in data units. The ticks are the build's own, so the poster writes the same ones.

def is_log(chart, axis: str) -> bool:
    """Whether the chart's `axis` ("x" or "y") is drawn on a log scale."""
    return getattr(chart, f"{axis}_scale", "linear") == "log"


def not_positive(values, name: str) -> tuple[str, float] | None:
    """The first value of nested lists that a log axis cannot draw (zero or below), as
    ('name[i][j]', value)."""
    found = span_of(values)
    return None if found is None or found[0] > 0 else first_value(values, name, lambda v: v <= 0)


def log_problem(values, name: str, option: str) -> str | None:
    """The message for a value a log axis cannot draw, or None."""
    found = not_positive(values, name)
    if found is None:
        return None
    return (f"{found[0]} = {exact(found[1])} cannot be drawn on a log axis ({option} = \"log\"): "
            "every value must be above zero")


def log_span(low: float, high: float, pad: float = 0.06) -> list[float]:
    """A log axis's range in data units holding low..high (both above zero), with `pad`
    of its length in decades on each side: a line on its edge is not cut in half."""
    first, last = math.log10(low), math.log10(high)
    if last - first < 1e-9:
        first, last = first - 0.5, last + 0.5
    room = (last - first) * pad
    return [10 ** round(first - room, 4), 10 ** round(last + room, 4)]


def log_axis(span, tickformat: str = "") -> dict:
    """What an axis spec needs to draw `span` (data units) on a log scale: Plotly's type,
    its range in powers of ten, and the build's ticks."""
    first, last = (round(math.log10(v), 4) + 0.0 for v in span)
    values, texts = log_ticks(first, last, tickformat)
    return {"type": "log", "range": [first, last], "tickvals": values, "ticktext": texts}


def log_ticks(first: float, last: float, tickformat: str = "") -> tuple[list[float], list[str]]:
    """Ticks from 10^first to 10^last: every power of ten while there are two to seven,
    every k-th power beyond, and 2 and 5 times each power (then every whole multiple)
    where the range holds too few powers to read."""
    low, high = sorted((first, last))
    decades = list(range(math.ceil(low - 1e-9), math.floor(high + 1e-9) + 1))
    if len(decades) > 7:
        step = math.ceil(len(decades) / 6)
        decades = [k for k in decades if k % step == 0]
    values = [10.0 ** k for k in decades]
    for multiples in ((1, 2, 5), tuple(range(1, 10))):
        if len(values) >= 3:
            break
        values = sorted({m * 10.0 ** k for k in range(math.floor(low) - 1, math.ceil(high) + 1) for m in multiples
                         if low - 1e-9 <= math.log10(m * 10.0 ** k) <= high + 1e-9})
    values = [float(f"{v:.6g}") for v in values]
    return values, [_log_tick_text(v, tickformat) for v in values]


def _log_tick_text(value: float, tickformat: str) -> str:
    if tickformat.endswith("%"):
        return f"{value * 100:,.10g}%"
    exponent = math.floor(math.log10(value) + 1e-9)
    if -3 <= exponent <= 3:
        return f"{value:,.10g}"
    mantissa = round(value / 10 ** exponent, 6)
    return power_of_ten(exponent) if mantissa == 1 else f"{mantissa:g}×{power_of_ten(exponent)}"


def log_rounded(values):
    """Numbers on a log axis rounded for the page to four significant digits, where
    rounded() would write a small value (a loss of 0.000002) as zero."""
    if isinstance(values, (list, tuple)):
        return [log_rounded(v) for v in values]
    if isinstance(values, float):
        return float(f"{values:.4g}")
    return values


def log_path_number(value) -> str:
    """A positive coordinate of a shape's path on a log axis: four significant digits,
    never in exponent form (see path_number)."""
    decimals = max(0, 3 - math.floor(math.log10(value)))
    return f"{value:.{decimals}f}"
