"""Budgets, and the text of docs/performance.md (also printed by `make bench`)."""
from __future__ import annotations

from . import lighthouse, phone
from .common import GZIP_LEVEL, ROOT, kb, median, ms

KB = 1024
# DEVELOPERS.md: a full build takes at most the import floor plus half the floor per
# page (explainer or game), so it grows linearly and slowly with the site.
BUDGET_FLOOR_PER_PAGE = 0.5
BUDGET_REBUILD_S = 0.150
BUDGET_OWN = 60 * KB
BUDGET_TOTAL = 600 * KB
BUDGET_CLICK_MEDIAN_MS = 16
BUDGET_CLICK_P95_MS = 16
# On a throttled phone (bench/phone.py), from the start of navigation.
BUDGET_PHONE_SHOWN_S = 1.5     # the first picture of a chart
BUDGET_PHONE_ANSWERED_S = 2.0  # the first tap answered
BUDGET_PHONE_PLOTTED_S = 4.0   # Plotly's chart of the tapped state
# Lighthouse (mobile): the least score of each category; SEO on pages meant to be indexed.
BUDGET_LIGHTHOUSE = {"performance": 98, "accessibility": 100, "best-practices": 100, "seo": 100}
MAIN_PAGE = "multi-head-attention"


def bundle_name() -> str:
    from generator.resources import plotly_bundle

    bundle = plotly_bundle()
    return f"partial bundle {bundle.name} {bundle.version} ({bundle.folder.relative_to(ROOT)}/)" if bundle else "?"


def machine_line(m: dict) -> str:
    load = f", load average {m['load']:.2f}" if m.get("load") is not None else ""
    return (f"{m['cpu']}, {m['cores']} cores{load}; {m['os']}; Python {m['python']}, numpy {m['numpy']}, "
            f"Jinja2 {m['jinja2']}, Markdown {m['markdown']}")


def budgets(r: dict) -> list[tuple[str, str, str, bool | None]]:
    rows = []
    if "build" in r:
        b = r["build"]
        allowed = 1 + BUDGET_FLOOR_PER_PAGE * b.get("pages", 1)
        rows.append((f"Full build ÷ import floor (wall time, {_count(b.get('pages', 1), 'page')})", f"≤ {allowed:.1f}×",
                     f"{b['ratio']:.2f}× ({ms(b['build_s'])} ÷ {ms(b['floor_s'])}); CPU time {b['cpu_ratio']:.2f}×",
                     b["ratio"] <= allowed))
    if "rebuild" in r:
        t = r["rebuild"]["median_s"]
        rows.append(("Incremental rebuild (serve, one-line prose edit)", f"≤ {ms(BUDGET_REBUILD_S)}",
                     f"{ms(t)}; CPU time {ms(r['rebuild']['cpu_median_s'])}", t <= BUDGET_REBUILD_S))
    for slug, sizes in r.get("bytes", {}).items():
        rows.append((f"Own bytes, gzipped: {slug}", f"≤ {kb(BUDGET_OWN)}", kb(sizes["own"]),
                     sizes["own"] <= BUDGET_OWN))
        rows.append((f"First view, gzipped: {slug}", f"≤ {kb(BUDGET_TOTAL)}", kb(sizes["total"]),
                     sizes["total"] <= BUDGET_TOTAL))
    for path, p in r.get("phone", {}).items():
        page = path.split("/")[0]
        for key, what, budget in (("shown", "First picture of a chart", BUDGET_PHONE_SHOWN_S),
                                  ("answered", "First tap answered", BUDGET_PHONE_ANSWERED_S),
                                  ("plotted", "Plotly's chart of the tapped state", BUDGET_PHONE_PLOTTED_S)):
            if p[key] is not None:
                rows.append((f"{what} on a throttled phone: {page}", f"≤ {ms(budget)}", ms(p[key] / 1000),
                             p[key] / 1000 <= budget))
    for path, page in r.get("lighthouse", {}).get("pages", {}).items():
        wanted = {c: least for c, least in BUDGET_LIGHTHOUSE.items() if c != "seo" or page["indexed"]}
        scores = page["scores"]
        rows.append((f"Lighthouse (mobile): {path}", ", ".join(f"{_CATEGORY[c]} {'=' if least == 100 else '≥'} {least}" for c, least in wanted.items()),
                     " / ".join(f"{scores[c]:.0f}" for c in BUDGET_LIGHTHOUSE) + f"; TBT {page['tbt']:.0f} ms",
                     all(scores[c] >= least for c, least in wanted.items())))
    for slug, c in r.get("clicks", {}).get("pages", {}).items():
        rows.append((f"Click-to-update median: {slug}", f"≤ {BUDGET_CLICK_MEDIAN_MS} ms",
                     f"{c['median_ms']:.1f} ms; CPU time {c['cpu_median_ms']:.1f} ms",
                     c["median_ms"] <= BUDGET_CLICK_MEDIAN_MS))
        rows.append((f"Click-to-update p95: {slug}", f"≤ {BUDGET_CLICK_P95_MS} ms",
                     f"{c['p95_ms']:.1f} ms; CPU time {c['cpu_p95_ms']:.1f} ms", c["p95_ms"] <= BUDGET_CLICK_P95_MS))
    if "scaling" in r:
        rows_all = r["scaling"]["tokens"] + r["scaling"]["heads"]
        worst = max(rows_all, key=lambda row: row["data_raw"] / row["unpooled_raw"])
        rows.append(("Data ≤ states × per-state payload (every sweep point)", "≤ 1.00×",
                     f"at most {worst['data_raw'] / worst['unpooled_raw']:.2f}× "
                     f"({_count(worst['tokens'], 'token')}, {_count(worst['heads'], 'head')})",
                     all(row["data_raw"] <= row["unpooled_raw"] for row in rows_all)))
    return rows


_CATEGORY = {"performance": "performance", "accessibility": "accessibility", "best-practices": "best practices",
             "seo": "SEO"}


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def budget_table(r: dict) -> str:
    lines = ["| Budget | Target | Measured | Holds |", "|---|---|---|---|"]
    for name, target, measured, ok in budgets(r):
        lines.append(f"| {name} | {target} | {measured} | {'yes' if ok else '**no**'} |")
    return "\n".join(lines)


def section_text(key: str, r: dict) -> str:
    return {"build": _build, "rebuild": _rebuild, "bytes": _bytes, "phone": _phone, "lighthouse": _lighthouse,
            "clicks": _clicks, "scaling": _scaling}[key](r)


def _lighthouse(r: dict) -> str:
    lh = r["lighthouse"]
    lines = [f"Lighthouse {lh['version']} (node_modules/, pinned in package.json) in Debian's chromium, mobile, with its "
             "default simulated throttling (Slow 4G, 4× CPU slowdown), on every page and on each explainer's and "
             "the game's whole embed and first step's embed, served gzipped over HTTP"
             + (f"; medians of {lh['runs']} runs" if lh["runs"] > 1 else "; one run each") + ". The four scores "
             "(performance / accessibility / best practices / SEO), then Total Blocking Time, Time to "
             "Interactive and Largest Contentful Paint. SEO counts only on pages meant to be indexed: embeds and "
             "the 404 page ask search engines not to index them, which Lighthouse marks down by design. "
             "*Lost points* names the scored audits that did not pass.", "",
             "| Page | Performance | Accessibility | Best practices | SEO | TBT | TTI | LCP | Lost points |",
             "|---|---|---|---|---|---|---|---|---|"]
    for path, page in lh["pages"].items():
        s = page["scores"]
        seo = f"{s['seo']:.0f}" if page["indexed"] else f"({s['seo']:.0f}, noindex)"
        lost = ", ".join(audit.split(":", 1)[1] for audit in page["failed"]) or "–"
        lines.append(f"| {path} | **{s['performance']:.0f}** | {s['accessibility']:.0f} | {s['best-practices']:.0f} "
                     f"| {seo} | {page['tbt']:.0f} ms | {ms(page['tti'] / 1000)} | {ms(page['lcp'] / 1000)} | {lost} |")
    return "\n".join(lines)


def _phone(r: dict) -> str:
    lines = [f"Each page served gzipped over HTTP to headless Chromium with {phone.CPU_SLOWDOWN}× CPU slowdown, "
             f"{phone.DOWNLOAD_BYTES_PER_S * 8 / 1e6:.1f} Mbit/s down and a {phone.ROUND_TRIP_MS} ms round trip, "
             "an empty cache, a phone's viewport and a touch screen. The reader scrolls to the first step and, "
             "from the moment its first control shows, taps that control's other value every "
             f"{phone.TAP_EVERY_S * 1000:.0f} ms until the page answers. Times from the start of navigation, "
             "medians of the runs: until the first chart shows (the drawing of its default state that the page "
             "carries, render/poster.py), until the first tap is answered (readouts, prose and table show the "
             "tapped state), and until Plotly's chart shows the tapped state. *Taps* is how many taps it took "
             "(1: none was needed twice). Then what Plotly's chart waits for: the first view painted (first "
             "contentful paint), plotly.js's download from its start to its end, and plotly.js run.", "",
             "| Page | First chart shows | First tap answered | Plotly's chart of the tapped state | Taps | Runs "
             "| Painted | plotly.js arriving | plotly.js run |",
             "|---|---|---|---|---|---|---|---|---|"]

    def cell(value, bold=True):
        return "–" if value is None else f"**{ms(value / 1000)}**" if bold else ms(value / 1000)
    for path, p in r["phone"].items():
        arriving = "–" if p.get("fetch_start") is None else \
            f"{ms(p['fetch_start'] / 1000)} to {ms(p['fetch_end'] / 1000)}"
        lines.append(f"| {path} | {cell(p['shown'])} | {cell(p['answered'])} | {cell(p['plotted'])} | "
                     f"{p['taps']:g} | {len(p['runs'])} | {cell(p.get('painted'), False)} | {arriving} | "
                     f"{cell(p.get('ran'), False)} |")
    return "\n".join(lines)


def _build(r: dict) -> str:
    b = r["build"]
    imports = b["imports"]
    lines = [
        f"A full build (`python -m generator build`, a fresh interpreter each time) takes **{ms(b['build_s'])}**; "
        f"the import floor, a fresh interpreter importing exactly the {b['module_count']} modules the build imports "
        f"(its own and the models' left out), takes **{ms(b['floor_s'])}**: a ratio of **{b['ratio']:.2f}×**. "
        f"Medians of {b['runs']} interleaved runs of each, after two warm-up runs. In CPU time (user + system), "
        f"which a busy machine disturbs less: {ms(b['build_cpu_s'])} against {ms(b['floor_cpu_s'])}, "
        f"**{b['cpu_ratio']:.2f}×**. Compiled templates, Markdown's HTML, the escaped plotly.js of the "
        f"single-file copies and each page's computed states (its models' results, with their figures, tables "
        f"and drawings, and its interned charts) are cached on disk like Python's bytecode, so these warm "
        f"builds run no model; with that cache empty, as on a fresh checkout or after an edit to every "
        f"model, the build takes "
        f"{ms(b['cold_s'])} ({b['cold_ratio']:.2f}× the floor).",
        "",
        f"Inside the process, `build()` itself takes {ms(b['work_s'])} (median of {b['runs']} fresh processes), by stage:",
        "",
        "| Stage | Time |", "|---|---|",
    ]
    lines += [f"| {name} | {ms(t)} |" for name, t in b["stages"].items()]
    lines += ["", f"Import time by package (`python -X importtime`, one run; self times summed): generator "
              f"{ms(imports['generator_s'])}, " + ", ".join(f"{name} {ms(t)}" for name, t in
                                                          imports["third_party_s"].items()) + "."]
    if imports["forbidden"]:
        lines.append(f"**The build imports {', '.join(imports['forbidden'])}**, which it does not need.")
    else:
        lines.append("The build imports neither the plotly Python package nor livereload.")
    if imports["unexpected"]:
        lines.append(f"Other third-party imports: {', '.join(imports['unexpected'])}.")
    return "\n".join(lines)


def _rebuild(r: dict) -> str:
    b = r["rebuild"]
    return (f"`python -m generator serve` is started through the command line on a temporary copy of the content, "
            f"up to where it would start serving; then the dev server's own `LiveSite` builds the site "
            f"({ms(b['first_build_s'])}) and, after each one-line prose edit ({b['edited']}), rebuilds it with the "
            f"changed file, as its watcher would. Each rebuild is checked to publish the edit. One warm-up edit "
            f"({ms(b['first_s'])}), then {b['runs']} measured ones: median **{ms(b['median_s'])}** "
            f"(range {ms(min(b['times']))} to {ms(max(b['times']))}); in CPU time, {ms(b['cpu_median_s'])}. "
            "The server's polling interval and settle "
            "delay, which come before a rebuild starts, are not included.")


def _bytes(r: dict) -> str:
    lines = [f"Everything a reader downloads to see an explainer: the page and the stylesheets and scripts it "
             f"references, each gzipped at level {GZIP_LEVEL} (1 KB = 1,024 bytes). plotly.js: "
             f"{r.get('bundle', '?')}.", "",
             "| Explainer | HTML markup | Data | CSS | Runtime JS | **Own** | Plotly | **Total** |",
             "|---|---|---|---|---|---|---|---|"]
    for slug, s in r["bytes"].items():
        lines.append(f"| {slug} | {kb(s['markup'])} | {kb(s['data'])} | {kb(s['css'])} | {kb(s['runtime'])} | "
                     f"**{kb(s['own'])}** | {kb(s['plotly'])} | **{kb(s['total'])}** |")
    lines += ["", "The page's markup and data are one file and compress together; the data column is the "
              "inline JSON compressed on its own, and markup is the rest. Own bytes also count the site's icon "
              f"({kb(next(iter(r['bytes'].values()))['icon'])}). plotly.js is fetched once the first view is "
              "painted, so it is downloaded on first view even where it never runs."]
    return "\n".join(lines)


def _through_react(reacts: int, clicks: int) -> str:
    if not reacts:
        return "no click through `Plotly.react`"
    return "every click through `Plotly.react`" if reacts == clicks else \
        f"{reacts} of its {clicks} clicks through `Plotly.react`"


def _clicks(r: dict) -> str:
    c = r["clicks"]
    lines = [f"Headless Chromium {c['chromium']}, 1280×900, `--disable-gpu`. Every value of every control (buttons, toggles, sliders) of "
             f"every step is clicked in turn, {r['rounds']} rounds, by a script inside the page; the time runs from "
             "the click to the state being applied, including the promise of the Plotly update resolving "
             "(`Plotly.relayout` or `Plotly.update` of what changed, or `Plotly.react`). "
             "\"Next frame\" adds the wait for the following animation frame.", "",
             "| Explainer | Clicks | Median | p95 | Max | First round median | Next frame median | Next frame p95 "
             "| CPU median | CPU p95 |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for slug, p in c["pages"].items():
        if p.get("buttons_only"):  # the game: no charts; the click until the next frame
            lines.append(f"| {slug} (word buttons, no charts) | {p['clicks']} | **{p['median_ms']:.1f} ms** | "
                         f"**{p['p95_ms']:.1f} ms** | – | – | {p['frame_median_ms']:.1f} ms | "
                         f"{p['frame_p95_ms']:.1f} ms | – | – |")
            continue
        lines.append(f"| {slug} | {p['clicks']} | **{p['median_ms']:.1f} ms** | **{p['p95_ms']:.1f} ms** | "
                     f"{p['max_ms']:.1f} ms | {p['first_round_median_ms']:.1f} ms | {p['frame_median_ms']:.1f} ms | "
                     f"{p['frame_p95_ms']:.1f} ms | {p['cpu_median_ms']:.1f} ms | {p['cpu_p95_ms']:.1f} ms |")
    lines += ["", "*CPU* is the main thread's CPU time per click, up to the next frame (so it includes the "
              "browser's layout and paint), from a separate pass over every button: on a busy machine it shows "
              "the work a click costs, while wall time adds the wait for a free core."]
    for slug, p in c["pages"].items():
        if p.get("buttons_only"):
            continue
        lines += ["", f"By step ({slug}), with Plotly's own cost on the same chart as baselines (medians): "
                  "*no-op react* is `Plotly.react` with nothing changed, the least any update through it costs; "
                  "*restyle* is `Plotly.restyle` of one trace's opacity, the least a change to a trace costs; "
                  "*newPlot* is a full redraw. *Laid out* counts the clicks after which Plotly laid a figure "
                  "out again (over every round).", "",
                  "| Step | Clicks | Median | p95 | Max | CPU median | No-op react | Restyle | newPlot | Laid out |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        lines += [f"| {n} | {s['clicks']} | {s['median_ms']:.1f} ms | {s['p95_ms']:.1f} ms | {s['max_ms']:.1f} ms | "
                  f"{s.get('cpu_median_ms', float('nan')):.1f} ms | {s.get('noop_ms', float('nan')):.1f} ms | "
                  f"{s.get('restyle_ms', float('nan')):.1f} ms | {s.get('newplot_ms', float('nan')):.1f} ms | "
                  f"{s.get('laid_out', 0)} |"
                  for n, s in sorted(p["steps"].items())]
    return "\n".join(lines)


def _scaling(r: dict) -> str:
    s = r["scaling"]
    lines = ["A generated explainer (bench/synthetic.py) with four steps, one per chart kind: a heatmap and a bar "
             "chart with head × query controls, a grid of every head's heatmap with a query control, and the "
             "concatenated head outputs with a head control. `build()` time is the median of fresh processes. "
             "*Unpooled* is the data if every state carried its full figure, i.e. states × per-state payload; "
             "the exponents are the slopes of log(size) and log(time) against log(knob) from the row above."]
    for knob, fixed in (("tokens", f"{s['fixed_heads']} heads"), ("heads", f"{s['fixed_tokens']} tokens")):
        lines += ["", f"Growing the {knob} ({fixed}):", "",
                  f"| {knob.title()} | States | build() | Data | Data gzipped | Unpooled | Per state | "
                  "Data exponent | Unpooled exponent | Time exponent |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        for row in s[knob]:
            exp = lambda k: f"{row[k]:.2f}" if k in row else "–"  # noqa: E731
            lines.append(f"| {row[knob]} | {row['states']} | {ms(row['build_s'])} | {kb(row['data_raw'])} | "
                         f"{kb(row['data_gzip'])} | {kb(row['unpooled_raw'])} | {kb(row['per_state_raw'])} | "
                         f"{exp('data_exponent')} | {exp('unpooled_exponent')} | {exp('time_exponent')} |")
        last = s[knob][-1]
        lines += ["", f"Largest point by stage: " + ", ".join(f"{k} {ms(v)}" for k, v in last["stages"].items())
                  + "."]
    return "\n".join(lines)


def _limits(r: dict) -> str:
    """What limits each figure, read off the measurements of this run."""
    lines = []
    if "build" in r:
        b = r["build"]
        stages = sorted(b["stages"].items(), key=lambda kv: -kv[1])[:3]
        lines.append(f"- **Full build.** Most of the wall time is the interpreter and its imports (the floor). Of "
                     f"`build()`'s {ms(b['work_s'])}, the largest stages are "
                     + ", ".join(f"{name} ({ms(t)})" for name, t in stages) + ". "
                     f"The CPU-time ratio ({b['cpu_ratio']:.2f}×) is steadier than the wall-time one "
                     f"({b['ratio']:.2f}×): on a shared machine, wall time also counts waiting for a core."
                     + ("" if b["ratio"] <= 1 + BUDGET_FLOOR_PER_PAGE * b.get("pages", 1) else
                        " Over budget in wall time: render_pages makes every state's figure, table and picture "
                        "and pools the repeated arrays of each page, and renders each step through Jinja for its "
                        "page and each of its embeds; render_offline reads each page with the standard library's "
                        "HTML parser; compute_site loads each page's computed states from the disk cache, or "
                        "runs the authors' models when an input of the page changed."))
    if "rebuild" in r:
        t = r["rebuild"]
        lines.append(f"- **Incremental rebuild.** A prose edit re-renders the prose of every state of the edited "
                     f"explainer, its page, embeds and single-file copy; its states, figures, the charts interned "
                     f"for the page's data, compiled templates and unchanged Markdown are reused. Median "
                     f"{ms(t['median_s'])} against a budget of {ms(BUDGET_REBUILD_S)}.")
    if "bytes" in r and r["bytes"]:
        charted = {slug: s for slug, s in r["bytes"].items() if s["plotly"]}
        if charted:
            slug, sizes = next(iter(charted.items()))
            lines.append(f"- **First view.** plotly.js is {100 * sizes['plotly'] / sizes['total']:.0f}% of the "
                         f"first view of {slug}; its own bytes are {kb(sizes['own'])}, of which the inline data "
                         f"of every state is {kb(sizes['data'])}.")
        for slug, sizes in r["bytes"].items():
            if sizes["own"] > BUDGET_OWN:
                lines.append(f"- **Own bytes over budget ({slug}).** {kb(sizes['own'])}, "
                             f"{kb(sizes['own'] - BUDGET_OWN)} over: the inline data of every state is "
                             f"{kb(sizes['data'])} and the markup {kb(sizes['html'] - sizes['data'])} (each "
                             "chart's first state drawn as a still picture, and its data table, are part of it). "
                             "The data is the distinct numbers of the page's states, each matrix and its "
                             "picture stored once: what limits it is how many different states the page offers.")
    if "scaling" in r:
        tokens, heads = r["scaling"]["tokens"], r["scaling"]["heads"]
        first, last = tokens[0], tokens[-1]

        def fold(key: str, rows=(first, last)) -> str:
            return f"{rows[1][key] / rows[0][key]:.0f}-fold"
        stage = max(last["stages"].items(), key=lambda kv: kv[1])[0]
        why = {"render_pages": ", where every state's figure is made and pooled",
               "compute_site": ", where the model runs for every state and its output is checked",
               "render_prose": ", where every state's prose is rendered"}.get(stage, "")
        lines.append(f"- **Scaling.** From {first['tokens']} to {last['tokens']} tokens the states grow "
                     f"{fold('states')} and the data {fold('data_raw')}, while the unpooled data (every state "
                     f"with its full figure) would grow {fold('unpooled_raw')}: each head's matrix is stored once, "
                     "and what every state adds is its prose, readouts and highlight. Build time grows "
                     f"{fold('build_s')}; at {last['tokens']} tokens its largest stage is {stage}{why}. "
                     f"From {heads[0]['heads']} to {heads[-1]['heads']} heads, the data grows "
                     f"{fold('data_raw', (heads[0], heads[-1]))} for {fold('states', (heads[0], heads[-1]))} states.")
    if "phone" in r:
        over = [(path.split("/")[0], label, p[key] - budget * 1000) for path, p in r["phone"].items()
                for key, label, budget in (("answered", "first tap answered", BUDGET_PHONE_ANSWERED_S),
                                           ("plotted", "Plotly's chart", BUDGET_PHONE_PLOTTED_S))
                if p[key] is not None and p[key] / 1000 > budget]
        charted = [p for p in r["phone"].values() if p.get("ran") and p.get("fetch_end") and p.get("plotted")]
        waits = ""
        if charted:
            waits = (" Measured, at the median of the pages: painted at "
                     f"{ms(median([p['painted'] for p in charted]) / 1000)}, "
                     f"plotly.js arriving from {ms(median([p['fetch_start'] for p in charted]) / 1000)} to "
                     f"{ms(median([p['fetch_end'] for p in charted]) / 1000)}, running for "
                     f"{ms(median([p['ran'] - p['fetch_end'] for p in charted]) / 1000)} once arrived, and its "
                     "first drawing of the tapped step's charts taking "
                     f"{ms(median([p['plotted'] - p['ran'] for p in charted]) / 1000)}.")
        lines.append("- **A throttled phone.** The first tap is answered by runtime.js, which runs once the page is "
                     "parsed and needs no plotly.js (a tap before it has run is kept and replayed). Plotly's chart "
                     "of the tapped state waits for plotly.js: its download starts once the first view is painted "
                     "(not before, which keeps the first view's bandwidth, and Lighthouse's first and largest "
                     "paints, to the page) and alone takes about "
                     f"{_plotly_seconds(r):.1f} s at {phone.DOWNLOAD_BYTES_PER_S * 8 / 1e6:.1f} Mbit/s; then "
                     "plotly.js runs once, at 4× CPU, and draws the tapped step's charts, the first drawing also "
                     "setting Plotly up. The first paint, plus the download, plus that run and first drawing, "
                     "is what limits it." + waits
                     + (" Over budget: " + "; ".join(f"{page}, {label} ({over_ms:.0f} ms over)"
                                                     for page, label, over_ms in over) + "." if over else ""))
    if "lighthouse" in r:
        low = {path: page for path, page in r["lighthouse"]["pages"].items()
               if any(page["scores"][c] < least for c, least in BUDGET_LIGHTHOUSE.items()
                      if c != "seo" or page["indexed"])}
        lines.append(f"- **Lighthouse.** {len(r['lighthouse']['pages']) - len(low)} of {len(r['lighthouse']['pages'])} "
                     "pages hold every score. plotly.js is neither fetched nor run before the first view is painted "
                     "(it is fetched then, at a low priority, and a phone runs it at the first tap that needs it), "
                     "so it takes no bandwidth from the first view and adds no blocking time. What blocking time is left is "
                     "the page's own work, which the simulation multiplies by its 4× CPU factor: on the longest "
                     "pages the largest task is the first layout of the whole page, every step's still drawings "
                     f"and tables at once, and it varies from run to run ({_runs_text(r['lighthouse'].get('runs', 1))})."
                     + ("" if not low else " Below budget: " + "; ".join(
                         f"{path} ({', '.join(a.split(':', 1)[1] for a in page['failed'])}; TBT {page['tbt']:.0f} ms)"
                         for path, page in low.items()) + "."))
    for slug, page in r.get("clicks", {}).get("pages", {}).items():
        if page.get("buttons_only"):
            continue
        slow = [f"step {n} (p95 {s['p95_ms']:.0f} ms, median {s['median_ms']:.0f} ms, "
                f"{_through_react(s.get('reacts', 0), s['clicks'] * page['rounds'])}; "
                f"newPlot {s.get('newplot_ms', 0):.0f} ms)" for n, s in page["steps"].items()
                if s["p95_ms"] > BUDGET_CLICK_P95_MS]
        via = page.get("via", {})
        redrew = sum(via.values())
        laid = [f"step {n} ({s['laid_out']} clicks: {'; '.join(s.get('why', []))})"
                for n, s in sorted(page["steps"].items()) if s.get("laid_out")]
        lines.append(f"- **Click-to-update ({slug}).** Every chart holds one layout across its step (charts/held.py), "
                     f"so of the {redrew} clicks that redrew a chart, {via.get('relayout', 0)} went through "
                     "`Plotly.relayout` of the marks that changed (shapes: bars, lines, outlines, the labels written "
                     "on them; pictures: a matrix, a strip, a colour bar), which Plotly redraws by themselves, "
                     f"{via.get('update', 0)} through `Plotly.update` (the traces' attributes that changed with "
                     f"them) and {via.get('react', 0)} through `Plotly.react`, which redraws the whole figure. "
                     + (f"Plotly laid a figure out again after {sum(s.get('laid_out', 0) for s in page['steps'].values())} "
                        f"clicks: {'; '.join(laid)}. " if laid else "Plotly laid no figure out again at any click. ")
                     + "The runtime's own work (looking up the state, replacing the prose and readouts) takes "
                     f"{page.get('own_median_ms', float('nan')):.1f} ms at the median."
                     + (f" Over the p95 budget: {'; '.join(slow)}." if slow else ""))
    return "\n".join(lines)


def _runs_text(runs: int) -> str:
    return "one run a page here" if runs == 1 else f"the median of {runs} runs a page here"


def _plotly_seconds(r: dict) -> float:
    """How long plotly.js (gzipped) takes to download on the throttled phone."""
    from .common import gz
    from generator.outputs.assets import find_plotly_js

    return gz(find_plotly_js().read_bytes()) / phone.DOWNLOAD_BYTES_PER_S


def markdown(r: dict) -> str:
    m = r["machine"]
    parts = [
        "# Performance",
        "",
        f"Measured by `{r['command']}` (`python -m bench`) on {r['started']:%Y-%m-%d %H:%M %Z}. This file is "
        "written by the benchmark: rerun it rather than editing the figures. Benchmarks are not tests; "
        "`make test` does not run them.",
        "",
        "## Machine",
        "",
        f"- CPU: {m['cpu']}, {m['cores']} cores",
        f"- OS: {m['os']}",
        f"- Python {m['python']}, numpy {m['numpy']}, Jinja2 {m['jinja2']}, Markdown {m['markdown']}",
        f"- Chromium {r.get('clicks', {}).get('chromium', '?')}",
        f"- Load average (1 min) at start {m['load']:.2f}, at end {r.get('load_after', float('nan')):.2f}: "
        "the machine is shared, and a high load inflates every time below.",
        "",
        "## Budgets",
        "",
        budget_table(r),
    ]
    titles = {"build": "Full build", "rebuild": "Incremental rebuild", "bytes": "First view",
              "phone": "First view on a throttled phone", "lighthouse": "Lighthouse",
              "clicks": "Click-to-update", "scaling": "Scaling"}
    for key, title in titles.items():
        if key in r:
            parts += ["", f"## {title}", "", section_text(key, r)]
    limits = _limits(r)
    if limits:
        parts += ["", "## Where the time and bytes go", "", limits]
    parts += ["", "## How", "", HOW]
    return "\n".join(parts) + "\n"


HOW = """\
- **Lean imports.** plotly.js is found on disk, never by importing the plotly Python package (a test checks
  that a build imports neither it nor the dev server). Markdown's extensions are passed as objects, which
  spares the scan of every installed package's metadata that naming them costs.
- **A disk cache, like Python's bytecode** (`generator/cache/disk.py`, in `~/.cache/lensa-ml`): compiled
  templates, the HTML Markdown makes of each text, and plotly.js escaped for the single-file copies are kept
  by a hash of what they depend on, so a build compiles, converts and escapes only what changed; the dev
  server also keeps them in memory. Each page's computed states (with the figures, tables and drawings made of
  them) and its interned charts are kept too (`generator/cache/build.py`), keyed on every input: the page's
  folder, the whole of content/_lib (helpers and the data files they read, such as weights.npz), the
  generator's code and the versions of Python and numpy; an edit to any of them has the page's models run
  again (tests/generator/cache/test_build.py edits each kind of input).
- **Single-file copies read plain tags with one expression.** The standard library's HTML parser reads every
  page for its copy, but a start tag the copy neither changes nor looks into (a table cell, a shape of a
  drawing: double-quoted attributes, no mark, no reference to rewrite) skips its attribute loop; every
  inlined script is read and escaped once per build.
- **Prose is converted once per shape.** Each state's prose goes through Jinja with its values held back as
  markers, and through Markdown only when no other state produced the same text; the values are put back
  into the HTML. Conversions are remembered across the dev server's rebuilds.
- **Math, citations and code cost a build only when their text is new.** Each `$…$` becomes MathML and each
  citation its HTML inside the Markdown conversion, so they are kept with it, on disk and in `serve`'s memory; a
  value printed inside math stays a marker, so states share one conversion. The bibliography is parsed once per
  text of the file and kept on disk (bibtexparser, pylatexenc and latex2mathml are imported only when there is
  something new to parse or convert), and each Markdown file's citations are found once per text when the site is
  loaded. The series' 50 works, 179 citations and 191 expressions (46 distinct) cost about 15 ms of a build whose
  prose is kept (finding the citations) and nothing more in a rebuild than the edited file's; with the cache empty,
  about 420 ms to parse the bibliography and 150 ms to convert the math, latex2mathml's import included (one
  measurement on a loaded 2-core machine).
- **Shared data is handled once.** Equal numpy arrays from the model become one shared list, so the charts
  round and check them once and the page's pool recognises them without reading them again; each state's
  figures are kept with its states, so a prose edit in `serve` redraws none.
- **One inline JSON per page; shared arrays once.** Layout that every state of a step shares is stored once
  per step; every array that recurs is stored once per page and referenced. The charts and tables are
  interned apart from the text, once per explainer: the dev server keeps them across prose edits, and each
  step's embed takes its part of the page's pool instead of interning its step again.
- **plotly.js fetched early, run when needed.** Evaluating plotly.js holds a phone's main thread for about half a
  second, so the runtime starts without it: controls answer at once from the page data (readouts, prose, tables),
  and each chart's still drawing (render/poster.py) stands in for Plotly's, faded and saying so once the reader
  has chosen another state. The page holds plotly.js in a `<template>`, which the browser neither fetches nor
  runs: a download started with the page would share a slow phone's bandwidth with what it shows first, and
  Lighthouse's simulated load counted it against the largest paint. It is fetched, at a low priority, once the
  first view is painted (or at a first tap before that); the runtime runs it when a chart near the
  view must show a state its drawing does not (a tap, a deep link), when the reader taps a chart, on a device that
  hovers once a chart is within a screen of the view (for its hover labels), or when a script asks. It runs after
  the tap's answer is painted, and the chart then draws the state chosen last. Taps before runtime.js has run are
  kept by a few lines in the page's head and replayed. A page that is only read on a phone never runs plotly.js,
  and neither do the embeds of a course page that the reader does not touch (browser tests check all of it).
- **Lazy charts.** A chart is drawn when it comes within 200 px of the viewport (IntersectionObserver), so the
  first view draws only what is on screen (a browser test checks it).
- **Small own bytes.** The theme's scripts and stylesheets are shipped without their comments and spaces (rjsmin,
  rcssmin), which halves the runtime's bytes.
- **One layout per step, a click changes the marks.** Every chart holds the same axis ranges, ticks,
  margins, legend and size in every state of its step, worked out by the build over all of them
  (charts/held.py: the union of the data sets a range, the widest label a margin, the largest matrix the
  cells, a declared range wins); labels that change between states are written as the labels of shapes
  where ticks would be, or, for a list that grows, the longest list's ticks stand and those past a state's
  end are veiled. A chart that must rescale says why in its step file, and the page says when it did.
  So the marks are all that change: bars (and their written values, as shape labels) and lines are
  shapes, several series with a legend of traces that hold no values and their patterns one picture over
  the bars; a diagram's boxes are shapes and its labels annotations that keep their text and colour;
  selections are shapes; a matrix of up to 400 cells is one SVG of its shaded cells and printed values, a
  heat strip one SVG of its cells, and a colour bar a picture and the labels of shapes (or fixed
  annotations) in the layout, so a state on another scale changes no trace (restyling only a colour bar's
  colours costs Plotly as much as drawing the figure again). The runtime calls `Plotly.relayout` with just
  the attributes that changed (`shapes`, `images`), which redraws those parts alone, `Plotly.update` where
  a trace's attributes changed too, and nothing where the figure is the same (browser tests check that
  Plotly's own layout holds through every click of every page). Bars and lines drawn this way have no
  hover labels (their values are in the table), as matrix pictures have none. `Plotly.react`, left for a
  first draw, gets the very same array objects for data that did not change (a browser test checks it). Plotly's config goes with the first draw only
  (with a config, every react measures the chart again), theme colours are read once per colour scheme, prose
  and tables that did not change are left alone, and the address bar is written when the reader pauses
  rather than on every click. The chart is drawn before the prose and buttons change, so Plotly's text
  measurements do not force the browser to lay out the page in the middle of the update.
- **The smallest Plotly bundle that draws every kind.** Every chart kind draws its marks as layout shapes and
  pictures over scatter traces (a bar trace only for a legend's swatch), so the build ships a partial bundle of its own (plotly-bundle/): plotly.js 4.1's core with the scatter
  and bar traces and only the components the charts use, without the attribute descriptions, built with esbuild
  from the plotly.js source that package.json pins. 912 KB, 323 KB gzipped, against 1,164 KB and 386 KB for the
  official basic bundle (scatter, bar, pie) it replaces, so a phone downloads a sixth less and runs a fifth less
  before Plotly draws; a browser test draws every chart kind with it.

Reproduce with `make bench` (or `.venv/bin/python -m bench --help` for fewer runs or single sections)."""
