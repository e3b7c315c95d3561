"""Charts that hold still (generator/render/charts/held.py): every chart of every step of
every page keeps one layout across the states of its step unless its step file declares
rescale, in the figures the build makes and in Plotly's own layout after the reader's
clicks; and what the build says about a chart that cannot."""
from __future__ import annotations

import json

import pytest

from generator.kinds.explainer.content import Chart
from generator.build import read_site
from generator.render import charts
from generator.render.charts import held

from tests.conftest import FIXTURES, PageWatch
from tests.generator.render.charts.test_charts import chart

KINDS_SITE = FIXTURES / "charts" / "content"


def _every_chart(computed):
    """(page, step, chart index, chart, its figures by state key) of every chart of a site."""
    for slug, steps in computed.items():
        for states in steps if isinstance(steps, list) else ():  # a page of another kind (the game): no charts
            if not hasattr(states, "figures"):
                continue
            for index, (option, figures) in enumerate(zip(states.step.charts, states.figures)):
                yield slug, states, index, option, figures


@pytest.fixture(scope="module")
def kinds_states():
    from generator.compute.states import compute_site

    site = read_site(KINDS_SITE)
    return site, compute_site(site)


def test_every_chart_of_every_step_holds_its_layout_unless_it_declares_rescale(kinds_states):
    """Axis ranges, ticks, margins, legend, size: the frame of each chart is the same in every
    state of its step (the marks, shapes and pictures, change); the page's data then carries
    it once, in the step's shared layout, and each state only its marks. A chart that declares
    rescale does change it. Every page of the chart-kind fixture (tests/content/test_charts_held.py:
    of the series)."""
    assert_every_chart_holds(*kinds_states)


def assert_every_chart_holds(site, computed) -> None:
    """Every chart of a computed site holds its layout unless it declares rescale (above)."""
    from generator.kinds.explainer.payload import chart_payload

    seen = 0
    for slug, states, index, option, figures in _every_chart(computed):
        where = f"{slug} step {states.step.number} chart {index}"
        moved = held.changes(figures.values())
        if option.rescale:
            assert moved, f"{where} declares rescale but holds still"
            continue
        assert moved == [], f"{where} changes its layout between states: {moved}"
        seen += 1
    assert seen
    for slug, steps in computed.items():
        if not isinstance(steps, list) or not steps or not hasattr(steps[0], "figures"):  # the game: no charts
            continue
        payload = chart_payload(steps, site.config.labels)
        for states, step in zip(steps, payload.steps):
            for index, option in enumerate(states.step.charts):
                if option.rescale:
                    continue
                own = {key for state in step["states"].values() for key in state["charts"][index]["layout"]}
                assert own <= set(held.MARKS), f"{slug} step {states.step.number}: states carry {own}"


def _problems(option, states):
    return held.layout_problems(charts.get(option.kind), option, [
        (f"state {n}", data, charts.get(option.kind).figure(charts.resolved(option, [d for d in states]), data))
        for n, data in enumerate(states)])


def test_a_chart_that_changes_its_layout_without_a_reason_is_reported():
    """Small multiples that come and go (two matrices, then four) change the grid's axes:
    no one layout holds them, and the build says to declare rescale."""
    z = [[0.1, 0.9], [0.4, 0.6]]
    states = [{"z": [z] * count, "x": ["a", "b"], "y": ["c", "d"], "titles": [str(i) for i in range(count)]}
              for count in (2, 4)]
    [problem] = _problems(chart(kind="heatmap_grid"), states)
    assert "changes its layout between states (" in problem and 'rescale = "<why' in problem
    with_reason = chart(kind="heatmap_grid", rescale="the heads come and go")
    assert _problems(with_reason, states) == []


def test_a_chart_that_declares_rescale_but_holds_still_is_reported():
    states = [{"x": ["a", "b"], "y": [1.0, v]} for v in (2.0, 3.0)]
    [problem] = _problems(chart(kind="bar", rescale="it grows", y_range=[0, 4]), states)
    assert 'declares rescale ("it grows") but holds one layout' in problem


def test_a_range_held_for_the_step_that_squeezes_a_state_is_reported():
    """Bars a thousand times shorter in one state are a few pixels tall under the range the
    other needs; a line that is flat in one state reads by its level, and is not squeezed."""
    bars = [{"x": ["a", "b"], "y": [v, v / 2]} for v in (1000.0, 1.0)]
    [problem] = _problems(chart(kind="bar"), bars)
    assert "its y axis, held for every state of the step, leaves the data of state 1 0 px" in problem
    flat = [{"x": [0, 1, 2], "y": [1.0, 0.99, 0.98]}, {"x": [0, 1, 2], "y": [1.0, 0.0, -1.0]}]
    assert _problems(chart(kind="line"), flat) == []
    growing = [{"x": list(range(n)), "y": [1.0] * n} for n in (2, 200)]
    [problem] = _problems(chart(kind="line"), growing)
    assert "its x axis" in problem


def test_labels_that_begin_alike_share_the_longest_list_and_are_veiled_past_a_state():
    """A sequence that grows: the longest list's ticks label the axis, and past a shorter
    state's end a band of the page's background fades them."""
    words = ["The", "cat", "sat", "on", "the", "mat"]
    labels = held.held_labels([words[:2], words[:4], words], 40)
    assert labels.ticks == ([0, 1, 2, 3, 4, 5], words) and labels.count == 6
    [veil] = held.veils(labels, 2, "x")
    assert (veil["x0"], veil["x1"], veil["opacity"]) == (1.5, 5.5, 0.7) and veil["ysizemode"] == "pixel"
    assert held.veils(labels, 6, "x") == [], "the longest state has nothing past its end"
    other = held.held_labels([words[:2], ["un", "chat"]], 40)
    assert other.ticks is None, "lists that differ: each state's labels on shapes"
    shapes = held.x_label_shapes(other, ["un", "chat"])
    assert [(s["label"]["text"], (s["x0"] + s["x1"]) / 2) for s in shapes] == [("un", 0), ("chat", 1)]


def test_a_state_on_its_own_scale_changes_the_colour_bar_in_the_layout_alone():
    """Scores on a diverging scale, then weights from 0 to 1: the colour bar is a picture and
    the labels of shapes, which a relayout redraws; no trace changes."""
    scores = {"z": [[-2.0, 1.0], [0.5, 3.0]], "x": ["a", "b"], "y": ["c", "d"], "scale": "diverging",
              "range": [-3, 3]}
    weights = {"z": [[0.2, 0.8], [0.5, 0.5]], "x": ["a", "b"], "y": ["c", "d"]}
    option = charts.resolved(chart(kind="heatmap", cell_text="off"), [scores, weights])
    one, two = (charts.get("heatmap").figure(option, data) for data in (scores, weights))
    assert one["data"] == two["data"] and held.changes([one, two]) == []
    texts = [[s["label"]["text"] for s in f["layout"]["shapes"] if s.get("x0") == 1] for f in (one, two)]
    assert texts[0][0].startswith("−") and "0" in texts[0] and (texts[1][0], texts[1][-1]) == ("0", "1")


def test_the_union_of_the_states_sets_a_range_and_the_authors_range_wins():
    """A line over 2 positions in one state and 25 in another: the x axis holds all 25 in
    both; a declared x_range holds instead, and a position outside it is an error."""
    states = [{"x": list(range(n)), "y": [1.0 - i / 30 for i in range(n)]} for n in (2, 25)]
    kind = charts.get("line")
    ranges = {tuple(kind.figure(charts.resolved(chart(kind="line"), states), d)["layout"]["xaxis"]["range"])
              for d in states}
    assert ranges == {(0, 24)}
    declared = chart(kind="line", x_range=[0, 30])
    assert {tuple(kind.figure(charts.resolved(declared, states), d)["layout"]["xaxis"]["range"]) for d in states} \
        == {(0, 30)}
    [issue] = charts.check(kind, states[1], chart(kind="line", x_range=[0, 10]))
    assert issue.key == "x" and "outside x_range [0, 10]" in issue.message


def test_the_rescale_option_takes_a_reason():
    from generator.kinds.explainer.schema import CHART

    assert CHART["rescale"].check("   ") and CHART["rescale"].check("it grows") is None
    assert "rescale" in {f for f in Chart.__dataclass_fields__}


# What the browser reads of Plotly's own layout: every axis's range and tick texts, the
# margins and size of the plot, and the legend.
FRAME = """gd => {
    const full = gd._fullLayout, out = {size: full._size, height: full.height, legend: !!full.showlegend};
    for (const name of Object.keys(full)) {
        if (/^[xy]axis\\d*$/.test(name)) out[name] = [full[name].range, full[name].ticktext || null,
                                                     full[name].tickvals || null, full[name].domain];
    }
    return JSON.stringify(out);
}"""

# Every value of every control of every step, chosen in turn in the page: after each choice,
# Plotly's own frame of each chart of the step, compared with the one before the first.
SWEEP = """async (frame) => {
    frame = eval(frame);
    const runtime = window.lensa?.runtime;
    await runtime.plotly();
    const moved = [];
    for (let s = 0; s < runtime.steps.length; s++) {
        const step = runtime.steps[s];
        if (!step.charts.length) continue;
        step.charts.forEach((chart) => { chart.visible = true; });
        step.draw();
        const settle = () => new Promise((done) => setTimeout(done, 0));
        await settle();
        const first = step.charts.map((chart) => frame(chart.element));
        for (let g = 0; g < step.controls.length; g++) {
            const count = step.controls[g].names.length;
            for (let v = 0; v < count; v++) {
                step.select(g, v);
                await settle();
                step.charts.forEach((chart, i) => {
                    const rescales = !!step.section.querySelector('[data-rescaled="' + chart.index + '"]');
                    if (!rescales && frame(chart.element) !== first[i]) moved.push([s + 1, i, step.key]);
                });
            }
        }
    }
    return moved;
}"""


@pytest.mark.parametrize("fixture, slug", [("charts_site", "chart-kinds"), ("tiny_site", "coin-flips")])
def test_plotly_keeps_each_charts_layout_through_every_click(fixture, slug, request, browser):
    """Driving every control of every step, as a reader clicks, and reading Plotly's own
    layout after each click: the axes, their ticks, the plot's margins and the legend stay
    as they were, for every chart that does not declare rescale. (Of the series' pages:
    tests/content/test_charts_held.py.)"""
    assert_plotly_holds(request.getfixturevalue(fixture)[0] / slug / "index.html", browser)


def assert_plotly_holds(page, browser) -> None:
    """The sweep above, over one built page."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    watch = PageWatch(context.new_page())
    try:
        watch.page.goto(page.as_uri())
        watch.page.wait_for_function("() => window.lensa?.runtime")
        assert watch.page.evaluate(SWEEP, FRAME) == []
        assert watch.errors == []
    finally:
        context.close()
