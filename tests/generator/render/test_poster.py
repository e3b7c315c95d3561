"""The still drawing of each chart's first state that pages carry in their HTML
(render/poster.py): drawn from the same figure, gone once Plotly draws."""
from __future__ import annotations

import re

import pytest

from generator.render.poster import poster

from tests.conftest import draw_every_chart, rendered_pages
from tests.pictures import png_pixels


def _figure(data, **layout):
    return {"data": data, "layout": {"height": 300, "margin": {"l": 50, "r": 10, "t": 10, "b": 40}, **layout}}


def _bars(stacked=False, **data):
    from generator.render import charts

    from tests.generator.render.charts.test_charts import chart

    c = charts.resolved(chart(kind="bar", y_range=[0, 1], stacked=stacked), [data])
    return charts.get("bar").figure(c, data)


def test_bars_are_drawn_to_their_values_with_their_labels():
    html = poster(_bars(x=["a", "b"], y=[0.5, 1.0], text=["50%", "100%"]))
    heights = [float(h) for h in re.findall(r'<rect [^>]*height="([\d.]+)%"', html)]
    assert heights == [50.0, 100.0]
    assert ">50%<" in html and ">100%<" in html and ">a<" in html and ">b<" in html
    assert "fill:var(--chart-bar)" in html  # theme colours stay CSS variables


def test_stacked_bars_stand_on_each_other_under_their_hatches():
    html = poster(_bars(stacked=True, x=["a"], y=[[0.25], [0.5]], series=["one", "two"]))
    bars = [(float(y), float(h)) for y, h in re.findall(r'<rect x="[\d.]+%" y="([\d.]+)%" width="[\d.]+%" '
                                                       r'height="([\d.]+)%"', html)]
    assert bars == [(75.0, 25.0), (25.0, 50.0)], "the second series from 0.25 to 0.75"
    # The second series' hatch is a picture over the bars, after them in the drawing.
    assert html.index("<image") > html.rindex("<rect")


def test_heatmap_cells_print_their_values_and_cells_past_the_axes_are_left_out():
    figure = _figure([{"type": "heatmap", "z": [[0.0, 1.0]], "x": [0, 1], "y": [0], "zmin": 0, "zmax": 1,
                       "colorscale": "Viridis", "texttemplate": "%{z:.2f}"},
                      {"type": "heatmap", "z": [[0.5]], "x": [5], "y": [0], "zmin": 0, "zmax": 1,
                       "colorscale": "Viridis"}],
                     xaxis={"range": [-0.5, 1.5]}, yaxis={"range": [0.5, -0.5]})
    html = poster(figure)
    assert html.count("<rect ") == 2  # the second trace's cell is past the x range
    assert "fill:#440154" in html and "fill:#fde725" in html  # the ends of Viridis
    assert ">0.00<" in html and ">1.00<" in html


def test_a_large_matrix_without_values_is_one_image_of_a_pixel_per_cell():
    from generator.render.charts.common import levelled, sequential_colour

    size = 12
    z = [[(i * size + j) / (size * size - 1) for j in range(size)] for i in range(size)]
    z[0][1] = None  # a masked cell
    figure = _figure([{"type": "heatmap", "z": z, "x": list(range(size)), "y": list(range(size)), "zmin": 0,
                       "zmax": 1, "colorscale": "Viridis"}],
                     xaxis={"range": [-0.5, size - 0.5]}, yaxis={"range": [size - 0.5, -0.5]})
    html = poster(figure)
    assert "<rect " not in html and html.count("<image ") == 1
    assert "image-rendering:pixelated" in html, "sharp cell edges"
    pixels = png_pixels(re.search(r'href="(data:image/png;base64,[^"]+)"', html).group(1))
    assert pixels == [[None if v is None else sequential_colour(levelled(v)) for v in row] for row in z]
    assert pixels[0][0] == sequential_colour(0.0) and pixels[0][1] is None, "a masked cell is clear"
    assert pixels[-1][-1] == sequential_colour(1.0)


def test_a_matrix_picture_of_the_page_is_drawn_sharp():
    from generator.render.charts.common import placed, png_uri

    source = png_uri([[0.0, 1.0]], lambda v: "#000000" if v else "#ffffff")
    figure = _figure([{"type": "scatter", "x": [], "y": []}], xaxis={"range": [-0.5, 1.5]},
                     yaxis={"range": [0.5, -0.5]})
    figure["layout"]["images"] = [placed(source, -0.5, -0.5, 2, 1)]
    html = poster(figure)
    assert re.search(r'<image href="data:image/png;[^"]+"[^>]*style="image-rendering:pixelated"', html)


def test_a_picture_of_an_svg_keeps_its_single_quotes_in_the_drawing():
    """A data: SVG is full of single quotes: escaped as &#x27; they cost six bytes each (issue 42,
    the page's own bytes); in a double-quoted attribute only &, <, > and " need escaping."""
    from generator.render.charts.common import picture

    figure = _figure([{"type": "scatter", "x": [], "y": []}], xaxis={"range": [-0.5, 1.5]},
                     yaxis={"range": [0.5, -0.5]})
    figure["layout"]["images"] = [picture("<svg xmlns='http://www.w3.org/2000/svg'><rect fill='#fff'/></svg>",
                                          -0.5, -0.5, 2, 1)]
    href = re.search(r'<image href="([^"]*)"', poster(figure)).group(1)
    assert "&#x27;" not in href and "xmlns='http" in href and "<" not in href and ">" not in href


def test_labels_plotly_turns_are_turned_and_the_titles_clear_them():
    labels = ["embedding", "attention", "feed-forward"]
    figure = _figure([{"type": "bar", "x": [0, 1, 2], "y": [1, 2, 3]}],
                     xaxis={"tickvals": [0, 1, 2], "ticktext": labels, "tickangle": -90, "range": [-0.5, 2.5],
                            "title": {"text": "Part"}},
                     yaxis={"range": [0, 3], "title": {"text": "Size"}})
    html = poster(figure)
    assert html.count("rotate(-90)") == 3 and all(f">{label}<" in html for label in labels)
    depth = float(re.search(r'dy="(\d+)"[^>]*>Part<', html).group(1))
    from generator.render.charts.common import text_width
    assert depth > text_width("feed-forward"), "the x title sits below the longest turned label"


def test_a_colour_scale_it_does_not_know_is_left_to_plotly():
    figure = _figure([{"type": "heatmap", "z": [[0.2]], "colorscale": "RdBu", "zmin": -1, "zmax": 1}])
    assert "<rect" not in poster(figure)


def test_text_is_escaped_and_plotly_markup_becomes_lines_and_bold():
    figure = _figure([{"type": "scatter", "x": [0, 1], "y": [0, 1], "mode": "lines+markers"}],
                     shapes=[{"type": "rect", "xref": "paper", "yref": "paper", "x0": 0, "x1": 1, "y0": 1,
                              "y1": 1, "line": {"width": 0},
                              "label": {"text": "<b>one</b><br></script>x < y & z", "textposition": "top center"}}])
    html = poster(figure)
    assert "</script>" not in html and ">x &lt; y &amp; z<" in html
    assert html.count("<tspan") == 2 and "font-weight:700" in html
    assert html.count("<line ") >= 1 and html.count("<circle") == 2


def test_a_figure_with_nothing_to_draw_gives_nothing():
    assert poster({"data": [], "layout": {}}) == ""


@pytest.fixture(scope="module")
def site(charts_site, tiny_site):
    """Every page of the generator's fixture sites: each chart kind and variant, and the tiny site's."""
    return rendered_pages(charts_site[0]) + rendered_pages(tiny_site[0])


def test_every_chart_shows_its_first_state_before_plotly_and_with_scripts_off(browser, site):
    context = browser.new_context(java_script_enabled=False)
    tab = context.new_page()
    for page in site:
        tab.goto(page.as_uri())
        for chart in tab.locator("[data-chart]").all():
            drawing = chart.locator("[data-poster] > svg")
            assert drawing.count() == 1, f"{page}: a chart without its drawing"
            chart.scroll_into_view_if_needed()
            assert drawing.bounding_box()["height"] > 50
    context.close()


def test_plotly_takes_the_drawings_place(browser, site):
    tab = browser.new_page()
    for page in site:
        tab.goto(page.as_uri())
        if not tab.locator("[data-chart]").count():
            continue
        draw_every_chart(tab)
        assert tab.locator("[data-chart] [data-poster]").count() == 0, page
    tab.close()
