"""The built decoder-only page opened from disk (file://) with the network cut,
read as a reader would: the causal mask's cells read as masked in the data
table. Every step's title, counter, default state and every control's states
are checked for every explainer by tests/test_every_explainer.py."""
import pytest

from .reader import choose, drawn_values, open_explainer, shown_table, wait_until_drawn
from .test_decoder_only_transformers_figures import SLUG, dot_states  # noqa: F401


@pytest.fixture
def page(built_site, offline_page):
    return open_explainer(offline_page, built_site[0], SLUG)


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


def test_the_likeliest_next_tokens_are_written_under_their_bars(page, dot_states):  # noqa: F811
    """Step 2's five likeliest tokens change with the context: their names are written on
    shapes under the axis (charts/bar.py), so a click is a relayout of the shapes alone,
    and the chart Plotly drew writes each token under its own bar, in the state's order."""
    _, steps, _ = dot_states
    [states] = [s for s in steps if s.step.number == 2]
    section = page.page.get_by_role("region", name=states.step.title, exact=True)
    section.scroll_into_view_if_needed()
    wait_until_drawn(section)
    chart = section.locator("[data-chart]")
    page.page.evaluate("""() => { window.__drawn = []; for (const name of ['react', 'relayout']) {
        const real = Plotly[name];
        Plotly[name] = function (el, update) {
            window.__drawn.push(name === 'relayout' ? Object.keys(update).sort().join() : name);
            return real.apply(this, arguments);
        };
    } }""")
    control = states.step.controls[0]
    for index in range(len(control.values)):
        choose(section, control, index)
        wait_until_drawn(section)
        state = next(s for s in states.states if s.choice == {control.name: control.values[index]})
        # Each name's centre, left to right, against the centres of the bars Plotly drew.
        written = chart.evaluate("""gd => {
            const texts = Array.from(gd.querySelectorAll('svg.main-svg text'));
            const words = gd.layout.shapes.filter(s => s.yref === 'paper').map(s => s.label.text);
            const box = gd.getBoundingClientRect(), axis = gd._fullLayout.xaxis;
            return texts.filter(t => words.includes(t.textContent)).map(t => {
                const r = t.getBoundingClientRect();
                return [t.textContent, Math.round(axis.p2l(r.x + r.width / 2 - box.x - axis._offset))];
            }).sort((a, b) => a[1] - b[1]);
        }""")
        assert written == [[str(name), at] for at, name in enumerate(state.chart["x"])], control.values[index]
        assert drawn_values(chart) == [[round(v, 4) for v in state.chart["y"]]]
    assert set(page.page.evaluate("window.__drawn")) == {"shapes"}
    assert page.errors == [] and page.blocked == []
