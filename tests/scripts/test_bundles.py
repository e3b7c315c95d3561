"""The theme's scripts: ES modules under themes/default/scripts/, bundled by esbuild
(themes/default/scripts/bundle.cjs) into the classic scripts the pages load, which are
committed because an installed Lensa has no Node. The committed bundles must be a fresh
bundle of the sources, and the pure modules pass their own tests (tests/scripts/, Node's
test runner)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

# The checkout's root, wherever in tests/ this file lives.
ROOT = next(folder for folder in Path(__file__).resolve().parents if (folder / "Makefile").is_file())
SCRIPTS = ROOT / "themes" / "default" / "scripts"


def _node(*args: str) -> subprocess.CompletedProcess:
    node = shutil.which("node")
    assert node, "node is not installed: make test installs it"
    return subprocess.run([node, *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_committed_bundles_are_a_fresh_bundle_of_the_sources():
    result = _node(str(SCRIPTS / "bundle.cjs"), "--check")
    assert result.returncode == 0, result.stderr + result.stdout


def test_the_script_modules_pass_their_unit_tests():
    result = _node("--test", "tests/scripts/")
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "# fail 0" in result.stdout
