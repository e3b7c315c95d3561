"""The multi-head page's charts prove what its text says (issue 42): step 2 draws
x · W_Q = Q for one token, x whole and Q's columns dealt out to the heads, so no
head reads as taking a slice of the embedding; step 6's small multiples leave their
numbers out, drawn too small to read at any width, and the data table keeps them."""
import re

import pytest

from ..conftest import PageWatch, wait_for_runtime
from .reader import step_rows, wait_until_drawn
from .test_mha_model import model  # noqa: F401  (the toy model, imported from content/)

SLUG = "multi-head-attention"
READABLE_PX = 9      # the smallest number the page writes in a cell (charts/heatmap.py)
TEXT_SHARE = 0.3     # a number's height in a cell, as a share of the cell's side


def test_step2_draws_x_whole_and_q_by_head(mha_states, model):  # noqa: F811
    rows = step_rows(mha_states, 2)
    assert len(rows) == len(model.HEAD_COUNTS)
    rows_of_w_q, columns_of_w_q = model.W_Q.shape
    for state, _, prose in rows:
        heads, d_k = state.choice["heads"], model.D_MODEL // state.choice["heads"]
        x_chart, columns, q_chart = state.charts
        # x is one block of every number: each column of W_Q is as deep as x, so every head reads all of it.
        assert x_chart["sizes"] == [rows_of_w_q] == [model.D_MODEL] and x_chart["labels"] == ["Every head"]
        # W_Q's columns and Q's numbers in one block of d_k per head, named by head.
        names = [f"Head {i + 1}" for i in range(heads)]
        for chart in (columns, q_chart):
            assert chart["sizes"] == [d_k] * heads and chart["labels"] == names
        assert sum(q_chart["sizes"]) == columns_of_w_q
        assert "slices of" not in prose and "cut into" not in prose
        if heads > 1:
            assert f"every head reads all {model.D_MODEL} numbers of x" in prose
            assert f"its own {d_k} columns of W^Q" in prose


@pytest.mark.parametrize("width", [390, 1280])
def test_step6_small_multiples_leave_out_numbers_too_small_to_read(built_site, browser, width):
    """Four 6 × 6 maps in a chart 540 px high: at 390 px and at 1280 px alike a cell is drawn
    too small for a number 9 px high (under 30 px), so the pictures write none (cell_text =
    "off", which also spares the page the bytes), a colour bar says what the colours mean,
    and the data table keeps every number."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        watch = PageWatch(page)
        page.goto((built_site[0] / SLUG / "index.html").as_uri())
        wait_for_runtime(page)
        page.evaluate("window.lensa.runtime.plotly()")
        page.wait_for_function("window.Plotly")
        section = page.get_by_role("region", name="Multi-Head in Action", exact=True)
        section.scroll_into_view_if_needed()
        pictures = section.locator("[data-chart] .imagelayer image")
        pictures.nth(3).wait_for(state="attached")
        wait_until_drawn(section)
        drawn = pictures.evaluate_all(
            "images => images.map(i => [decodeURIComponent(i.getAttribute('href')), i.getBoundingClientRect().width])")
        matrices = [(href, px) for href, px in drawn if "viewBox='0 0 6 6'" in href]
        assert len(matrices) == 4, [px for _, px in drawn]
        for href, px in matrices:
            assert px / 6 * TEXT_SHARE < READABLE_PX, (width, px)
            assert "<text" not in href
        assert any("viewBox='0 0 6 6'" not in href for href, _ in drawn), "a colour bar beside the maps"
        # The data table keeps every number whatever the pictures show.
        section.locator("summary", has_text="Show data").first.click()
        table = section.locator("table").first
        assert table.locator("tbody tr").count() == 4 * 6
        assert re.fullmatch(r"\d\.\d\d", table.locator("tbody tr td").first.inner_text().strip())
        assert watch.errors == [] and watch.blocked == []
    finally:
        context.close()
