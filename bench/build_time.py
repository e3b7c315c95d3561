"""Full build wall time against the import floor: a fresh interpreter that
imports exactly the modules the build imports, and nothing else. Both run as
subprocesses, interleaved, so machine load affects them alike."""
from __future__ import annotations

import json
import re
import tempfile
from collections import defaultdict
from pathlib import Path

from generator.cache.disk import CACHE_ENV

from .common import CONTENT, PYTHON, median, run, timed, timed_cpu

# Packages a build may import; anything else third-party is reported as unexpected.
EXPECTED = {"numpy", "jinja2", "markupsafe", "markdown", "pygments", "rjsmin", "rcssmin",
            # an author's math and the site's bibliography, when there is new text to convert or parse
            "latex2mathml", "bibtexparser", "pylatexenc"}
FORBIDDEN = {"plotly", "livereload", "tornado"}


def measure(runs: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-build-") as temp:
        temp = Path(temp)
        out = temp / "build"
        build_cmd = [PYTHON, "-m", "generator", "build", "--content", str(CONTENT), "--out", str(out)]
        modules, audit = _imports(build_cmd)
        floor_script = temp / "floor.py"
        floor_script.write_text(_floor_source(modules))
        floor_cmd = [PYTHON, str(floor_script)]
        for _ in range(2):  # warm the file cache and __pycache__ of both
            timed(build_cmd), timed(floor_cmd)
        builds, floors, colds, build_cpu, floor_cpu = [], [], [], [], []
        for index in range(runs):
            wall, cpu = timed_cpu(build_cmd)
            builds.append(wall), build_cpu.append(cpu)
            wall, cpu = timed_cpu(floor_cmd)
            floors.append(wall), floor_cpu.append(cpu)
            # The same build with an empty template cache, as on a fresh checkout.
            colds.append(timed(build_cmd, {CACHE_ENV: str(temp / f"cold-cache-{index}")}))
        stages = [json.loads(run([PYTHON, "-m", "bench.probe", "stages", str(CONTENT), str(temp / "s")])
                             .stdout.splitlines()[-1]) for _ in range(runs)]
    from generator.build import read_site

    return {
        "runs": runs, "pages": len(read_site(CONTENT).pages),
        "build_s": median(builds), "floor_s": median(floors), "ratio": median(builds) / median(floors),
        "builds": builds, "floors": floors, "module_count": len(modules),
        "build_cpu_s": median(build_cpu), "floor_cpu_s": median(floor_cpu),
        "cpu_ratio": median(build_cpu) / median(floor_cpu),
        "cold_s": median(colds), "cold_ratio": median(colds) / median(floors),
        "work_s": median(s["build_s"] for s in stages),
        "stages": {name: median(s["stages"].get(name, 0.0) for s in stages) for name in stages[0]["stages"]},
        "imports": audit,
    }


def _floor_source(modules: list[str]) -> str:
    return ("import importlib\n"
            f"for name in {modules!r}:\n"
            "    try:\n"
            "        importlib.import_module(name)\n"
            "    except Exception:  # runtime-made modules (cython_runtime) cannot be imported by name\n"
            "        pass\n")


def _imports(build_cmd: list[str]) -> tuple[list[str], dict]:
    """`python -X importtime` of a build: the modules it imports, in order (its own
    and the explainers' models left out), and import time by top-level package."""
    done = run([build_cmd[0], "-X", "importtime", *build_cmd[1:]])
    modules: list[str] = []
    by_package: dict[str, float] = defaultdict(float)
    for line in done.stderr.splitlines():
        match = re.match(r"import time:\s+(\d+) \|\s+\d+ \|\s*(\S+)", line)
        if match:
            name = match.group(2)
            by_package[name.split(".")[0]] += int(match.group(1)) / 1e6
            if not name.startswith(("generator", "_explainer_model")):
                modules.append(name)
    third_party = {name: t for name, t in by_package.items() if name in EXPECTED | FORBIDDEN
                   or name not in _stdlib() and not name.startswith(("_", "generator", "encodings"))}
    return modules, {
        "total_s": sum(by_package.values()),
        "generator_s": by_package.get("generator", 0.0),
        "third_party_s": dict(sorted(third_party.items(), key=lambda kv: -kv[1])),
        "forbidden": sorted(set(by_package) & FORBIDDEN),
        "unexpected": sorted(set(third_party) - EXPECTED - FORBIDDEN),
    }


def _stdlib() -> set[str]:
    import sys

    return set(sys.stdlib_module_names) | {"sitecustomize", "_distutils_hack", "org", "cython_runtime"}
