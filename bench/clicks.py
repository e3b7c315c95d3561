"""Click-to-update latency in headless Chromium, over every value of every
control (buttons, toggles, sliders) of every step. Clicks are dispatched inside the page and timed with
performance.now(), so Playwright's messaging is not counted: the clock runs
from the click until the runtime has applied the state and the Plotly call it
made (relayout or update of what changed, or react) has resolved. A second
figure adds the wait for the next frame. Each click also records what the runtime
asked of Plotly and why (Chart.update): where Plotly still lays a figure out (a
first draw, a chart that rescales, traces added or removed), the report says
which step and why.

Three baselines are measured on the same charts in the same run: Plotly.react
with nothing changed (what any update through react costs inside Plotly),
Plotly.restyle of one trace's opacity (the least a change to a trace costs) and
Plotly.newPlot (a full redraw). Main-thread CPU time per click, from Chromium's own counters,
is less disturbed by a busy machine than wall time: a separate pass chooses every
value once more and reads the CPU time each click took, up to the next frame."""
from __future__ import annotations

from pathlib import Path

from .common import CHROMIUM, CHROMIUM_ARGS, median, percentile

# The Plotly calls that update a drawn chart: the runtime picks the cheapest that applies.
UPDATES = "['react', 'relayout', 'restyle', 'update']"

# In the page: what a reader can do with a control, whatever its kind. `count` values;
# `current()` the one shown; `choose(i)` shows value i as a reader would (a button
# clicked, the toggle pressed, the slider's thumb moved, which fires "input").
CONTROL = """
const controlOf = (group) => {
  const kind = group.getAttribute("data-kind") || "buttons";
  if (kind === "slider") {
    const input = group.querySelector('input[type="range"]');
    return { count: JSON.parse(input.getAttribute("data-values")).length, current: () => Number(input.value),
             choose: (i) => { input.value = String(i); input.dispatchEvent(new Event("input", { bubbles: true })); } };
  }
  if (kind === "toggle") {
    const button = group.querySelector("button[data-toggle]");
    const current = () => (button.getAttribute("aria-pressed") === "true" ? 1 : 0);
    return { count: 2, current, choose: (i) => { if (current() !== i) button.click(); } };
  }
  const buttons = Array.from(group.querySelectorAll("button[data-index]"));
  return { count: buttons.length,
           current: () => buttons.findIndex((b) => b.getAttribute("aria-pressed") === "true"),
           choose: (i) => buttons[i].click() };
};
"""

# Runs in the page: wraps Plotly's update calls to catch the promise of the redraw a click starts.
SWEEP = """
async (rounds) => {
""" + CONTROL + """
  const runtime = window.lensa?.runtime;
  const real = {};
  let pending = null, reactStart = 0, reactEnd = 0, via = null;
  for (const name of """ + UPDATES + """) {
    real[name] = Plotly[name];
    Plotly[name] = function () {
      via = name;
      reactStart = performance.now();
      pending = real[name].apply(this, arguments);
      reactEnd = performance.now();
      return pending;
    };
  }
  const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  const samples = [];
  for (let round = 0; round < rounds; round++) {
    for (let s = 0; s < runtime.steps.length; s++) {
      const step = runtime.steps[s];
      if (!step.chart) continue;
      step.chart.scrollIntoView({ block: "center" });
      for (let wait = 0; wait < 600 && step.drawn !== step.key; wait++) await frame();
      if (step.drawn !== step.key) throw new Error("step " + (s + 1) + " never drew its chart");
      if (pending) await pending;
      await frame();
      for (let g = 0; g < step.groups.length; g++) {
        const control = controlOf(step.groups[g]);
        const start = control.current();
        for (let k = 1; k <= control.count; k++) {
          const target = (start + k) % control.count;
          pending = null;
          via = null;
          step.charts.forEach((chart) => { chart.update = null; });
          const t0 = performance.now();
          control.choose(target);
          const returned = performance.now();
          if (pending) await pending;
          const t1 = performance.now();
          // The runtime's own share: before Plotly was called, and after it returned.
          const own = pending ? (reactStart - t0) + (returned - reactEnd) : t1 - t0;
          await frame();
          const t2 = performance.now();
          if (step.drawn !== step.key) throw new Error("step " + (s + 1) + " did not draw state " + step.key);
          if (control.current() !== target) {
            throw new Error("step " + (s + 1) + ": control " + (g + 1) + " does not show the value chosen");
          }
          // Where Plotly laid a figure out, and why (the runtime's Chart.update).
          const laid = step.charts.map((chart) => chart.update).filter((u) => u && (u.via === "react" || u.why))
            .map((u) => u.why || u.via);
          samples.push({ round, step: s + 1, control: g, applied: t1 - t0, frame: t2 - t0, own,
                         redrew: pending !== null, via, laid });
        }
      }
    }
  }
  Object.assign(Plotly, real);
  return samples;
}
"""

# Runs in the page after the sweep: Plotly's own cost on each step's chart, as drawn.
BASELINES = """
async (repeats) => {
  const out = {};
  const steps = window.lensa.runtime.steps;
  for (let s = 0; s < steps.length; s++) {
    const gd = steps[s].chart;
    if (!gd || !gd.data) continue;
    gd.scrollIntoView({ block: "center" });
    const noop = [], full = [], restyle = [];
    for (let i = 0; i < repeats; i++) {
      let t0 = performance.now();
      await Plotly.react(gd, gd.data, gd.layout, gd._context);
      noop.push(performance.now() - t0);
      t0 = performance.now();
      await Plotly.restyle(gd, { opacity: i % 2 ? 1 : 0.999 }, [0]);
      restyle.push(performance.now() - t0);
      t0 = performance.now();
      await Plotly.newPlot(gd, gd.data, gd.layout, gd._context);
      full.push(performance.now() - t0);
    }
    const mid = (a) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)];
    out[s + 1] = { noop_ms: mid(noop), restyle_ms: mid(restyle), newplot_ms: mid(full) };
  }
  return out;
}
"""


# One click, for the CPU pass: step s, control g, the k-th button after the pressed one;
# waits for the redraw and the next frame, so the window holds all of the click's work.
ONE_CLICK = """
async ([s, g, k]) => {
""" + CONTROL + """
  const step = window.lensa.runtime.steps[s];
  const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  if (step.drawn !== step.key) {
    step.chart.scrollIntoView({ block: "center" });
    for (let wait = 0; wait < 600 && step.drawn !== step.key; wait++) await frame();
    await frame();
    return null;
  }
  if (g === null) return null;  // the chart is drawn: nothing to click
  const control = controlOf(step.groups[g]);
  const start = control.current();
  const real = {};
  let pending = null;
  for (const name of """ + UPDATES + """) {
    real[name] = Plotly[name];
    Plotly[name] = function () { pending = real[name].apply(this, arguments); return pending; };
  }
  control.choose((start + k) % control.count);
  if (pending) await pending;
  Object.assign(Plotly, real);
  await frame();
  return control.count;
}
"""


def _cpu_per_click(page, cdp) -> list[tuple[int, float]]:
    """(step number, main-thread CPU milliseconds) of each click, one sweep over every button."""
    shape = page.evaluate("() => {" + CONTROL + " return window.lensa.runtime.steps.map((s) => "
                          "s.chart ? s.groups.map((g) => controlOf(g).count) : []); }")
    times = []
    for s, groups in enumerate(shape):
        if groups:
            page.evaluate(ONE_CLICK, [s, None, 0])  # scrolls the chart into view and waits for it
        for g, count in enumerate(groups):
            for _ in range(count):
                before = _thread_time(cdp)
                page.evaluate(ONE_CLICK, [s, g, 1])
                times.append((s + 1, (_thread_time(cdp) - before) * 1000))
    return times


# A page without charts (the game): every word button of every round, clicked in
# turn; the clock runs from the click until the next frame has been painted.
BUTTON_SWEEP = """
async (rounds) => {
""" + CONTROL + """
  const runtime = window.lensa?.game;
  const frame = () => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  const samples = [];
  for (let round = 0; round < rounds; round++) {
    for (let r = 0; r < runtime.rounds.length; r++) {
      runtime.show(r, false);
      await frame();
      const section = runtime.rounds[r].section;
      const buttons = Array.from(section.querySelectorAll("button[aria-pressed]"));
      for (const button of buttons) {
        const t0 = performance.now();
        button.click();
        const t1 = performance.now();
        await frame();
        samples.push({ step: r + 1, ms: t1 - t0, frame_ms: performance.now() - t0, via: "none" });
      }
    }
  }
  return samples;
}
"""


def measure(build_dir: Path, slugs: list[str], rounds: int) -> dict:
    from playwright.sync_api import sync_playwright

    results = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for slug in slugs:
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                errors: list[str] = []
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto((build_dir / slug / "index.html").resolve().as_uri())
                if page.evaluate("!!window.lensa?.game"):
                    results[slug] = _button_page(page, rounds)
                    page.close()
                    continue
                page.wait_for_function("window.lensa?.runtime && window.Plotly")
                cdp = page.context.new_cdp_session(page)
                cdp.send("Performance.enable", {"timeDomain": "threadTicks"})
                cpu_before = _thread_time(cdp)
                samples = page.evaluate(SWEEP, rounds)
                cpu = _thread_time(cdp) - cpu_before
                cpu_clicks = _cpu_per_click(page, cdp)
                baselines = page.evaluate(BASELINES, 9)
                page.close()
                if errors:
                    raise RuntimeError(f"{slug}: page errors during the sweep: {errors}")
                results[slug] = summarise(samples, rounds)
                results[slug]["cpu_per_click_ms"] = cpu * 1000 / len(samples)
                results[slug]["cpu_median_ms"] = median(t for _, t in cpu_clicks)
                results[slug]["cpu_p95_ms"] = percentile([t for _, t in cpu_clicks], 95)
                for number in {n for n, _ in cpu_clicks}:
                    results[slug]["steps"].setdefault(number, {})["cpu_median_ms"] = \
                        median(t for n, t in cpu_clicks if n == number)
                for number, figures in baselines.items():
                    results[slug]["steps"].setdefault(int(number), {}).update(figures)
            version = browser.version
        finally:
            browser.close()
    return {"chromium": version, "pages": results}


def _button_page(page, rounds: int) -> dict:
    """Click-to-update on a page of plain buttons (no charts, no Plotly calls)."""
    samples = page.evaluate(BUTTON_SWEEP, rounds)
    times = [s["ms"] for s in samples]
    frames = [s["frame_ms"] for s in samples]
    return {"clicks": len(samples), "median_ms": median(times), "p95_ms": percentile(times, 95),
            "frame_median_ms": median(frames), "frame_p95_ms": percentile(frames, 95),
            "cpu_median_ms": median(times), "cpu_p95_ms": percentile(times, 95), "cpu_per_click_ms": median(times),
            "steps": {}, "buttons_only": True}


def _thread_time(cdp) -> float:
    """Main-thread CPU seconds so far (includes the sweep's own waiting between clicks, which is idle)."""
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return next(m["value"] for m in metrics if m["name"] == "ThreadTime")


def summarise(samples: list[dict], rounds: int) -> dict:
    applied = [s["applied"] for s in samples]
    frames = [s["frame"] for s in samples]
    steps = {}
    for number in sorted({s["step"] for s in samples}):
        mine = [s["applied"] for s in samples if s["step"] == number]
        laid = [s["laid"] for s in samples if s["step"] == number and s.get("laid")]
        steps[number] = {"clicks": len(mine) // rounds, "median_ms": median(mine), "p95_ms": percentile(mine, 95),
                         "max_ms": max(mine),
                         "reacts": sum(1 for s in samples if s["step"] == number and s["via"] == "react"),
                         # Clicks where Plotly laid a figure out again, and why (the runtime says).
                         "laid_out": len(laid), "why": sorted({why for found in laid for why in found})}
    return {
        "clicks": len(samples), "rounds": rounds,
        "median_ms": median(applied), "p95_ms": percentile(applied, 95), "max_ms": max(applied),
        "frame_median_ms": median(frames), "frame_p95_ms": percentile(frames, 95),
        "first_round_median_ms": median([s["applied"] for s in samples if s["round"] == 0]),
        "own_median_ms": median([s["own"] for s in samples]),
        # How the clicks that redrew did it: {"relayout": n, "react": m}.
        "via": {name: sum(1 for s in samples if s["via"] == name)
                for name in sorted({s["via"] for s in samples if s["via"]})},
        "steps": steps,
    }
