"""The built self-attention explainer opened from disk (file://) with the
network cut, driven by role and visible name as a reader would: every control
of every step clicked, and the readouts, prose, captions, charts and data
tables compared with the states computed in Python."""
import json
import re

import pytest

from ..conftest import CONTENT

SLUG = "self-attention"


@pytest.fixture(scope="module")
def expected():
    from generator.compute.states import compute_site
    from generator.load.content import load_site
    from generator.render.prose import render_prose

    site = load_site(CONTENT)
    states = compute_site(site)
    return site, states[SLUG], render_prose(site, states)[SLUG]


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


def test_six_steps_with_titles_and_counters(page, expected):
    _, steps, _ = expected
    assert len(steps) == 6
    for computed in steps:
        section = page.page.get_by_role("region", name=computed.step.title, exact=True)
        assert section.count() == 1
        assert f"Step {computed.step.number} of 6" in section.inner_text()


def _clicks(control):
    """The value index each click selects: every value of a control in order; for
    a toggle, the other value and back to the default."""
    if control.kind == "toggle":
        default = control.values.index(control.default)
        return [1 - default, default]
    return list(range(len(control.values)))


def test_every_control_updates_readouts_prose_captions_charts_and_tables(page, expected):
    site, steps, prose = expected
    p = page.page
    p.evaluate("""() => {
        window.__calls = {react: 0, relayout: 0, newPlot: 0};
        for (const name of Object.keys(window.__calls)) {
            const real = Plotly[name];
            Plotly[name] = function () { window.__calls[name]++; return real.apply(this, arguments); };
        }
    }""")
    clicks = changes = 0
    for computed, texts in zip(steps, prose):
        step = computed.step
        section = p.get_by_role("region", name=step.title, exact=True)
        section.scroll_into_view_if_needed()
        charts = section.locator("[data-chart]")
        assert charts.count() == len(step.charts)
        for index in range(len(step.charts)):
            charts.nth(index).scroll_into_view_if_needed()
            charts.nth(index).locator(".main-svg").first.wait_for()
        for toggle in section.get_by_text("Show data", exact=True).all():
            toggle.click()
        choice = {c.name: c.values.index(c.default) for c in step.controls}
        for control in step.controls:
            for index in _clicks(control):
                if control.kind == "toggle":
                    button = section.get_by_role("button", name=control.label, exact=True)
                    button.click()
                    assert button.get_attribute("aria-pressed") == ("true" if control.values[index] else "false")
                else:
                    group = section.get_by_role("group", name=control.label, exact=True)
                    text = (control.labels[index] if control.labels else
                            control.button.replace("{value}", str(control.values[index])))
                    group.get_by_role("button", name=str(text), exact=True).click()
                    pressed = group.get_by_role("button", pressed=True)
                    assert pressed.count() == 1 and pressed.inner_text() == str(text)
                changes += choice[control.name] != index
                clicks += 1
                choice[control.name] = index
                key = ".".join(str(choice[c.name]) for c in step.controls)
                _check_state(section, charts, computed, texts, key, site)
    calls = p.evaluate("window.__calls")
    assert calls["newPlot"] == 0, "a click drew a new plot instead of updating one"
    assert calls["react"] + calls["relayout"] >= changes
    assert page.blocked == [], f"the page made network requests: {page.blocked}"
    assert page.errors == []
    assert clicks >= 38


def _check_state(section, charts, computed, texts, key, site):
    step, state = computed.step, computed.by_key(key)
    labels, values = readouts(section)
    assert labels == [r.label for r in step.readouts]
    assert values == state.readouts, (step.title, key)
    html, _ = texts.states[key]
    assert normalise(section.locator("[data-prose]").inner_html()) == normalise(html), (step.title, key)
    assert section.locator("figcaption").all_inner_texts() == texts.summaries[key], (step.title, key)
    tables = section.get_by_role("table")
    for index in range(len(step.charts)):
        chart = charts.nth(index)
        figure = computed.figures[index][key]
        drawn = chart.evaluate("el => el.data.map(t => { const c = Object.assign({}, t); delete c.uid; return c; })")
        assert drawn == _resolved_colours(figure["data"], chart), (step.title, key, index)
        pictures = chart.evaluate("el => (el.layout.images || []).map(i => i.source)")
        assert pictures == [image["source"] for image in figure["layout"].get("images", [])], (step.title, key)
        table = computed.tables(site.config.labels)[index][key]
        assert _shown_table(tables.nth(index)) == {"columns": table["columns"], "rows": table["rows"],
                                                   "current": table.get("highlight", -1)}, (step.title, key)


def _resolved_colours(data, chart):
    """Traces as JSON carries them, with the theme's colours ("var(--chart-…)")
    as the page's CSS defines them."""
    text = json.dumps(data)
    for name in set(re.findall(r"var\((--[\w-]+)\)", text)):
        value = chart.evaluate("(el, name) => getComputedStyle(el).getPropertyValue(name).trim()", name)
        assert value, f"the theme does not define {name}"
        text = text.replace(f"var({name})", value)
    return json.loads(text)


def _shown_table(table):
    return table.evaluate("""t => ({
        columns: Array.from(t.tHead.rows[0].cells, c => c.textContent),
        rows: Array.from(t.tBodies[0].rows, r => Array.from(r.cells, c => c.textContent)),
        current: Array.from(t.tBodies[0].rows).findIndex(r => r.getAttribute("aria-current") === "true"),
    })""")


def test_the_brief_figures_as_the_reader_sees_them(page):
    p = page.page
    two = p.get_by_role("region", name="Scaling by √d_k", exact=True)
    two.scroll_into_view_if_needed()
    assert dict(zip(*readouts(two)))["Scale"] == "0.125"
    two.get_by_role("button", name="Scale by √d_k", exact=True).click()
    two.get_by_role("group", name="d_k", exact=True).get_by_role("button", name="256", exact=True).click()
    shown = dict(zip(*readouts(two)))
    assert shown["Scale"] == "1.000" and float(shown["Top weight"]) >= 0.90
    five = p.get_by_role("region", name="All Queries at Once", exact=True)
    five.scroll_into_view_if_needed()
    five.get_by_role("group", name="Length", exact=True).get_by_role("button", name="48", exact=True).click()
    assert dict(zip(*readouts(five))) == {"Matrix shape": "48×48", "Score entries": "2,304", "Row sums": "1.00"}
    five.get_by_role("group", name="View", exact=True).get_by_role("button", name="Scores", exact=True).click()
    assert dict(zip(*readouts(five)))["Row sums"] == "varies"
    one = p.get_by_role("region", name="Queries and Keys", exact=True)
    # The default row's negative scores are drawn below the axis, with the minus sign in the table.
    one.scroll_into_view_if_needed()
    one.locator("[data-chart] .main-svg").first.wait_for()
    assert min(one.locator("[data-chart]").evaluate("el => el.data[0].y")) < 0
    one.get_by_text("Show data", exact=True).click()
    assert "\u2212" in one.get_by_role("table").inner_text() and "-" not in one.get_by_role("table").inner_text()
    assert page.blocked == [] and page.errors == []


def test_default_states_render_without_javascript(built_site, browser, expected):
    out, _ = built_site
    _, steps, prose = expected
    context = browser.new_context(java_script_enabled=False)
    p = context.new_page()
    p.goto((out / SLUG / "index.html").as_uri())
    for computed, texts in zip(steps, prose):
        section = p.get_by_role("region", name=computed.step.title, exact=True)
        assert readouts(section)[1] == computed.by_key(computed.default_key).readouts
        html, _ = texts.states[computed.default_key]
        assert normalise(section.locator("[data-prose]").inner_html()) == normalise(html)
    context.close()
