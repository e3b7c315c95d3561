"""The built BERT page opened from disk (file://) with the network cut, driven
by role and visible name as a reader would: every control of every step, with
readouts, prose, captions, chart data and data tables compared with the states
computed in Python."""
import json
import re

import pytest

from ..conftest import CONTENT, PageWatch

SLUG = "bert-masked-language-modeling"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """This page's states computed in Python, and the site built once."""
    from generator.build import build
    from generator.compute.states import compute_site
    from generator.load.content import load_site
    from generator.render.prose import render_prose

    from ..conftest import THEMES

    out = tmp_path_factory.mktemp("bert-site") / "build"
    build(CONTENT, out, THEMES)
    loaded = load_site(CONTENT)
    states = compute_site(loaded)
    return out, loaded, states[SLUG], render_prose(loaded, states)[SLUG]


@pytest.fixture
def page(site, browser):
    out = site[0]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    p = context.new_page()
    watch = PageWatch(p)
    p.goto((out / SLUG / "index.html").as_uri())
    p.wait_for_function("window.explainerRuntime && window.Plotly")
    yield watch
    context.close()


def _readouts(section):
    return section.locator("dl dt").all_inner_texts(), section.locator("dl dd").all_inner_texts()


def _normalise(html_text):
    return " ".join(re.sub(r"<[^>]+>", " ", html_text).replace("&amp;", "&").split())


def _with_theme_colours(chart, figure_data):
    text = json.dumps(figure_data)
    for name in set(re.findall(r"var\((--[\w-]+)\)", text)):
        value = chart.evaluate("(el, name) => getComputedStyle(el).getPropertyValue(name).trim()", name)
        assert value, f"the theme does not define {name}"
        text = text.replace(f"var({name})", value)
    return json.loads(text)


def _shown_table(section):
    return section.get_by_role("table").evaluate("""t => ({
        columns: Array.from(t.tHead.rows[0].cells, c => c.textContent),
        rows: Array.from(t.tBodies[0].rows, r => Array.from(r.cells, c => c.textContent)),
    })""")


def test_five_steps_with_titles_and_counters(page, site):
    steps = site[2]
    for computed in steps:
        section = page.page.get_by_role("region", name=computed.step.title, exact=True)
        assert section.count() == 1
        assert f"Step {computed.step.number} of {len(steps)}" in section.inner_text()


def test_every_control_updates_readouts_prose_and_chart(page, site):
    _, loaded, steps, prose = site
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
        chart = section.locator("[data-chart]")
        assert chart.count() == 1
        chart.locator(".main-svg").first.wait_for()
        section.get_by_text("Show data", exact=True).click()
        figures = computed.figures[0]
        tables = computed.tables(loaded.config.labels)[0]
        choice = {c.name: c.values.index(c.default) for c in step.controls}
        for control in step.controls:
            group = section.get_by_role("group", name=control.label, exact=True)
            shown = list(control.labels) if control.labels else [str(v) for v in control.values]
            for index, _value in enumerate(control.values):
                # Buttons are named by their visible text; two read "the", so pick by position.
                buttons = group.get_by_role("button", name=shown[index], exact=True)
                same_before = shown[:index].count(shown[index])
                buttons.nth(same_before).click()
                clicks += 1
                choice[control.name] = index
                key = ".".join(str(choice[c.name]) for c in step.controls)
                state = computed.by_key(key)
                pressed = group.get_by_role("button", pressed=True)
                assert pressed.count() == 1 and pressed.inner_text() == shown[index]
                labels, values = _readouts(section)
                assert labels == [r.label for r in step.readouts]
                assert values == state.readouts, (step.title, key)
                html, summaries = texts.states[key][0], texts.summaries[key]
                assert _normalise(section.locator("[data-prose]").inner_html()) == _normalise(html), (step.title, key)
                assert section.locator("figcaption").all_inner_texts() == summaries, (step.title, key)
                drawn = chart.evaluate(
                    "el => el.data.map(t => { const c = Object.assign({}, t); delete c.uid; return c; })")
                assert drawn == _with_theme_colours(chart, figures[key]["data"]), (step.title, key)
                table = tables[key]
                assert _shown_table(section) == {"columns": table["columns"], "rows": table["rows"]}, key
    calls = p.evaluate("window.__calls")
    assert calls["newPlot"] == 0, "a click created a new plot instead of updating it"
    assert calls["react"] + calls["relayout"] >= clicks - sum(len(s.step.controls) for s in steps)
    assert page.blocked == [], f"the page made network requests: {page.blocked}"
    assert page.errors == []
    assert clicks == sum(len(c.values) for s in steps for c in s.step.controls)


def test_the_hidden_sat_is_guessed_from_both_sides_and_missed_from_the_left(page, site):
    p = page.page
    section = p.get_by_role("region", name="Both Sides at Once", exact=True)
    section.scroll_into_view_if_needed()
    context = section.get_by_role("group", name="Context", exact=True)
    words = section.get_by_role("group", name="Word to hide", exact=True)
    words.get_by_role("button", name="sat", exact=True).click()
    context.get_by_role("button", name="Both sides", exact=True).click()
    labels, values = _readouts(section)
    assert dict(zip(labels, values))["Top guess"] == "sat"
    context.get_by_role("button", name="Left only", exact=True).click()
    labels, values = _readouts(section)
    assert dict(zip(labels, values))["Top guess"] != "sat"
    assert dict(zip(labels, values))["Visible words"] == "2"


def test_default_states_render_without_javascript(site, browser):
    out, _, steps, prose = site
    context = browser.new_context(java_script_enabled=False)
    p = context.new_page()
    p.goto((out / SLUG / "index.html").as_uri())
    for computed, texts in zip(steps, prose):
        section = p.get_by_role("region", name=computed.step.title, exact=True)
        default = computed.by_key(computed.default_key)
        assert _readouts(section)[1] == default.readouts
        html, _ = texts.states[computed.default_key]
        assert _normalise(section.locator("[data-prose]").inner_html()) == _normalise(html)
    context.close()


def test_no_network_requests_and_no_console_errors_on_scrolling(page):
    page.page.mouse.wheel(0, 20000)
    page.page.wait_for_timeout(500)
    assert page.blocked == []
    assert page.errors == []
