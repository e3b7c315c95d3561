"""python -m bench: run every benchmark, print the figures, write docs/performance.md."""
from __future__ import annotations

import argparse
import datetime
import pickle
import sys
import tempfile
from pathlib import Path

from . import build_time, clicks, first_view, lighthouse, phone, rebuild, report, scaling
from .common import CONTENT, PYTHON, ROOT, machine, run

CHART_KINDS = ROOT / "tests" / "fixtures" / "charts" / "content"
# A full run's raw results, so that a change to the report's wording needs no new run (--report).
RESULTS = ROOT / "bench" / ".last-run.pickle"  # (not committed: .gitignore)

SECTIONS = ("build", "rebuild", "bytes", "phone", "lighthouse", "clicks", "scaling")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--runs", type=int, default=9, help="repetitions of each timed run (default 9)")
    parser.add_argument("--rounds", type=int, default=3, help="sweeps over every button in the browser (default 3)")
    parser.add_argument("--quick", action="store_true", help="fewer runs and a shorter scaling sweep")
    parser.add_argument("--only", help=f"comma-separated sections: {', '.join(SECTIONS)} (the report is "
                        "then printed, not written)")
    parser.add_argument("--output", type=Path, default=ROOT / "docs" / "performance.md")
    parser.add_argument("--report", type=Path, metavar="RESULTS",
                        help=f"write the report again from a run's results (a full run keeps them in "
                        f"{RESULTS.relative_to(ROOT)}) without measuring anything")
    args = parser.parse_args(argv)
    if args.report:
        return _write(pickle.loads(args.report.read_bytes()), args.output)
    sections = args.only.split(",") if args.only else list(SECTIONS)
    unknown = set(sections) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown section(s): {', '.join(sorted(unknown))}")
    runs = 3 if args.quick else args.runs
    rounds = 1 if args.quick else args.rounds

    results: dict = {"machine": machine(), "started": datetime.datetime.now().astimezone(),
                     "runs": runs, "rounds": rounds, "command": "make bench"}
    print(report.machine_line(results["machine"]), flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-site-") as temp:
        site = Path(temp) / "build"
        run([PYTHON, "-m", "generator", "build", "--content", str(CONTENT), "--out", str(site)])
        slugs = sorted(p.parent.name for p in site.glob("*/index.html"))
        if "build" in sections:
            _section("Full build", lambda: build_time.measure(runs), results, "build")
        if "rebuild" in sections:
            _section("Incremental rebuild", lambda: rebuild.measure(runs), results, "rebuild")
        if "bytes" in sections:
            results["bundle"] = report.bundle_name()
            _section("First view", lambda: first_view.measure(site, slugs), results, "bytes")
        if "phone" in sections:
            # Every page with controls: the explainers (a chart each) and the game (its first tap).
            pages = [f"{slug}/index.html" for slug in slugs]
            _section("First view on a throttled phone", lambda: phone.measure(site, pages, min(runs, 5)),
                     results, "phone")
        if "lighthouse" in sections:
            # Every page and embed, or one embed of each kind with --quick.
            paths = lighthouse.pages(site, every_embed=not args.quick)
            # Three runs a page, the median: one run's blocking time swings with whatever else the machine does.
            _section("Lighthouse", lambda: lighthouse.measure(site, paths, 1 if args.quick else min(runs, 3)),
                     results, "lighthouse")
        if "clicks" in sections:
            # The chart-kind fixture too: a step for every kind and variant (tests/fixtures/charts).
            kinds_site = Path(temp) / "kinds"
            run([PYTHON, "-m", "generator", "build", "--content", str(CHART_KINDS), "--out", str(kinds_site)])
            kinds_slugs = sorted(p.parent.name for p in kinds_site.glob("*/index.html"))
            _section("Click-to-update", lambda: _merged(clicks.measure(site, slugs, rounds),
                                                        clicks.measure(kinds_site, kinds_slugs, rounds)),
                     results, "clicks")
        if "scaling" in sections:
            sweeps = dict(tokens=(6, 24, 64), heads=(1, 4, 16)) if args.quick else {}
            _section("Scaling", lambda: scaling.measure(min(runs, 3), **sweeps), results, "scaling")
    results["load_after"] = machine()["load"]
    print()
    print(report.budget_table(results))
    if set(sections) == set(SECTIONS):
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_bytes(pickle.dumps(results))
        return _write(results, args.output)
    return 0


def _write(results: dict, output: Path) -> int:
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(report.markdown(results), encoding="utf-8")
    print(f"\nWrote {output.relative_to(ROOT) if output.is_relative_to(ROOT) else output}")
    return 0


def _merged(site: dict, kinds: dict) -> dict:
    """The site's pages and the chart-kind fixture's, in one table (the fixture's marked)."""
    pages = dict(site["pages"])
    pages.update({f"{slug} (chart-kind fixture)": page for slug, page in kinds["pages"].items()})
    return {**site, "pages": pages}


def _section(title: str, measure, results: dict, key: str) -> None:
    print(f"\n== {title}", flush=True)
    results[key] = measure()
    print(report.section_text(key, results), flush=True)


if __name__ == "__main__":
    sys.exit(main())
