"""Incremental rebuild in serve mode: the time serve()'s own rebuild function
takes after a one-line prose edit, on a temporary copy of the content."""
from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from .common import CONTENT, PYTHON, median, run


def measure(runs: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-rebuild-") as temp:
        content = Path(temp) / "content"
        shutil.copytree(CONTENT, content)
        # One warm-up edit, then `runs` measured ones, in one serve session.
        probe = json.loads(run([PYTHON, "-m", "bench.probe", "rebuild", str(content), str(runs + 1)])
                           .stdout.splitlines()[-1])
    times = probe["times_s"]
    return {"runs": runs, "first_build_s": probe["first_build_s"], "first_s": times[0],
            "median_s": median(times[1:]), "times": times[1:], "cpu_median_s": median(probe["cpu_s"][1:]),
            "edited": f"{probe['file']}, line {probe['line']}"}
