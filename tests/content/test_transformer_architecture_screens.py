"""What a screenshot pass at 1280 and 390 px found on The Transformer Architecture, kept true:
each chart shows what its step's prose asks the reader to check, at every width."""
import re
import urllib.parse

import pytest

from ..conftest import page_states

SLUG = "transformer-architecture"


@pytest.fixture(scope="session")
def computed(site_states):
    return page_states(site_states, SLUG)


def _pictures(figure):
    return [urllib.parse.unquote(image["source"]) for image in figure["layout"].get("images", [])]


def test_step4_zeroed_units_read_0_00_at_every_width(computed):
    """The prose: "the other N are exactly zero, the cells that read 0.00 in the chart". At
    390 px the matrix's picture left its values out (below 240 px wide), and no cell read 0.00."""
    _, steps, _ = computed
    states = steps[3]
    for state in states.states:
        figure = states.figures[0][state.key]
        [matrix] = [p for p in _pictures(figure) if "<text" in p]
        assert "max-width" not in matrix, state.key   # never hidden, however narrow
        zeros = sum(1 for row in state.charts[0]["z"] for v in row if v == 0)
        assert len(re.findall(r">0\.00</text>", matrix)) == zeros == 64 - int(state.readouts[1]), state.key
