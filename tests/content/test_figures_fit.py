"""The series' figure files (render/figures.py): every line of each one's title, caption and
source fits its width as Chromium draws it (the generator's test, on its fixtures:
tests/generator/render/test_figures.py)."""
from tests.generator.render.test_figures import assert_figures_fit


def test_every_figure_s_text_fits_its_width_in_chromium_s_font(built_site, browser):
    assert_figures_fit(built_site, browser=browser)
