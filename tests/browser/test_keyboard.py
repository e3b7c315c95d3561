"""Keyboard only: for each explainer, Tab reaches a step's controls, arrow keys
move inside a group, Enter and Space select, focus is always visible, and
nothing traps it; for each game, the same with a round's word buttons, and
Next round moves the focus to the next round. Run with every shipped theme."""
from __future__ import annotations

import pytest

from generator.build import read_site
from generator.compute.states import compute_site

from tests.conftest import CONTENT
from tests.browser.test_controls import build_controls_site, open_controls_page, readouts as step_readouts, region, state_of

FOCUSED = """() => {
    const el = document.activeElement;
    const group = el.closest('[role="group"]');
    const style = getComputedStyle(el);
    return {tag: el.tagName, text: el.textContent.trim(), pressed: el.getAttribute("aria-pressed"),
            group: group ? group.getAttribute("aria-label") : null,
            step: el.closest("section[data-step]") ? el.closest("section[data-step]").id : null,
            outline: style.outlineStyle, outlineWidth: parseFloat(style.outlineWidth)};
}"""


@pytest.fixture(scope="module")
def computed():
    site = read_site(CONTENT)
    return site, compute_site(site)


def focused(page):
    return page.evaluate(FOCUSED)


def assert_focus_visible(info):
    assert info["outline"] != "none" and info["outlineWidth"] >= 2, f"focus is not visible on {info}"


def readouts(section):
    return section.locator("dl dd").all_inner_texts()


def test_one_step_of_each_explainer_by_keyboard(themed_site, browser, computed):
    theme, out = themed_site
    site, states = computed
    for explainer in [page for page in site.pages if page.kind == "explainer"]:
        steps = states[explainer.slug]
        first = next(s for s in steps if s.step.controls)
        control = first.step.controls[0]
        names = [control.button.replace("{value}", str(v)) for v in control.values]
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto((out / explainer.slug / "index.html").as_uri())
        page.wait_for_function("window.lensa?.runtime")
        section = page.locator(f"#step-{first.step.number}")

        page.keyboard.press("Tab")
        skip = focused(page)
        assert skip["tag"] == "A" and skip["text"] == site.config.labels["skip"]
        assert_focus_visible(skip)
        assert page.get_by_role("link", name=site.config.labels["skip"]).bounding_box()["x"] >= 0

        # Tab reaches the group once, on its selected button.
        for _ in range(300):
            page.keyboard.press("Tab")
            info = focused(page)
            if info["group"]:
                break
        else:
            pytest.fail(f"{theme}/{explainer.slug}: Tab never reached a control")
        assert info["step"] == f"step-{first.step.number}" and info["group"] == control.label
        default = control.values.index(control.default)
        assert info["pressed"] == "true" and info["text"].startswith(names[default])
        assert_focus_visible(info)

        # Arrows move the focus without selecting; Enter selects.
        target = (default + 1) % len(names)
        page.keyboard.press("ArrowRight")
        info = focused(page)
        assert info["text"].startswith(names[target]) and info["pressed"] == "false"
        assert_focus_visible(info)
        page.keyboard.press("Enter")
        assert focused(page)["pressed"] == "true"
        key = _key(first, {control.name: target})
        assert readouts(section) == first.by_key(key).readouts

        # Left wraps around from the first button to the last; Space selects.
        page.keyboard.press("Home")
        assert focused(page)["text"].startswith(names[0])
        page.keyboard.press("ArrowLeft")
        assert focused(page)["text"].startswith(names[-1])
        page.keyboard.press(" ")
        key = _key(first, {control.name: len(names) - 1})
        assert readouts(section) == first.by_key(key).readouts
        pressed = section.get_by_role("group", name=control.label).get_by_role("button", pressed=True)
        assert pressed.count() == 1 and pressed.inner_text().startswith(names[-1])

        # Tab leaves the group (no trap); Shift+Tab comes back to the selected button.
        page.keyboard.press("Tab")
        assert focused(page)["group"] != control.label
        page.keyboard.press("Shift+Tab")
        info = focused(page)
        assert info["group"] == control.label and info["text"].startswith(names[-1])

        # The chart's data table opens from the keyboard and can be reached.
        for _ in range(40):
            page.keyboard.press("Tab")
            if focused(page)["text"] == site.config.labels["show_data"]:
                break
        else:
            pytest.fail(f"{theme}/{explainer.slug}: Tab never reached the data table's toggle")
        assert_focus_visible(focused(page))
        page.keyboard.press("Enter")
        table = section.get_by_role("table")
        assert table.is_visible()
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.contains(document.querySelector("
                             f"'#step-{first.step.number} table'))")
        context.close()


def _key(step_states, chosen):
    """The state key with `chosen` control indices and every other control at its default."""
    parts = []
    for control in step_states.step.controls:
        parts.append(str(chosen.get(control.name, control.values.index(control.default))))
    return ".".join(parts)


# --- A toggle and a slider (tests/fixtures/controls/) ----------------------------------------------


@pytest.fixture(scope="module")
def controls_site(tmp_path_factory):
    return build_controls_site(tmp_path_factory.mktemp("controls-keyboard"))


@pytest.fixture
def controls_page(controls_site, offline_page):
    yield open_controls_page(offline_page, controls_site[0])
    assert offline_page.errors == []


def test_a_slider_and_a_toggle_by_keyboard(controls_page, controls_site):
    page, site = controls_page, controls_site
    _, steps, _ = site
    section = region(page, "The Mask Hides the Future")
    slider = section.get_by_role("slider", name="Query position", exact=True)
    # Tab reaches the toggle (a button of its own), then the slider, with focus visible on each.
    for _ in range(60):
        page.keyboard.press("Tab")
        if focused(page)["text"] == "Causal mask":
            break
    else:
        pytest.fail("Tab never reached the toggle")
    assert focused(page)["tag"] == "BUTTON" and focused(page)["pressed"] == "false"
    assert_focus_visible(focused(page))
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.type") == "range"
    assert_focus_visible(focused(page))
    shown = lambda: section.locator("output").inner_text()  # noqa: E731
    page.keyboard.press("ArrowRight")
    assert shown() == "5" and step_readouts(section) == state_of(steps, 1, position=5).readouts
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert shown() == "3"
    page.keyboard.press("End")
    assert shown() == "31" and step_readouts(section) == state_of(steps, 1, position=31).readouts
    page.keyboard.press("PageDown")
    lower = int(shown())
    assert lower < 31
    page.keyboard.press("PageUp")
    assert int(shown()) > lower
    page.keyboard.press("Home")
    assert shown() == "0" and step_readouts(section) == state_of(steps, 1, position=0).readouts
    assert slider.get_attribute("aria-valuetext") == "0"
    # Back on the toggle, Space or Enter switches it.
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.textContent") == "Causal mask"
    page.keyboard.press("Space")
    assert step_readouts(section) == state_of(steps, 1, position=0, causal=True).readouts
    page.keyboard.press("Enter")
    assert step_readouts(section) == state_of(steps, 1, position=0, causal=False).readouts


def test_one_round_of_each_game_by_keyboard(themed_site, browser, computed):
    theme, out = themed_site
    site, states = computed
    games = [page for page in site.pages if page.kind == "game"]
    assert games, "the site has a game"
    for game in games:
        rounds = states[game.slug].rounds
        first = rounds[0]
        label = game.labels["spotlight"] if len(first.heads) == 1 else \
            game.labels["head_spotlight"].replace("{head}", first.heads[0])
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.goto((out / game.slug / "index.html").as_uri())
        page.wait_for_function("window.lensa?.game")
        for _ in range(300):
            page.keyboard.press("Tab")
            info = focused(page)
            if info["group"]:
                break
        else:
            pytest.fail(f"{theme}/{game.slug}: Tab never reached a word button")
        assert info["group"] == label and info["pressed"] == "false"
        assert info["text"].startswith(first.words[first.candidates[0]])
        assert_focus_visible(info)
        # Arrows move the focus without pressing; Space puts the word in, Enter takes it out.
        page.keyboard.press("ArrowRight")
        info = focused(page)
        assert info["text"].startswith(first.words[first.candidates[1]]) and info["pressed"] == "false"
        page.keyboard.press("Space")
        assert focused(page)["pressed"] == "true"
        section = page.locator(f"#round-{first.number}")
        chosen = {head: [] for head in first.heads}
        chosen[first.heads[0]] = [first.candidates[1]]
        state = next(s for s in first.states if s.choice == chosen)
        assert section.locator("dl dd[data-readout]").all_inner_texts() == state.readouts
        page.keyboard.press("Enter")
        assert focused(page)["pressed"] == "false"
        page.keyboard.press("End")
        assert focused(page)["text"].startswith(first.words[first.candidates[-1]])
        # Tab leaves the group; Next round, reached by Tab, moves the focus to the next round's heading.
        page.keyboard.press("Tab")
        assert focused(page)["group"] != label
        for _ in range(40):
            if focused(page)["text"].startswith(game.labels["next_round"]):
                break
            page.keyboard.press("Tab")
        else:
            pytest.fail(f"{theme}/{game.slug}: Tab never reached {game.labels['next_round']}")
        assert_focus_visible(focused(page))
        page.keyboard.press("Enter")
        assert focused(page)["text"] == rounds[1].round.title
        assert page.locator(f"#round-{rounds[1].number}").is_visible()
        assert not section.is_visible()
        context.close()
