"""A vector split into consecutive blocks (for example the dimensions each
part of a model owns), drawn as labelled segments, or as a heat strip of the
vector's values with the blocks marked when values are given.

Both are drawn with layout shapes and pictures (layout images), which Plotly
redraws by themselves: a change of split or of values costs a millisecond or
two, where traces would have Plotly recompute and redraw the whole figure."""
from __future__ import annotations

import functools
import math
import zlib

from .common import exact, span_text, ACCENT, CATEGORICAL, COLORBAR_MARGIN, GAP, as_issue, axis, base_layout, \
    declared_range, empty_trace, first_problem, index_problem, ink_on, labels_problem, number_cell, outward, \
    picture, placed, png_uri, scale_colour, span_of, step_facts, table as data_table, widest, PHONE_CHART
from .colour_bar import colour_bar
from .held import held


# The data a step's function returns for this kind: key -> what it holds.
DATA = {
    "sizes": "required: a list of positive integers, the length of each block",
    "labels": "required: a list of labels, one per block",
    "values": "optional: a list of sum(sizes) numbers; draws the vector as a heat strip with the blocks marked",
    "range": "optional, with values: [low, high], the ends of the strip's colour scale (default: the chart's "
             "z_range, else the lowest to the highest value of every state of the step, so a colour means the "
             "same value whatever the controls; on the diverging scale, ± the largest size)",
    "highlight": "optional: the index of a block to mark, outlined in the accent colour (and, without 'values', "
                 "its row of the table marked)",
}


def check(data: dict, chart=None) -> list:
    found = [as_issue(_problem(data))]
    values, span = data.get("values"), data.get("range") or (declared_range(chart, "z_range") if chart else None)
    if not found[0] and values is not None and span:
        for index, value in enumerate(values):
            if not span[0] <= value <= span[1]:
                found = [as_issue(f"'values[{index}]' = {exact(value)} is outside the colour range "
                                  f"{span_text(span)}")]
                break
    return [f for f in found if f]


def ranges(chart, all_data: list[dict]) -> dict:
    """The strip's colour range over every state, unless declared; and the longest
    state's positions, which the axis holds in every state."""
    facts = {"length": max(sum(d["sizes"]) for d in all_data)} if held(chart) else {}
    found = [d["values"] for d in all_data if d.get("values") is not None]
    if not found:
        return facts
    span = declared_range(chart, "z_range")
    if not span:
        low, high = span_of(found)
        if chart.scale == "diverging":
            reach = max(abs(low), abs(high)) or 1.0
            low, high = -reach, reach
        span = outward(low, high)
        facts["z_range"] = span
    # A state's own range gives it a colour bar of its own (colour_bar.py).
    if len({tuple(d.get("range") or span) for d in all_data if d.get("values") is not None}) > 1:
        facts["bar_changes"] = True
    return facts


def _problem(data: dict) -> str | None:
    sizes = data.get("sizes")
    if isinstance(sizes, list) and data.get("highlight") is not None:
        problem = index_problem(data, "highlight", len(sizes))
        if problem:
            return problem
    return _shape_problem(data)


def _shape_problem(data: dict) -> str | None:
    sizes = data.get("sizes")
    if not isinstance(sizes, list) or not sizes or not all(
            isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in sizes):
        return "'sizes' must be a non-empty list of positive integers"
    problem = labels_problem(data, "labels", len(sizes))
    values = data.get("values")
    if values is not None and (not isinstance(values, list) or len(values) != sum(sizes)):
        problem = problem or f"'values' must be a list of {sum(sizes)} numbers (the sum of 'sizes')"
    span = data.get("range")
    if span is not None and not (
            values is not None and isinstance(span, list) and len(span) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in span)
            and span[0] < span[1]):
        problem = problem or "'range' must be [low, high] with low < high, and needs 'values'"
    return first_problem(problem)


def figure(chart, data: dict) -> dict:
    sizes, labels = data["sizes"], data["labels"]
    total = sum(sizes)
    starts = [sum(sizes[:i]) for i in range(len(sizes))]
    if data.get("values") is None:
        figure = _segments(chart, sizes, labels, starts, total)
    else:
        span = data.get("range") or declared_range(chart, "z_range") or ranges(chart, [data]).get("z_range")
        figure = _strip(chart, data["values"], sizes, labels, starts, total, span)
    selected = data.get("highlight")
    if selected is not None:
        # A shape over the chosen block: a change of choice changes shapes only.
        # The strip and its band, grown where it holds a turned label.
        low, high = (-0.3, 0.3) if data.get("values") is None else \
            (-0.5, max(shape["y1"] for shape in figure["layout"]["shapes"] if shape.get("xref") == "x"))
        figure["layout"]["shapes"].append({
            "type": "rect", "xref": "x", "yref": "y", "layer": "above",
            "x0": starts[selected] - (0 if data.get("values") is None else 0.5),
            "x1": starts[selected] + sizes[selected] - (0 if data.get("values") is None else 0.5),
            "y0": low - 0.04, "y1": high + 0.04, "line": {"color": ACCENT, "width": 4}})
    return figure


# The narrowest one of a step's several charts is drawn, side by side on a wide screen:
# 16rem (style.css), narrower than a chart alone on a phone. Blocks' labels fit it.
SEVERAL_CHART = 256
_LINE = 1.3  # a line of text's height, in font sizes


def _span(start: int, size: int) -> str:
    return str(start) if size == 1 else f"{start}–{start + size - 1}"


def _fitted(labels, sizes, starts, across: float, up: float, fonts: tuple) -> dict:
    """How every block's label is written so that it fits the smallest block, `across`
    px wide per position and `up` px tall: its name over its span, upright; else turned
    to read upwards, over two lines or one; else its name alone. One form for all the
    blocks, so that they read alike. None fits: no label (the data table names them)."""
    room = across * min(sizes) - 4
    names, spans = [str(n) for n in labels], [_span(s, n) for s, n in zip(starts, sizes)]
    both = names + spans
    joined = [f"{n} {s}" for n, s in zip(names, spans)]
    forms = [(font, 0, [f"{n}<br>{s}" for n, s in zip(names, spans)], widest(both, font), 2 * _LINE * font)
             for font in fonts]
    forms += [(font, -90, [f"{n}<br>{s}" for n, s in zip(names, spans)], 2 * _LINE * font, widest(both, font))
              for font in fonts]
    forms += [(font, -90, joined, _LINE * font, widest(joined, font)) for font in fonts]
    forms += [(font, angle, names, *((widest(names, font), _LINE * font) if angle == 0
                                     else (_LINE * font, widest(names, font))))
              for angle in (0, -90) for font in fonts]
    for font, angle, texts, wide, tall in forms:
        if wide <= room and tall <= up - 4:
            return {"font": font, "angle": angle, "texts": texts}
    return {"font": fonts[-1], "angle": 0, "texts": [""] * len(names)}


def _narrowest(chart) -> int:
    """The narrowest the chart is drawn, in px: one of several side by side, or alone on a phone."""
    return SEVERAL_CHART if step_facts(chart).get("several") else PHONE_CHART


def _length(chart, total: int) -> int:
    """The positions the axis holds: the step's longest state's, or this one's."""
    return step_facts(chart).get("length") or total


def _segments(chart, sizes, labels, starts, total) -> dict:
    # The blocks are layout shapes, each labelled with its name and span (meaning does
    # not rest on colour), over an empty axis. A change in the number of blocks is then a
    # change of shapes alone, which Plotly redraws by themselves; as a bar trace it made
    # Plotly recompute and redraw the whole figure. The data table lists the same spans.
    # Fitted to the narrowest the chart is drawn: the blocks take 0.6 of the plot's height.
    margin = base_layout(chart)["margin"]
    fit = _fitted(labels, sizes, starts, (_narrowest(chart) - margin["l"] - margin["r"]) / _length(chart, total),
                  0.6 * (chart.height - margin["t"] - margin["b"]), (13, 11))
    shapes = []
    for index, (text, start, size) in enumerate(zip(fit["texts"], starts, sizes)):
        colour = CATEGORICAL[index % len(CATEGORICAL)]
        label = {"text": text, "font": {"color": ink_on(colour), "size": fit["font"]}}
        if fit["angle"]:
            label["textangle"] = fit["angle"]
        shapes.append({"type": "rect", "xref": "x", "yref": "y", "x0": start, "x1": start + size,
                       "y0": -0.3, "y1": 0.3, "fillcolor": colour, "line": {"color": GAP, "width": 2},
                       "label": label})
    layout = base_layout(chart, shapes=shapes,
                         xaxis=axis(chart.x_title, range=[0, _length(chart, total)],
                                    dtick=max(1, _length(chart, total) // 8)),
                         yaxis=axis(chart.y_title, showticklabels=False, range=[-0.5, 0.5]))
    return {"data": [empty_trace()], "layout": layout}


def _strip(chart, values, sizes, labels, starts, total, span) -> dict:
    low, high = span
    if low == high:  # every value the same: shaded as the middle of the scale
        low, high = low - 1, high + 1
    # The strip is a picture, and its colour bar a picture and text in the layout too
    # (colour_bar.py): a new vector changes the strip's picture alone.
    # Labels fitted to the narrowest the chart is drawn, in the 0.65 of the y axis's 2 above the band.
    plot = (_narrowest(chart) - base_layout(chart)["margin"]["l"] - COLORBAR_MARGIN) / _length(chart, total)
    fit = _fitted(labels, sizes, starts, plot, 0.65 / 2 * (chart.height - 72), (11, 9))
    shapes = []
    for index, (size, text, start) in enumerate(zip(sizes, fit["texts"], starts)):
        left, right = start - 0.5, start + size - 0.5
        colour = CATEGORICAL[index % len(CATEGORICAL)]
        # Each block gets a band in its own colour above the strip, with its name and span
        # written above the band: a shape's label rather than an annotation, since Plotly
        # redraws shapes cheaply while any annotation change costs a second layout pass.
        # A label turned to read upwards is written in the band, grown to hold it.
        label = {"text": text, "font": {"size": fit["font"]}}
        if fit["angle"]:
            label.update(textangle=fit["angle"])
            label["font"]["color"] = ink_on(colour)
        else:
            label.update(textposition="top center", yanchor="bottom", padding=6)
        shapes.append({"type": "rect", "xref": "x", "yref": "y", "x0": left, "x1": right,
                       "y0": -0.5, "y1": 0.5, "line": {"color": GAP, "width": 3}})
        shapes.append({"type": "rect", "xref": "x", "yref": "y", "x0": left + 0.15, "x1": right - 0.15,
                       "y0": 0.6, "y1": 1.45 if fit["angle"] else 0.85, "line": {"width": 0},
                       "fillcolor": colour, "label": label})
    strip = placed(_strip_picture(tuple(values), low, high, chart.scale), -0.5, 0.5, total, 1)
    layout = base_layout(chart, shapes=shapes, images=[strip],
                         xaxis=axis(chart.x_title, range=[-0.5, _length(chart, total) - 0.5],
                                    dtick=max(1, _length(chart, total) // 8),
                                    showgrid=False),
                         yaxis=axis(chart.y_title, showticklabels=False, showgrid=False, ticks="",
                                    range=[-0.5, 1.5]))
    layout["margin"]["r"] = COLORBAR_MARGIN
    margin = layout["margin"]
    bar = colour_bar((low, high), chart.scale, chart.height - margin["t"] - margin["b"],
                     step_facts(chart).get("bar_changes", False))
    layout["images"] += bar["images"]
    layout["shapes"] += bar.get("shapes", [])
    if bar.get("annotations"):
        layout["annotations"] = bar["annotations"]
    return {"data": [empty_trace()], "layout": layout}


@functools.lru_cache(maxsize=256)
def _strip_picture(values: tuple, low: float, high: float, scale: str = "sequential") -> str:
    """The vector as a row of cells shaded from low to high, stretched over the strip: a PNG
    of a pixel per value, drawn sharp as a large matrix is (a fifth of the bytes of 64
    rectangles, gzipped), or an SVG where that is smaller (a few values)."""
    def colour(v):
        return scale_colour(scale, (v - low) / (high - low))
    cells = "".join(f"<rect x='{j}' width='1.05' height='1' fill='{colour(v)}'/>"
                    for j, v in enumerate(values))  # a little wider: no seam between neighbours
    svg = picture(f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {len(values)} 1' "
                  f"preserveAspectRatio='none' shape-rendering='crispEdges'>{cells}</svg>", 0, 0, 1, 1)["source"]
    # Gzipped as a page is sent: an SVG's repeated markup shrinks where a PNG's bytes do not.
    return min(png_uri([values], colour), svg, key=lambda uri: len(zlib.compress(uri.encode(), 9)))


def table(chart, data: dict, labels: dict) -> dict:
    """Which positions each block owns or, when values are given, every value with its block."""
    sizes, names = data["sizes"], data["labels"]
    starts = [sum(sizes[:i]) for i in range(len(sizes))]
    if data.get("values") is None:
        return data_table([labels["data_item"], chart.x_title or labels["data_value"]],
                          [[str(n), _span(s, size)] for n, s, size in zip(names, starts, sizes)],
                          data.get("highlight"))
    owner = [str(n) for n, size in zip(names, sizes) for _ in range(size)]
    return data_table([chart.x_title or labels["data_position"], labels["data_item"], labels["data_value"]],
                      [[str(i), owner[i], number_cell(v)] for i, v in enumerate(data["values"])])
