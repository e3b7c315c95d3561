"""The drawing's text reads as Plotly's does: Plotly's markup decoded once, so a model's label
escaped for Plotly (charts.plotly_text) shows exactly what the model wrote."""
from __future__ import annotations

import re

import pytest

from generator.render.charts import plotly_text
from generator.render.poster import poster


def _label_drawn(text: str) -> str:
    """The text the drawing shows for a label, as the SVG's markup writes it."""
    figure = {"data": [{"type": "scatter", "x": [0, 1], "y": [0, 1], "mode": "lines"}],
              "layout": {"height": 300, "margin": {"l": 50, "r": 10, "t": 10, "b": 40},
                         "shapes": [{"type": "rect", "xref": "paper", "yref": "paper", "x0": 0, "x1": 1, "y0": 1,
                                     "y1": 1, "line": {"width": 0},
                                     "label": {"text": text, "textposition": "top center"}}]}}
    found = re.search(r'<text[^>]*dominant-baseline="text-after-edge"[^>]*>([^<]*)</text>', poster(figure))
    assert found, poster(figure)
    return found.group(1)


@pytest.mark.parametrize("written", ["a &lt; b", "&amp;lt;", "x < y & z", "&#60;", "R&D", "5 &deg;"])
def test_a_models_label_is_drawn_as_the_model_wrote_it(written):
    """Escaped for Plotly, then decoded once: "&lt;" a model wrote stays "&lt;" (decoding twice drew "<")."""
    drawn = _label_drawn(plotly_text(written))
    assert drawn == written.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


@pytest.mark.parametrize("markup, shown", [
    ("&amp;lt;", "&amp;lt;"),              # one pass: "&lt;", not "<"
    ("&lt;b&gt; &amp;amp;", "&lt;b&gt; &amp;amp;"),
    ("&#60; &#x3C; &#X3c;", "&lt; &lt; &amp;#X3c;"),  # Plotly reads numeric entities; "&#X" is not one
    ("5&deg; &times; 2 &plusmn; 1&nbsp;%", "5° × 2 ± 1\u00a0%"),
    ("&bogus; &AMP; &#99999999;", "&amp;bogus; &amp;AMP; &amp;#99999999;"),  # left as written, as Plotly does
])
def test_plotly_entities_are_decoded_as_plotly_decodes_them(markup, shown):
    assert _label_drawn(markup) == shown


def test_both_axis_titles_read_as_plotly_shows_them():
    """The y axis's title (drawn turned) reads its markup as the x axis's title and every label do."""
    title = "R&amp;D <i>spend</i> &lt; 5&deg;"
    figure = {"data": [{"type": "scatter", "x": [0, 1], "y": [0, 1], "mode": "lines"}],
              "layout": {"height": 300, "margin": {"l": 50, "r": 10, "t": 10, "b": 40},
                         "xaxis": {"title": {"text": title}}, "yaxis": {"title": {"text": title}}}}
    drawn = poster(figure)
    assert drawn.count(">R&amp;D spend &lt; 5°</text>") == 2, drawn
