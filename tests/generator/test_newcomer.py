"""The Gradient Descent explainer a new author wrote from docs/authoring.md alone
(tests/fixtures/newcomer/, issue 24), read as its reader would on a 360 px phone:
its loss curve reads at every learning rate on a log axis, its path is one line
with its start and end labelled and no label over another, its slider's track stays
put, and a sentence that ends a line never runs into the next. (tests/browser/test_responsive.py
opens every page of the fixture at 360 px: none scrolls sideways.)"""
from __future__ import annotations

import math
from pathlib import Path

import pytest

from generator.build import build
from generator.compute.states import compute_site
from generator.build import read_site
from generator.render import charts
from generator.render.prose import render_prose

from tests.conftest import FIXTURES, THEMES
from tests.content.reader import normalise, wait_until_drawn

NEWCOMER = FIXTURES / "newcomer" / "content"
SLUG = "gradient-descent"
OVERLAPS = (Path(__file__).parents[1] / "chart_labels.js").read_text("utf-8")
PHONE = {"width": 360, "height": 800}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("newcomer") / "build"
    result = build(NEWCOMER, out, THEMES, strict=True)  # nothing to warn about: the author replaced the starter
    loaded = read_site(NEWCOMER)
    computed = compute_site(loaded)
    return out, result.computed[SLUG], render_prose(loaded, computed)[SLUG]


@pytest.fixture
def phone(site, browser):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((site[0] / SLUG / "index.html").as_uri())
    page.wait_for_function("window.lensa?.runtime && window.Plotly")
    yield page
    context.close()
    assert errors == []


def section(page, number):
    return page.locator(f"#step-{number}")


def test_the_loss_axis_is_logarithmic_and_holds_every_run_of_every_rate(site):
    _, steps, _ = site
    loss = steps[0]
    chart = charts.resolved(loss.step.charts[0], [s.charts[0] for s in loss.states])
    low, high = chart.y_range
    values = [v for s in loss.states for series in s.charts[0]["y"] for v in series]
    assert chart.y_scale == "log" and low < min(values) and max(values) < high
    assert max(values) > 2000 and min(values) < 1e-5, "a run that climbs to 2,000 and one that falls to 0.00001"
    decades = math.log10(high) - math.log10(low)
    for state in loss.states:
        for series in state.charts[0]["y"]:
            # Every run that moves by a factor of ten fills a tenth of the axis or more: it reads.
            moved = math.log10(max(series)) - math.log10(min(series))
            if moved >= 1:
                assert moved / decades >= 0.1, (state.choice, moved, decades)


@pytest.mark.parametrize("rate", [0.1, 1.1])
def test_the_loss_curve_reads_at_a_rate_that_converges_and_one_that_diverges(site, phone, rate):
    """On a linear axis shared with η = 1.1 (2,136), η = 0.1's loss was a flat line at 0: on
    the log axis its curve, and η = 1.1's, each take a good share of the chart's height."""
    _, steps, _ = site
    step = section(phone, 1)
    step.scroll_into_view_if_needed()
    slider = step.get_by_role("slider", name="Learning rate", exact=True)
    slider.fill(str(steps[0].step.controls[0].values.index(rate)))
    wait_until_drawn(step)
    assert step.locator("output").inner_text() == f"η = {rate}"
    chart = step.locator("[data-chart]").first
    plot, lines = chart.evaluate("""el => {
        const area = el.querySelector('.nsewdrag').getBoundingClientRect();
        const lines = [...el.querySelectorAll('.shapelayer path')]
            .filter(p => (p.getAttribute('d') || '').split('L').length > 10)
            .map(p => { const b = p.getBoundingClientRect(); return [b.top, b.bottom]; });
        return [[area.top, area.bottom], lines]; }""")
    assert len(lines) == 2, "the run with and the run without momentum"
    for top, bottom in lines:
        assert plot[0] - 2 <= top and bottom <= plot[1] + 2, "inside the plot"
    plain = lines[0]
    assert (plain[1] - plain[0]) / (plot[1] - plot[0]) > 0.15, f"η = {rate}: the curve is flat"
    # On a linear axis holding η = 1.1's 2,136, η = 0.1's run (9 down to 0.011) would be 0.4% of it.
    assert 9 / 2136 < 0.005


def test_the_path_is_one_line_with_its_start_and_end_labelled_in_every_state(site):
    _, steps, _ = site
    for states in steps[1:]:
        chart = charts.resolved(states.step.chart, [s.chart for s in states.states])
        assert chart.equal_scale is False, "axes that fit the path"
        for state in states.states:
            layout = states.figures[0][state.key]["layout"]
            paths = [s for s in layout["shapes"] if s["type"] == "path"]
            assert len(paths) == 1 and paths[0]["path"].count("L") == len(state.chart["x"]) - 2
            labels = [s["label"]["text"] for s in layout["shapes"] if s.get("label")]
            assert labels[0] == "start" and "<b>end</b>" in labels, (state.choice, labels)


def test_no_label_of_the_path_covers_another_at_360px_in_any_state(site, phone):
    _, steps, _ = site
    problems = []
    for number in (2, 3):
        states = steps[number - 1]
        step = section(phone, number)
        step.scroll_into_view_if_needed()
        slider = step.get_by_role("slider", name="Learning rate", exact=True)
        toggle = step.get_by_role("button", name="Momentum", exact=True)
        rates = states.step.controls[0].values
        for pressed in ((False, True) if toggle.count() else (False,)):
            if pressed:
                toggle.click()
            for index, rate in enumerate(rates):
                slider.fill(str(index))
                wait_until_drawn(step)
                chart = step.locator("[data-chart]")
                drawn = chart.locator("svg text").evaluate_all("ts => ts.map(t => t.textContent)")
                problems += [f"step {number}, η = {rate}, momentum {pressed}: {p}" for p in chart.evaluate(OVERLAPS)]
                assert "start" in drawn and "end" in drawn, (number, rate, pressed, drawn)
    assert problems == []


def test_the_slider_value_keeps_its_room_from_the_longest_label(site, phone):
    step = section(phone, 1)
    slider = step.get_by_role("slider", name="Learning rate", exact=True)
    track = "el => { const box = el.getBoundingClientRect(); return [box.left, box.width]; }"
    before = slider.evaluate(track)
    for index in range(len(site[1][0].step.controls[0].values)):  # η = 0.05 … η = 1.1
        slider.fill(str(index))
        assert slider.evaluate(track) == pytest.approx(before, abs=0.5)


def test_a_sentence_that_ends_a_line_never_runs_into_the_next(site, phone):
    _, steps, prose = site
    for state in steps[0].states:
        text = normalise(prose[0].states[state.key][0])
        assert "Because the loss axis" in text
        assert ". Because the loss axis" in text, text  # "…0.0111.Because" was what Jinja made of it
    step = section(phone, 1)
    assert ". Because the loss axis is logarithmic" in step.locator("[data-prose]").inner_text().replace("\n", " ")


def test_page_links_lead_to_the_other_page(site):
    out, _, _ = site
    html = (out / SLUG / "index.html").read_text("utf-8")
    assert 'href="../long-labels/index.html"' in html and "page:" not in html.replace("page: ", "")
