"""Chart kinds: the data table that is each chart's text alternative, and the
colours a chart leaves to the page's theme."""
from __future__ import annotations

import json
import re

from generator.render import charts
from generator.render.charts.common import CATEGORICAL, ink_on
from generator.kinds.explainer.content import Chart
from generator.load.schema import LABELS

from .conftest import THEMES

WORDS = {name: option.default for name, option in LABELS.items()}


def chart(**fields):
    base = dict(kind="", title="", x_title="", y_title="", y_format="", height=300, wide=False)
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
    assert ranges == {"columns": ["Item", "Dimension"], "rows": [["H1", "0–1"], ["H2", "2–2"]]}
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
    assert [b["label"]["text"] for b in blocks] == ["H1<br>0–0", "H2<br>1–1", "H3<br>2–2", "H4<br>3–3"]
    assert all(b["label"]["font"]["color"] == ink_on(b["fillcolor"]) for b in blocks)
    # With values, the blocks' names label the bands above the strip: no annotations.
    strip = kind.figure(chart(), {"sizes": [2, 1], "labels": ["H1", "H2"], "values": [0.5, -1.0, 2.0]})
    assert "annotations" not in strip["layout"]
    assert [s["label"]["text"] for s in strip["layout"]["shapes"] if "label" in s] == ["H1<br>0–1", "H2<br>2–2"]


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


def test_choosing_another_matrix_of_a_grid_leaves_the_traces_alone():
    """The emphasised matrix is shown by veiling the others and a bold title, all
    layout shapes, so switching needs no heatmap recomputation and Plotly redraws
    the shapes alone (an annotation change would have it recompute everything)."""
    data = {"z": [[[0.1, 0.9]], [[0.5, 0.5]], [[0.2, 0.8]]], "x": ["a", "b"], "y": ["q"],
            "titles": ["one", "two", "three"], "highlight_row": 0}
    one = charts.get("heatmap_grid").figure(chart(), {**data, "highlight": 0})
    two = charts.get("heatmap_grid").figure(chart(), {**data, "highlight": 2})
    assert one["data"] == two["data"]
    veils = [s for s in two["layout"]["shapes"] if s.get("fillcolor")]
    assert [s["xref"] for s in veils] == ["x domain", "x2 domain"]
    titles = [s["label"]["text"] for s in two["layout"]["shapes"] if "label" in s]
    assert titles == ["one", "two", "<b>three</b>"]
    assert "annotations" not in two["layout"]
    assert {k: v for k, v in one["layout"].items() if k != "shapes"} == \
        {k: v for k, v in two["layout"].items() if k != "shapes"}

def test_a_small_matrix_is_one_picture_of_its_cells_and_values():
    from urllib.parse import unquote

    from generator.render.charts.common import ink_on, sequential_colour

    z = [[0.0, 0.125], [0.5019607843137255, 1.0]]
    figure = charts.get("heatmap").figure(chart(), {"z": z, "x": ["a", "b"], "y": ["c", "d"]})
    [image] = figure["layout"]["images"]
    svg = unquote(image["source"].removeprefix("data:image/svg+xml,"))
    assert re.findall(r"<text[^>]*>([^<]*)</text>", svg) == ["0.00", "0.13", "0.50", "1.00"]  # half up, as the table
    fills = re.findall(r"<rect[^>]*fill='(#[0-9a-f]{6})'", svg)
    assert fills == ["#440154", sequential_colour(0.125), "#21918c", "#fde725"]  # Plotly's Viridis stops
    inks = re.findall(r"<text[^>]*fill='(#[0-9a-f]{6})'", svg)
    assert inks == [ink_on(fill) for fill in fills] and inks[0] == "#ffffff" and inks[-1] == "#000000"
    assert (image["sizex"], image["sizey"], image["x"], image["y"]) == (2, 2, -0.5, -0.5)
    assert figure["layout"]["yaxis"]["scaleanchor"] == "x", "square cells: the values are not stretched"
    assert figure["data"] == [{"type": "scatter", "x": [], "y": [], "hoverinfo": "skip"}]


def test_a_large_matrix_is_a_heatmap_trace():
    from generator.render.charts import heatmap
    from generator.render.charts.heatmap import PICTURE_CELLS

    assert f"up to {PICTURE_CELLS} cells" in heatmap.__doc__, "the authoring guide states the limit"

    side = int(PICTURE_CELLS ** 0.5) + 1
    names = [str(i) for i in range(side)]
    figure = charts.get("heatmap").figure(chart(), {"z": [[0.5] * side] * side, "x": names, "y": names})
    assert figure["data"][0]["type"] == "heatmap" and "images" not in figure["layout"]


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
    assert one["data"] == two["data"], "the colour bar's trace is the same: Plotly keeps the figure"
    assert one["data"][0]["zmin"] == -2 and one["data"][0]["zmax"] == 2
    assert {k: v for k, v in one["layout"].items() if k not in ("shapes", "images")} == \
        {k: v for k, v in two["layout"].items() if k not in ("shapes", "images")}
    from urllib.parse import unquote

    from generator.render.charts.common import sequential_colour

    svg = unquote(one["layout"]["images"][0]["source"])
    fills = re.findall(r"fill='(#[0-9a-f]{6})'", svg)
    assert fills == [sequential_colour((v + 2) / 4) for v in (0.5, -1.0, 2.0, 0.0)]


def test_a_strip_range_needs_values_and_two_increasing_numbers():
    kind = charts.get("blocks")
    base = {"sizes": [2], "labels": ["a"], "values": [0.1, 0.2]}
    assert kind.check({**base, "range": [0, 1]}) is None
    for bad in ([1, 0], [0], "wide", [0, float("inf")]):
        assert "'range'" in kind.check({**base, "range": bad})
    assert "'range'" in kind.check({"sizes": [2], "labels": ["a"], "range": [0, 1]})


def test_a_grid_wraps_long_titles_and_shares_its_axis_labels():
    data = {"z": [[[0.1, 0.9]]] * 4, "x": ["a", "b"], "y": ["q"],
            "titles": ["Head 4 · Subject ↔ verb", "short", "c", "d"], "highlight": 1}
    layout = charts.get("heatmap_grid").figure(chart(), data)["layout"]
    titles = [s["label"]["text"] for s in layout["shapes"] if "label" in s]
    assert titles[0] == "Head 4 · Subject ↔<br>verb" and titles[1] == "<b>short</b>"
    # Two by two: row labels on the first column, column labels on the last row.
    assert [layout[f"yaxis{s}"]["showticklabels"] for s in ("", "2", "3", "4")] == [True, False, True, False]
    assert [layout[f"xaxis{s}"]["showticklabels"] for s in ("", "2", "3", "4")] == [False, False, True, True]
