"""The built decoder-only page opened from disk (file://) with the network cut,
driven by role and visible name as a reader would: every control of every step,
each click compared with the states computed in Python (readouts, prose, every
chart's caption, drawn data and data table)."""
import json
import re

import pytest

from .test_decoder_only_transformers_figures import SLUG, dot_states  # noqa: F401


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


def button_texts(control):
    shown = control.labels if getattr(control, "labels", None) else [str(v) for v in control.values]
    return [control.button.replace("{value}", str(s)) for s in shown]


def choose(section, control, index):
    """Click the control's button for value number `index`, as a reader would."""
    if control.kind == "toggle":
        toggle = section.get_by_role("button", name=control.label, exact=True)
        wanted = "true" if control.values[index] else "false"
        if toggle.get_attribute("aria-pressed") != wanted:
            toggle.click()
        assert toggle.get_attribute("aria-pressed") == wanted
        return True
    group = section.get_by_role("group", name=control.label, exact=True)
    name = button_texts(control)[index]
    group.get_by_role("button", name=name, exact=True).click()
    pressed = group.get_by_role("button", pressed=True)
    assert pressed.count() == 1 and pressed.inner_text().startswith(name)
    return True


def resolved(text, element):
    """A figure's JSON with the theme's colours (var(--chart-…)) as the page's CSS defines them."""
    for name in set(re.findall(r"var\((--[\w-]+)\)", text)):
        value = element.evaluate("(el, name) => getComputedStyle(el).getPropertyValue(name).trim()", name)
        assert value, f"the theme does not define {name}"
        text = text.replace(f"var({name})", value)
    return json.loads(text)


def shown_table(table):
    return table.evaluate("""t => ({
        columns: Array.from(t.tHead.rows[0].cells, c => c.textContent),
        rows: Array.from(t.tBodies[0].rows, r => Array.from(r.cells, c => c.textContent)),
        current: Array.from(t.tBodies[0].rows).findIndex(r => r.getAttribute("aria-current") === "true"),
    })""")


def test_five_steps_with_titles_and_counters(page, dot_states):  # noqa: F811
    _, steps, _ = dot_states
    for computed in steps:
        section = page.page.get_by_role("region", name=computed.step.title, exact=True)
        assert section.count() == 1
        assert f"Step {computed.step.number} of {len(steps)}" in section.inner_text()


def test_every_control_updates_readouts_prose_and_charts(page, dot_states):  # noqa: F811
    site, steps, prose = dot_states
    p = page.page
    p.evaluate("""() => {
        window.__calls = {react: 0, relayout: 0, newPlot: 0};
        for (const name of Object.keys(window.__calls)) {
            const real = Plotly[name];
            Plotly[name] = function () { window.__calls[name]++; return real.apply(this, arguments); };
        }
    }""")
    clicks = 0
    for computed, texts in zip(steps, prose):
        step = computed.step
        section = p.get_by_role("region", name=step.title, exact=True)
        section.scroll_into_view_if_needed()
        charts = section.locator("[data-chart]")
        assert charts.count() == len(step.charts)
        for index in range(charts.count()):
            charts.nth(index).scroll_into_view_if_needed()
            charts.nth(index).locator(".main-svg").first.wait_for()
        toggles = section.get_by_text("Show data", exact=True)
        for index in range(toggles.count()):
            toggles.nth(index).click()
        figures, tables = computed.figures, computed.tables(site.config.labels)
        choice = {c.name: c.values.index(c.default) for c in step.controls}
        for control in step.controls:
            for index in range(len(control.values)):
                choose(section, control, index)
                clicks += 1
                choice[control.name] = index
                key = ".".join(str(choice[c.name]) for c in step.controls)
                state = computed.by_key(key)
                labels, values = readouts(section)
                assert labels == [r.label for r in step.readouts]
                assert values == state.readouts, (step.title, key)
                html, _ = texts.states[key]
                assert normalise(section.locator("[data-prose]").inner_html()) == normalise(html)
                captions = section.locator("figcaption").all_inner_texts()
                assert captions == [s for s in texts.summaries[key] if s] or captions == texts.summaries[key]
                for number in range(len(step.charts)):
                    chart = charts.nth(number)
                    figure = figures[number][key]
                    drawn = chart.evaluate(
                        "el => el.data.map(t => { const c = Object.assign({}, t); delete c.uid; return c; })")
                    assert drawn == resolved(json.dumps(figure["data"]), chart), (step.title, key, number)
                    pictures = chart.evaluate("el => (el.layout.images || []).map(i => i.source)")
                    assert pictures == [i["source"] for i in figure["layout"].get("images", [])], (step.title, key)
                    expected = tables[number][key]
                    assert shown_table(section.get_by_role("table").nth(number)) == {
                        "columns": expected["columns"], "rows": expected["rows"],
                        "current": expected.get("highlight", -1)}, (step.title, key, number)
    calls = p.evaluate("window.__calls")
    assert calls["newPlot"] == 0, "a click created a new plot instead of updating it"
    assert calls["react"] + calls["relayout"] >= 1
    assert page.blocked == [], f"the page made network requests: {page.blocked}"
    assert page.errors == []
    assert clicks == sum(len(c.values) for s in steps for c in s.step.controls)


def test_masked_cells_read_as_masked_in_the_table(page, dot_states):  # noqa: F811
    """Done when: the masked cells of every causal matrix read as masked, in the data table."""
    _, steps, _ = dot_states
    section = page.page.get_by_role("region", name=steps[0].step.title, exact=True)
    section.scroll_into_view_if_needed()
    section.get_by_text("Show data", exact=True).click()
    rows = shown_table(section.get_by_role("table"))["rows"]
    assert [[cell == "masked" for cell in row[1:]] for row in rows] == [[j > i for j in range(6)] for i in range(6)]
    section.get_by_role("button", name="Causal mask", exact=True).click()
    rows = shown_table(section.get_by_role("table"))["rows"]
    assert not any(cell == "masked" for row in rows for cell in row)
    assert page.errors == [] and page.blocked == []


def test_default_states_render_without_javascript(built_site, browser, dot_states):  # noqa: F811
    out, _ = built_site
    _, steps, prose = dot_states
    context = browser.new_context(java_script_enabled=False)
    p = context.new_page()
    p.goto((out / SLUG / "index.html").as_uri())
    for computed, texts in zip(steps, prose):
        section = p.get_by_role("region", name=computed.step.title, exact=True)
        assert readouts(section)[1] == computed.by_key(computed.default_key).readouts
        html, _ = texts.states[computed.default_key]
        assert normalise(section.locator("[data-prose]").inner_html()) == normalise(html)
    context.close()
