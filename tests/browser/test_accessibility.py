"""Accessibility of every built page, in both shipped themes and both colour
schemes: axe-core (from the npm registry, see package.json) finds no serious
or critical violation, the theme's colours meet WCAG 2.2 AA contrast, and the
chart's text alternatives (summary sentence and data table) are in place."""
from __future__ import annotations

import pytest

from tests.conftest import (PAGE_SHARDS, ROOT, draw_every_chart, open_data_tables, page_shard, rendered_pages,
                       wait_for_runtime)

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
# Every WCAG 2.0-2.2 A and AA rule (target size included) and axe's best practices.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]


@pytest.fixture(scope="module")
def axe_script():
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run 'make test' (it runs npm ci)")
    return str(AXE)


def open_page(browser, path, scheme, width=1280):
    context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri())
    wait_for_runtime(page)
    if page.locator("[data-chart]").count():
        draw_every_chart(page)
    return context, page, errors


# What a change of colour scheme alone can break: the page's structure, names and sizes
# stay as they were, so after the switch axe runs the rules that read colours.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def run_axe(page, axe_script, where: str, rules: list[str] | None = None) -> list[str]:
    """axe-core over the whole page as it is now (every rule of AXE_TAGS, or only
    `rules`): its serious and critical violations, a line each."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=axe_script)
    only = {"type": "rule", "values": rules} if rules else {"type": "tag", "values": AXE_TAGS}
    result = page.evaluate("only => axe.run(document, {runOnly: only, resultTypes: ['violations']})", only)
    return [f"{where}: {violation['id']} ({violation['impact']}): {violation['help']} at "
            f"{[' '.join(map(str, n['target'])) for n in violation['nodes'][:3]]}"
            for violation in result["violations"] if violation["impact"] in ("serious", "critical")]


def switch_to_dark(page) -> None:
    """The system setting turns dark, as a reader's phone does at dusk: the page's colours
    follow and every drawn chart is drawn again in the dark palette before this returns."""
    charts = "Array.from(document.querySelectorAll('[data-chart]')).filter(c => c._fullLayout)"
    before = page.evaluate(f"{charts}.map(c => c._fullLayout.font.color)")
    page.emulate_media(color_scheme="dark")
    page.wait_for_function("""([before]) => {
        const rgb = getComputedStyle(document.body).backgroundColor.match(/\\d+/g).slice(0, 3).map(Number);
        const charts = """ + charts + """;
        return rgb[0] + rgb[1] + rgb[2] < 300 && charts.length === before.length
            && charts.every((c, i) => c._fullLayout.font.color !== before[i]);
    }""", arg=[before])


@pytest.mark.parametrize("shard", range(PAGE_SHARDS))
def test_axe_finds_no_serious_violations_in_either_scheme(themed_site, browser, axe_script, shard):
    """Every page as a reader meets it in the light scheme, then again after the system
    turns dark, with the rules a change of colours can break (one load, so the page's own
    switch of colours is what axe checks)."""
    theme, out = themed_site
    report = []
    for path in page_shard(rendered_pages(out), shard):
        where = str(path.relative_to(out))
        context, page, errors = open_page(browser, path, "light")
        open_data_tables(page)  # so that axe checks them too
        report += run_axe(page, axe_script, f"{where} (light)")
        switch_to_dark(page)
        report += run_axe(page, axe_script, f"{where} (dark)", COLOUR_RULES)
        assert errors == [], errors
        context.close()
    assert report == [], f"theme {theme}:\n" + "\n".join(report)


# (foreground, background) pairs of the theme's colour variables.
TEXT_PAIRS = [("fg", "bg"), ("fg", "surface"), ("muted", "bg"), ("muted", "surface"), ("accent", "bg"),
              ("accent", "surface"), ("accent-fg", "pressed-bg"), ("fg", "hint-bg"), ("chart-text", "bg")]
# Edges of controls, the focus ring and chart marks: 3:1 (WCAG 1.4.11).
NON_TEXT_PAIRS = [("control-border", "bg"), ("control-border", "surface"), ("focus", "bg"),
                  ("focus", "surface"), ("pressed-bg", "bg"), ("chart-axis", "bg"), ("chart-bar", "bg"),
                  ("chart-mark", "bg")]
SELECTED_MARK = "#D55E00"  # generator/charts/common.py ACCENT, drawn on the page background


def contrast(a, b):
    def luminance(rgb):
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (v / 255 for v in rgb)]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def theme_colours(page, names):
    """Each colour variable as the browser computes it, as (r, g, b)."""
    return page.evaluate("""names => {
        const probe = document.createElement("span");
        document.body.appendChild(probe);
        const out = {};
        for (const name of names) {
            probe.style.color = `var(--${name})`;
            out[name] = getComputedStyle(probe).color.match(/\\d+/g).slice(0, 3).map(Number);
        }
        probe.remove();
        return out;
    }""", names)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_theme_colours_meet_wcag_aa_contrast(themed_site, browser, scheme):
    theme, out = themed_site
    context, page, _ = open_page(browser, out / "index.html", scheme)
    names = sorted({n for pair in TEXT_PAIRS + NON_TEXT_PAIRS for n in pair})
    colours = theme_colours(page, names)
    background = colours["bg"]
    assert (sum(background) < 300) == (scheme == "dark"), f"{theme}: the {scheme} scheme is not in effect"
    low = [f"{fg} on {bg}: {contrast(colours[fg], colours[bg]):.2f}" for fg, bg in TEXT_PAIRS
           if contrast(colours[fg], colours[bg]) < 4.5]
    low += [f"{fg} on {bg}: {contrast(colours[fg], colours[bg]):.2f}" for fg, bg in NON_TEXT_PAIRS
            if contrast(colours[fg], colours[bg]) < 3]
    mark = tuple(int(SELECTED_MARK[i:i + 2], 16) for i in (1, 3, 5))
    if contrast(mark, background) < 3:
        low.append(f"selected mark on bg: {contrast(mark, background):.2f}")
    context.close()
    assert low == [], f"theme {theme}, {scheme} scheme: too little contrast: {low}"


def test_charts_have_text_alternatives_and_changes_are_announced(built_site, browser):
    """What a screen reader meets at each step: the chart drawing hidden, a
    summary sentence as the figure's caption, a data table named after the
    chart, and readouts and prose in polite live regions."""
    out, _ = built_site
    context, page, errors = open_page(browser, out / "multi-head-attention" / "index.html", "light")
    sections = page.locator("section[data-step]")
    assert sections.count() >= 2
    for i in range(sections.count()):
        section = sections.nth(i)
        charts = section.locator("[data-chart]")
        assert charts.count() >= 1
        # A step may draw several charts (multi-head attention's step 2 draws three): each is a figure.
        for k in range(charts.count()):
            chart = charts.nth(k)
            assert chart.get_attribute("aria-hidden") == "true"
            assert chart.locator("svg").count() >= 1  # drawn, and hidden with its container
            caption = section.get_by_role("figure").nth(k).locator("figcaption")
            assert len(caption.inner_text().split()) >= 5
            section.get_by_text("Show data", exact=True).nth(k).click()
            tables = section.get_by_role("table", name="Data shown in the chart", exact=False)
            assert tables.count() == k + 1, "each chart's Show data opens that chart's table"
            table = tables.nth(k)
            assert table.get_by_role("columnheader").count() >= 2
            assert table.get_by_role("rowheader").count() >= 1
        assert section.locator("dl").get_attribute("aria-live") == "polite"
        assert section.locator("[data-prose]").get_attribute("aria-live") == "polite"
    assert errors == []
    context.close()
