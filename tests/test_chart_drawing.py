"""How the runtime draws charts (themes/default/static/runtime.js): only when
they come into view, and with unchanged data handed to Plotly as the same
arrays, so Plotly.react redraws only what changed."""
import re

import pytest

from .conftest import CONTENT, FIXTURES

SLUG = "multi-head-attention"


@pytest.fixture
def page(built_site, offline_page):
    out, _ = built_site
    offline_page.page.goto((out / SLUG / "index.html").as_uri())
    offline_page.page.wait_for_function("window.explainerRuntime && window.Plotly")
    return offline_page.page


def step_titles():
    from generator.load.content import load_site

    [explainer] = [page for page in load_site(CONTENT).pages if page.slug == SLUG]
    return [step.title for step in explainer.steps]


def drawn(section) -> bool:
    """Plotly has drawn into the section's chart (its SVG holds the axes); the still
    drawing the page carries before Plotly arrives (render/poster.py) does not count."""
    return section.locator("[data-chart] .main-svg").count() > 0


def test_charts_below_the_fold_are_drawn_only_when_scrolled_to(page):
    last = page.get_by_role("region", name=step_titles()[-1], exact=True)
    page.wait_for_timeout(300)  # time for anything eager to have drawn
    assert not drawn(last)
    last.scroll_into_view_if_needed()
    page.wait_for_function("""() => { const steps = window.explainerRuntime.steps;
                                      const s = steps[steps.length - 1]; return s.drawn === s.key; }""")
    assert drawn(last)


def wait_drawn(page, index):
    page.wait_for_function("i => window.explainerRuntime.steps[i].drawn === window.explainerRuntime.steps[i].key",
                           arg=index)


# A large matrix whose colour range changes with the control (a state's own "range"):
# its colour bar's trace changes, so Plotly.react draws it, while the trace's positions
# (out of view, the same in every state) do not.
CHANGING_MATRIX = """
import numpy as np

FLIPS = [1, 2, 3]


def runs(flips):
    p = 0.5 ** np.arange(1, 4) * flips / 3
    z = (np.arange(441).reshape(21, 21) % 7 / 7 * flips / 3).tolist()
    return {"values": {"flips": flips, "probability": float(p[flips - 1]), "outcomes": 2 ** flips},
            "chart": {"x": [f"k{i}" for i in range(21)], "y": [f"q{i}" for i in range(21)], "z": z,
                      "range": [0, flips / 3]}}
"""


def test_unchanged_data_reaches_plotly_as_the_same_arrays(tmp_site, tmp_path, offline_page):
    from generator.build import build

    from .conftest import THEMES

    step = (FIXTURES / "tiny" / "content" / "coin-flips" / "steps" / "01-runs.md").read_text()
    content = tmp_site({"coin-flips/model.py": CHANGING_MATRIX,
                        "coin-flips/steps/01-runs.md": step.replace('kind = "bar"', 'kind = "heatmap"')})
    build(content, tmp_path / "out", THEMES)
    page = offline_page.page
    page.goto((tmp_path / "out" / "coin-flips" / "index.html").as_uri())
    page.wait_for_function("window.explainerRuntime && window.Plotly")
    wait_drawn(page, 0)
    page.evaluate("""() => {
        window.__figures = [];
        const react = Plotly.react;
        Plotly.react = function (gd, data, layout) {
            window.__figures.push({data, layout});
            return react.apply(this, arguments);
        };
    }""")
    flips = page.get_by_role("group", name="Flips", exact=True)
    for name in ("3", "1"):
        flips.get_by_role("button", name=name, exact=True).click()
    same = page.evaluate("""() => {
        const [a, b] = window.__figures;
        return {count: window.__figures.length, ends: a.data[0].marker.color === b.data[0].marker.color,
                x: a.data[0].x === b.data[0].x, y: a.data[0].y === b.data[0].y};
    }""")
    # Another range: only the scale's ends differ, and the positions are the very same
    # objects in both calls.
    assert same == {"count": 2, "ends": False, "x": True, "y": True}


def test_another_matrix_redraws_only_its_picture(page):
    third = page.get_by_role("region", name=step_titles()[2], exact=True)
    third.scroll_into_view_if_needed()
    wait_drawn(page, 2)
    chart = third.locator("[data-chart]")
    picture = "gd => decodeURIComponent(gd.querySelector('.imagelayer image').getAttribute('href'))"
    before = chart.evaluate(picture)
    chart.evaluate("gd => { window.__before = {full: gd._fullData, calc: gd.calcdata}; }")
    third.get_by_role("group", name="Head", exact=True).get_by_role("button", name=re.compile(r"^Head 2\b")).click()
    wait_drawn(page, 2)
    kept = chart.evaluate("gd => gd._fullData === window.__before.full && gd.calcdata === window.__before.calc")
    after = chart.evaluate(picture)
    # Plotly neither recomputed the figure nor redrew anything but the picture.
    assert kept and after != before
    assert after.count("<text") == before.count("<text") == 36


def test_a_click_that_only_moves_the_selection_redraws_only_the_shapes(page):
    first = page.get_by_role("region", name=step_titles()[0], exact=True)
    first.scroll_into_view_if_needed()
    wait_drawn(page, 0)
    chart = first.locator("[data-chart]")
    # Plotly keeps the figure's computed defaults (_fullData) and the computed
    # data (calcdata) until it recomputes them: the same objects afterwards mean
    # that neither the defaults nor the heatmap were worked out again.
    chart.evaluate("gd => { window.__before = {full: gd._fullData, calc: gd.calcdata, "
                   "outline: gd.querySelector('.shapelayer path').getAttribute('d')}; }")
    queries = first.get_by_role("group", name="Query", exact=True)
    pressed = queries.get_by_role("button", pressed=True).inner_text()
    other = next(b for b in queries.get_by_role("button").all_inner_texts() if b != pressed)
    queries.get_by_role("button", name=other, exact=True).click()
    wait_drawn(page, 0)
    after = chart.evaluate("""gd => ({full: gd._fullData === window.__before.full,
                                       calc: gd.calcdata === window.__before.calc,
                                       moved: gd.querySelector('.shapelayer path').getAttribute('d')
                                              !== window.__before.outline,
                                       row: gd.layout.shapes[0].y0 + 0.5})""")
    rows = chart.evaluate("gd => gd.layout.yaxis.ticktext")
    assert after == {"full": True, "calc": True, "moved": True, "row": rows.index(other)}


def test_a_click_that_changes_only_the_layout_relayouts_just_what_changed(built_site, offline_page):
    """Bars are shapes: another word order moves the bars and renames the ticks, and
    the runtime hands Plotly.relayout exactly those attributes, never Plotly.react,
    which would draw the whole figure again (charts/bar.py, runtime.js layoutChanges)."""
    out, _ = built_site
    page = offline_page.page
    page.goto((out / "self-attention" / "index.html").as_uri())
    page.wait_for_function("window.explainerRuntime && window.Plotly")
    section = page.get_by_role("region", name="Order Blindness", exact=True)
    section.scroll_into_view_if_needed()
    index = page.evaluate("explainerRuntime.steps.findIndex(s => s.spec && s.section.id === 'step-6')")
    wait_drawn(page, index)
    chart = section.locator("[data-chart]")
    chart.evaluate("""gd => {
        window.__calls = [];
        for (const name of ["react", "relayout"]) {
            const real = Plotly[name];
            Plotly[name] = function (el, update) {
                window.__calls.push([name, name === "relayout" ? Object.keys(update).sort() : null]);
                return real.apply(this, arguments);
            };
        }
    }""")
    before = chart.evaluate("gd => gd.layout.xaxis.ticktext.slice()")
    order = section.get_by_role("group", name="Word order", exact=True)
    order.get_by_role("button").nth(1).click()
    wait_drawn(page, index)
    assert page.evaluate("window.__calls") == [["relayout", ["shapes", "xaxis.ticktext"]]]
    assert chart.evaluate("gd => gd.layout.xaxis.ticktext") != before
    assert offline_page.errors == []
