"""The built decoder-only page opened from disk (file://) with the network cut,
read as a reader would: the causal mask's cells read as masked in the data
table. Every step's title, counter, default state and every control's states
are checked for every explainer by tests/test_every_explainer.py."""
import pytest

from .reader import open_explainer, shown_table
from .test_decoder_only_transformers_figures import SLUG, dot_states  # noqa: F401


@pytest.fixture
def page(built_site, offline_page):
    return open_explainer(offline_page, built_site[0], SLUG)


def test_masked_cells_read_as_masked_in_the_table(page, dot_states):  # noqa: F811
    """Done when: the masked cells of every causal matrix read as masked, in the data table."""
    _, steps, _ = dot_states
    section = page.page.get_by_role("region", name=steps[0].step.title, exact=True)
    section.scroll_into_view_if_needed()
    section.get_by_text("Show data", exact=True).click()
    rows = shown_table(section.get_by_role("table"))["rows"]
    assert [[cell == "masked" for cell in row[1:]] for row in rows] == [[j > i for j in range(6)] for i in range(6)]
    section.get_by_role("button", name="Causal mask", exact=True).click()
    rows = shown_table(section.get_by_role("table"))["rows"]
    assert not any(cell == "masked" for row in rows for cell in row)
    assert page.errors == [] and page.blocked == []
