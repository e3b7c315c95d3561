"""A heatmap's regions and cell text (issue 36): rectangles of cells with a label and a
style drawn over the matrix, its key, the data table that keeps every value; and
cell_text / cell_format, with values left out where they would be too small to read."""
from __future__ import annotations

import re
import urllib.parse

import pytest

from generator.build import build
from generator.load.schema import LABELS
from generator.render import charts
from generator.render.charts import heatmap
from generator.render.charts.common import ACCENT

from tests.conftest import THEMES, write_files
from tests.pictures import colour_bar
from tests.generator.render.charts.test_charts import chart

TABLE_LABELS = {key: option.default for key, option in LABELS.items()}
PADDED = [[0.0] * 6] + [[0.0] + [float(v % 5) for v in range(r * 4, r * 4 + 4)] + [0.0] for r in range(4)] + [[0.0] * 6]
RING = [{"rows": 0, "columns": [0, 5], "label": "zero padding", "style": "hatched"},
        {"rows": 5, "columns": [0, 5], "label": "zero padding", "style": "hatched"},
        {"rows": [1, 4], "columns": 0, "label": "zero padding", "style": "hatched"},
        {"rows": [1, 4], "columns": 5, "label": "zero padding", "style": "hatched"}]


def window(row: int, column: int) -> dict:
    labels = [str(i) for i in range(6)]
    return {"z": PADDED, "x": labels, "y": labels,
            "regions": [{"rows": [row, row + 2], "columns": [column, column + 2], "label": "kernel window"}, *RING]}


def svg_of(uri: str) -> str:
    return urllib.parse.unquote(uri.split(",", 1)[1])


def test_regions_are_outlined_hatched_keyed_and_named_in_a_complete_table():
    c = charts.resolved(chart(kind="heatmap", z_range=[0, 4], cell_format="count"), [window(0, 0), window(1, 2)])
    figure = charts.get("heatmap").figure(c, window(1, 2))
    outline = next(s for s in figure["layout"]["shapes"] if s.get("xref") == "x" and s["line"]["color"] == ACCENT)
    assert (outline["x0"], outline["x1"], outline["y0"], outline["y1"]) == (1.5, 4.5, 0.5, 3.5)
    # The key: the step's labels, the same in every state, over swatches in their styles.
    assert [note["text"] for note in figure["layout"]["annotations"]] == ["kernel window", "zero padding"]
    assert charts.get("heatmap").figure(c, window(0, 0))["layout"]["annotations"] == figure["layout"]["annotations"]
    [image] = figure["layout"]["images"]
    assert svg_of(image["source"]).count("fill='url(#r)'") == 4, "the ring hatched over the cells"
    table = charts.get("heatmap").table(c, window(1, 2), TABLE_LABELS)
    assert table["rows"][0][1:] == ["0 (zero padding)"] * 6
    assert table["rows"][2] == ["2", "0 (zero padding)", "4", "0 (kernel window)", "1 (kernel window)",
                                "2 (kernel window)", "0 (zero padding)"]
    assert not any("outside" in cell for row in table["rows"] for cell in row)


@pytest.mark.parametrize("region, message", [
    ({"rows": [2, 7], "columns": 0}, "'regions[0].rows' must be an index from 0 to 5"),
    ({"rows": 0, "columns": 0, "style": "glow"}, "'regions[0].style' must be one of"),
    ({"rows": 0, "colums": 0}, "'regions[0]' has an unknown key 'colums'"),
])
def test_a_bad_region_blames_regions(region, message):
    data = {**window(0, 0), "regions": [region]}
    [issue] = charts.check(charts.get("heatmap"), data, chart(kind="heatmap", z_range=[0, 4]))
    assert issue.key == "regions" and message in issue.message


def _matrix_svg(figure) -> str:
    return svg_of(figure["layout"]["images"][0]["source"])


def test_cell_text_off_on_and_auto():
    small = {"z": [[0.5] * 4] * 4, "x": list("abcd"), "y": list("abcd")}
    on_a_phone = heatmap.figure(chart(kind="heatmap"), small)
    assert "<text" in _matrix_svg(on_a_phone) and "@media" not in _matrix_svg(on_a_phone)
    assert colour_bar(on_a_phone) is None, "values written everywhere: no colour bar"
    off = heatmap.figure(chart(kind="heatmap", cell_text="off"), small)
    assert "<text" not in _matrix_svg(off) and colour_bar(off)
    labels = [str(i) for i in range(17)]
    crowded = {"z": [[0.5] * 17] * 17, "x": labels, "y": labels}
    auto = heatmap.figure(chart(kind="heatmap"), crowded)
    # On a phone a 17-column matrix's values would be about 4 px high: left out below the
    # width at which they are 9 px, with a colour bar for the colours.
    assert "@media (max-width:509.5px){text{display:none}}" in _matrix_svg(auto)
    assert colour_bar(auto)
    labels = [str(i) for i in range(24)]
    big = {"z": [[0.25] * 24] * 24, "x": labels, "y": labels}
    assert heatmap.figure(chart(kind="heatmap"), big)["layout"]["images"][0]["source"].startswith("data:image/png")
    assert "<text" in _matrix_svg(heatmap.figure(chart(kind="heatmap", cell_text="on"), big))


def test_cell_format_writes_the_cells_and_the_table_alike():
    counts = {"z": [[9.0, 12.0], [3.0, 0.0]], "x": ["a", "b"], "y": ["r", "s"]}
    plain = chart(kind="heatmap", z_range=[0, 12])
    assert ">9.00<" in _matrix_svg(heatmap.figure(plain, counts))
    counted = chart(kind="heatmap", z_range=[0, 12], cell_format="count")
    assert ">9<" in _matrix_svg(heatmap.figure(counted, counts)) and ">9.00<" not in _matrix_svg(
        heatmap.figure(counted, counts))
    assert heatmap.table(counted, counts, TABLE_LABELS)["rows"] == [["r", "9", "12"], ["s", "3", "0"]]
    integers = {**counts, "z": [[9, 12], [3, 0]]}
    assert heatmap.table(plain, integers, TABLE_LABELS)["rows"][0] == ["r", "9", "12"], "ints stay ints"


def test_cell_text_hides_in_chromium_below_the_width_it_names(browser):
    """The picture's own media query: drawn narrower than its width, it shows no values."""
    labels = [str(i) for i in range(17)]
    crowded = {"z": [[0.5] * 17] * 17, "x": labels, "y": labels}
    auto = heatmap.figure(chart(kind="heatmap"), crowded)["layout"]["images"][0]["source"]
    off = heatmap.figure(chart(kind="heatmap", cell_text="off"), crowded)["layout"]["images"][0]["source"]
    page = browser.new_page()
    shots = {}
    for name, source in (("auto", auto), ("off", off)):
        for width in (300, 720):
            page.set_content(f'<img src="{source}" width="{width}" height="{width}" style="display:block">')
            page.wait_for_function("document.images[0].complete")
            shots[name, width] = page.locator("img").screenshot()
    page.close()
    assert shots["auto", 300] == shots["off", 300], "too small: no values"
    assert shots["auto", 720] != shots["off", 720], "large enough: the values are written"


def test_regions_are_drawn_live_in_the_poster_and_the_figure_file(browser, tmp_site, tmp_path):
    model = '''
PADDED = %r
POSITIONS = [0, 1]


def window(position):
    ring = %r
    return {"values": {"position": position},
            "chart": {"z": PADDED, "x": [str(i) for i in range(6)], "y": [str(i) for i in range(6)],
                      "regions": [{"rows": [1, 3], "columns": [1 + position, 3 + position],
                                   "label": "kernel window"}] + ring}}
''' % (PADDED, RING)
    step = '''+++
title = "The Window"
compute = "window"
summary = "The kernel's window at position {{ position }}."

[[controls]]
name = "position"
label = "Position"
values = "POSITIONS"
default = 0

[chart]
kind = "heatmap"
title = "Padded image"
z_range = [0, 4]
cell_format = "count"
+++
The window is at {{ position }}.
'''
    content = tmp_site({"coin-flips/model.py": model, "coin-flips/steps/01-runs.md": step})
    out = tmp_path / "build"
    build(content, out, THEMES)
    figure_file = (out / "figures" / "coin-flips" / "step-1-chart-1.svg").read_text()
    assert "kernel window" in figure_file and "zero padding" in figure_file and f"stroke:{ACCENT}" in figure_file
    # The still drawing in the page, which stands in for the chart until plotly.js runs.
    poster = re.search(r'<div class="poster".*?</svg></div>', (out / "coin-flips" / "index.html").read_text(), re.S)
    assert "kernel window" in poster.group(0) and poster.group(0).count(f"stroke:{ACCENT}") == 2, "outline, swatch"
    page = browser.new_page(viewport={"width": 900, "height": 900})
    page.goto((out / "coin-flips" / "index.html").as_uri())
    section = page.get_by_role("region", name="The Window")
    section.get_by_role("button", name="1").click()
    page.wait_for_function("window.Plotly && document.querySelector('#step-1 .main-svg')")
    drawn = " ".join(section.locator("[data-chart] .main-svg").all_text_contents())  # Plotly's own drawing
    assert "kernel window" in drawn and "zero padding" in drawn
    assert page.evaluate("document.querySelector('#step-1 .js-plotly-plot').layout.shapes"
                         ".filter(s => s.xref === 'x' && s.line.color === '%s').map(s => s.x0)" % ACCENT) == [1.5]
    section.get_by_text("Show data", exact=True).click()
    assert section.get_by_role("cell", name="0 (zero padding)").count() == 20
    page.close()


def test_the_key_of_masked_cells_is_hatched_as_they_are():
    """The swatch was plain grey while the cells it names are hatched: the key now carries
    the cells' diagonal lines, in their hatch colour, inside the swatch."""
    from generator.render.charts.common import MASKED_FILL, MASKED_HATCH
    swatch, hatch, name = heatmap.masked_key("masked")
    assert swatch["fillcolor"] == MASKED_FILL and name["label"]["text"].startswith("masked")
    assert hatch["type"] == "path" and hatch["line"]["color"] == MASKED_HATCH
    assert {k: hatch[k] for k in ("xref", "yref", "xsizemode", "ysizemode", "xanchor", "yanchor")} == \
        {k: swatch[k] for k in ("xref", "yref", "xsizemode", "ysizemode", "xanchor", "yanchor")}
    points = [tuple(map(float, p.split(","))) for p in re.findall(r"-?[\d.]+,-?[\d.]+", hatch["path"])]
    assert len(points) >= 4 and all(swatch["x0"] <= x <= swatch["x1"] and swatch["y0"] <= y <= swatch["y1"]
                                    for x, y in points)
