"""The built cross-attention explainer opened from disk (file://) with the
network cut, driven by role and visible name as a reader would: every button
of every step, with readouts, prose, caption, chart and data table compared
with the states computed in Python."""
import base64
import json
import re

import numpy as np
import pytest

from generator.render import charts

from .test_cross_attention_figures import SLUG, TITLES, computed  # noqa: F401


@pytest.fixture
def page(built_site, offline_page):
    out, _ = built_site
    offline_page.page.goto((out / SLUG / "index.html").as_uri())
    offline_page.page.wait_for_function("window.explainerRuntime && window.Plotly")
    return offline_page


def readouts(section):
    return section.locator("dl dt").all_inner_texts(), section.locator("dl dd").all_inner_texts()


def normalise(html_text):
    return " ".join(re.sub(r"<[^>]+>", " ", html_text).replace("&amp;", "&").split())


def test_five_steps_with_titles_and_counters(page, computed):  # noqa: F811
    _, steps, _ = computed
    for states in steps:
        section = page.page.get_by_role("region", name=states.step.title, exact=True)
        assert section.count() == 1
        assert f"Step {states.step.number} of {len(TITLES)}" in section.inner_text()


def test_every_button_updates_readouts_prose_chart_and_table(page, computed):  # noqa: F811
    site, steps, prose = computed
    p = page.page
    p.evaluate("""() => {
        window.__calls = {react: 0, relayout: 0, newPlot: 0};
        for (const name of Object.keys(window.__calls)) {
            const real = Plotly[name];
            Plotly[name] = function () { window.__calls[name]++; return real.apply(this, arguments); };
        }
    }""")
    clicks = 0
    for index, (states, texts) in enumerate(zip(steps, prose)):
        step = states.step
        section = p.get_by_role("region", name=step.title, exact=True)
        section.scroll_into_view_if_needed()
        chart = section.locator("[data-chart]")
        chart.locator(".main-svg").first.wait_for()
        choice = {c.name: c.values.index(c.default) for c in step.controls}
        section.get_by_text(site.config.labels["show_data"], exact=True).click()
        for control in step.controls:
            group = section.get_by_role("group", name=control.label, exact=True)
            for value_index, value in enumerate(control.values):
                name = control.button.replace("{value}", str(value))
                group.get_by_role("button", name=re.compile(rf"^{re.escape(name)}\b")).click()
                clicks += 1
                choice[control.name] = value_index
                key = ".".join(str(choice[c.name]) for c in step.controls)
                p.wait_for_function("i => window.explainerRuntime.steps[i].drawn === window.explainerRuntime.steps[i].key",
                                    arg=index)
                state = states.by_key(key)
                pressed = group.get_by_role("button", pressed=True)
                assert pressed.count() == 1 and pressed.inner_text().startswith(name)
                labels, values = readouts(section)
                assert labels == [r.label for r in step.readouts]
                assert values == state.readouts, (step.title, key)
                html, summary = texts.states[key]
                assert normalise(section.locator("[data-prose]").inner_html()) == normalise(html)
                assert section.locator("figcaption").inner_text() == summary
                figure = charts.get(step.chart.kind).figure(step.chart, state.chart)
                drawn = chart.evaluate("el => el.data.map(t => { const c = Object.assign({}, t); delete c.uid; return c; })")
                assert drawn == _resolved(figure["data"], chart), (step.title, key)
                layout = chart.evaluate("el => ({images: (el.layout.images || []).map(i => i.source),"
                                        " shapes: (el.layout.shapes || []).length})")
                assert layout == {"images": [i["source"] for i in figure["layout"].get("images", [])],
                                  "shapes": len(figure["layout"].get("shapes", []))}, (step.title, key)
                table = charts.get(step.chart.kind).table(step.chart, state.chart, site.config.labels)
                assert _shown_table(section) == [table["columns"]] + table["rows"], (step.title, key)
    calls = p.evaluate("window.__calls")
    assert calls["newPlot"] == 0, "a click created a new plot instead of updating it"
    assert calls["react"] + calls["relayout"] >= clicks - sum(len(s.step.controls) for s in steps)
    assert page.blocked == [], f"the page made network requests: {page.blocked}"
    assert page.errors == []
    assert clicks == sum(len(c.values) for s in steps for c in s.step.controls)


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
    rows = _shown_table(section)[1:]
    assert [[cell == "masked" for cell in row[1:]] for row in rows] == [[j > i for j in range(4)] for i in range(4)]
    assert all(re.fullmatch(r"\d\.\d+", cell) for row in rows for cell in row[1:] if cell != "masked")
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
    rows = _shown_table(section)[1:]
    assert len(rows) == 4 and all(len(row) == 6 for row in rows)
    assert not any(cell == "masked" for row in rows for cell in row)
    assert page.errors == [] and page.blocked == []


def test_default_states_render_without_javascript(built_site, browser, computed):  # noqa: F811
    out, _ = built_site
    _, steps, prose = computed
    context = browser.new_context(java_script_enabled=False)
    p = context.new_page()
    p.goto((out / SLUG / "index.html").as_uri())
    for states, texts in zip(steps, prose):
        section = p.get_by_role("region", name=states.step.title, exact=True)
        assert readouts(section)[1] == states.by_key(states.default_key).readouts
        html, _ = texts.states[states.default_key]
        assert normalise(section.locator("[data-prose]").inner_html()) == normalise(html)
    context.close()


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


def _resolved(data, chart):
    """Traces as the page draws them: the theme's "var(--chart-…)" colours resolved by its CSS."""
    text = json.dumps(data)
    for name in set(re.findall(r"var\((--[\w-]+)\)", text)):
        value = chart.evaluate("(el, name) => getComputedStyle(el).getPropertyValue(name).trim()", name)
        assert value, f"the theme does not define {name}"
        text = text.replace(f"var({name})", value)
    return json.loads(text)


def _shown_table(section):
    """The chart's data table as the browser shows it: header row, then the rows."""
    return section.get_by_role("table").evaluate("t => [...t.rows].map(r => [...r.cells].map(c => c.textContent))")
