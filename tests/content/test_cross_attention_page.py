"""The built cross-attention explainer opened from disk (file://) with the
network cut, read as a reader would: the decoder's causal matrix, masked to the
eye and in its data table. Every step's title, counter, default state and every
control's states are checked for every explainer by
tests/test_every_explainer.py."""
import base64
import re

import numpy as np
import pytest

from .reader import open_explainer, shown_table
from .test_cross_attention_figures import SLUG, TITLES, computed  # noqa: F401


@pytest.fixture
def page(built_site, offline_page):
    return open_explainer(offline_page, built_site[0], SLUG)


def test_the_causal_matrix_reads_as_masked_to_the_eye_and_in_the_table(page, computed):  # noqa: F811
    """Issue 14: the future cells of the decoder's self-attention are masked,
    never drawn or listed as zeros of the colour scale."""
    _, steps, _ = computed
    p = page.page
    section = p.get_by_role("region", name=TITLES[2], exact=True)
    section.scroll_into_view_if_needed()
    chart = section.locator("[data-chart]")
    chart.locator(".main-svg").first.wait_for()
    section.get_by_role("group", name="Attention", exact=True).get_by_role("button", name="Self").click()
    section.get_by_text("Show data", exact=True).click()
    rows = shown_table(section.get_by_role("table"))["rows"]
    # Masked cells read as the legend names them.
    assert [[cell == "masked (future)" for cell in row[1:]] for row in rows] == [[j > i for j in range(4)]
                                                                                for i in range(4)]
    assert all(re.fullmatch(r"\d\.\d+", cell) for row in rows for cell in row[1:] if cell != "masked (future)")
    # The legend names the masked cells, and on screen they are grey (hatched),
    # while every other cell has a colour of the scale (Viridis has no greys).
    assert "masked" in chart.inner_text()
    state = steps[2].by_key(steps[2].default_key)
    mask = np.array(state.chart["mask"])
    assert mask.sum() == 6
    pixels = _cell_pixels(p, chart, len(mask), len(mask[0]))
    for i, row in enumerate(pixels):
        for j, (r, g, b, _) in enumerate(row):
            grey = max(r, g, b) - min(r, g, b) < 12
            assert grey == bool(mask[i][j]), (i, j, (r, g, b))
    section.get_by_role("group", name="Attention", exact=True).get_by_role("button", name="Cross").click()
    rows = shown_table(section.get_by_role("table"))["rows"]
    assert len(rows) == 4 and all(len(row) == 6 for row in rows)
    assert not any("masked" in cell for row in rows for cell in row)
    assert page.errors == [] and page.blocked == []


def _cell_pixels(p, chart, rows, cols):
    """The colour on screen near the top-left corner of each cell of a matrix
    chart (away from its printed value), read from a screenshot of the chart."""
    chart.locator(".main-svg").first.wait_for()
    points = chart.evaluate("""(el, [rows, cols]) => {
        const xa = el._fullLayout.xaxis, ya = el._fullLayout.yaxis;
        const out = [];
        for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++)
            out.push([Math.round(xa._offset + xa.l2p(j - 0.3)), Math.round(ya._offset + ya.l2p(i - 0.3))]);
        return out;
    }""", [rows, cols])
    png = "data:image/png;base64," + base64.b64encode(chart.screenshot()).decode()
    colours = p.evaluate("""async ([src, points]) => {
        const img = new Image();
        img.src = src;
        await img.decode();
        const canvas = document.createElement("canvas");
        canvas.width = img.width;
        canvas.height = img.height;
        const ctx = canvas.getContext("2d");
        ctx.drawImage(img, 0, 0);
        return points.map(([x, y]) => Array.from(ctx.getImageData(x, y, 1, 1).data));
    }""", [png, points])
    return [colours[i * cols:(i + 1) * cols] for i in range(rows)]
