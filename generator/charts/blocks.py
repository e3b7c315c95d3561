"""A vector split into consecutive blocks (for example the dimensions each
part of a model owns), drawn as labelled segments, or as a heat strip of the
vector's values with the blocks marked when values are given."""
from __future__ import annotations

from .common import CATEGORICAL, GAP, SEQUENTIAL, axis, base_layout, first_problem, ink_on, labels_problem, \
    number_cell, rounded, table as data_table


# The data a step's function returns for this kind: key -> what it holds.
DATA = {
    "sizes": "required: a list of positive integers, the length of each block",
    "labels": "required: a list of labels, one per block",
    "values": "optional: a list of sum(sizes) numbers; draws the vector as a heat strip with the blocks marked",
}


def check(data: dict) -> str | None:
    sizes = data.get("sizes")
    if not isinstance(sizes, list) or not sizes or not all(
            isinstance(s, int) and not isinstance(s, bool) and s > 0 for s in sizes):
        return "'sizes' must be a non-empty list of positive integers"
    problem = labels_problem(data, "labels", len(sizes))
    values = data.get("values")
    if values is not None and (not isinstance(values, list) or len(values) != sum(sizes)):
        problem = problem or f"'values' must be a list of {sum(sizes)} numbers (the sum of 'sizes')"
    return first_problem(problem)


def figure(chart, data: dict) -> dict:
    sizes, labels = data["sizes"], data["labels"]
    total = sum(sizes)
    starts = [sum(sizes[:i]) for i in range(len(sizes))]
    if data.get("values") is None:
        return _segments(chart, sizes, labels, starts, total)
    return _strip(chart, data["values"], sizes, labels, starts, total)


def _segments(chart, sizes, labels, starts, total) -> dict:
    # All blocks are one trace, so a step where the number of blocks changes has
    # Plotly.react update that trace in place rather than add and remove traces.
    spans = [f"{start}–{start + size - 1}" for start, size in zip(starts, sizes)]
    colours = [CATEGORICAL[index % len(CATEGORICAL)] for index in range(len(sizes))]
    bar = {
        "type": "bar", "orientation": "h", "x": sizes, "y": [0] * len(sizes), "base": starts,
        "width": [0.6] * len(sizes),
        "marker": {"color": colours, "line": {"color": GAP, "width": 2}},
        # The label is written on the block: meaning does not rest on colour.
        "text": [f"{label}<br>{span}" for label, span in zip(labels, spans)], "textposition": "inside",
        "insidetextanchor": "middle", "textangle": 0,
        "insidetextfont": {"color": [ink_on(colour) for colour in colours]},
        "customdata": [f"{label}: dimensions {span}" for label, span in zip(labels, spans)],
        "hovertemplate": "%{customdata}<extra></extra>",
    }
    layout = base_layout(chart, barmode="overlay",
                         xaxis=axis(chart.x_title, range=[0, total], dtick=max(1, total // 8)),
                         yaxis=axis(chart.y_title, showticklabels=False, range=[-0.5, 0.5]))
    return {"data": [bar], "layout": layout}


def _strip(chart, values, sizes, labels, starts, total) -> dict:
    strip = {
        "type": "heatmap", "z": [rounded(values)], "x": list(range(total)), "y": [0],
        "colorscale": SEQUENTIAL, "showscale": True, "colorbar": {"thickness": 12, "len": 0.9},
        "hovertemplate": "dimension %{x}: %{z:.2f}<extra></extra>",
    }
    shapes, annotations = [], []
    for index, (size, label, start) in enumerate(zip(sizes, labels, starts)):
        left, right = start - 0.5, start + size - 0.5
        # Each block gets a band in its own colour above the strip, and its label on the band.
        shapes.append({"type": "rect", "xref": "x", "yref": "y", "x0": left, "x1": right,
                       "y0": -0.5, "y1": 0.5, "line": {"color": GAP, "width": 3}})
        shapes.append({"type": "rect", "xref": "x", "yref": "y", "x0": left + 0.15, "x1": right - 0.15,
                       "y0": 0.6, "y1": 0.85, "line": {"width": 0},
                       "fillcolor": CATEGORICAL[index % len(CATEGORICAL)]})
        annotations.append({"text": f"{label}<br>{start}–{start + size - 1}", "x": start + (size - 1) / 2,
                            "y": 0.9, "xref": "x", "yref": "y", "yanchor": "bottom", "showarrow": False,
                            "font": {"size": 11 if len(sizes) <= 4 else 9}})
    layout = base_layout(chart, shapes=shapes, annotations=annotations,
                         xaxis=axis(chart.x_title, range=[-0.5, total - 0.5], dtick=max(1, total // 8),
                                    showgrid=False),
                         yaxis=axis(chart.y_title, showticklabels=False, showgrid=False, ticks="",
                                    range=[-0.5, 1.5]))
    return {"data": [strip], "layout": layout}


def table(chart, data: dict, labels: dict) -> dict:
    """Which positions each block owns or, when values are given, every value with its block."""
    sizes, names = data["sizes"], data["labels"]
    starts = [sum(sizes[:i]) for i in range(len(sizes))]
    if data.get("values") is None:
        return data_table([labels["data_item"], chart.x_title or labels["data_value"]],
                          [[str(n), f"{s}–{s + size - 1}"] for n, s, size in zip(names, starts, sizes)])
    owner = [str(n) for n, size in zip(names, sizes) for _ in range(size)]
    return data_table([chart.x_title or labels["data_position"], labels["data_item"], labels["data_value"]],
                      [[str(i), owner[i], number_cell(v)] for i, v in enumerate(data["values"])])
