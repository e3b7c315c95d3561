"""Small screens: at 360 px wide every page of every shipped theme fits
without horizontal scrolling (charts and open data tables included), and
every control is a touch target of at least 24 × 24 px (WCAG 2.5.8), and no text in
the page's HTML is under 12 px (a phone's legible size, which Lighthouse's best practices
score: a figure's BibTeX at .9em of a smaller box once fell to 11.3 px). Every
page of the bundled site, and of tests/fixtures/newcomer/: a new author's
Gradient Descent explainer and a page of the longest titles, labels and
readouts an author might write (chart titles in the Embed buttons, unbroken
words, code names, long button, slider and readout texts)."""
from __future__ import annotations

import pytest

from generator.build import build

from tests.conftest import (FIXTURES, PAGE_SHARDS, THEME_NAMES, THEMES, draw_every_chart, open_data_tables, page_shard,
                       rendered_pages, wait_for_runtime)

PHONE = {"width": 360, "height": 740}

SMALL_TARGETS = """() => {
    const small = [];
    for (const el of document.querySelectorAll("a[href], button, summary, [tabindex='0']")) {
        const box = el.getBoundingClientRect();
        if (!box.width || getComputedStyle(el).visibility === "hidden") continue;
        if (box.width >= 24 && box.height >= 24) continue;
        // Links inside a sentence are exempt: their size follows the text.
        const block = el.parentElement.closest("p, li, dd, td, figcaption, summary");
        if (el.tagName === "A" && block && block.textContent.trim() !== el.textContent.trim()) continue;
        small.push(`${el.tagName} "${el.textContent.trim().slice(0, 30)}" ${box.width.toFixed(0)}x${box.height.toFixed(0)}`);
    }
    return small;
}"""


SMALL_TEXT = """() => {
    // Text in HTML (a chart's drawing aside) under 12 px, as a phone would show it.
    const small = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node; (node = walker.nextNode());) {
        const text = node.textContent.trim();
        const el = node.parentElement;
        if (!text || el.closest("svg, math")) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        if (!range.getClientRects().length) continue;
        const size = parseFloat(getComputedStyle(el).fontSize);
        if (size < 12) small.push(`${el.tagName} ${size.toFixed(1)} px "${text.slice(0, 30)}"`);
    }
    return small;
}"""


@pytest.mark.parametrize("shard", range(PAGE_SHARDS))
def test_pages_fit_a_360px_screen_with_large_enough_targets(themed_site, browser, shard):
    theme, out = themed_site
    assert_fits_a_phone(browser, out, theme, page_shard(rendered_pages(out), shard))


@pytest.mark.parametrize("theme", THEME_NAMES)
def test_long_titles_labels_and_readouts_fit_a_360px_screen(theme, browser, tmp_path):
    out = tmp_path / "build"
    build(FIXTURES / "newcomer" / "content", out, THEMES, theme)
    pages = rendered_pages(out)
    assert len(pages) >= 6 and out / "long-labels" / "index.html" in pages
    assert_fits_a_phone(browser, out, theme)


def assert_fits_a_phone(browser, out, theme, pages=None):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    problems = []
    for path in rendered_pages(out) if pages is None else pages:
        page.goto(path.as_uri())
        wait_for_runtime(page)
        if page.locator("[data-chart]").count():
            draw_every_chart(page)
        open_data_tables(page)
        width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        if width[0] > width[1]:
            problems.append(f"{path.relative_to(out)}: {width[0]} px of content in a {width[1]} px screen")
        problems += [f"{path.relative_to(out)}: small target {t}" for t in page.evaluate(SMALL_TARGETS)]
        problems += [f"{path.relative_to(out)}: small text {t}" for t in page.evaluate(SMALL_TEXT)]
    context.close()
    assert problems == [], f"theme {theme}:\n" + "\n".join(problems)
