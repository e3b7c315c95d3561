"""The series' charts hold still (render/charts/held.py; the generator's own tests are in
tests/generator/render/charts/test_held.py): every chart of every step of every page keeps one
layout across the states of its step unless its step file declares rescale, in the figures the
build makes and in Plotly's own layout after the reader's clicks, and the build warns of none."""
import pytest

from generator.build import read_site

from tests.conftest import CONTENT
from tests.generator.render.charts.test_held import assert_every_chart_holds, assert_plotly_holds

EXPLAINERS = [page.slug for page in read_site(CONTENT).pages if page.kind == "explainer"]


def test_every_chart_of_every_step_holds_its_layout_unless_it_declares_rescale(site_states):
    assert_every_chart_holds(site_states[0], site_states[1])


def test_the_bundled_site_draws_every_chart_without_a_layout_warning(site_states):
    site, _, _ = site_states
    about = [str(w) for w in site.warnings if "rescale" in w.message or "layout" in w.message]
    assert about == []


@pytest.mark.parametrize("slug", EXPLAINERS)
def test_plotly_keeps_each_charts_layout_through_every_click(slug, built_site, browser):
    assert_plotly_holds(built_site[0] / slug / "index.html", browser)
