"""Shared helpers: statistics, timed subprocesses, gzip sizes, the machine."""
from __future__ import annotations

import gzip
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
THEMES = ROOT / "themes"
PYTHON = sys.executable
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
GZIP_LEVEL = 6  # what web servers and CDNs typically use


def median(values) -> float:
    return statistics.median(values)


def percentile(values, q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    position = (len(ordered) - 1) * q / 100
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def gz(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0))


def run(args: list[str], env: dict | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    done = subprocess.run(args, cwd=cwd, env=_env(env), capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, args))} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return done


def timed(args: list[str], env: dict | None = None) -> float:
    """Wall time of a subprocess, from spawn to exit."""
    return timed_cpu(args, env)[0]


def timed_cpu(args: list[str], env: dict | None = None) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of a subprocess. CPU time is far
    less disturbed than wall time when other work shares the machine."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    run(args, env)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _env(extra: dict | None) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.update(extra or {})
    return env


def version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "not installed"


def machine() -> dict:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
    return {
        "cpu": cpu,
        "cores": cores,
        "load": load,
        "os": platform.platform(terse=True),
        "python": platform.python_version(),
        "numpy": version("numpy"),
        "jinja2": version("jinja2"),
        "markdown": version("markdown"),
    }


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def kb(size: int) -> str:
    return f"{size / 1024:.1f} KB"
