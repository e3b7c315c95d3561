"""What a screenshot pass at 1280 and 390 px found on Spotlight, kept true."""
import pytest

from generator.kinds.game.drawing import MIN_SCALE, attention_drawing, own_drawing

SLUG = "spotlight"
PHONE_COLUMN = 350   # the page's column on a 390 px phone


@pytest.fixture(scope="module")
def rounds(site_states):
    _, computed, _ = site_states
    return computed[SLUG].rounds


def test_every_rounds_drawing_fits_a_390_px_phone(rounds):
    """Round 2's drawing (13 words) scrolled at 390 px, with the target, boy, and the arc to it off
    the column's left edge; at its least scale every drawing now fits the column, words about 10 px."""
    for states in rounds:
        for drawing in (attention_drawing(states, "___"), own_drawing(states, "___")):
            assert drawing.min_width <= PHONE_COLUMN, states.words
    assert 16 * MIN_SCALE >= 9.5
