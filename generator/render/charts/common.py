"""Pieces shared by the chart kinds: palettes, theme colours, checks, layout
defaults and the cells of the data tables."""
from __future__ import annotations

from ...compute.formats import fixed, is_shared, percent, signed

# Okabe & Ito's palette: distinguishable with every common colour-vision deficiency.
CATEGORICAL = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#999999"]
SEQUENTIAL = "Viridis"  # perceptually uniform and colour-blind-safe, light or dark page
# Plotly's Viridis, as (position, colour) stops, for what the build shades itself.
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


_ROUNDED: dict[tuple, tuple] = {}  # (id of a shared list, digits) -> (that list, rounded)


# The right margin of a chart with a colour bar: room for the bar and its labels
# ("−1.5", "10") from the start. Plotly still widens it if the labels need more, but
# when the bar fits, Plotly does not lay the whole figure out a second time on every
# redraw.
COLORBAR_MARGIN = 90
# A colour bar's own settings: "allow" for the reason axis() gives.
COLORBAR = {"thickness": 12, "len": 0.9, "ticklabeloverflow": "allow"}


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
    if isinstance(values, (list, tuple)):
        shared = is_shared(values)
        if shared:  # an array many states share: rounded once, and the result shared too
            found = _ROUNDED.get((id(values), digits))
            if found is not None and found[0] is values:
                return found[1]
        # One comprehension per row rather than a call per number: charts hold thousands.
        result = [rounded(v, digits) if isinstance(v, (list, tuple))
                  else round(v, digits) + 0.0 if isinstance(v, float) else v for v in values]
        if shared:
            if len(_ROUNDED) >= 4096:
                _ROUNDED.clear()
            _ROUNDED[(id(values), digits)] = (values, result)  # holding values keeps its id unique
        return result
    if isinstance(values, float):
        return round(values, digits) + 0.0  # + 0.0 turns -0.0 into 0.0
    return values


def sequential_colour(value: float) -> str:
    """The '#rrggbb' the sequential scale gives a value from 0 to 1, as Plotly
    would shade it (straight lines in RGB between the scale's stops)."""
    value = min(1.0, max(0.0, float(value)))
    for (low, start), (high, end) in zip(_VIRIDIS_RGB, _VIRIDIS_RGB[1:]):
        if value <= high:
            share = (value - low) / (high - low)
            # + 0.5 then down: halves round up, as JavaScript's Math.round does in Plotly.
            return "#" + "".join(f"{int(a + (b - a) * share + 0.5):02x}" for a, b in zip(start, end))
    return _VIRIDIS[-1][1]


_VIRIDIS_RGB = [(position, tuple(int(colour[k:k + 2], 16) for k in (1, 3, 5))) for position, colour in _VIRIDIS]


def empty_trace() -> dict:
    """A trace with nothing in it: it gives Plotly the axes for a chart drawn with
    shapes and pictures."""
    return {"type": "scatter", "x": [], "y": [], "hoverinfo": "skip"}


def picture(svg: str, left: float, top: float, width: float, height: float) -> dict:
    """A Plotly layout image of an SVG, stretched over a box in data units (left and
    top edges, width and height), under the data and shapes. Plotly redraws a changed picture
    by itself, where a changed trace has it recompute and redraw the whole figure."""
    return {"source": _svg_uri(svg), "xref": "x", "yref": "y", "x": left, "y": top, "sizex": width,
            "sizey": height, "xanchor": "left", "yanchor": "top", "sizing": "stretch", "layer": "below"}


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


def number_cell(value, y_format: str = "") -> str:
    """A number as the data table shows it: as a percent where the axis shows
    percents, else with two decimals like the chart's own labels; negative
    numbers with the minus sign (−)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return signed(str(value))
    return percent(value) if y_format.endswith("%") else fixed(value, 2)


def number_cells(values: list, y_format: str = "") -> list[str]:
    """number_cell of each value; worked out once for a row many states share."""
    shared = is_shared(values)
    if shared:
        found = _CELLS.get((id(values), y_format))
        if found is not None and found[0] is values:
            return found[1]
    cells = [number_cell(value, y_format) for value in values]
    if shared:
        if len(_CELLS) >= 4096:
            _CELLS.clear()
        _CELLS[(id(values), y_format)] = (values, cells)
    return cells


_CELLS: dict[tuple, tuple] = {}  # (id of a shared row, format) -> (that row, its cells)


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
