"""How the runtime draws charts (themes/default/static/runtime.js): only when
they come into view, and with unchanged data handed to Plotly as the same
arrays, so Plotly.react redraws only what changed."""
import pytest

from .conftest import CONTENT

SLUG = "multi-head-attention"


@pytest.fixture
def page(built_site, offline_page):
    out, _ = built_site
    offline_page.page.goto((out / SLUG / "index.html").as_uri())
    offline_page.page.wait_for_function("window.explainerRuntime && window.Plotly")
    return offline_page.page


def step_titles():
    from generator.content import load_site

    return [step.title for step in load_site(CONTENT).explainers[0].steps]


def drawn(section) -> bool:
    """Plotly has drawn into the section's chart (its SVG holds the axes)."""
    return section.locator("svg").count() > 0


def test_charts_below_the_fold_are_drawn_only_when_scrolled_to(page):
    last = page.get_by_role("region", name=step_titles()[-1], exact=True)
    page.wait_for_timeout(300)  # time for anything eager to have drawn
    assert not drawn(last)
    last.scroll_into_view_if_needed()
    page.wait_for_function("""() => { const steps = window.explainerRuntime.steps;
                                      const s = steps[steps.length - 1]; return s.drawn === s.key; }""")
    assert drawn(last)


def test_unchanged_data_reaches_plotly_as_the_same_arrays(page):
    first = page.get_by_role("region", name=step_titles()[0], exact=True)
    first.scroll_into_view_if_needed()
    page.wait_for_function("window.explainerRuntime.steps[0].drawn === window.explainerRuntime.steps[0].key")
    page.evaluate("""() => {
        window.__figures = [];
        const react = Plotly.react;
        Plotly.react = function (gd, data, layout) {
            window.__figures.push({data, layout});
            return react.apply(this, arguments);
        };
    }""")
    buttons = first.get_by_role("group").first.get_by_role("button")
    pressed = [i for i in range(buttons.count()) if buttons.nth(i).get_attribute("aria-pressed") == "true"][0]
    for offset in (1, 2):
        buttons.nth((pressed + offset) % buttons.count()).click()
    same = page.evaluate("""() => {
        const [a, b] = window.__figures;
        return {count: window.__figures.length,
                z: a.data[0].z === b.data[0].z,
                ticks: a.layout.xaxis.ticktext === b.layout.xaxis.ticktext,
                shapes: JSON.stringify(a.layout.shapes) !== JSON.stringify(b.layout.shapes)};
    }""")
    # Step 1's control moves the highlighted row: the matrix and labels are the
    # very same objects in both calls, and only the outline differs.
    assert same == {"count": 2, "z": True, "ticks": True, "shapes": True}
