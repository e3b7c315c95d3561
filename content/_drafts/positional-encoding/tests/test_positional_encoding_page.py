"""The built positional-encoding page opened from disk (file://) with the network
cut, driven by role and visible name as a reader would: every control of every
step (buttons, the toggle, the slider), with the readouts, the prose, the
caption, the chart's traces and pictures and its data table compared with the
states computed in Python."""
import json
import re

import pytest

from .test_positional_encoding_model import SLUG, pe_states  # noqa: F401  (shared fixture)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """This site built once for the module (the session's built_site may be built without this page)."""
    from generator.build import build

    from ..conftest import CONTENT, THEMES

    out = tmp_path_factory.mktemp("pe-site") / "build"
    build(CONTENT, out, THEMES)
    return out


@pytest.fixture
def page(built, offline_page):
    offline_page.page.goto((built / SLUG / "index.html").as_uri())
    offline_page.page.wait_for_function("window.explainerRuntime && window.Plotly")
    return offline_page


def readouts(section):
    return section.locator("dl dt").all_inner_texts(), section.locator("dl dd").all_inner_texts()


def normalise(html_text):
    return " ".join(re.sub(r"<[^>]+>", " ", html_text).replace("&amp;", "&").split())


def _first(memo):
    """A step's per-state memo: one dict for its only chart (or a list, one per chart)."""
    return memo[0] if isinstance(memo, list) else memo


def _resolve_colours(chart, figure_part):
    """Theme colours ("var(--chart-…)") as the page's CSS defines them."""
    text = json.dumps(figure_part)
    for name in set(re.findall(r"var\((--[\w-]+)\)", text)):
        value = chart.evaluate("(el, name) => getComputedStyle(el).getPropertyValue(name).trim()", name)
        assert value, f"the theme does not define {name}"
        text = text.replace(f"var({name})", value)
    return json.loads(text)


def _shown_table(section):
    table = section.get_by_role("table")
    return table.evaluate("""t => ({
        columns: Array.from(t.tHead.rows[0].cells, c => c.textContent),
        rows: Array.from(t.tBodies[0].rows, r => Array.from(r.cells, c => c.textContent)),
        current: Array.from(t.tBodies[0].rows).findIndex(r => r.getAttribute("aria-current") === "true"),
    })""")


def _choose(section, control, value):
    """Set a control as a reader would; returns the element that shows the choice."""
    if control.kind == "toggle":
        toggle = section.get_by_role("button", name=control.label, exact=True)
        if (toggle.get_attribute("aria-pressed") == "true") != bool(value):
            toggle.click()
        assert toggle.get_attribute("aria-pressed") == ("true" if value else "false")
        return
    if control.kind == "slider":
        slider = section.get_by_role("slider", name=control.label, exact=True)
        index = control.values.index(value)  # a range input's value is the index of the value
        slider.fill(str(index))  # as a pointer drag ends: the input event with the new value
        assert slider.input_value() == str(index) and section.locator("output").inner_text() == str(value)
        return
    group = section.get_by_role("group", name=control.label, exact=True)
    name = control.button.replace("{value}", str(value))
    group.get_by_role("button", name=re.compile(rf"^{re.escape(name)}\b")).click()
    pressed = group.get_by_role("button", pressed=True)
    assert pressed.count() == 1 and pressed.inner_text().startswith(name)


def test_page_shows_five_steps_with_titles_and_counters(page, pe_states):  # noqa: F811
    _, steps, _ = pe_states
    for computed in steps:
        section = page.page.get_by_role("region", name=computed.step.title, exact=True)
        assert section.count() == 1
        assert f"Step {computed.step.number} of {len(steps)}" in section.inner_text()


def test_every_control_updates_readouts_prose_and_chart(page, pe_states):  # noqa: F811
    site, steps, prose = pe_states
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
        figures = _first(computed.figures)
        tables = _first(computed.tables(site.config.labels))
        section = p.get_by_role("region", name=step.title, exact=True)
        section.scroll_into_view_if_needed()
        chart = section.locator("[data-chart]")
        chart.locator(".main-svg").first.wait_for()
        section.get_by_text("Show data", exact=True).click()
        choice = {c.name: c.values.index(c.default) for c in step.controls}
        for control in step.controls:
            for index, value in enumerate(control.values):
                _choose(section, control, value)
                clicks += 1
                choice[control.name] = index
                key = ".".join(str(choice[c.name]) for c in step.controls)
                state = computed.by_key(key)
                labels, values = readouts(section)
                assert labels == [r.label for r in step.readouts]
                assert values == state.readouts, (step.title, key)
                html, summary = texts.states[key]
                assert normalise(section.locator("[data-prose]").inner_html()) == normalise(html)
                if summary:
                    assert section.locator("figcaption").first.inner_text() == summary
                figure = figures[key]
                drawn = chart.evaluate("el => el.data.map(t => { const c = Object.assign({}, t); delete c.uid; return c; })")
                assert drawn == _resolve_colours(chart, figure["data"]), (step.title, key)
                pictures = chart.evaluate("el => (el.layout.images || []).map(i => i.source)")
                assert pictures == [i["source"] for i in figure["layout"].get("images", [])], (step.title, key)
                expected = tables[key]
                assert _shown_table(section) == {"columns": expected["columns"], "rows": expected["rows"],
                                                 "current": expected.get("highlight", -1)}, (step.title, key)
    calls = p.evaluate("window.__calls")
    assert calls["newPlot"] == 0, "a click created a new plot instead of updating it"
    assert calls["react"] + calls["relayout"] >= clicks - sum(len(s.step.controls) for s in steps)
    assert page.blocked == [], f"the page made network requests: {page.blocked}"
    assert page.errors == []
    assert clicks == 2 + 2 + 8 + 32 + 4 + 4 + 3


def test_the_brief_figures_as_a_reader_sees_them(page):
    p = page.page
    one = p.get_by_role("region", name="Order Matters", exact=True)
    toggle = one.get_by_role("button", name="Positional encoding", exact=True)
    assert toggle.get_attribute("aria-pressed") == "false"
    assert readouts(one)[1] == ["dog bites man", "Yes"]
    toggle.click()
    assert readouts(one)[1] == ["dog bites man", "No"]
    two = p.get_by_role("region", name="Waves of Many Frequencies", exact=True)
    for pair, wavelength in (("1", "19.87"), ("2", "62.83"), ("0", "6.28")):
        two.get_by_role("group", name="Pair", exact=True).get_by_role("button", name=pair, exact=True).click()
        assert readouts(two)[1][3] == wavelength
    three = p.get_by_role("region", name="A Fingerprint for Every Position", exact=True)
    slider = three.get_by_role("slider", name="Position", exact=True)
    assert slider.input_value() == "5" and readouts(three)[1] == ["5", "−0.96", "0.28", "2.83"]
    slider.press("End")
    assert slider.input_value() == "31" and readouts(three)[1][3] == "2.83"
    four = p.get_by_role("region", name="Relative Offsets", exact=True)
    assert readouts(four)[1] == ["5", "1", "7.49", "Yes"]
    five = p.get_by_role("region", name="Learned and Rotary Positions", exact=True)
    five.get_by_role("group", name="Scheme", exact=True).get_by_role("button", name="Learned", exact=True).click()
    assert readouts(five)[1] == ["Learned", "512", "added to the input"]
    assert page.errors == [] and page.blocked == []


def test_default_states_render_without_javascript(built, browser, pe_states):  # noqa: F811
    _, steps, prose = pe_states
    context = browser.new_context(java_script_enabled=False)
    p = context.new_page()
    p.goto((built / SLUG / "index.html").as_uri())
    for computed, texts in zip(steps, prose):
        section = p.get_by_role("region", name=computed.step.title, exact=True)
        default = computed.by_key(computed.default_key)
        assert readouts(section)[1] == default.readouts
        html, _ = texts.states[computed.default_key]
        assert normalise(section.locator("[data-prose]").inner_html()) == normalise(html)
    context.close()
