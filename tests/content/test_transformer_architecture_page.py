"""The built "The Transformer Architecture" opened from disk (file://) with the
network cut, read as a reader would: the figures of its brief, after a few
clicks. Every step's title, counter, default state and every control's states
are checked for every explainer by tests/test_every_explainer.py."""
import pytest

from .reader import open_explainer, readouts
from .test_transformer_architecture_figures import SLUG


@pytest.fixture
def page(built_site, offline_page):
    return open_explainer(offline_page, built_site[0], SLUG)


def test_the_brief_figures_show_on_the_page(page):
    """A few figures of the brief, read off the page itself after clicks."""
    p = page.page
    whole = p.get_by_role("region", name="The Whole Picture", exact=True)
    whole.get_by_role("group", name="Part", exact=True).get_by_role("button", name="Output", exact=True).click()
    assert readouts(whole)[1] == ["Output", "n×512", "n×37,000", "0"]
    norm = p.get_by_role("region", name="Layer Normalization", exact=True)
    for token in norm.get_by_role("group", name="Token", exact=True).get_by_role("button").all():
        token.click()
        shown = dict(zip(*readouts(norm)))
        assert shown["Mean after"] == "0.00" and shown["Std after"] == "1.00"
    ff = p.get_by_role("region", name="The Feed-Forward Network", exact=True)
    shown = dict(zip(*readouts(ff)))
    assert shown["d_ff"] == "2,048" and shown["Parameters"] == "2,099,712"
    stack = p.get_by_role("region", name="Stacking the Layers", exact=True)
    stack.get_by_role("group", name="Model", exact=True).get_by_role("button", name="Big", exact=True).click()
    shown = dict(zip(*readouts(stack)))
    assert shown["d_model"] == "1,024" and shown["Heads"] == "16"
    assert page.errors == [] and page.blocked == []
