"""render/charts/colour_bar.py: a picture chart's colour bar, drawn into the layout; its ticks
as Plotly chooses a colour bar's, written with a true minus sign; its gradient through the
scale's own stops, which draws the scale exactly, since the build shades cells on a straight
line in RGB between those stops, as an SVG gradient does (issue 42: 33 evenly spaced stops cost
a page over a kilobyte)."""
import re
from urllib.parse import unquote

import pytest

from generator.render.charts.colour_bar import colour_bar, tick_text, ticks
from generator.render.charts.common import scale_colour, scale_stops


def test_ticks_are_round_multiples_about_one_per_40_px():
    assert ticks(0.0, 1.0, 200) == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert ticks(-1.0, 1.0, 80) == [-1.0, 0.0, 1.0]
    assert ticks(0.0, 100.0, 400) == [0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 100.0]
    assert ticks(3.0, 3.0, 100) == [3.0], "a scale of one value has one tick"


def test_tick_text():
    assert tick_text(-0.5) == "\u22120.5" and tick_text(0.25) == "0.25" and tick_text(2.0) == "2"


@pytest.mark.parametrize("scale", ["sequential", "diverging"])
def test_the_bar_is_a_gradient_through_the_scale_s_own_stops(scale):
    [image] = colour_bar((0, 1), scale, 300, False)["images"]
    stops = [(float(offset), colour) for offset, colour in
             re.findall(r"<stop offset='([\d.]+)' stop-color='(#[0-9a-f]{6})'/>", unquote(image["source"]))]
    own = scale_stops(scale)
    assert len(stops) == len(own) <= 17
    # Top to bottom: the high end of the scale first.
    for (offset, colour), (position, expected) in zip(stops, reversed(own)):
        assert offset == pytest.approx(1 - position, abs=1e-4) and colour == expected
        assert scale_colour(scale, position) == expected
    # Between two stops the scale is the straight line the gradient draws.
    (low, start), (high, end) = own[3], own[4]
    middle = scale_colour(scale, (low + high) / 2)
    for k in (1, 3, 5):
        a, b, m = (int(c[k:k + 2], 16) for c in (start, end, middle))
        assert abs(m - (a + b) / 2) <= 0.5
