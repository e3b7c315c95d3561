"""Deep links (themes/default/static/share.js): the address fragment holds
the state of the steps, survives a reload, never fills the history, and any
fragment it cannot use gives the defaults without an error."""
import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from generator.build import build

from tests.conftest import THEMES
from tests.browser.test_controls import SLUG as CONTROLS_SLUG, build_controls_site, open_controls_page, region, state_of
from tests.browser.test_controls import readouts as step_readouts

SLUG = "multi-head-attention"

# A step whose values need escaping in an address: spaces, the format's own
# separators, a non-ASCII letter and characters that end a URL part.
AWKWARD = {
    "coin-flips/model.py": '''
        import numpy as np

        FLIPS = [1, 2, 3]
        WORDS = ["a b", "c:d", "e,f&g=h", "ü/?#%"]


        def runs(flips):
            p = 0.5 ** np.arange(1, 4)
            return {"values": {"flips": flips, "probability": float(p[flips - 1]), "outcomes": 2 ** flips},
                    "chart": {"x": ["1", "2", "3"], "y": p.tolist(), "highlight": flips - 1}}


        def words(word):
            return {"values": {"word": word, "length": len(word)},
                    "chart": {"x": WORDS, "y": [len(w) for w in WORDS], "highlight": WORDS.index(word)}}
        ''',
    "coin-flips/steps/02-words.md": '''
        +++
        title = "Words"
        compute = "words"
        summary = "Letters of {{ word }}."

        [[controls]]
        name = "word"
        label = "Word"
        values = "WORDS"
        default = "a b"

        [[readouts]]
        label = "Length"
        value = "length"
        format = "count"

        [chart]
        kind = "bar"
        +++
        The word {{ word }} has {{ length }} characters.
        ''',
}


def open_page(watch, url):
    watch.page.goto(url)
    watch.page.wait_for_function("window.lensa?.runtime && window.lensa?.share")
    return watch.page


def step(page, title):
    return page.get_by_role("region", name=title, exact=True)


def pressed(section, group):
    return section.get_by_role("group", name=group, exact=True).get_by_role("button", pressed=True).inner_text()


def click(section, group, name):
    # Buttons may carry a second line (a detail), so match the start of the name.
    section.get_by_role("group", name=group, exact=True).get_by_role(
        "button", name=re.compile(rf"^{re.escape(name)}(\s|$)")).click()


def fragment(page):
    return page.evaluate("location.hash")


def assert_fragment(page, expected):
    """The address comes to hold `expected`: the page writes it when the reader
    pauses, a moment after the last click, rather than on every click."""
    try:
        page.wait_for_function("hash => location.hash === hash", arg=expected, timeout=3000)
    except PlaywrightTimeout:
        pass  # the assertion shows what the address holds instead
    assert fragment(page) == expected


@pytest.fixture
def explainer(built_site):
    out, _ = built_site
    return (out / SLUG / "index.html").as_uri()


def test_a_deep_link_survives_a_reload(offline_page, explainer, browser):
    page = open_page(offline_page, explainer)
    first, third = step(page, "One Head's Limit"), step(page, "Different Patterns")
    click(first, "Query", "sat")
    click(third, "Head", "Head 5")
    click(third, "Query", "The")
    assert_fragment(page, "#step-3&s1=query:sat&s3=head:5,query:The")
    readouts = third.locator("dl dd").all_inner_texts()
    page.reload()
    page.wait_for_function("window.lensa?.share")
    assert pressed(first, "Query") == "sat"
    assert pressed(third, "Head").startswith("Head 5")
    assert pressed(third, "Query") == "The"
    assert third.locator("dl dd").all_inner_texts() == readouts
    # Opened elsewhere (a shared link), the page scrolls to the step the reader was working in.
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    other = context.new_page()
    other.goto(f"{explainer}#step-3&s1=query:sat&s3=head:5,query:The")
    other.wait_for_function("window.lensa?.share")
    assert pressed(step(other, "Different Patterns"), "Head").startswith("Head 5")
    top = other.evaluate("document.getElementById('step-3').getBoundingClientRect().top")
    assert 0 <= top < 100
    context.close()
    assert offline_page.errors == []


def test_interactions_replace_the_address_without_adding_history(offline_page, explainer):
    page = open_page(offline_page, explainer)
    length = page.evaluate("history.length")
    section = step(page, "Multiple Heads")
    for value in ["1", "2", "8", "4", "2"]:
        click(section, "Heads", value)
    assert_fragment(page, "#step-2&s2=heads:2")
    assert page.evaluate("history.length") == length
    # Back at the default, the step leaves the fragment; the scroll target stays.
    click(section, "Heads", "4")
    assert_fragment(page, "#step-2")
    assert offline_page.errors == []


def test_a_burst_of_clicks_writes_the_address_once(offline_page, explainer):
    """Each address write costs the browser a navigation: clicking through states
    quickly writes the address once, when the reader pauses, with the last state."""
    page = open_page(offline_page, explainer)
    page.clock.install()  # the page's timers on a clock the test runs: no wait tied to the write's pause
    section = step(page, "Multiple Heads")
    group = section.get_by_role("group", name="Heads", exact=True)
    buttons = [group.get_by_role("button", name=re.compile(rf"^{value}(\s|$)")).element_handle()
               for value in ["1", "2", "8"]]
    page.evaluate("""buttons => {
        window.__writes = 0;
        const real = history.replaceState;
        history.replaceState = function () { window.__writes++; return real.apply(history, arguments); };
        buttons.forEach(b => b.click());
    }""", buttons)
    assert_fragment(page, "#step-2&s2=heads:8")
    page.clock.run_for(1000)  # every timer the clicks set has run
    assert page.evaluate("window.__writes") == 1
    assert pressed(section, "Heads") == "8"
    assert offline_page.errors == []


def test_a_pending_write_never_undoes_an_address_the_reader_changed(offline_page, explainer):
    """A click schedules an address write; if the reader changes the address before it
    runs (and before its hashchange arrives), the write must not put the old state back."""
    page = open_page(offline_page, explainer)
    page.clock.install()
    click(step(page, "Multiple Heads"), "Heads", "2")
    # The address changes without a hashchange yet: the event is what is still on the way.
    page.evaluate("history.replaceState(null, '', '#s2=heads:8')")
    page.clock.run_for(1000)  # the pending write has run, whatever its pause
    assert fragment(page) == "#s2=heads:8"
    page.evaluate("window.dispatchEvent(new HashChangeEvent('hashchange'))")
    page.wait_for_function("lensa.runtime.steps[1].key !== lensa.runtime.steps[1].spec.default")
    assert pressed(step(page, "Multiple Heads"), "Heads") == "8"
    assert offline_page.errors == []


GARBAGE = [
    "#garbage", "#s3=head:99,query:nobody", "#s99=query:cat", "#%E0%A4%A", "#s3=%E0%A4%A:%ZZ",
    "#s3=", "#&&==&", "#s1=query", "#s1=query:cat:cat", "#step-999&s2=heads:three",
    "#<script>alert(1)</script>", "#s1=__proto__:x,constructor:y", "#s2=heads:8&s2=heads:nine",
]


def at_defaults(page):
    return page.evaluate("() => lensa.runtime.steps.every(s => s.key === s.spec.default)")


@pytest.mark.parametrize("garbage", ["#s3=%E0%A4%A:%ZZ&s99=query:cat&&==", "#<script>alert(1)</script>"])
def test_an_unusable_fragment_gives_the_defaults(offline_page, explainer, garbage):
    page = open_page(offline_page, explainer + garbage)
    assert at_defaults(page)
    assert pressed(step(page, "One Head's Limit"), "Query") == "cat"
    assert pressed(step(page, "Multiple Heads"), "Heads") == "4"
    assert offline_page.errors == []


def test_unusable_fragments_while_reading_give_the_defaults(offline_page, explainer):
    page = open_page(offline_page, explainer)
    for garbage in GARBAGE:
        # The runtime's hashchange listener was added first, so it has run when this promise resolves.
        page.evaluate("""hash => new Promise(done => {
            window.addEventListener("hashchange", done, {once: true});
            location.hash = hash;
        })""", garbage)
        assert at_defaults(page), garbage
    assert offline_page.errors == []


def test_a_stale_fragment_keeps_what_still_applies(offline_page, explainer):
    page = open_page(offline_page, explainer)
    page.evaluate("location.hash = '#s3=head:99,query:mat,gone:1'")
    third = step(page, "Different Patterns")
    page.wait_for_function("lensa.runtime.steps[2].key !== lensa.runtime.steps[2].spec.default")
    assert pressed(third, "Head").startswith("Head 1")
    assert pressed(third, "Query") == "mat"
    assert offline_page.errors == []


def test_step_links_keep_the_state_in_the_address(offline_page, explainer):
    page = open_page(offline_page, explainer)
    first = step(page, "One Head's Limit")
    click(first, "Query", "on")
    first.get_by_role("link", name="Next step").click()
    page.wait_for_function("location.hash === '#step-2&s1=query:on'")
    # The anchor still scrolls (smoothly, in the default theme) to its step.
    page.wait_for_function("Math.abs(document.getElementById('step-2').getBoundingClientRect().top) < 100")
    # Going back to a fragment with other states applies them.
    page.evaluate("location.hash = '#s2=heads:8'")
    page.wait_for_function("lensa.runtime.steps[1].key !== lensa.runtime.steps[1].spec.default")
    assert pressed(step(page, "Multiple Heads"), "Heads") == "8"
    assert pressed(first, "Query") == "cat"
    assert offline_page.errors == []


def test_values_that_need_escaping_round_trip(tmp_site, tmp_path, offline_page):
    out = tmp_path / "build"
    build(tmp_site(AWKWARD), out, THEMES)
    page = open_page(offline_page, (out / "coin-flips" / "index.html").as_uri())
    words = step(page, "Words")
    group = words.get_by_role("group", name="Word", exact=True)
    group.get_by_role("button", name="e,f&g=h", exact=True).click()
    assert_fragment(page, "#step-2&s2=word:e%2Cf%26g%3Dh")
    group.get_by_role("button", name="ü/?#%", exact=True).click()
    assert_fragment(page, "#step-2&s2=word:%C3%BC%2F%3F%23%25")
    page.reload()
    page.wait_for_function("window.lensa?.share")
    assert pressed(words, "Word") == "ü/?#%"
    assert words.locator("dl dd").all_inner_texts() == ["5"]
    page.evaluate("location.hash = '#s2=word:c%3Ad'")
    page.wait_for_function("document.querySelector('#step-2 dd').textContent === '3'")
    assert pressed(words, "Word") == "c:d"
    assert offline_page.errors == []


# --- A toggle and a slider (tests/fixtures/controls/): name:true|false, name:<value> ----------------


@pytest.fixture(scope="module")
def controls_site(tmp_path_factory):
    return build_controls_site(tmp_path_factory.mktemp("controls-links"))


@pytest.fixture
def controls_page(controls_site, offline_page):
    yield open_controls_page(offline_page, controls_site[0])
    assert offline_page.errors == []


def test_a_slider_state_survives_a_reload(controls_page, controls_site):
    page, site = controls_page, controls_site
    _, steps, _ = site
    section = region(page, "The Mask Hides the Future")
    section.get_by_role("button", name="Causal mask").click()
    section.get_by_role("slider", name="Query position").fill("30")
    assert_fragment(page, "#step-1&s1=causal:true,position:30")
    page.reload()
    page.wait_for_function("window.lensa?.share")
    section = region(page, "The Mask Hides the Future")
    assert section.get_by_role("slider", name="Query position").input_value() == "30"
    assert section.locator("output").inner_text() == "30"
    assert section.get_by_role("button", name="Causal mask").get_attribute("aria-pressed") == "true"
    assert step_readouts(section) == state_of(steps, 1, causal=True, position=30).readouts


@pytest.mark.parametrize("garbage", ["#s1=causal:maybe,position:99", "#s1=causal:True,position:-1",
                                     "#s1=position:31.0", "#s1=position:abc,causal:1", "#s1=position:%ZZ"])
def test_unusable_toggle_and_slider_values_are_ignored(controls_site, offline_page, garbage):
    site = controls_site
    out, steps, _ = site
    page = offline_page.page
    page.goto((out / CONTROLS_SLUG / "index.html").as_uri() + garbage)
    page.wait_for_function("window.lensa?.share")
    section = region(page, "The Mask Hides the Future")
    assert section.get_by_role("slider", name="Query position").input_value() == "4"
    assert section.get_by_role("button", name="Causal mask").get_attribute("aria-pressed") == "false"
    assert step_readouts(section) == state_of(steps, 1).readouts
    assert offline_page.errors == []


def test_a_deep_link_sets_a_slider_and_keeps_the_rest(controls_site, offline_page):
    site = controls_site
    out, steps, _ = site
    page = offline_page.page
    page.goto((out / CONTROLS_SLUG / "index.html").as_uri() + "#step-1&s1=position:12,causal:nope")
    page.wait_for_function("window.lensa?.share")
    section = region(page, "The Mask Hides the Future")
    assert section.locator("output").inner_text() == "12"
    assert step_readouts(section) == state_of(steps, 1, position=12).readouts
    assert offline_page.errors == []
