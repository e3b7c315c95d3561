"""The built explainer opened from disk (file://) with the network cut, driven
by role and visible name as a reader would: every control of every step."""
import json
import re

import pytest

from generator.render import charts

SLUG = "multi-head-attention"


@pytest.fixture(scope="module")
def expected(mha_states):
    return mha_states


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


def test_page_shows_six_steps_with_titles_and_counters(page, expected):
    site, steps, _ = expected
    sections = page.page.get_by_role("region")
    for computed in steps:
        step = computed.step
        section = page.page.get_by_role("region", name=step.title, exact=True)
        assert section.count() == 1
        assert f"Step {step.number} of {len(steps)}" in section.inner_text()
    assert sections.count() >= len(steps)


def test_every_control_updates_readouts_prose_and_chart(page, expected):
    _, steps, prose = expected
    p = page.page
    # Count Plotly calls: charts must be updated in place (Plotly.react, or Plotly.relayout
    # when only shapes and pictures change), never drawn anew.
    p.evaluate("""() => {
        window.__calls = {react: 0, relayout: 0, newPlot: 0};
        for (const name of Object.keys(window.__calls)) {
            const real = Plotly[name];
            Plotly[name] = function () { window.__calls[name]++; return real.apply(this, arguments); };
        }
    }""")
    clicks = 0
    site = expected[0]
    for computed, texts in zip(steps, prose):
        step = computed.step
        section = p.get_by_role("region", name=step.title, exact=True)
        section.scroll_into_view_if_needed()
        chart = section.locator("[data-chart]")
        chart.locator(".main-svg").first.wait_for()
        choice = {c.name: c.values.index(c.default) for c in step.controls}
        section.get_by_text("Show data", exact=True).click()  # the chart's data table
        for control in step.controls:
            group = section.get_by_role("group", name=control.label, exact=True)
            for index, value in enumerate(control.values):
                name = control.button.replace("{value}", str(value))
                group.get_by_role("button", name=re.compile(rf"^{re.escape(name)}\b")).click()
                clicks += 1
                choice[control.name] = index
                key = ".".join(str(choice[c.name]) for c in step.controls)
                state = computed.by_key(key)
                button = group.get_by_role("button", pressed=True)
                assert button.count() == 1 and button.inner_text().startswith(name)
                labels, values = readouts(section)
                assert labels == [r.label for r in step.readouts]
                assert values == state.readouts, (step.title, key)
                html, summary = texts.states[key]
                assert normalise(section.locator("[data-prose]").inner_html()) == normalise(html)
                if summary:
                    assert section.locator("figcaption").inner_text() == summary
                drawn = chart.evaluate("el => el.data.map(t => { const c = Object.assign({}, t); delete c.uid; return c; })")
                assert drawn == _expected_traces(step, state, chart), (step.title, key)
                pictures = chart.evaluate("el => (el.layout.images || []).map(i => i.source)")
                assert pictures == _expected_pictures(step, state), (step.title, key)
                assert _shown_table(section) == _expected_table(step, state, site), (step.title, key)
        assert chart.locator(".main-svg").count() >= 1
    calls = p.evaluate("window.__calls")
    assert calls["newPlot"] == 0, "a click created a new plot instead of updating it"
    # Every click but those on the value already chosen (one per control) changes the state.
    assert calls["react"] + calls["relayout"] >= clicks - sum(len(s.step.controls) for s in steps)
    assert page.blocked == [], f"the page made network requests: {page.blocked}"
    assert page.errors == []
    assert clicks > 30


def _expected_traces(step, state, chart):
    """The traces the chart must show for a state, as JSON would carry them,
    with the theme's colours ("var(--chart-…)") as the page's CSS defines them."""
    figure = charts.get(step.chart.kind).figure(step.chart, state.chart)
    text = json.dumps(figure["data"])
    for name in set(re.findall(r"var\((--[\w-]+)\)", text)):
        value = chart.evaluate("(el, name) => getComputedStyle(el).getPropertyValue(name).trim()", name)
        assert value, f"the theme does not define {name}"
        text = text.replace(f"var({name})", value)
    return json.loads(text)


def _expected_pictures(step, state):
    """The pictures a chart draws its matrix with (charts/heatmap.py), in order."""
    figure = charts.get(step.chart.kind).figure(step.chart, state.chart)
    return [image["source"] for image in figure["layout"].get("images", [])]


def _shown_table(section):
    """The chart's data table as a reader's browser exposes it: header row, then rows."""
    table = section.get_by_role("table")
    return table.evaluate("""t => ({
        columns: Array.from(t.tHead.rows[0].cells, c => c.textContent),
        rows: Array.from(t.tBodies[0].rows, r => Array.from(r.cells, c => c.textContent)),
        current: Array.from(t.tBodies[0].rows).findIndex(r => r.getAttribute("aria-current") === "true"),
    })""")


def _expected_table(step, state, site):
    table = charts.get(step.chart.kind).table(step.chart, state.chart, site.config.labels)
    return {"columns": table["columns"], "rows": table["rows"], "current": table.get("highlight", -1)}


def test_no_network_requests_and_no_console_errors(page):
    page.page.mouse.wheel(0, 20000)
    page.page.wait_for_timeout(500)
    assert page.blocked == []
    assert page.errors == []


def test_default_states_render_without_javascript(built_site, browser, expected):
    out, _ = built_site
    _, steps, prose = expected
    context = browser.new_context(java_script_enabled=False)
    p = context.new_page()
    p.goto((out / SLUG / "index.html").as_uri())
    for computed, texts in zip(steps, prose):
        section = p.get_by_role("region", name=computed.step.title, exact=True)
        default = computed.by_key(computed.default_key)
        assert readouts(section)[1] == default.readouts
        html, _ = texts.states[computed.default_key]
        assert normalise(section.locator("[data-prose]").inner_html()) == normalise(html)
        live = section.locator("[data-prose]")
        assert live.get_attribute("aria-live") == "polite"
    context.close()
