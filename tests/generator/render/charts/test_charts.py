"""Chart kinds: the data table that is each chart's text alternative, and the
colours a chart leaves to the page's theme."""
from __future__ import annotations

import math
import json
import re

import pytest

from generator.render import charts
from generator.render.charts import held
from generator.render.charts.common import CATEGORICAL, ink_on, label_depth
from generator.kinds.explainer.content import Chart
from generator.load.schema import LABELS

from tests.conftest import THEMES
from tests.pictures import colour_bar, png_pixels

WORDS = {name: option.default for name, option in LABELS.items()}


def chart(**fields):
    from generator.kinds.explainer.schema import CHART
    base = {**{key: option.default for key, option in CHART.items()}, "kind": "", "height": 300}
    return Chart(**{**base, **fields})


def test_heatmap_table_is_the_matrix_with_its_labels():
    data = {"z": [[0.5, 0.25], [0.125, 0.875]], "x": ["a", "b"], "y": ["p", "q"], "highlight_row": 1}
    table = charts.get("heatmap").table(chart(x_title="Key", y_title="Query"), data, WORDS)
    assert table == {"columns": ["Query", "a", "b"], "rows": [["p", "0.50", "0.25"], ["q", "0.13", "0.88"]],
                     "highlight": 1}


def test_heatmap_grid_table_names_each_row_by_its_matrix():
    data = {"z": [[[1.0, 0.0]], [[0.25, 0.75]]], "x": ["a", "b"], "y": ["p"], "titles": ["H1", "H2"],
            "highlight": 1, "highlight_row": 0}
    table = charts.get("heatmap_grid").table(chart(y_title="Query"), data, WORDS)
    assert table["columns"] == ["Query", "a", "b"]
    assert table["rows"] == [["H1: p", "1.00", "0.00"], ["H2: p", "0.25", "0.75"]]
    assert table["highlight"] == 1


def test_bar_table_uses_the_chart_labels_or_its_axis_format():
    data = {"x": ["A", "B"], "y": [0.25, 0.75], "highlight": 0}
    percent = charts.get("bar").table(chart(x_title="Head", y_title="Share", y_format=".0%"), data, WORDS)
    assert percent == {"columns": ["Head", "Share"], "rows": [["A", "25%"], ["B", "75%"]], "highlight": 0}
    plain = charts.get("bar").table(chart(), {"x": [1, 2], "y": [3, 0.5]}, WORDS)
    assert plain == {"columns": ["Item", "Value"], "rows": [["1", "3"], ["2", "0.50"]]}
    labelled = charts.get("bar").table(chart(), {**data, "text": ["a quarter", "the rest"]}, WORDS)
    assert [row[1] for row in labelled["rows"]] == ["a quarter", "the rest"]


def test_blocks_table_gives_ranges_or_every_value_with_its_block():
    data = {"sizes": [2, 1], "labels": ["H1", "H2"]}
    ranges = charts.get("blocks").table(chart(x_title="Dimension"), data, WORDS)
    assert ranges == {"columns": ["Item", "Dimension"], "rows": [["H1", "0–1"], ["H2", "2"]]}
    values = charts.get("blocks").table(chart(), {**data, "values": [0.5, -1.0, 2]}, WORDS)
    assert values["columns"] == ["Position", "Item", "Value"]
    assert values["rows"] == [["0", "H1", "0.50"], ["1", "H1", "\u22121.00"], ["2", "H2", "2"]]


def test_text_on_coloured_blocks_has_the_better_contrast():
    assert ink_on("#0072B2") == "#ffffff"   # dark blue: white reads better
    assert ink_on("#F0E442") == "#000000"   # yellow
    assert all(ink_on(colour) in ("#000000", "#ffffff") for colour in CATEGORICAL)


def test_blocks_are_labelled_shapes_so_another_split_changes_only_shapes():
    """Each block is a shape with its name and span written on it, in the ink that
    reads best on its colour; splitting differently then changes shapes alone,
    which Plotly redraws without recomputing the figure."""
    kind = charts.get("blocks")
    two = kind.figure(chart(), {"sizes": [2, 2], "labels": ["H1", "H2"]})
    four = kind.figure(chart(), {"sizes": [1, 1, 1, 1], "labels": ["H1", "H2", "H3", "H4"]})
    assert two["data"] == four["data"]
    assert {k: v for k, v in two["layout"].items() if k != "shapes"} == \
        {k: v for k, v in four["layout"].items() if k != "shapes"}
    blocks = four["layout"]["shapes"]
    assert [(b["x0"], b["x1"]) for b in blocks] == [(0, 1), (1, 2), (2, 3), (3, 4)]
    assert [b["label"]["text"] for b in blocks] == ["H1<br>0", "H2<br>1", "H3<br>2", "H4<br>3"]
    assert all(b["label"]["font"]["color"] == ink_on(b["fillcolor"]) for b in blocks)
    # With values, the blocks' names label the bands above the strip: the only annotations
    # are the colour bar's values, the same in every state.
    strip = kind.figure(chart(), {"sizes": [2, 1], "labels": ["H1", "H2"], "values": [0.5, -1.0, 2.0]})
    assert [note["text"] for note in strip["layout"]["annotations"]] == ["−1", "0", "1", "2"]
    assert [s["label"]["text"] for s in strip["layout"]["shapes"] if "label" in s] == ["H1<br>0–1", "H2<br>2"]


def test_every_theme_colour_a_chart_uses_is_defined_by_the_stylesheet():
    css = (THEMES / "default" / "static" / "style.css").read_text("utf-8")
    figures = [
        charts.get("heatmap").figure(chart(), {"z": [[0.1]], "x": ["a"], "y": ["b"], "highlight_row": 0}),
        charts.get("bar").figure(chart(), {"x": ["a", "b"], "y": [1, 2], "highlight": 0}),
        charts.get("blocks").figure(chart(), {"sizes": [1, 2], "labels": ["a", "b"]}),
        charts.get("blocks").figure(chart(), {"sizes": [1, 2], "labels": ["a", "b"], "values": [1, 2, 3]}),
    ]
    used = set(re.findall(r"var\((--chart-[\w-]+)\)", json.dumps(figures)))
    assert {"--chart-text", "--chart-grid", "--chart-mark", "--chart-gap", "--chart-bar"} <= used
    for name in used:
        assert re.search(rf"^\s*{name}:", css, re.M), f"style.css does not define {name}"


def test_a_change_of_selection_changes_only_the_layout_shapes():
    """Plotly.react then redraws a shape or two instead of the traces: the
    selection lives in layout shapes for every kind that has one."""
    cases = {
        "bar": ({"x": ["a", "b"], "y": [1.0, 2.0]}, "highlight", (0, 1)),
        "heatmap": ({"z": [[0.1, 0.2], [0.3, 0.4]], "x": ["a", "b"], "y": ["c", "d"]}, "highlight_row", (0, 1)),
    }
    for kind, (data, key, (first, second)) in cases.items():
        one = charts.get(kind).figure(chart(), {**data, key: first})
        two = charts.get(kind).figure(chart(), {**data, key: second})
        assert one["data"] == two["data"], kind
        assert one["layout"]["shapes"] != two["layout"]["shapes"], kind
        assert {k: v for k, v in one["layout"].items() if k != "shapes"} == \
            {k: v for k, v in two["layout"].items() if k != "shapes"}, kind


def test_choosing_another_matrix_of_a_grid_changes_only_its_pictures_and_shapes():
    """The emphasised matrix is the one in full colour (the others are pictures in
    faded colours) with a bold title: pictures and shapes, so switching needs no
    recomputation and Plotly redraws those alone (an annotation change would have
    it recompute everything)."""
    from urllib.parse import unquote

    from generator.render.charts.common import grey, ink_on, sequential_colour

    data = {"z": [[[0.1, 0.9]], [[0.5, 0.5]], [[0.2, 0.8]]], "x": ["a", "b"], "y": ["q"],
            "titles": ["one", "two", "three"], "highlight_row": 0}
    one = charts.get("heatmap_grid").figure(chart(), {**data, "highlight": 0})
    two = charts.get("heatmap_grid").figure(chart(), {**data, "highlight": 2})
    assert one["data"] == two["data"]
    titles = [s["label"]["text"] for s in two["layout"]["shapes"] if "label" in s]
    assert titles == ["one", "two", "<b>three</b>"]
    assert "annotations" not in two["layout"]
    assert {k: v for k, v in one["layout"].items() if k not in ("shapes", "images")} == \
        {k: v for k, v in two["layout"].items() if k not in ("shapes", "images")}
    pictures = [unquote(image["source"]) for image in two["layout"]["images"]]
    fills = [re.findall(r"<use[^>]*fill='(#[0-9a-f]{6})'", svg) for svg in pictures]
    assert fills[2] == [sequential_colour(0.2), sequential_colour(0.8)]  # the chosen one, in full colour
    assert fills[0] == [grey(sequential_colour(0.1), 0.65), grey(sequential_colour(0.9), 0.65)]
    # Faded or not, each value is written in the ink that reads best on its own cell.
    for svg, cells in zip(pictures, fills):
        assert re.findall(r"<text[^>]*fill='(#[0-9a-f]{6})'", svg) == [ink_on(c) for c in cells]


def test_a_grid_of_large_matrices_is_pictures_of_a_pixel_per_cell_with_one_colour_bar():
    from generator.render.charts.common import grey, levelled, sequential_colour

    side = 21  # 441 cells: past a picture of printed values
    z = [[(i + j) / (2 * side) for j in range(side)] for i in range(side)]
    names = [str(i) for i in range(side)]
    data = {"z": [z, z], "x": names, "y": names, "titles": ["one", "two"]}
    one = charts.get("heatmap_grid").figure(chart(), {**data, "highlight": 0})
    two = charts.get("heatmap_grid").figure(chart(), {**data, "highlight": 1})
    assert one["data"] == two["data"], "no trace changes: Plotly keeps the figure"
    stops, values = colour_bar(one)
    assert (values[0], values[-1]) == ("0", "1") and (stops[0], stops[-1]) == ("#fde725", "#440154")
    assert one["layout"]["margin"]["r"] >= 90, "room for the colour bar"
    assert {k: v for k, v in one["layout"].items() if k not in ("shapes", "images")} == \
        {k: v for k, v in two["layout"].items() if k not in ("shapes", "images")}
    chosen, faded = (png_pixels(image["source"]) for image in two["layout"]["images"][-2::-1])
    assert chosen[3][5] == sequential_colour(levelled(z[3][5]))
    assert faded[3][5] == grey(sequential_colour(levelled(z[3][5])), 0.65), "the matrix not chosen is faded"
    assert [image["xref"] for image in two["layout"]["images"]] == ["x", "x2", "paper"], "then the colour bar"


def test_a_small_matrix_is_one_picture_of_its_cells_and_values():
    from urllib.parse import unquote

    from generator.render.charts.common import ink_on, sequential_colour

    z = [[0.0, 0.125], [0.5019607843137255, 1.0]]
    figure = charts.get("heatmap").figure(chart(), {"z": z, "x": ["a", "b"], "y": ["c", "d"]})
    [image] = figure["layout"]["images"]
    svg = unquote(image["source"].removeprefix("data:image/svg+xml,"))
    assert re.findall(r"<text[^>]*>([^<]*)</text>", svg) == ["0.00", "0.13", "0.50", "1.00"]  # half up, as the table
    fills = re.findall(r"<use[^>]*fill='(#[0-9a-f]{6})'", svg)
    assert fills == ["#440154", sequential_colour(0.125), "#21918c", "#fde725"]  # Plotly's Viridis stops
    inks = re.findall(r"<text[^>]*fill='(#[0-9a-f]{6})'", svg)
    assert inks == [ink_on(fill) for fill in fills] and inks[0] == "#ffffff" and inks[-1] == "#000000"
    assert (image["sizex"], image["sizey"], image["x"], image["y"]) == (2, 2, -0.5, -0.5)
    assert figure["layout"]["yaxis"]["scaleanchor"] == "x", "square cells: the values are not stretched"
    assert figure["data"] == [{"type": "scatter", "x": [], "y": [], "hoverinfo": "skip"}]


def test_a_large_matrix_is_a_picture_of_a_pixel_per_cell_with_a_colour_bar():
    from generator.render.charts import heatmap
    from generator.render.charts.common import levelled, sequential_colour
    from generator.render.charts.heatmap import PICTURE_CELLS

    assert f"up to {PICTURE_CELLS} cells" in heatmap.__doc__, "the authoring guide states the limit"
    side = int(PICTURE_CELLS ** 0.5) + 1
    names = [str(i) for i in range(side)]
    z = [[(i * side + j) / side ** 2 for j in range(side)] for i in range(side)]
    mask = [[j > i for j in range(side)] for i in range(side)]
    figure = charts.get("heatmap").figure(chart(), {"z": z, "x": names, "y": names, "mask": mask})
    assert figure["data"] == [{"type": "scatter", "x": [], "y": [], "hoverinfo": "skip"}], "a trace that never changes"
    values = colour_bar(figure)[1]
    assert values[0] == "0" and values[-1] == "1" and len(values) >= 3, "a colour bar for the colours"
    assert figure["layout"]["meta"] == {"hover": "cells"}, "the runtime hovers the cells from the table"
    cells, hatch, _ = figure["layout"]["images"]
    assert (cells["x"], cells["y"], cells["sizex"], cells["sizey"]) == (-0.5, -0.5, side, side)
    pixels = png_pixels(cells["source"])
    assert pixels == [[None if mask[i][j] else sequential_colour(levelled(z[i][j])) for j in range(side)]
                      for i in range(side)], "each cell its colour on the scale; masked cells clear"
    assert hatch["source"].startswith("data:image/svg+xml,"), "masked cells hatched under the clear ones"
    # Another matrix of the same size and range: the same figure but for the picture.
    other = charts.get("heatmap").figure(chart(), {"z": [row[::-1] for row in z], "x": names, "y": names,
                                                   "mask": mask})
    assert other["data"] == figure["data"]
    assert {k: v for k, v in other["layout"].items() if k != "images"} == \
        {k: v for k, v in figure["layout"].items() if k != "images"}


def test_levelled_keeps_a_scale_to_256_steps():
    from generator.render.charts.common import levelled

    assert levelled(-0.5) == 0 and levelled(1.5) == 1 and levelled(0.5) == 128 / 255
    assert len({levelled(i / 10000) for i in range(10001)}) == 256


def test_sequential_colours_follow_the_scale_between_its_stops():
    from generator.render.charts.common import sequential_colour

    assert sequential_colour(-1) == "#440154" and sequential_colour(2) == "#fde725"
    # Halfway between the first two stops, #440154 and #48186a.
    assert sequential_colour(0.06274509803921569 / 2) == "#460d5f"


def test_a_strip_with_a_fixed_range_changes_only_its_picture_and_shapes():
    kind = charts.get("blocks")
    one = kind.figure(chart(), {"sizes": [2, 2], "labels": ["a", "b"], "values": [0.5, -1.0, 2.0, 0.0],
                                "range": [-2, 2]})
    two = kind.figure(chart(), {"sizes": [4], "labels": ["a"], "values": [1.0, 1.5, -0.5, 0.25], "range": [-2, 2]})
    assert one["data"] == two["data"], "no trace changes: Plotly keeps the figure"
    assert colour_bar(one) == colour_bar(two) and colour_bar(one)[1] == ["−2", "−1", "0", "1", "2"]
    assert {k: v for k, v in one["layout"].items() if k not in ("shapes", "images")} == \
        {k: v for k, v in two["layout"].items() if k not in ("shapes", "images")}
    from generator.render.charts.common import sequential_colour

    # A row of pixels, drawn sharp as a large matrix's are: one per value.
    [fills] = png_pixels(one["layout"]["images"][0]["source"])
    assert fills == [sequential_colour((v + 2) / 4) for v in (0.5, -1.0, 2.0, 0.0)]


def test_a_strip_range_needs_values_and_two_increasing_numbers():
    kind = charts.get("blocks")
    base = {"sizes": [2], "labels": ["a"], "values": [0.1, 0.2]}
    assert kind.check({**base, "range": [0, 1]}) == []
    for bad in ([1, 0], [0], "wide", [0, float("inf")]):
        [issue] = kind.check({**base, "range": bad})
        assert issue.key == "range" and "'range'" in issue.message
    [issue] = kind.check({"sizes": [2], "labels": ["a"], "range": [0, 1]})
    assert issue.key == "range"


def test_a_grid_wraps_long_titles_and_shares_its_axis_labels():
    data = {"z": [[[0.1, 0.9]]] * 4, "x": ["a", "b"], "y": ["q"],
            "titles": ["Head 4 · Subject ↔ verb", "short", "c", "d"], "highlight": 1}
    layout = charts.get("heatmap_grid").figure(chart(), data)["layout"]
    titles = [s["label"]["text"] for s in layout["shapes"] if "label" in s]
    assert titles[0] == "Head 4 · Subject<br>↔ verb" and titles[1] == "<b>short</b>"
    # Two by two: row labels on the first column, column labels on the last row.
    assert [layout[f"yaxis{s}"]["showticklabels"] for s in ("", "2", "3", "4")] == [True, False, True, False]
    assert [layout[f"xaxis{s}"]["showticklabels"] for s in ("", "2", "3", "4")] == [False, False, True, True]


def test_minus_signs_and_no_signed_zero():
    from generator.render.charts.common import minus, number_cell

    assert number_cell(-0.994) == "\u22120.99" and number_cell(-3) == "\u22123"
    assert number_cell(-0.001) == "0.00", "a value that rounds to zero has no sign"
    assert minus("-12%") == "\u221212%"


def test_bars_take_negative_values_on_a_range_fixed_over_every_state():
    kind = charts.get("bar")
    states = [{"x": ["a", "b"], "y": [-0.99, 0.5]}, {"x": ["a", "b"], "y": [0.2, 0.9]}]
    c = charts.resolved(chart(kind="bar"), states)
    low, high = c.y_range
    assert low < -0.99 and high > 0.9
    figures = [kind.figure(c, data) for data in states]
    assert figures[0]["layout"]["yaxis"]["range"] == figures[1]["layout"]["yaxis"]["range"] == [low, high]
    bars = [shape for shape in figures[0]["layout"]["shapes"] if shape["layer"] == "between"]
    assert [(bar["y0"], bar["y1"]) for bar in bars] == [(0, -0.99), (0, 0.5)], "the negative bar is drawn"


def test_bars_of_one_series_are_shapes_so_a_change_of_heights_is_a_relayout():
    """The runtime redraws a chart by Plotly.relayout when only its shapes differ
    between two states: bars of one series are shapes over a trace that stays."""
    kind = charts.get("bar")
    states = [{"x": ["a", "b", "c"], "y": [0.1, 0.5, 0.4]}, {"x": ["a", "b", "c"], "y": [0.3, 0.2, 0.5]}]
    c = charts.resolved(chart(kind="bar"), states)
    one, two = (kind.figure(c, data) for data in states)
    assert one["data"] == two["data"] and one["layout"].keys() == two["layout"].keys()
    assert {k: v for k, v in one["layout"].items() if k != "shapes"} == \
        {k: v for k, v in two["layout"].items() if k != "shapes"}
    assert [s["y1"] for s in two["layout"]["shapes"]] == [0.3, 0.2, 0.5]
    assert [(s["x0"], s["x1"]) for s in two["layout"]["shapes"]] == [(-0.4, 0.4), (0.6, 1.4), (1.6, 2.4)]
    horizontal = kind.figure(charts.resolved(chart(kind="bar", horizontal=True), states), states[0])
    assert [(s["x0"], s["x1"], s["y0"]) for s in horizontal["layout"]["shapes"]][1] == (0, 0.5, 0.6)


def test_written_labels_and_faded_bars_of_one_series_are_on_the_shapes():
    data = {"x": ["a", "b", "c"], "y": [0.1, -0.5, 0.4], "text": ["10%", "\u221250%", "40%"],
            "faded": [False, True, False]}
    figure = charts.get("bar").figure(charts.resolved(chart(kind="bar"), [data]), data)
    shapes = figure["layout"]["shapes"]
    bars = [shape for shape in shapes if shape["layer"] == "between"]
    labels = [shape["label"] for shape in shapes if "label" in shape]
    assert [label["text"] for label in labels] == data["text"]
    assert [label["textposition"] for label in labels] == ["top center", "bottom center", "top center"], \
        "a label beyond its bar's end: below a negative one"
    assert bars[1]["line"]["dash"] == "dot" and bars[1]["fillcolor"] == "var(--chart-grid)", "a faded bar"
    sideways = charts.get("bar").figure(charts.resolved(chart(kind="bar", horizontal=True), [data]), data)
    carriers = [(s["x0"], s["x1"], s["label"]["textposition"]) for s in sideways["layout"]["shapes"] if "label" in s]
    high = sideways["layout"]["xaxis"]["range"][1]
    assert carriers[:2] == [(0.1, high, "middle left"), (sideways["layout"]["xaxis"]["range"][0], -0.5,
                                                         "middle right")], "from the bar's end to the axis's"
    assert [s for s in figure["layout"]["shapes"] if s["layer"] == "below"], "over a grey band"


def test_bars_of_several_series_are_shapes_with_a_legend_and_hatches_that_stay():
    """Several series are shapes too, side by side or stacked; the legend's entries are
    traces with no values, and the patterns that tell the series apart beyond colour are
    one picture over the bars: a change of heights is still only a relayout."""
    kind = charts.get("bar")
    states = [{"x": ["a", "b"], "y": [[0.1, 0.5], [0.2, -0.1]], "series": ["one", "two"]},
              {"x": ["a", "b"], "y": [[0.3, 0.2], [0.1, 0.4]], "series": ["one", "two"]}]
    grouped = charts.resolved(chart(kind="bar"), states)
    one, two = (kind.figure(grouped, data) for data in states)
    assert one["data"] == two["data"] and [(t["type"], t["name"], t["y"]) for t in one["data"]] == \
        [("bar", "one", [None]), ("bar", "two", [None])]
    assert one["data"][1]["marker"]["pattern"]["shape"] == "/"
    bars = [(s["x0"], s["x1"], s["y0"], s["y1"]) for s in one["layout"]["shapes"] if s["layer"] == "between"]
    assert bars == [(-0.4, 0.0, 0, 0.1), (0.6, 1.0, 0, 0.5), (0.0, 0.4, 0, 0.2), (1.0, 1.4, 0, -0.1)]
    [hatches] = one["layout"]["images"]
    assert hatches["layer"] == "above" and hatches["source"].count("%3Crect") == 2, "the second series' two bars"
    stacked = kind.figure(charts.resolved(chart(kind="bar", stacked=True), states), states[0])
    bars = [(s["x0"], s["y0"], s["y1"]) for s in stacked["layout"]["shapes"] if s["layer"] == "between"]
    assert bars == [(-0.4, 0, 0.1), (0.6, 0, 0.5), (-0.4, 0.1, 0.3), (0.6, 0, -0.1)], \
        "positive values stack up, negative ones down from zero"


def test_the_existing_bars_keep_their_range():
    """Bars of one sign keep the range they always had: to 1.2 times the largest
    value (room for a label), now over every state."""
    c = charts.resolved(chart(kind="bar"), [{"x": ["a"], "y": [0.5], "text": ["50%"]},
                                            {"x": ["a"], "y": [0.25], "text": ["25%"]}])
    assert c.y_range == [0.0, 0.6]


def test_a_value_outside_a_declared_bar_range_blames_y():
    [issue] = charts.get("bar").check({"x": ["a", "b"], "y": [0.5, -0.2]}, chart(kind="bar", y_range=[0, 1]))
    assert issue.key == "y" and not issue.warning
    assert issue.message == "y[1] = \u22120.2 is outside y_range [0, 1]"


def test_line_checks_blame_the_key_that_is_wrong():
    kind = charts.get("line")
    [issue] = kind.check({"x": [0, 1, 2], "y": [1.0, 2.0]}, chart(kind="line"))
    assert issue.key == "y" and "'y' has 2 values but 'x' has 3" in issue.message
    [issue] = kind.check({"x": [0, 1, 2], "y": [1.0, 2.0, 3.0], "rule": 5}, chart(kind="line"))
    assert issue.key == "rule"
    [issue] = kind.check({"x": ["a", "b"], "y": [[1.0, 2.0]], "series": ["s", "t"]}, chart(kind="line"))
    assert issue.key == "y" and "2 lists" in issue.message


def test_a_line_rule_is_a_shape_so_moving_it_changes_shapes_only():
    kind = charts.get("line")
    base = {"x": [0, 1, 2, 3], "y": [[-1.0, 0.0, 1.0, 0.5], [0.2, 0.1, -0.3, 0.0]], "series": ["sin", "cos"]}
    c = charts.resolved(chart(kind="line"), [{**base, "rule": 1}, {**base, "rule": 3}])
    one, two = kind.figure(c, {**base, "rule": 1}), kind.figure(c, {**base, "rule": 3})
    assert one["data"] == two["data"]
    assert {k: v for k, v in one["layout"].items() if k != "shapes"} == \
        {k: v for k, v in two["layout"].items() if k != "shapes"}
    assert [t["line"]["dash"] for t in one["data"]] == ["solid", "dash"], "series differ beyond colour"


def test_scatter_axes_have_equal_scales_and_hold_the_origin():
    kind = charts.get("scatter")
    states = [{"x": [2.0, -1.0], "y": [0.5, 1.0], "labels": ["a", "b"], "arrows": True},
              {"x": [0.5, -1.0], "y": [3.0, 1.0], "labels": ["a", "b"], "arrows": True}]
    c = charts.resolved(chart(kind="scatter"), states)
    (x0, x1), (y0, y1) = c.x_range, c.y_range
    assert x1 - x0 == y1 - y0 and x0 < -1 and x1 > 2 and y0 < 0 < 3 < y1
    layout = kind.figure(c, states[0])["layout"]
    assert layout["yaxis"]["scaleanchor"] == "x"
    heads = [s for s in layout["shapes"] if s["type"] == "path"]
    assert len(heads) == 2, "an arrowhead per vector"


def test_a_diagram_refuses_overlapping_boxes_and_bad_indices():
    kind = charts.get("diagram")
    [issue] = kind.check({"boxes": ["a", "b"], "at": [[0, 0, 2], [1, 0]]})
    assert issue.key == "at" and "overlap" in issue.message
    [issue] = kind.check({"boxes": ["a", "b"], "at": [[0, 0], [0, 1]], "highlight": [0, 2]})
    assert issue.key == "highlight"
    [issue] = kind.check({"boxes": ["a", "b"], "at": [[0, 0], [0, 1]], "highlight": [0], "faded": [0]})
    assert issue.key == "faded"


def test_a_heatmap_state_may_bring_its_own_scale_and_range():
    kind = charts.get("heatmap")
    scores = {"z": [[-1.5, 2.0]], "x": ["a", "b"], "y": ["q"], "scale": "diverging"}
    [issue] = kind.check(scores, chart(kind="heatmap"))
    assert issue.key == "range"
    assert kind.check({**scores, "range": [-2, 2]}, chart(kind="heatmap")) == []
    [issue] = kind.check({**scores, "range": [-1, 1]}, chart(kind="heatmap"))
    assert issue.key == "z" and "outside z_range [\u22121, 1]" in issue.message


def test_heatmap_values_outside_the_default_scale_warn_and_masked_ones_do_not():
    kind = charts.get("heatmap")
    data = {"z": [[0.5, 7.0]], "x": ["a", "b"], "y": ["q"]}
    [issue] = kind.check(data, chart(kind="heatmap"))
    assert issue.warning and issue.key == "z"
    assert kind.check({**data, "mask": [[False, True]]}, chart(kind="heatmap")) == []
    [issue] = kind.check({**data, "mask": [[False]]}, chart(kind="heatmap"))
    assert issue.key == "mask" and "1×2" in issue.message and not issue.warning


def test_of_two_lists_that_should_match_the_shorter_is_blamed():
    bar, line = charts.get("bar"), charts.get("line")
    [issue] = bar.check({"x": ["a", "b", "c"], "y": [1.0, 2.0]}, chart(kind="bar"))
    assert issue.key == "y" and issue.message == "'y' has 2 values but 'x' has 3 labels: give one value per bar"
    [issue] = bar.check({"x": ["a", "b"], "y": [1.0, 2.0, 3.0]}, chart(kind="bar"))
    assert issue.key == "x"
    [issue] = line.check({"x": [0, 1], "y": [1.0, 2.0, 3.0]}, chart(kind="line"))
    assert issue.key == "x"
    [issue] = charts.get("scatter").check({"x": [0.0], "y": [1.0, 2.0], "labels": ["a"]}, chart(kind="scatter"))
    assert issue.key == "x"


def _contrast(a: str, b: str) -> float:
    def luminance(colour):
        channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_values_in_faded_and_diverging_cells_read_on_any_page():
    """The values written in a grid's faded matrices, and in cells of either scale, take
    black or white at a contrast of at least 4.5:1 (WCAG AA) on their own cell, which
    no page colour shows through: they read the same in light and dark mode."""
    from generator.render.charts.common import diverging_colour, grey, sequential_colour

    for step in range(101):
        for fill in (sequential_colour(step / 100), diverging_colour(step / 100),
                     grey(sequential_colour(step / 100), 0.65), grey(diverging_colour(step / 100), 0.65)):
            assert _contrast(ink_on(fill), fill) >= 4.5, fill


def test_x_labels_stay_upright_when_they_fit_and_turn_when_they_do_not():
    from generator.render.charts.common import PHONE_PLOT, labelled_x, text_width
    short, bottom = labelled_x(["1", "2", "3"], PHONE_PLOT / 3, "Head")
    assert short["tickangle"] == 0 and bottom == 56
    words = ["[CLS]", "the", "mat", "[SEP]", "then", "it", "fell", "asleep"] * 2
    turned, bottom = labelled_x(words, PHONE_PLOT / len(words), "Token", thin=False)
    assert turned["tickangle"] == -90 and turned["ticktext"] == words, "every bar keeps its label"
    assert bottom > text_width("asleep") + 20, "room below for the turned labels and the title"


def test_the_left_margin_makes_room_for_the_longest_row_label_and_the_title():
    from generator.render.charts.common import left_margin, text_width
    assert left_margin(["a", "b"], "Query") == 64
    wide = left_margin(["[MASK]", "a considerably longer label"], "Query")
    assert wide > text_width("a considerably longer label") + 20


def test_a_word_too_wide_for_a_narrow_tall_box_turns_to_read_upwards():
    tokens = ["Token", "[CLS]", "the", "cat", "sat", "on", "the", "mat", "[SEP]", "then", "it", "fell", "[SEP]"]
    data = {"boxes": tokens + ["Segment A"], "at": [[i, 0] for i in range(len(tokens))] + [[0, 1, 13]]}
    figure = charts.get("diagram").figure(chart(kind="diagram", height=260), data)
    labels = {note["text"]: note for note in figure["layout"]["annotations"]}
    assert labels["[CLS]"].get("textangle") == -90 and labels["Token"].get("textangle") == -90
    assert labels["it"].get("textangle") == -90, "a row of boxes of one size reads one way"
    assert labels["Segment A"].get("textangle") is None, "a wide box keeps its label level"


def test_a_diagram_draws_marks_alike_as_one_shape_and_changing_labels_on_shapes():
    """Plotly draws every shape again on each relayout of the shapes: a diagram's boxes of
    one style are one path, its arrows' lines and heads a few more. A box whose label
    changes between the step's states carries it on a shape, so every state has the
    same annotations and a click is a relayout of the shapes, not a Plotly.react."""
    kind = charts.get("diagram")
    first = {"boxes": ["in", "the", "cat", "out"], "at": [[0, 0], [1, 0], [2, 0], [1, 1, 2]],
             "arrows": [[0, 1], [1, 2], [1, 3], [2, 3]], "highlight": [0, 1]}
    second = {**first, "boxes": ["in", "a", "dog", "out"], "highlight": [1, 2]}
    resolved = charts.resolved(chart(kind="diagram", height=260), [first, second])
    one, two = (kind.figure(resolved, data)["layout"] for data in (first, second))
    assert one["annotations"] == two["annotations"]
    assert [note["text"] for note in one["annotations"]] == ["in", "out"]
    written = [[shape["label"]["text"] for shape in layout["shapes"] if "label" in shape] for layout in (one, two)]
    assert written == [["the", "cat"], ["a", "dog"]]
    boxes = [shape for shape in one["shapes"] if shape.get("layer") == "above" and "label" not in shape
             and "xsizemode" not in shape]
    assert len(boxes) == 2 and sum(shape["path"].count("Z") for shape in boxes) == 4, "plain and highlighted"
    heads = [shape for shape in one["shapes"] if shape.get("xsizemode") == "pixel"]
    assert sum(shape["path"].count("Z") for shape in heads) == 4 - 1, "two arrows into one point share a head"
    assert len(one["shapes"]) < 4 + 4 * 2, "fewer shapes than a box and two per arrow"
    # Drawn alone (no step around it), a diagram labels every box with an annotation.
    alone = kind.figure(chart(kind="diagram", height=260), first)["layout"]
    assert [note["text"] for note in alone["annotations"]] == first["boxes"]


def test_bar_names_that_change_are_written_on_shapes_under_the_axis():
    """The axis holds still: names under the bars that differ between states of the step (the
    likeliest next words, a sentence shuffled in one state of four) are the labels of shapes
    where the ticks would write them, the ticks blank and the same in every state; turned
    ones too, read upwards with their ends at the axis and the title clear of them. Names
    the same in every state, and a bar chart drawn alone, keep their ticks."""
    kind = charts.get("bar")
    states = [{"x": words, "y": [0.5, 0.3, 0.2], "highlight": 0}
              for words in (["sat", "lay", "ran"], ["on", "in", "by"], ["the", "a", "mat"])]
    for family in (states, states[:1] * 3 + states[1:2]):
        resolved = charts.resolved(chart(kind="bar", x_title="Word"), family)
        frames = set()
        for data in family:
            layout = kind.figure(resolved, data)["layout"]
            assert layout["xaxis"]["ticktext"] == ["", "", ""] and layout["xaxis"]["tickvals"] == [0, 1, 2]
            names = [s for s in layout["shapes"] if s.get("yref") in ("paper", "y domain")]
            assert [(s["label"]["text"], (s["x0"] + s["x1"]) / 2, s["y1"]) for s in names] == \
                [(word, at, 0) for at, word in enumerate(data["x"])]
            assert all(s["label"]["textposition"] == "bottom center" for s in names)
            frames.add(repr(held.frame({"layout": layout})))
        assert len(frames) == 1, "one layout in every state"
    long = [{**data, "x": [word * 12 for word in data["x"]]} for data in states]
    layouts = [kind.figure(charts.resolved(chart(kind="bar", x_title="Word"), long), data)["layout"] for data in long]
    assert all(layout["xaxis"]["ticktext"] == ["", "", ""] for layout in layouts)
    turned = [s["label"] for s in layouts[0]["shapes"] if s.get("yref") in ("paper", "y domain")]
    assert [label["text"] for label in turned] == long[0]["x"]
    assert all(label["textangle"] == -90 and label["xanchor"] == "right" for label in turned)
    reach = label_depth([w for data in long for w in data["x"]], False)
    assert layouts[0]["xaxis"]["title"]["standoff"] >= reach and layouts[0]["margin"]["b"] >= reach + 30
    same = charts.resolved(chart(kind="bar"), states[:1] * 3)
    assert kind.figure(same, states[0])["layout"]["xaxis"]["ticktext"] == states[0]["x"]
    assert kind.figure(chart(kind="bar"), states[0])["layout"]["xaxis"]["ticktext"] == states[0]["x"]


def test_the_hover_of_a_matrix_picture_reads_as_its_table():
    """The runtime names a hovered cell from the table: its row and column headers are
    the matrix's labels, so two rows both labelled "the" stay two rows."""
    words = ["the", "cat", "sat", "on", "the", "mat"] * 4
    data = {"z": [[-0.5 + j / 48 for j in range(24)] for _ in words], "x": words, "y": words}
    kind = charts.get("heatmap")
    figure = kind.figure(charts.resolved(chart(kind="heatmap", scale="diverging"), [data]), data)
    assert "customdata" not in figure["data"][0] and "text" not in figure["data"][0], "no name or text per cell"
    table = kind.table(chart(kind="heatmap"), data, WORDS)
    assert table["columns"][1:] == words and [row[0] for row in table["rows"]] == words
    assert table["rows"][0][1] == "−0.50", "a signed value with the minus sign, as the table writes it"


def test_the_hover_meta_of_a_chart_is_the_same_whatever_its_data():
    """Plotly draws the whole figure again when layout.meta changes: the runtime's hover
    reads the number of bars from the axis, not from the meta."""
    bar = charts.get("bar")
    three = bar.figure(chart(), {"x": ["a", "b", "c"], "y": [1, 2, 3]})
    five = bar.figure(chart(), {"x": list("abcde"), "y": [1, 2, 3, 4, 5]})
    assert three["layout"]["meta"] == five["layout"]["meta"] == {"hover": "rows", "along": "x"}
    line = charts.get("line")
    short = line.figure(chart(kind="line"), {"x": [0, 1, 2], "y": [0.1, 0.2, 0.3]})
    long = line.figure(chart(kind="line"), {"x": [0, 1, 2, 3], "y": [0.1, 0.2, 0.3, 0.4]})
    assert short["layout"]["meta"] == long["layout"]["meta"] == {"hover": "rows", "along": "x", "numeric": True}


def test_path_numbers_are_never_in_exponent_form():
    """Plotly's path parser reads digits, a sign and a dot: 2.7e-17 would break a shape."""
    from generator.render.charts.common import path_number

    assert path_number(2.7e-17) == "0" and path_number(-4e-7) == "0" and path_number(-0.0) == "0"
    assert path_number(12.3456789) == "12.345679" and path_number(-0.5) == "-0.5" and path_number(3.0) == "3"
    assert path_number(1e21) == "1000000000000000000000"
    # A vector whose arrowhead's corners come out of arithmetic as almost zero.
    figure = charts.get("scatter").figure(chart(kind="scatter"), {"x": [0.1 + 0.2 - 0.3, 1.0], "y": [1.0, 0.0],
                                                                   "labels": ["up", "right"], "arrows": True})
    paths = [shape["path"] for shape in figure["layout"]["shapes"] if "path" in shape]
    assert paths and not any(re.search(r"\de[-+]?\d", path) for path in paths), paths


# --- Log axes ----------------------------------------------------------------------------------

LOSSES = [{"x": list(range(6)), "y": [9.0, 1.0, 0.1, 0.01, 0.001, 0.0001]},      # a run that converges
          {"x": list(range(6)), "y": [9.0, 13.0, 19.0, 27.0, 390.0, 2136.0]}]    # and one that diverges


def test_a_log_line_holds_every_state_in_powers_of_ten_with_its_own_ticks():
    kind = charts.get("line")
    c = charts.resolved(chart(kind="line", y_scale="log"), LOSSES)
    low, high = c.y_range  # in data units, as an author would declare it
    assert 0 < low < 0.0001 and 2136 < high < 10_000
    figures = [kind.figure(c, data) for data in LOSSES]
    axis = figures[0]["layout"]["yaxis"]
    assert axis["type"] == "log" and figures[1]["layout"]["yaxis"] == axis, "the same axis in every state"
    assert axis["range"] == [round(math.log10(low), 4), round(math.log10(high), 4)]
    assert axis["ticktext"] == ["10⁻⁴", "0.01", "1", "100"] and axis["tickvals"] == [0.0001, 0.01, 1.0, 100.0]
    assert "zeroline" not in axis or axis["zeroline"] is False
    # The line keeps its smallest values (rounded(), to four decimals, would make 0.0001 a zero).
    [path] = [s["path"] for s in figures[0]["layout"]["shapes"] if s["type"] == "path"]
    assert path.endswith("L5,0.0001000") and "e" not in path
    table = kind.table(c, LOSSES[0], WORDS)
    assert [row[1] for row in table["rows"]] == ["9.00", "1.00", "0.100", "0.0100", "0.00100", "1.00×10⁻⁴"]
    assert [row[1] for row in kind.table(c, LOSSES[1], WORDS)["rows"]][-2:] == ["390", "2,136"]


def test_a_value_a_log_axis_cannot_draw_names_itself():
    kind = charts.get("line")
    [issue] = kind.check({"x": [0, 1, 2], "y": [9.0, 0.0, 1.0]}, chart(kind="line", y_scale="log"))
    assert issue.key == "y" and issue.message == ('y[1] = 0 cannot be drawn on a log axis (y_scale = "log"): '
                                                  'every value must be above zero')
    [issue] = kind.check({"x": [0, 1], "y": [[1.0, 2.0], [3.0, -1.0]], "series": ["a", "b"]},
                         chart(kind="line", y_scale="log"))
    assert issue.message.startswith("y[1][1] = \u22121 cannot")
    [issue] = kind.check({"x": [0, 1], "y": [1.0, 2.0]}, chart(kind="line", x_scale="log"))
    assert issue.key == "x" and issue.message.startswith("x[0] = 0 cannot")
    [issue] = kind.check({"x": ["a", "b"], "y": [1.0, 2.0]}, chart(kind="line", x_scale="log"))
    assert issue.key == "x" and "labels" in issue.message
    bars = charts.get("bar")
    [issue] = bars.check({"x": ["a"], "y": [0.5], "threshold": 0}, chart(kind="bar", y_scale="log"))
    assert issue.key == "threshold"
    [issue] = charts.get("scatter").check({"x": [1.0], "y": [1.0], "arrows": True}, chart(kind="scatter",
                                                                                          x_scale="log"))
    assert issue.key == "arrows" and "origin" in issue.message


def test_a_log_x_axis_and_its_rule_and_hover():
    kind = charts.get("line")
    data = {"x": [0.001, 0.01, 0.1, 1.0], "y": [1.0, 0.5, 0.1, 2.0], "rule": 0.1}
    figure = kind.figure(charts.resolved(chart(kind="line", x_scale="log"), [data]), data)
    axis = figure["layout"]["xaxis"]
    assert axis["type"] == "log" and axis["range"] == [-3.0, 0.0] and axis["ticktext"] == ["0.001", "0.01", "0.1", "1"]
    rule = next(s for s in figure["layout"]["shapes"] if s["type"] == "line")
    assert rule["x0"] == 0.1, "shapes stand at data values on a log axis"
    assert figure["layout"]["meta"] == {"hover": "rows", "along": "x", "numeric": True, "log": True}


def test_log_bars_rise_from_the_foot_of_the_axis_and_are_never_stacked():
    kind = charts.get("bar")
    data = {"x": ["small", "large"], "y": [[1e6, 1e9], [2e7, 3e11]], "series": ["parameters", "tokens"]}
    c = charts.resolved(chart(kind="bar", y_scale="log"), [data])
    foot = c.y_range[0]
    assert 0 < foot < 1e6
    figure = kind.figure(c, data)
    bars = [s for s in figure["layout"]["shapes"] if s.get("layer") == "between"]
    assert {bar["y0"] for bar in bars} == {foot} and sorted(bar["y1"] for bar in bars) == [1e6, 2e7, 1e9, 3e11]
    # The hatch of the second series is a picture placed in powers of ten, as Plotly places one on a log axis.
    [picture] = figure["layout"]["images"]
    assert picture["y"] == figure["layout"]["yaxis"]["range"][1]
    problems = charts.check_options(kind, chart(kind="bar", y_scale="log", stacked=True))
    assert [p.key for p in problems] == ["stacked"]


def test_a_log_scale_only_where_a_kind_can_draw_one_and_on_a_range_above_zero():
    problems = charts.check_options(charts.get("heatmap"), chart(kind="heatmap", y_scale="log"))
    assert [(p.key, p.message) for p in problems] == [
        ("y_scale", "a heatmap chart cannot draw its y axis on a log scale (line, scatter and bar charts can)")]
    [problem] = charts.check_options(charts.get("bar"), chart(kind="bar", x_scale="log"))
    assert problem.message == "a bar chart cannot draw its x axis on a log scale (it takes y_scale)"
    [problem] = charts.check_options(charts.get("line"), chart(kind="line", y_scale="log", y_range=[0, 10]))
    assert problem.key == "y_range" and "above zero" in problem.message
    [problem] = charts.check_options(charts.get("scatter"), chart(kind="scatter", y_scale="log", equal_scale=True))
    assert problem.key == "equal_scale"
    assert charts.check_options(charts.get("line"), chart(kind="line", y_scale="log", y_range=[0.001, 10])) == []


def test_the_poster_of_a_log_axis_writes_its_ticks_and_places_values_in_powers_of_ten():
    from generator.render.poster import poster

    kind = charts.get("line")
    data = {"x": [0, 1, 2], "y": [0.01, 1.0, 100.0]}
    html = poster(kind.figure(charts.resolved(chart(kind="line", y_scale="log", y_range=[0.01, 100]), [data]), data))
    assert all(f">{text}<" in html for text in ("0.01", "1", "100")), "the build's ticks"
    assert 'y1="50.000%"' in html, "a grid line at 1, half way between 0.01 and 100"
    assert 'd="M 0.000,100.000 L 50.000,50.000 L 100.000,0.000"' in html, "the line through them"


# --- Paths and labels in a scatter ---------------------------------------------------------------

def descent(rate, steps=8):
    w = [0.0]
    for _ in range(steps):
        w.append(w[-1] - rate * 2 * (w[-1] - 3))
    return {"x": w + [3.0], "y": [(v - 3) ** 2 for v in w] + [0.0],
            "labels": ["start"] + [""] * (steps - 1) + ["end", "minimum"], "path": [True] * (steps + 1) + [False],
            "highlight": steps}


def test_a_path_joins_its_points_in_order_on_axes_that_fit_them():
    kind = charts.get("scatter")
    states = [descent(0.1), descent(0.9)]
    c = charts.resolved(chart(kind="scatter"), states)
    assert c.equal_scale is False
    (x0, x1), (y0, y1) = c.x_range, c.y_range
    assert x1 - x0 != pytest.approx(y1 - y0) and y0 < 0 < 9 < y1
    figure = kind.figure(c, states[0])
    layout = figure["layout"]
    assert "scaleanchor" not in layout["yaxis"], "no equal scale unless asked"
    [line] = [s for s in layout["shapes"] if s["type"] == "path"]
    points = re.findall(r"[ML]([\d.]+),([\d.]+)", line["path"])
    assert len(points) == 9 and points[0] == ("0", "9") and float(points[-1][0]) == pytest.approx(
        states[0]["x"][8], abs=1e-4), "the minimum stands alone"
    circles = [s for s in layout["shapes"] if s["type"] == "circle"]
    assert len(circles) == 10 and all(s["xsizemode"] == "pixel" for s in circles), "round on unequal axes"
    labels = [s["label"]["text"] for s in layout["shapes"] if s.get("label")]
    assert labels == ["start", "<b>end</b>", "minimum"], "only the named points are labelled"
    table = kind.table(c, states[0], WORDS)
    assert [row[0] for row in table["rows"]] == ["start", "2", "3", "4", "5", "6", "7", "8", "end", "minimum"]
    assert table["highlight"] == 8
    # Asked for, the axes keep equal scales; vectors have them by default.
    equal = charts.resolved(chart(kind="scatter", equal_scale=True), states)
    assert equal.x_range[1] - equal.x_range[0] == pytest.approx(equal.y_range[1] - equal.y_range[0])
    vectors = charts.resolved(chart(kind="scatter"), [{"x": [1.0], "y": [2.0], "labels": ["v"], "arrows": True}])
    assert vectors.equal_scale is True


def label_boxes(figure, height):
    """Where each drawn label's text sits at a phone's plot width, by the kind's own measure."""
    from generator.render.charts.common import PHONE_PLOT, text_width

    layout = figure["layout"]
    (x0, x1), (y0, y1) = layout["xaxis"]["range"], layout["yaxis"]["range"]
    boxes = []
    for shape in layout["shapes"]:
        if not shape.get("label"):
            continue
        text = re.sub("<[^>]+>", "", shape["label"]["text"])
        w, h = text_width(text, 12), 15
        cx = (shape["x0"] - x0) / (x1 - x0) * PHONE_PLOT
        cy = (y1 - shape["y0"]) / (y1 - y0) * height
        place = shape["label"]["textposition"]
        box = {"top center": (cx - w / 2, cy - 8 - h, cx + w / 2, cy - 8),
               "bottom center": (cx - w / 2, cy + 8, cx + w / 2, cy + 8 + h),
               "middle left": (cx + 8, cy - h / 2, cx + 8 + w, cy + h / 2),
               "middle right": (cx - 8 - w, cy - h / 2, cx - 8, cy + h / 2)}[place]
        boxes.append((text, box))
    return boxes


def test_labels_that_would_collide_go_to_another_side_or_are_left_out():
    kind = charts.get("scatter")
    # Three named points almost on top of each other at a phone's width, and a fourth apart.
    data = {"x": [0.0, 0.05, 0.1, 10.0], "y": [0.0, 0.05, 0.0, 10.0], "labels": ["start", "4", "minimum", "far"],
            "highlight": 2}
    c = charts.resolved(chart(kind="scatter"), [data])
    figure = kind.figure(c, data)
    boxes = label_boxes(figure, c.height - 72)
    drawn = [text for text, _ in boxes]
    assert drawn[0] == "start" and "minimum" in drawn and "far" in drawn and "4" not in drawn, drawn
    for i, (_, a) in enumerate(boxes):
        for _, b in boxes[i + 1:]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]), boxes
        assert a[0] >= 0 and a[1] >= 0 and a[2] <= 230 and a[3] <= c.height - 72, "inside the plot"
    # The table still names every point.
    assert [row[0] for row in kind.table(c, data, WORDS)["rows"]] == ["start", "4", "minimum", "far"]


# --- A model's labels are text, never Plotly's markup ----------------------------------------------

MARKUP_MODEL = """
FLIPS = [1, 2, 3]


def runs(flips):
    return {"values": {"flips": flips, "probability": 0.5, "outcomes": 2},
            "chart": {"x": ["<b>bold</b>", "<a href='javascript:alert(1)'>link</a>", "<mask>"],
                      "y": [0.1, 0.2, 0.3], "highlight": flips - 1}}
"""


def test_a_models_labels_are_shown_as_written_in_the_live_chart_and_the_drawing(tmp_site):
    from generator.build import build

    result = build(tmp_site({"coin-flips/model.py": MARKUP_MODEL}), None, THEMES)
    [step] = result.computed["coin-flips"]
    figure = json.dumps(step.figures[0])
    assert "&lt;b&gt;bold&lt;/b&gt;" in figure and "&lt;mask&gt;" in figure
    assert "<b>bold" not in figure and "<a href" not in figure and "<mask>" not in figure
    drawing = step.posters[0]  # the still drawing: the labels as text (escaped once, as SVG text is)
    assert "&lt;mask&gt;" in drawing and "&lt;b&gt;bold&lt;/b&gt;" in drawing and "<a " not in drawing
    assert "&amp;lt;" not in drawing
    table = step.tables(result.site.config.labels)[0][step.default_key]
    assert ["<mask>"] == [row[0] for row in table["rows"] if row[0] == "<mask>"]  # the table: as written


def test_plotly_text_leaves_data_without_markup_as_it_is():
    shared = ["a", "b & c", "&"]
    data = {"x": shared, "y": [1.0, 2.0]}
    assert charts.plotly_text(data) is data
    assert charts.plotly_text({"x": ["&pi; <1>"]}) == {"x": ["&amp;pi; &lt;1&gt;"]}


def test_a_value_just_outside_a_range_is_named_exactly():
    """An error shows the value as it is (4.000001), not rounded to look inside the range (4)."""
    heatmap_chart = chart(kind="heatmap", z_range=[-4, 4])
    [issue] = charts.get("heatmap").check({"z": [[0.0, 4.000001]], "x": ["a", "b"], "y": ["r"]}, heatmap_chart)
    assert issue.message == "z[0][1] = 4.000001 is outside z_range [\u22124, 4]"
    [issue] = charts.get("bar").check({"x": ["a"], "y": [1.0000002]}, chart(kind="bar", y_range=[0, 1]))
    assert issue.message == "y[0] = 1.0000002 is outside y_range [0, 1]"
    [issue] = charts.get("line").check({"x": [0], "y": [-0.1234567]}, chart(kind="line", y_range=[0, 1]))
    assert "y[0] = \u22120.1234567 is outside" in issue.message
    [issue] = charts.get("scatter").check({"x": [2.0000001], "y": [0.5]}, chart(kind="scatter", x_range=[0, 2]))
    assert "x[0] = 2.0000001 is outside x_range [0, 2]" in issue.message
