"""The build as a whole: what it imports."""
from __future__ import annotations

import json
import subprocess
import sys

from .conftest import ROOT

PROBE = """
import json, sys
from generator.cli import main
code = main(["build", "--out", sys.argv[1]])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def test_build_imports_only_what_it_needs(tmp_path):
    """plotly.js is found on disk: the plotly Python package (slow to import) and the
    dev server's livereload are never imported by a build."""
    done = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path / "build")], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["code"] == 0
    top = {name.split(".")[0] for name in report["modules"]}
    assert {"numpy", "jinja2", "markdown"} <= top
    assert not top & {"plotly", "livereload", "tornado", "playwright"}
