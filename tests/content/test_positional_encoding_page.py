"""The built positional-encoding page opened from disk (file://) with the network
cut, read as a reader would: the figures of its brief, after a few clicks (the
buttons, the toggle, the slider). Every step's title, counter, default state and
every control's states are checked for every explainer by
tests/test_every_explainer.py."""
import pytest

from .reader import open_explainer, readouts
from .test_positional_encoding_model import SLUG


@pytest.fixture
def page(built_site, offline_page):
    return open_explainer(offline_page, built_site[0], SLUG)


def test_the_brief_figures_as_a_reader_sees_them(page):
    p = page.page
    one = p.get_by_role("region", name="Order Matters", exact=True)
    toggle = one.get_by_role("button", name="Positional encoding", exact=True)
    assert toggle.get_attribute("aria-pressed") == "false"
    assert readouts(one)[1] == ["dog bites man", "Yes"]
    toggle.click()
    assert readouts(one)[1] == ["dog bites man", "No"]
    two = p.get_by_role("region", name="Waves of Many Frequencies", exact=True)
    for pair, wavelength in (("1", "19.87"), ("2", "62.83"), ("0", "6.28")):
        two.get_by_role("group", name="Pair", exact=True).get_by_role("button", name=pair, exact=True).click()
        assert readouts(two)[1][3] == wavelength
    three = p.get_by_role("region", name="A Fingerprint for Every Position", exact=True)
    slider = three.get_by_role("slider", name="Position", exact=True)
    assert slider.input_value() == "5" and readouts(three)[1] == ["5", "−0.96", "0.28", "2.83"]
    slider.press("End")
    assert slider.input_value() == "31" and readouts(three)[1][3] == "2.83"
    four = p.get_by_role("region", name="Relative Offsets", exact=True)
    assert readouts(four)[1] == ["5", "1", "7.49", "Yes"]
    five = p.get_by_role("region", name="Learned and Rotary Positions", exact=True)
    five.get_by_role("group", name="Scheme", exact=True).get_by_role("button", name="Learned", exact=True).click()
    assert readouts(five)[1] == ["Learned", "512", "added to the input"]
    assert page.errors == [] and page.blocked == []
