"""The built BERT page opened from disk (file://) with the network cut, read as
a reader would: the hidden "sat" guessed from both sides and missed from the
left. Every step's title, counter, default state and every control's states are
checked for every explainer by tests/test_every_explainer.py."""
import pytest

from .reader import open_explainer, readouts

SLUG = "bert-masked-language-modeling"


@pytest.fixture
def page(built_site, offline_page):
    return open_explainer(offline_page, built_site[0], SLUG)


def test_the_hidden_sat_is_guessed_from_both_sides_and_missed_from_the_left(page):
    p = page.page
    section = p.get_by_role("region", name="Both Sides at Once", exact=True)
    section.scroll_into_view_if_needed()
    context = section.get_by_role("group", name="Context", exact=True)
    words = section.get_by_role("group", name="Word to hide", exact=True)
    words.get_by_role("button", name="sat", exact=True).click()
    context.get_by_role("button", name="Both sides", exact=True).click()
    labels, values = readouts(section)
    assert dict(zip(labels, values))["Top guess"] == "sat"
    context.get_by_role("button", name="Left only", exact=True).click()
    labels, values = readouts(section)
    assert dict(zip(labels, values))["Top guess"] != "sat"
    assert dict(zip(labels, values))["Visible words"] == "2"
