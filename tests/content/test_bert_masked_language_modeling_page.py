"""The built BERT page opened from disk (file://) with the network cut, read as
a reader would: the hidden "sat" guessed from both sides and missed from the
left. Every step's title, counter, default state and every control's states are
checked for every explainer by tests/test_every_explainer.py."""
import pytest

from .reader import choose, open_explainer, readouts, wait_until_drawn

SLUG = "bert-masked-language-modeling"


@pytest.fixture
def page(built_site, offline_page):
    return open_explainer(offline_page, built_site[0], SLUG)


def test_the_hidden_sat_is_guessed_from_both_sides_and_missed_from_the_left(page):
    p = page.page
    section = p.get_by_role("region", name="Both Sides at Once", exact=True)
    section.scroll_into_view_if_needed()
    context = section.get_by_role("group", name="Context", exact=True)
    words = section.get_by_role("group", name="Word to hide", exact=True)
    words.get_by_role("button", name="sat", exact=True).click()
    context.get_by_role("button", name="Both sides", exact=True).click()
    labels, values = readouts(section)
    assert dict(zip(labels, values))["Top guess"] == "sat"
    context.get_by_role("button", name="Left only", exact=True).click()
    labels, values = readouts(section)
    assert dict(zip(labels, values))["Top guess"] != "sat"
    assert dict(zip(labels, values))["Visible words"] == "2"


def test_the_diagram_of_a_sentence_pair_writes_the_tokens_of_the_pair_chosen(page, site_states):
    """Step 4's two pairs differ in sentence B's tokens, which the diagram writes on shapes
    (charts/diagram.py): a click is a relayout of the shapes, and the chart Plotly drew
    shows every token of the chosen pair, in its boxes, and none of the other's."""
    p = page.page
    [states] = [s for s in site_states[1][SLUG] if s.step.number == 4]
    section = p.get_by_role("region", name=states.step.title, exact=True)
    section.scroll_into_view_if_needed()
    wait_until_drawn(section)
    p.evaluate("""() => { window.__drawn = []; for (const name of ['react', 'relayout']) {
        const real = Plotly[name]; Plotly[name] = function () { window.__drawn.push(name); return real.apply(this, arguments); };
    } }""")
    control = states.step.controls[0]
    for index in (1, 0):
        choose(section, control, index)
        wait_until_drawn(section)
        state = next(s for s in states.states if s.choice == {control.name: control.values[index]})
        boxes = state.chart["boxes"]
        n = int(dict(zip(*readouts(section)))["Tokens"])
        written = section.locator("[data-chart]").first.evaluate(
            "chart => Array.from(chart.querySelectorAll('svg.main-svg text')).map(t => t.textContent)")
        tokens = boxes[3:3 + n]
        other = next(s for s in states.states if s is not state).chart["boxes"][3:3 + n]
        for token in tokens:
            assert token in written, (control.values[index], token)
        for token in set(other) - set(tokens):
            assert token not in written, (control.values[index], token)
    assert p.evaluate("window.__drawn") == ["relayout", "relayout"]
