"""The built self-attention explainer opened from disk (file://) with the
network cut, read as a reader would: the figures of its brief, after a few
clicks. Every step's title, counter, default state and every control's states
are checked for every explainer by tests/test_every_explainer.py."""
import pytest

from .reader import open_explainer, readouts

SLUG = "self-attention"


@pytest.fixture
def page(built_site, offline_page):
    return open_explainer(offline_page, built_site[0], SLUG)


def test_the_brief_figures_as_the_reader_sees_them(page):
    p = page.page
    two = p.get_by_role("region", name="Scaling by √d_k", exact=True)
    two.scroll_into_view_if_needed()
    assert dict(zip(*readouts(two)))["Scale"] == "0.125"
    two.get_by_role("button", name="Scale by √d_k", exact=True).click()
    two.get_by_role("group", name="d_k", exact=True).get_by_role("button", name="256", exact=True).click()
    shown = dict(zip(*readouts(two)))
    assert shown["Scale"] == "1.000" and float(shown["Top weight"]) >= 0.90
    five = p.get_by_role("region", name="All Queries at Once", exact=True)
    five.scroll_into_view_if_needed()
    five.get_by_role("group", name="Length", exact=True).get_by_role("button", name="48", exact=True).click()
    assert dict(zip(*readouts(five))) == {"Matrix shape": "48×48", "Score entries": "2,304", "Row sums": "1.00"}
    five.get_by_role("group", name="View", exact=True).get_by_role("button", name="Scores", exact=True).click()
    assert dict(zip(*readouts(five)))["Row sums"] == "varies"
    one = p.get_by_role("region", name="Queries and Keys", exact=True)
    # The default row's negative scores are drawn below the axis, with the minus sign in the table.
    one.scroll_into_view_if_needed()
    one.locator("[data-chart] .main-svg").first.wait_for()
    bars = one.locator("[data-chart]").evaluate("el => el.layout.shapes.filter(s => s.layer === 'between')")
    assert min(bar["y1"] for bar in bars) < 0 == min(bar["y0"] for bar in bars)
    one.get_by_text("Show data", exact=True).click()
    assert "\u2212" in one.get_by_role("table").inner_text() and "-" not in one.get_by_role("table").inner_text()
    assert page.blocked == [] and page.errors == []
