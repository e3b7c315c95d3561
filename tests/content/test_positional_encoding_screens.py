"""What a screenshot pass at 1280 and 390 px found on Positional Encoding, kept true: each chart
shows what its step's prose asks the reader to check, at every width."""
import urllib.parse

import pytest

from ..conftest import page_states

SLUG = "positional-encoding"


@pytest.fixture(scope="session")
def computed(site_states):
    return page_states(site_states, SLUG)


def test_step1_names_every_word_and_prints_every_value_at_every_width(computed):
    """The prose: "only the position in brackets under the word changes", the hint: "and not one value
    in the cells". As 3 rows of 16 the middle word, bites (1), had no label (a phone's rows were too close
    for three) and a phone showed no values: now a column a word, each labelled, values always printed."""
    _, steps, _ = computed
    states = steps[0]
    for state in states.states:
        layout = states.figures[0][state.key]["layout"]
        # The words differ between states, so shapes write them (held.x_label_shapes), else the axis's ticks.
        written = layout["xaxis"].get("ticktext") or [s["label"]["text"] for s in layout["shapes"]
                                                      if s.get("label", {}).get("text") in state.charts[0]["x"]]
        assert written == state.charts[0]["x"] and len(written) == 3, state.key
        [matrix] = [urllib.parse.unquote(image["source"]) for image in layout["images"]
                    if "<text" in urllib.parse.unquote(image["source"])]
        assert "max-width" not in matrix, state.key
        assert matrix.count("</text>") == 3 * 16, state.key
