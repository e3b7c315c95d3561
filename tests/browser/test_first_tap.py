"""The first tap, before plotly.js has run: the runtime answers controls at once
from the page data (readouts, prose, data table), marks a chart's still drawing
that no longer shows its step's state, and runs plotly.js only when a chart needs
it; the chart then catches up to the state chosen last, and no tap is lost, not
even one made before the runtime itself has started. On a phone (a touch screen,
no hover) a page that is only read never runs plotly.js; a device that hovers runs
it once a chart nears the view. plotly.js is held back by routing its requests,
as a slow network would."""
from __future__ import annotations

import re

import pytest

from generator.build import build
from generator.compute.states import compute_site
from generator.build import read_site

from tests.conftest import FIXTURES, THEMES, wait_until_idle
from tests.hosting import PagesServer

TINY = FIXTURES / "tiny" / "content"
CONTROLS = FIXTURES / "controls" / "content"
PHONE = {"viewport": {"width": 412, "height": 823}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
# The page has fetched plotly.js (or begun to).
PLOTLY_FETCHED = "performance.getEntriesByType('resource').some(e => /plotly\\.min\\.js/.test(e.name))"

# Runs before the page's scripts: every state shown and every chart Plotly drew, in order.
RECORD = """
window.__shown = []; window.__drawn = [];
document.addEventListener("explainer:state", (e) => window.__shown.push(e.detail.key));
document.addEventListener("explainer:drawn", (e) => window.__drawn.push(e.detail.key));
"""


@pytest.fixture(scope="module")
def hosted(tmp_path_factory):
    """The tiny site and the controls fixture (a slider) served over HTTP, and a course
    page that embeds the tiny explainer three times: {name: address}."""
    folder = tmp_path_factory.mktemp("first-tap")
    with PagesServer() as server:
        addresses = {}
        for name, content in (("tiny", TINY), ("controls", CONTROLS)):
            build(content, folder / name, THEMES)
            addresses[name] = server.publish(name, folder / name)
        frames = "".join(f'<iframe src="{addresses["tiny"]}embed/coin-flips/{name}" title="Embed {number}" '
                         'width="400" height="500"></iframe>'
                         for number, name in enumerate(("step-1.html", "index.html", "step-1.html")))
        (folder / "course").mkdir()
        (folder / "course" / "week.html").write_text("<!doctype html><html lang='en'><head><meta charset='utf-8'>"
                                                     f"<title>Week</title></head><body><h1>Week</h1>{frames}</body></html>")
        addresses["course"] = server.publish("course", folder / "course")
        yield addresses


@pytest.fixture(scope="module")
def tiny_step():
    """The tiny explainer's one step, computed as the build computes it."""
    return compute_site(read_site(TINY))["coin-flips"][0]


@pytest.fixture(scope="module")
def coin_flips(tiny_step):
    """The step's states, by the number of flips."""
    return {state.choice["flips"]: state for state in tiny_step.states}


class Held:
    """Requests for one file of the site, held until released, as a slow network holds them."""

    def __init__(self, page, name: str):
        self.name = name
        self.routes = []
        self.requested = False
        self.released = False
        page.on("request", self._seen)
        page.route(f"**/{name}*", self._hold)

    def _is_mine(self, request) -> bool:
        return request.url.rsplit("/", 1)[-1].startswith(self.name)

    def _seen(self, request):
        self.requested = self.requested or self._is_mine(request)

    def wait_for_request(self, page, timeout: float = 10_000):
        """Until the page has asked for the file (a timeout error if it does not in `timeout` ms)."""
        if not self.requested:
            page.wait_for_event("request", predicate=self._is_mine, timeout=timeout)

    def _hold(self, route):
        if self.released:
            route.continue_()
        else:
            self.routes.append(route)

    def release(self):
        self.released = True
        for route in self.routes:
            route.continue_()


def open_page(browser, url, device=PHONE, hold=("plotly.min.js",), requested=None):
    """The page at `url` as it starts to arrive, the files named in `hold` held; the
    address of every request it makes goes into `requested` (from before the first)."""
    context = browser.new_context(**device)
    if requested is not None:
        context.on("request", lambda request: requested.append(request.url))
    context.add_init_script(RECORD)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    held = {name: Held(page, name) for name in hold}
    page.goto(url, wait_until="commit")
    return context, page, held, errors


def flips(page):
    return page.get_by_role("group", name="Flips", exact=True)


def shows(page, state):
    """The step's readouts, prose and data table show `state`."""
    section = page.locator("section[data-step]").first
    highlighted = section.locator("[data-table] tr[aria-current=true] th").all_text_contents()  # behind Show data
    return (section.locator("dl dd").all_inner_texts() == state.readouts
            and f"With {state.choice['flips']} flips there are" in section.locator("[data-prose]").inner_text()
            and highlighted == [str(state.choice["flips"])])


def test_a_tap_before_plotly_has_run_is_answered_at_once_and_the_chart_catches_up(browser, hosted, coin_flips,
                                                                                   tiny_step):
    context, page, held, errors = open_page(browser, hosted["tiny"] + "coin-flips/index.html")
    page.wait_for_function("window.lensa?.runtime")
    chart = page.locator("[data-chart]").first
    assert chart.locator("[data-poster]").count() == 1 and not page.evaluate("!!window.Plotly")
    # Tapped in turn, while plotly.js is still on its way: each is answered from the page data.
    for number in (3, 1, 3):
        flips(page).get_by_role("button", name=str(number), exact=True).tap()
        assert shows(page, coin_flips[number])
    assert flips(page).get_by_role("button", name="3", exact=True).get_attribute("aria-pressed") == "true"
    # The still drawing shows the default state, and says so.
    assert chart.get_attribute("data-pending") is not None
    note = chart.evaluate("c => getComputedStyle(c, '::after').content")
    assert "previous choice" in note and float(chart.locator("[data-poster]").evaluate(
        "p => getComputedStyle(p).opacity")) < 1
    # A tap asked for plotly.js; the runtime runs it as soon as it arrives.
    assert held["plotly.min.js"].routes, "plotly.js is fetched early"
    flips(page).get_by_role("button", name="1", exact=True).tap()
    held["plotly.min.js"].release()
    chart.locator(".main-svg").first.wait_for()
    page.wait_for_function("key => window.__drawn.includes(key)", arg=coin_flips[1].key)
    # The chart shows the state chosen last, and nothing is pending any more.
    assert page.evaluate("lensa.runtime.steps[0].drawn") == coin_flips[1].key
    assert page.evaluate("window.__drawn") == [coin_flips[1].key]
    assert chart.get_attribute("data-pending") is None and chart.locator("[data-poster]").count() == 0
    # Plotly's drawing is the figure of that state, shape for shape.
    drawn = page.evaluate("document.querySelector('[data-chart]').layout.shapes.map(s => [s.x0, s.x1, s.y0, s.y1])")
    boxes = {n: [[s["x0"], s["x1"], s["y0"], s["y1"]] for s in tiny_step.figures[0][coin_flips[n].key]["layout"]["shapes"]]
             for n in (1, 3)}
    assert drawn == boxes[1] != boxes[3]
    # No tap was lost: every one showed its state, in order.
    assert page.evaluate("window.__shown") == [coin_flips[n].key for n in (3, 1, 3, 1)]
    assert shows(page, coin_flips[1]) and errors == []
    context.close()


def test_taps_before_the_runtime_has_started_are_kept(browser, hosted, coin_flips):
    context, page, held, errors = open_page(browser, hosted["tiny"] + "coin-flips/index.html",
                                            hold=("plotly.min.js", "runtime.js"))
    # The controls show before runtime.js has arrived: two taps then.
    for number in (1, 3):
        flips(page).get_by_role("button", name=str(number), exact=True).tap()
    assert not page.evaluate("!!window.lensa?.runtime")
    assert shows(page, coin_flips[2]), "nothing answers yet"
    held["runtime.js"].release()
    page.wait_for_function("window.lensa?.runtime")
    assert page.evaluate("window.__shown") == [coin_flips[1].key, coin_flips[3].key]
    assert shows(page, coin_flips[3])
    assert flips(page).get_by_role("button", name="3", exact=True).get_attribute("aria-pressed") == "true"
    held["plotly.min.js"].release()
    page.wait_for_function("key => window.__drawn.includes(key)", arg=coin_flips[3].key)
    assert errors == []
    context.close()


def test_plotly_is_fetched_once_the_first_view_is_painted_and_only_once(browser, hosted):
    # runtime.js, held here, need not have run: the page's head starts the download once the
    # first view is painted (so it does not share a slow phone's bandwidth with what the page
    # shows first), and the runtime, once it runs, does not ask for the file again.
    requested = []
    context, page, held, errors = open_page(browser, hosted["tiny"] + "coin-flips/index.html", hold=("runtime.js",),
                                            requested=requested)
    flips(page).get_by_role("button", name="3", exact=True).wait_for()
    page.wait_for_function(PLOTLY_FETCHED)
    assert not page.evaluate("!!window.lensa?.runtime")
    painted, fetched = page.evaluate("""[performance.getEntriesByName('first-contentful-paint')[0].startTime,
        performance.getEntriesByType('resource').find(e => /plotly\\.min\\.js/.test(e.name)).startTime]""")
    assert painted <= fetched, "plotly.js is fetched after the first view is painted"
    held["runtime.js"].release()
    page.wait_for_load_state("load")
    page.wait_for_function("window.lensa?.runtime")
    wait_until_idle(page)  # past the runtime's own fetch, asked for once the page has loaded and is idle
    assert sum("plotly" in url for url in requested) == 1
    assert not page.evaluate("!!window.Plotly") and errors == []
    context.close()


def test_a_tap_before_the_runtime_has_started_has_its_chart_drawn_once_plotly_arrives(browser, hosted, coin_flips):
    context, page, held, errors = open_page(browser, hosted["tiny"] + "coin-flips/index.html",
                                            hold=("plotly.min.js", "runtime.js"))
    flips(page).get_by_role("button", name="3", exact=True).wait_for()
    # The download begins once the first view is painted, before any tap or the runtime.
    held["plotly.min.js"].wait_for_request(page)  # "plotly.js is on its way before the first tap", or a timeout
    flips(page).get_by_role("button", name="3", exact=True).tap()
    held["plotly.min.js"].release()
    held["runtime.js"].release()
    page.wait_for_function("key => window.__drawn.includes(key)", arg=coin_flips[3].key)
    assert shows(page, coin_flips[3]) and errors == []
    context.close()


def test_a_slider_moved_before_the_runtime_has_started_is_followed(browser, hosted):
    context, page, held, errors = open_page(browser, hosted["controls"] + "masks/index.html",
                                            hold=("plotly.min.js", "runtime.js"))
    section = page.get_by_role("region", name="The Mask Hides the Future", exact=True)
    slider = section.get_by_role("slider", name="Query position", exact=True)
    slider.fill("17")
    assert section.locator("output").inner_text() == "4", "nothing answers yet"
    held["runtime.js"].release()
    page.wait_for_function("window.lensa?.runtime")
    assert section.locator("output").inner_text() == "17"
    assert page.evaluate("window.__shown").count(page.evaluate("lensa.runtime.steps[0].key")) == 1
    held["plotly.min.js"].release()
    assert errors == []
    context.close()


def test_a_phone_that_only_reads_never_runs_plotly(browser, hosted):
    context, page, held, errors = open_page(browser, hosted["controls"] + "masks/index.html", hold=())
    page.wait_for_load_state("load")
    for chart in page.locator("[data-chart]").all():
        chart.scroll_into_view_if_needed()
        assert chart.locator("[data-poster]").count() == 1
    # plotly.js is fetched once the first view is painted, but a page that is only read never runs it.
    page.wait_for_function(PLOTLY_FETCHED)
    wait_until_idle(page)  # what the runtime does when left alone (an idle load, were it to ask for one) is done
    assert not page.evaluate("!!window.Plotly")
    assert page.locator("[data-pending]").count() == 0 and errors == []
    # Tapping a chart (to read it) runs plotly.js: its labels come with Plotly.
    page.locator("[data-chart]").last.tap()
    page.locator("[data-chart]").last.locator(".main-svg").first.wait_for()
    context.close()


def test_a_deep_link_has_plotly_draw_the_chart_it_changes_when_it_comes_into_view(browser, hosted):
    context, page, held, errors = open_page(browser, hosted["controls"] + "masks/index.html#step-1&s1=position:17",
                                            hold=())
    page.wait_for_function("window.lensa?.runtime && window.lensa?.share")
    section = page.get_by_role("region", name="The Mask Hides the Future", exact=True)
    assert section.locator("output").inner_text() == "17"
    section.locator("[data-chart] .main-svg").first.wait_for()
    assert page.evaluate("lensa.runtime.steps[0].drawn === lensa.runtime.steps[0].key") and errors == []
    context.close()


def test_a_device_that_hovers_runs_plotly_once_a_chart_nears_the_view(browser, hosted):
    context, page, held, errors = open_page(browser, hosted["tiny"] + "coin-flips/index.html", device=DESKTOP,
                                            hold=())
    # No tap: the chart is in view, and its hover labels need Plotly's axes.
    page.locator("[data-chart] .main-svg").first.wait_for()
    assert page.evaluate("lensa.runtime.steps[0].drawn") == page.evaluate("lensa.runtime.steps[0].key")
    assert errors == []
    context.close()


def test_embeds_on_one_course_page_run_plotly_only_when_tapped(browser, hosted):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(hosted["course"] + "week.html")
    for frame in page.frames[1:]:
        frame.wait_for_function("window.lensa?.runtime")
        wait_until_idle(frame)
    assert [frame.evaluate("!!window.Plotly") for frame in page.frames[1:]] == [False, False, False]
    embed = page.frame_locator('iframe[title="Embed 1"]')
    embed.get_by_role("group", name="Flips", exact=True).get_by_role("button", name="3", exact=True).tap()
    embed.locator("[data-chart] .main-svg").first.wait_for()
    for frame in page.frames[1:]:
        wait_until_idle(frame)  # a tap in one embed has had whatever effect it has on the others
    assert [frame.evaluate("!!window.Plotly") for frame in page.frames[1:]] == [False, True, False]
    context.close()


def test_the_single_file_copy_runs_its_inline_plotly_when_a_tap_needs_it(browser, hosted, tmp_path, coin_flips):
    build(TINY, tmp_path / "build", THEMES)
    copy = tmp_path / "alone.html"
    copy.write_bytes((tmp_path / "build" / "offline" / "coin-flips.html").read_bytes())
    context = browser.new_context(**PHONE)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(copy.as_uri())
    page.wait_for_function("window.lensa?.runtime")
    assert not page.evaluate("!!window.Plotly")
    flips(page).get_by_role("button", name="3", exact=True).tap()
    assert shows(page, coin_flips[3])
    page.locator("[data-chart] .main-svg").first.wait_for()
    assert page.evaluate("lensa.runtime.steps[0].drawn") == coin_flips[3].key
    assert re.search(r"plotly\.js", page.evaluate("document.querySelector('template[data-plotly]').content.textContent.slice(0, 300)"))
    assert errors == []
    context.close()


def test_a_word_pressed_before_the_games_runtime_has_started_is_kept(browser, built_site):
    out, _ = built_site
    with PagesServer() as server:
        site = server.publish("site", out)
        context, page, held, errors = open_page(browser, site + "spotlight/index.html", hold=("game.js",))
        word = page.locator("section[data-round] button[data-control]").first
        word.tap()
        assert word.get_attribute("aria-pressed") == "false", "nothing answers yet"
        held["game.js"].release()
        page.wait_for_function("window.lensa?.game")
        assert word.get_attribute("aria-pressed") == "true"
        assert len(page.evaluate("window.__shown")) >= 1 and errors == []
        context.close()
