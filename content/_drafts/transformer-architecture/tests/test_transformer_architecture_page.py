"""The built "The Transformer Architecture" opened from disk (file://) with the
network cut, driven by role and visible name as a reader would: every control
of every step, its readouts, prose, caption, chart and data table compared with
the states computed in Python."""
import json
import re

import pytest

from .test_transformer_architecture_figures import SLUG, computed  # noqa: F401


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


def _first(per_chart):
    # A step's figures and tables: one mapping per chart (a step here has one chart).
    return per_chart[0] if isinstance(per_chart, list) else per_chart


def _resolve_colours(chart, value):
    """The figure as JSON carries it, with the theme's colours ("var(--chart-…)")
    as the page's CSS defines them."""
    text = json.dumps(value)
    for name in set(re.findall(r"var\((--[\w-]+)\)", text)):
        colour = chart.evaluate("(el, name) => getComputedStyle(el).getPropertyValue(name).trim()", name)
        assert colour, f"the theme does not define {name}"
        text = text.replace(f"var({name})", colour)
    return json.loads(text)


def _shown_table(section):
    table = section.get_by_role("table")
    return table.evaluate("""t => ({
        columns: Array.from(t.tHead.rows[0].cells, c => c.textContent),
        rows: Array.from(t.tBodies[0].rows, r => Array.from(r.cells, c => c.textContent)),
    })""")


def _choose(section, control, value):
    """Click the control's button for `value` as a reader would; returns the
    button that should now be pressed."""
    if control.kind == "toggle":
        toggle = section.get_by_role("button", name=control.label, exact=True)
        if (toggle.get_attribute("aria-pressed") == "true") != value:
            toggle.click()
        assert toggle.get_attribute("aria-pressed") == ("true" if value else "false")
        return toggle
    group = section.get_by_role("group", name=control.label, exact=True)
    labels = getattr(control, "labels", None)
    index = list(control.values).index(value)
    shown = str(labels[index]) if labels else str(value)
    name = control.button.replace("{value}", shown)
    group.get_by_role("button", name=re.compile(rf"^{re.escape(name)}\b")).click()
    pressed = group.get_by_role("button", pressed=True)
    assert pressed.count() == 1 and pressed.inner_text().startswith(name)
    return pressed


def test_six_steps_with_titles_and_counters(page, computed):  # noqa: F811
    _, steps, _ = computed
    for states in steps:
        step = states.step
        section = page.page.get_by_role("region", name=step.title, exact=True)
        assert section.count() == 1
        assert f"Step {step.number} of {len(steps)}" in section.inner_text()


def test_every_control_updates_readouts_prose_chart_and_table(page, computed):  # noqa: F811
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
    for states, texts in zip(steps, prose):
        step = states.step
        figures, tables = _first(states.figures), _first(states.tables(site.config.labels))
        section = p.get_by_role("region", name=step.title, exact=True)
        section.scroll_into_view_if_needed()
        chart = section.locator("[data-chart]")
        chart.locator(".main-svg").first.wait_for()
        section.get_by_text("Show data", exact=True).click()
        choice = {c.name: list(c.values).index(c.default) for c in step.controls}
        for control in step.controls:
            for index, value in enumerate(control.values):
                _choose(section, control, value)
                clicks += 1
                choice[control.name] = index
                key = ".".join(str(choice[c.name]) for c in step.controls)
                state = states.by_key(key)
                labels, values = readouts(section)
                assert labels == [r.label for r in step.readouts]
                assert values == state.readouts, (step.title, key)
                html, summary = texts.states[key]
                assert normalise(section.locator("[data-prose]").inner_html()) == normalise(html), (step.title, key)
                summary = summary[0] if isinstance(summary, list) else summary
                if summary:
                    assert section.locator("figcaption").first.inner_text() == summary, (step.title, key)
                figure = _resolve_colours(chart, figures[key])
                drawn = chart.evaluate("el => el.data.map(t => { const c = Object.assign({}, t); delete c.uid; "
                                       "return c; })")
                assert drawn == figure["data"], (step.title, key)
                shapes = chart.evaluate("el => el.layout.shapes || []")
                assert shapes == figure["layout"].get("shapes", []), (step.title, key)
                table = tables[key]
                assert _shown_table(section) == {"columns": table["columns"], "rows": table["rows"]}, \
                    (step.title, key)
    calls = p.evaluate("window.__calls")
    assert calls["newPlot"] == 0, "a click created a new plot instead of updating it"
    assert calls["react"] + calls["relayout"] >= clicks - sum(len(s.step.controls) for s in steps)
    assert page.blocked == [], f"the page made network requests: {page.blocked}"
    assert page.errors == []
    assert clicks == sum(len(c.values) for s in steps for c in s.step.controls)


def test_the_brief_figures_show_on_the_page(page):
    """A few figures of the brief, read off the page itself after clicks."""
    p = page.page
    whole = p.get_by_role("region", name="The Whole Picture", exact=True)
    whole.get_by_role("group", name="Part", exact=True).get_by_role("button", name="Output", exact=True).click()
    assert readouts(whole)[1] == ["Output", "n×512", "n×37,000", "0"]
    norm = p.get_by_role("region", name="Layer Normalization", exact=True)
    for token in norm.get_by_role("group", name="Token", exact=True).get_by_role("button").all():
        token.click()
        shown = dict(zip(*readouts(norm)))
        assert shown["Mean after"] == "0.00" and shown["Std after"] == "1.00"
    ff = p.get_by_role("region", name="The Feed-Forward Network", exact=True)
    shown = dict(zip(*readouts(ff)))
    assert shown["d_ff"] == "2,048" and shown["Parameters"] == "2,099,712"
    stack = p.get_by_role("region", name="Stacking the Layers", exact=True)
    stack.get_by_role("group", name="Model", exact=True).get_by_role("button", name="Big", exact=True).click()
    shown = dict(zip(*readouts(stack)))
    assert shown["d_model"] == "1,024" and shown["Heads"] == "16"
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
