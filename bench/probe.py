"""Measurements that must run in a fresh interpreter, one per process:

    python -m bench.probe stages CONTENT OUT      build() time and its stages
    python -m bench.probe rebuild CONTENT N       serve mode's rebuild after N prose edits

Each prints one JSON object on its last line of stdout.
"""
from __future__ import annotations

import contextlib
import io
import json
import re
import sys
import time
from pathlib import Path

_STAGES = ("load_site", "load_theme", "compute_site", "render_prose", "collect_assets", "versioned_names",
           "render_pages", "render_embeds", "render_offline", "site_files", "write_site")


def stages(content: str, out: str) -> dict:
    """build()'s wall time and each stage's share, timed by wrapping the stage
    functions build.py calls (whichever of them it has)."""
    started = time.perf_counter()
    from generator import build as build_module
    imported = time.perf_counter() - started
    spent: dict[str, float] = {}
    for name in _STAGES:
        function = getattr(build_module, name, None)
        if callable(function):
            setattr(build_module, name, _timed(function, name, spent))
    started = time.perf_counter()
    build_module.build(Path(content), Path(out), _themes())
    return {"import_s": imported, "build_s": time.perf_counter() - started, "stages": spent}


def rebuild(content: str, runs: str) -> dict:
    """Serve mode's own rebuild: `python -m generator serve` is run through the
    command line up to the point where it would start serving (its arguments are
    taken there), then the dev server's LiveSite builds once and, after each
    one-line prose edit, rebuilds with the changed file, as its watcher would."""
    from generator import cli
    from generator.dev import serve

    taken = []
    serve.serve = taken.append  # the command line calls it with the parsed arguments
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = cli.main(["serve", "--content", content, "--port", "0"])
    if code != 0 or not taken:
        raise SystemExit(f"serve did not start (exit {code})")
    site = serve.LiveSite(taken[0])
    log = io.StringIO()
    with contextlib.redirect_stderr(log), contextlib.redirect_stdout(log):
        started = time.perf_counter()
        site.rebuild()
        first = time.perf_counter() - started
    if site.error:
        raise SystemExit(f"the first build failed: {site.error}")
    path, lines, index = _prose_line(Path(content))
    times, cpu = [], []
    for run in range(int(runs)):
        marker = f"Edited {run + 1}."
        edited = list(lines)
        edited[index] = lines[index].rstrip("\n") + f" {marker}\n"
        path.write_text("".join(edited), encoding="utf-8")
        with contextlib.redirect_stderr(log), contextlib.redirect_stdout(log):
            started, started_cpu = time.perf_counter(), time.process_time()
            site.rebuild({path.resolve()})
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - started_cpu)
        if site.error or not any(marker.encode() in data for name, data in site.files.items()
                                 if name.endswith(".html")):
            raise SystemExit(f"the rebuild did not publish the edit ({marker!r}): {site.error or log.getvalue()}")
    return {"first_build_s": first, "times_s": times, "cpu_s": cpu, "file": str(path.relative_to(content)), "line": index + 1}


def _prose_line(content: Path) -> tuple[Path, list[str], int]:
    """The first step file's first plain prose line outside any {% ... %} block."""
    step = sorted(content.glob("*/steps/*.md"))[0]
    lines = step.read_text("utf-8").splitlines(keepends=True)
    fences = [i for i, line in enumerate(lines) if line.strip() == "+++"]
    depth = 0
    for index in range(fences[1] + 1, len(lines)):
        line = lines[index]
        plain = line.strip()
        if depth == 0 and plain and plain.endswith(".") and not plain.startswith(("{", ":", "#", "-", "|", ">", "*")):
            return step, lines, index
        depth += len(re.findall(r"{%-?\s*(?:if|for)\b", line)) - len(re.findall(r"{%-?\s*end(?:if|for)\b", line))
    raise SystemExit(f"{step}: no plain prose line to edit")


def _timed(function, name: str, spent: dict):
    def wrapper(*args, **kwargs):
        started = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[name] = spent.get(name, 0.0) + time.perf_counter() - started
    return wrapper


def _themes() -> Path:
    return Path(__file__).resolve().parent.parent / "themes"


if __name__ == "__main__":
    command, *arguments = sys.argv[1:]
    result = {"stages": stages, "rebuild": rebuild}[command](*arguments)
    print(json.dumps(result))
