"""How the runtime draws charts (themes/default/static/runtime.js): only when
they come into view, and with unchanged data handed to Plotly as the same
arrays, so Plotly.react redraws only what changed."""
import re

import pytest

from tests.conftest import CONTENT, FIXTURES, wait_until_idle

SLUG = "multi-head-attention"


@pytest.fixture
def page(built_site, offline_page):
    out, _ = built_site
    offline_page.page.goto((out / SLUG / "index.html").as_uri())
    offline_page.page.wait_for_function("window.lensa?.runtime && window.Plotly")
    return offline_page.page


def step_titles():
    from generator.build import read_site

    [explainer] = [page for page in read_site(CONTENT).pages if page.slug == SLUG]
    return [step.title for step in explainer.steps]


def drawn(section) -> bool:
    """Plotly has drawn into the section's chart (its SVG holds the axes); the still
    drawing the page carries before Plotly arrives (render/poster.py) does not count."""
    return section.locator("[data-chart] .main-svg").count() > 0


def test_charts_below_the_fold_are_drawn_only_when_scrolled_to(page):
    last = page.get_by_role("region", name=step_titles()[-1], exact=True)
    # The runtime has started, the page has painted and gone idle (the charts' view observers have
    # reported): anything drawn eagerly would be drawn by now.
    wait_until_idle(page)
    assert not drawn(last)
    last.scroll_into_view_if_needed()
    page.wait_for_function("""() => { const steps = window.lensa.runtime.steps;
                                      const s = steps[steps.length - 1]; return s.drawn === s.key; }""")
    assert drawn(last)


def wait_drawn(page, index):
    page.wait_for_function("i => window.lensa.runtime.steps[i].drawn === window.lensa.runtime.steps[i].key",
                           arg=index)


# A large matrix whose colour range changes with the control (a state's own "range"):
# its colour bar, drawn in the layout (charts/colour_bar.py), changes with its picture.
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


def test_another_colour_range_changes_the_layout_alone_and_data_reaches_plotly_as_the_same_arrays(
        tmp_site, tmp_path, offline_page):
    """A state on a colour range of its own changes the matrix's picture and its colour bar,
    which Plotly redraws by themselves: no trace changes and Plotly does not lay the figure
    out again. When Plotly does draw the whole figure again (the colour scheme changed), the
    data arrays it is handed are the very objects of the last draw."""
    from generator.build import build

    from tests.conftest import THEMES

    step = (FIXTURES / "tiny" / "content" / "coin-flips" / "steps" / "01-runs.md").read_text()
    content = tmp_site({"coin-flips/model.py": CHANGING_MATRIX,
                        "coin-flips/steps/01-runs.md": step.replace('kind = "bar"', 'kind = "heatmap"')})
    build(content, tmp_path / "out", THEMES)
    page = offline_page.page
    page.goto((tmp_path / "out" / "coin-flips" / "index.html").as_uri())
    page.wait_for_function("window.lensa?.runtime && window.Plotly")
    wait_drawn(page, 0)
    page.evaluate("""() => {
        window.__calls = [];
        for (const name of ["react", "relayout", "restyle", "update"]) {
            const real = Plotly[name];
            Plotly[name] = function (gd, a, b) {
                window.__calls.push({name, keys: name === "relayout" ? Object.keys(a) : [], data: a});
                return real.apply(this, arguments);
            };
        }
    }""")
    chart = page.locator("[data-chart]").first
    values = "gd => Array.from(gd.querySelectorAll('.shapelayer text')).map(t => t.textContent)"
    flips = page.get_by_role("group", name="Flips", exact=True)
    flips.get_by_role("button", name="3", exact=True).click()
    wait_drawn(page, 0)
    top = chart.evaluate(values)
    flips.get_by_role("button", name="1", exact=True).click()
    wait_drawn(page, 0)
    calls = page.evaluate("() => window.__calls.map(c => [c.name, c.keys])")
    assert [name for name, _ in calls] == ["relayout", "relayout"]
    assert all(set(keys) <= {"images", "shapes"} and "shapes" in keys for _, keys in calls)
    assert "1" in top and "1" not in chart.evaluate(values), "the colour bar's values follow the range"
    page.evaluate("""() => {
        window.__calls = [];
        window.__before = window.lensa.runtime.steps[0].chart.data[0];
        document.dispatchEvent(new CustomEvent('explainer:scheme'));
    }""")
    page.wait_for_function("() => window.__calls.length === 1")
    same = page.evaluate("""() => {
        const [call] = window.__calls, before = window.__before;
        return call.name === "react" && call.data[0] !== before && call.data[0].x === before.x
            && call.data[0].y === before.y;
    }""")
    assert same, "a fresh trace object (Plotly annotates it) holding the very same arrays"


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
    """Bars are shapes, and names that change between states are shapes' labels under the
    axis: another word order moves the bars and renames them, and the runtime hands
    Plotly.relayout the shapes alone, never Plotly.react, which would draw the whole figure
    again, and never the ticks, which hold still (charts/bar.py, held.py, runtime.js)."""
    out, _ = built_site
    page = offline_page.page
    page.goto((out / "self-attention" / "index.html").as_uri())
    page.wait_for_function("window.lensa?.runtime && window.Plotly")
    section = page.get_by_role("region", name="Order Blindness", exact=True)
    section.scroll_into_view_if_needed()
    index = page.evaluate("lensa.runtime.steps.findIndex(s => s.spec && s.section.id === 'step-6')")
    wait_drawn(page, index)
    chart = section.locator("[data-chart]").first  # the weights, in the order of the sentence
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
    names = "gd => Array.from(gd.querySelectorAll('.shapelayer text')).map(t => t.textContent)"
    before = chart.evaluate(names)
    ticks = chart.evaluate("gd => gd.layout.xaxis.ticktext.slice()")
    order = section.get_by_role("group", name="Word order", exact=True)
    order.get_by_role("button").nth(1).click()
    wait_drawn(page, index)
    assert page.evaluate("window.__calls") == [["relayout", ["shapes"]]]
    after = chart.evaluate(names)
    assert sorted(after) == sorted(before) and after != before, "the same words, shuffled"
    assert chart.evaluate("gd => gd.layout.xaxis.ticktext") == ticks
    assert offline_page.errors == []
