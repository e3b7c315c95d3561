"""Measurements that must run in a fresh interpreter, one per process:

    python -m bench.probe stages CONTENT OUT      build() time and its stages
    python -m bench.probe rebuild CONTENT OUT N   serve mode's rebuild after N prose edits

Each prints one JSON object on its last line of stdout.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
import time
from pathlib import Path

_STAGES = ("load_site", "load_theme", "compute_site", "render_prose", "collect_assets", "render_pages",
           "write_site")


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


def rebuild(content: str, out: str, runs: str) -> dict:
    """Start serve mode through the command line with a stand-in for livereload's
    Server that records what serve() watches, then edit one prose line and call
    the rebuild serve() registered for the content folder, as livereload would."""
    import livereload

    livereload.Server = _RecordingServer
    from generator.cli import main

    with contextlib.redirect_stderr(io.StringIO()):
        code = main(["serve", "--content", content, "--out", out, "--port", "0"])
    if code != 0 or not _RecordingServer.watches:
        raise SystemExit(f"serve did not start (exit {code}, {len(_RecordingServer.watches)} watches)")
    callback = _rebuild_callback(Path(content))
    path, lines, index = _prose_line(Path(content))
    times = []
    for run in range(int(runs)):
        marker = f"Edited {run + 1}."
        edited = list(lines)
        edited[index] = lines[index].rstrip("\n") + f" {marker}\n"
        path.write_text("".join(edited), encoding="utf-8")
        stamp = time.time_ns() + run * 1_000_000  # a fresh mtime even on coarse clocks
        os.utime(path, ns=(stamp, stamp))
        log = io.StringIO()
        started = time.perf_counter()
        with contextlib.redirect_stderr(log):
            callback()
        times.append(time.perf_counter() - started)
        if not any(marker in page.read_text("utf-8") for page in Path(out).rglob("*.html")):
            raise SystemExit(f"the rebuild did not publish the edit ({marker!r}); serve said: {log.getvalue()}")
    return {"times_s": times, "file": str(path.relative_to(content)), "line": index + 1}


class _RecordingServer:
    watches: list = []

    def __init__(self, *args, **kwargs):
        pass

    def watch(self, filepath, func=None, delay=None, ignore=None):
        _RecordingServer.watches.append((str(filepath), func))

    def serve(self, *args, **kwargs):
        return None

    def __getattr__(self, name):  # any other Server method serve() may call
        return lambda *args, **kwargs: None


def _rebuild_callback(content: Path):
    callables = [(path, func) for path, func in _RecordingServer.watches if callable(func)]
    for path, func in callables:
        watched = Path(path.split("*")[0] or ".").resolve()
        if watched == content.resolve() or content.resolve().is_relative_to(watched) \
                or watched.is_relative_to(content.resolve()):
            return func
    if callables:
        return callables[0][1]
    raise SystemExit("serve() registered no rebuild function with livereload")


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
