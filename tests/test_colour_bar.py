"""The colour bar the build draws beside a matrix or a heat strip (charts/colour_bar.py): a
gradient through the scale's own stops, which draws the scale exactly, since the build shades
cells on a straight line in RGB between those stops, as an SVG gradient does (issue 42: 33
evenly spaced stops cost a page over a kilobyte)."""
import re
from urllib.parse import unquote

import pytest

from generator.render.charts.colour_bar import colour_bar
from generator.render.charts.common import scale_colour, scale_stops


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
