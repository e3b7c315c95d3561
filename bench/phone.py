"""First view and first tap on a throttled phone: each page served gzipped over
HTTP (as GitHub Pages serves it) to headless Chromium slowed to 4× CPU, 1.6 Mbit/s
down and a 150 ms round trip, with an empty cache, a phone's viewport and a touch
screen. The reader scrolls to the first step and, from the moment its first
control shows, taps that control's other value every 300 ms until the page
answers. The figures are times from the navigation's start: until the first chart
shows (the drawing of its default state in the HTML), until the first tap is
answered (the readouts, prose and table show the tapped state: the runtime's
"explainer:state" event), and until Plotly's chart shows the tapped state (its
"explainer:drawn" event). A page without charts (the game) has the first tap only.
What Plotly's chart waits for is measured too: when the first view is painted, when
plotly.js starts and ends arriving, and when it has run (its script's load event)."""
from __future__ import annotations

import json
import time
from pathlib import Path

from .common import CHROMIUM, CHROMIUM_ARGS, median
from .serving import served

CPU_SLOWDOWN = 4
DOWNLOAD_BYTES_PER_S = 1.6e6 / 8
UPLOAD_BYTES_PER_S = 750e3 / 8
ROUND_TRIP_MS = 150
VIEWPORT = {"width": 412, "height": 823}
TAP_EVERY_S = 0.3
MEASURES = ("shown", "answered", "plotted")
STAGES = ("painted", "fetch_start", "fetch_end", "ran")  # what Plotly's chart waits for

# The control a reader taps: the first step's first button not pressed (an explainer),
# or the first word of the first round (the game).
_TARGET = ("section[data-step] [data-control] button[data-index][aria-pressed=false], "
           "section[data-round] button[data-control]")

# Runs in the page before its own scripts: notes when the first chart shows, every
# state shown and every chart Plotly drew (with their keys), and the first tap.
_WATCH = """
(() => {
  const TARGET = __TARGET__;
  const seen = window.__firstView = { states: [], drawn: [] };
  const look = () => {
    const chart = document.querySelector("[data-chart]");
    if (chart && seen.shown === undefined && chart.querySelector("svg")) seen.shown = performance.now();
  };
  new MutationObserver(look).observe(document, { childList: true, subtree: true });
  document.addEventListener("explainer:state", (e) => seen.states.push([performance.now(), e.detail.key]));
  document.addEventListener("explainer:drawn", (e) => seen.drawn.push([performance.now(), e.detail.key]));
  // When plotly.js has run: the load event of the script that runs it, caught on its way
  // down to the script (before the page's own handler, which goes on to draw the charts).
  document.addEventListener("load", (e) => {
    const script = e.target;
    if (script.tagName === "SCRIPT" && /plotly/.test(script.src || "") && seen.ran === undefined) {
      seen.ran = performance.now();
    }
  }, true);
  // Where the reader's finger goes: once the first view is painted and the control is in
  // the page, its step (or round) is scrolled to at once, as a finger's scroll is (the
  // theme's smooth scrolling would animate a scrollIntoView, and a tap while the page still
  // moves only stops it), and the control's centre noted for the tap. In the page, on its
  // own frames: a harness asking a throttled, busy page for each of these would tap late.
  const aim = () => {
    const paint = performance.getEntriesByName("first-contentful-paint").length;
    const control = paint && document.querySelector(TARGET);
    if (!control) return requestAnimationFrame(aim);
    (control.closest("section") || control).scrollIntoView({ block: "start", behavior: "instant" });
    const box = control.getBoundingClientRect();
    if (!box.width || !box.height) return requestAnimationFrame(aim);
    seen.aim = { x: box.left + box.width / 2, y: box.top + box.height / 2, at: performance.now() };
  };
  requestAnimationFrame(aim);
  // When the finger came down (the event's own time), however busy the page was then.
  document.addEventListener("pointerdown", (e) => {
    if (seen.tapped === undefined) seen.tapped = e.timeStamp;
  }, true);
})();
""".replace("__TARGET__", json.dumps(_TARGET))

# The first state shown after the first tap (a game shows its round's state as it starts).
_ANSWERED = """() => {
  const seen = window.__firstView;
  const after = seen.tapped === undefined ? [] : seen.states.filter(([time]) => time >= seen.tapped);
  return after.length ? after[0][0] : null;
}"""


def measure(build_dir: Path, paths: list[str], runs: int) -> dict:
    """{page path: {"shown", "answered", "plotted": median ms (None where the page has
    no chart), "runs": [...]}}."""
    from playwright.sync_api import sync_playwright

    results = {}
    with served(build_dir) as base, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for path in paths:
            samples = [_one_view(browser, base + path) for _ in range(runs)]
            results[path] = {key: _median(s[key] for s in samples) for key in MEASURES + STAGES}
            results[path]["taps"] = median([s["taps"] for s in samples])
            results[path]["runs"] = samples
        browser.close()
    return results


def _median(values):
    values = [v for v in values if v is not None]
    return median(values) if values else None


def _one_view(browser, url: str) -> dict:
    context = browser.new_context(viewport=VIEWPORT, is_mobile=True, has_touch=True, device_scale_factor=2)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": ROUND_TRIP_MS,
                                                  "downloadThroughput": DOWNLOAD_BYTES_PER_S,
                                                  "uploadThroughput": UPLOAD_BYTES_PER_S})
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    page.add_init_script(_WATCH)
    page.goto(url, wait_until="commit")
    # The first tap lands as soon as the page has shown the control (see _WATCH); a later one
    # where the control is then, in case the page moved it.
    aim = page.wait_for_function("() => window.__firstView.aim", timeout=60_000).json_value()
    taps = 0
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        page.touchscreen.tap(aim["x"], aim["y"])
        taps += 1
        time.sleep(TAP_EVERY_S)
        if page.evaluate(_ANSWERED):
            break
        aim = page.evaluate("""target => {
            const box = document.querySelector(target).getBoundingClientRect();
            return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
        }""", _TARGET)
    else:
        raise RuntimeError(f"{url}: no tap was answered within 60 s")
    has_chart = page.locator("[data-chart]").count() > 0
    seen = page.evaluate("window.__firstView")
    answered = page.evaluate(_ANSWERED)
    plotted = None
    if has_chart:
        # Plotly's chart of the state chosen last (every tap chose the same value).
        last = seen["states"][-1][1]
        page.wait_for_function("key => window.__firstView.drawn.some(d => d[1] === key)", arg=last,
                               timeout=60_000)
        seen = page.evaluate("window.__firstView")
        plotted = next(t for t, k in seen["drawn"] if k == last)
    stages = page.evaluate("""() => {
        const paint = performance.getEntriesByName("first-contentful-paint")[0];
        const fetch = performance.getEntriesByType("resource").find(e => /plotly/.test(e.name));
        return {painted: paint ? paint.startTime : null, fetch_start: fetch ? fetch.startTime : null,
                fetch_end: fetch ? fetch.responseEnd : null, ran: window.__firstView.ran ?? null};
    }""")
    context.close()
    return {"shown": seen.get("shown") if has_chart else None, "answered": answered, "plotted": plotted,
            "taps": taps, "first_tap": seen.get("tapped"), **(stages if has_chart else dict.fromkeys(STAGES))}
