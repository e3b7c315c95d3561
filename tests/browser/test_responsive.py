"""Small screens: at 360 px wide every page of every shipped theme fits
without horizontal scrolling (charts and open data tables included), and
every control is a touch target of at least 24 × 24 px (WCAG 2.5.8), and no text in
the page's HTML is under 12 px (a phone's legible size, which Lighthouse's best practices
score: a figure's BibTeX at .9em of a smaller box once fell to 11.3 px). Every
page of the bundled site, and of tests/fixtures/newcomer/: a new author's
Gradient Descent explainer and a page of the longest titles, labels and
readouts an author might write (chart titles in the Embed buttons, unbroken
words, code names, long button, slider and readout texts). A game's page is checked in
every round, each shown by its link in the list of rounds with Reveal pressed and its data open,
and nothing of a round may be cut off: no part of it past the screen's edges, none hidden in a box
that scrolls."""
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


CUT_OFF = """root => {
    // What of `root` a 360 px screen does not show: past the screen's edges, or hidden in a box that scrolls,
    // each the outermost such element only. Text for screen readers only (a 1 px clipped box) is not shown anyway.
    const width = document.documentElement.clientWidth, found = [], cut = [];
    for (const el of [root, ...root.querySelectorAll("*")]) {
        const box = el.getBoundingClientRect();
        if (box.width <= 1 || !el.checkVisibility() || el.closest(".visually-hidden")) continue;
        if (found.some(outer => outer.contains(el))) continue;
        const name = `${el.tagName.toLowerCase()}.${el.getAttribute("class") || ""} `
            + `"${el.textContent.trim().slice(0, 30)}"`;
        const past = box.left < -0.5 || box.right > width + 0.5;
        const scrolls = getComputedStyle(el).overflowX !== "visible" && el.scrollWidth > el.clientWidth + 1;
        if (past) cut.push(`${name} spans ${box.left.toFixed(0)} to ${box.right.toFixed(0)} px`);
        if (scrolls) cut.push(`${name} scrolls: ${el.scrollWidth} px of content in ${el.clientWidth} px`);
        if (past || scrolls) found.push(el);
    }
    return cut;
}"""


def screen_problems(page) -> list[str]:
    """What is wrong with the page as a 360 px screen shows it now: a page wider than the screen,
    targets too small, text too small."""
    width = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    wide = [f"{width[0]} px of content in a {width[1]} px screen"] if width[0] > width[1] else []
    return (wide + [f"small target {t}" for t in page.evaluate(SMALL_TARGETS)]
            + [f"small text {t}" for t in page.evaluate(SMALL_TEXT)])


def game_rounds(page, rounds: str = "Rounds", reveal: str = "Reveal"):
    """Each round of a game's page in turn, as a reader reaches it: by its link in the list of rounds,
    then with Reveal pressed and its data open. Yields (its title, its region); a page that is not a
    game yields nothing."""
    listed = page.get_by_role("navigation", name=rounds, exact=True)
    for title in listed.get_by_role("link").all_inner_texts():
        listed.get_by_role("link", name=title, exact=True).click()
        region = page.get_by_role("region", name=title, exact=True)
        region.wait_for(state="visible")  # a same-document jump: its hashchange may run after the click
        region.get_by_role("button", name=reveal, exact=True).click()
        open_data_tables(page)
        yield title, region


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
        problems += [f"{path.relative_to(out)}: {p}" for p in screen_problems(page)]
        for title, region in game_rounds(page):
            problems += [f"{path.relative_to(out)}, round {title}: {p}"
                         for p in screen_problems(page) + region.evaluate(CUT_OFF)]
    context.close()
    assert problems == [], f"theme {theme}:\n" + "\n".join(problems)
