"""Lighthouse (the version package.json pins, run from node_modules/) on every page
and every kind of embed, served gzipped over HTTP, in Debian's chromium: mobile,
with Lighthouse's own defaults (a simulated Slow 4G network and 4× CPU slowdown).
Its four category scores, and Total Blocking Time, Time to Interactive and Largest
Contentful Paint. SEO counts on pages meant to be indexed; the others (embeds, the
404 page) ask search engines not to index them, which Lighthouse's SEO check
marks down by design."""
from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

from .common import CHROMIUM, CHROMIUM_ARGS, ROOT, median
from .serving import served

CLI = ROOT / "node_modules" / "lighthouse" / "cli" / "index.js"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = {"tbt": "total-blocking-time", "tti": "interactive", "lcp": "largest-contentful-paint"}


def version() -> str:
    try:
        return json.loads((CLI.parent.parent / "package.json").read_text())["version"]
    except OSError:
        return "not installed"


def pages(build_dir: Path, every_embed: bool = True) -> list[str]:
    """Every page of the build (the index, the 404 page, each explainer and game, each
    explainer's page of figures) and every kind of embed: each explainer's and game's
    whole embed and its first step's (all of them, or the first of each kind)."""
    found = ["index.html", "404.html"] + sorted(f"{p.parent.name}/index.html" for p in build_dir.glob("*/index.html")
                                                if p.parent.name not in ("embed", "offline", "assets"))
    found += sorted(p.relative_to(build_dir).as_posix() for p in (build_dir / "figures").glob("*/index.html"))
    whole = sorted(p.relative_to(build_dir).as_posix() for p in (build_dir / "embed").glob("*/index.html"))
    steps = sorted(p.relative_to(build_dir).as_posix() for p in (build_dir / "embed").glob("*/step-1.html"))
    if not every_embed:
        kinds = {}
        for path in whole:
            game = "data-round" in (build_dir / path).read_text("utf-8")
            kinds.setdefault("game" if game else "explainer", path)
        whole, steps = list(kinds.values()), steps[:1]
    return found + whole + steps


def measure(build_dir: Path, paths: list[str], runs: int = 1) -> dict:
    """{"version", "pages": {path: {"scores": {category: 0-100}, "tbt", "tti", "lcp" (ms),
    "indexed", "failed": [audits that lost points]}}}; medians of `runs` runs."""
    if not CLI.is_file():
        raise RuntimeError(f"{CLI.relative_to(ROOT)} is missing: run `npm ci` (make bench does)")
    results = {}
    with served(build_dir) as base, tempfile.TemporaryDirectory(prefix="bench-lighthouse-") as temp:
        for path in paths:
            reports = [_run(base + path, Path(temp) / f"{index}.json") for index in range(runs)]
            indexed = not re.search(r'<meta name="robots" content="[^"]*noindex', (build_dir / path).read_text("utf-8"))
            results[path] = {
                "scores": {c: median([r["scores"][c] for r in reports]) for c in CATEGORIES},
                **{name: median([r[name] for r in reports]) for name in METRICS},
                "indexed": indexed,
                "failed": sorted({audit for r in reports for audit in r["failed"]
                                  if indexed or not audit.startswith("seo:")}),
            }
            print(f"  {path}: " + ", ".join(f"{c} {results[path]['scores'][c]:.0f}" for c in CATEGORIES)
                  + f"; TBT {results[path]['tbt']:.0f} ms", flush=True)
    return {"version": version(), "pages": results, "runs": runs}


def _run(url: str, output: Path) -> dict:
    flags = " ".join(["--headless=new", *CHROMIUM_ARGS])
    command = ["node", str(CLI), url, "--quiet", "--output=json", f"--output-path={output}",
               f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={flags}"]
    done = subprocess.run(command, env={**os.environ, "CHROME_PATH": CHROMIUM}, capture_output=True, text=True,
                          timeout=600)
    if done.returncode != 0 or not output.is_file():
        raise RuntimeError(f"lighthouse {url} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    report = json.loads(output.read_text("utf-8"))
    if report.get("runtimeError"):
        raise RuntimeError(f"lighthouse {url}: {report['runtimeError']}")
    scores = {c: round(100 * (report["categories"][c]["score"] or 0)) for c in CATEGORIES}
    failed = [f"{category}:{ref['id']}" for category in CATEGORIES for ref in report["categories"][category]["auditRefs"]
              if ref.get("weight") and (report["audits"][ref["id"]].get("score") or 0) < 1
              and report["audits"][ref["id"]].get("scoreDisplayMode") not in ("notApplicable", "manual", "informative")]
    return {"scores": scores, "failed": failed,
            **{name: float(report["audits"][audit]["numericValue"]) for name, audit in METRICS.items()}}
