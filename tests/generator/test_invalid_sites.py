"""The corpus of bad inputs in tests/fixtures/invalid/, each run through the
real command line: exit code 1, a short message naming the file and saying
what is wrong, no traceback, and the previous build left byte-for-byte intact.

Each case is a patch over the tiny fixture site, described by its case.toml:
`replace` edits, whole files under files/, and `remove`, `directory` and
`symlink` for files that cannot be read.
"""
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from generator.build import build

from tests.conftest import FIXTURES, ROOT, THEMES

CASES = sorted(p.name for p in (FIXTURES / "invalid").iterdir() if (p / "case.toml").is_file())


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def make_case(name: str, content: Path) -> dict:
    folder = FIXTURES / "invalid" / name
    spec = tomllib.loads((folder / "case.toml").read_text("utf-8"))
    shutil.copytree(FIXTURES / "tiny" / "content", content)
    for edit in spec.get("replace", []):
        path = content / edit["file"]
        text = path.read_text("utf-8")
        assert edit["old"] in text, f"{name}: the fixture no longer contains {edit['old']!r}"
        path.write_text(text.replace(edit["old"], edit["new"], 1), "utf-8")
    if (folder / "files").is_dir():
        shutil.copytree(folder / "files", content, dirs_exist_ok=True)
    for relative in spec.get("remove", []):
        (content / relative).unlink()
    for relative in spec.get("directory", []):
        (content / relative).mkdir()
    for relative, target in spec.get("symlink", {}).items():
        os.symlink(target, content / relative)
    return spec


@pytest.fixture(scope="module")
def good_build(tmp_path_factory):
    out = tmp_path_factory.mktemp("good") / "build"
    build(FIXTURES / "tiny" / "content", out, THEMES)
    return out


def test_the_corpus_is_large_enough():
    assert len(CASES) >= 15


@pytest.mark.parametrize("name", CASES)
def test_bad_input_fails_cleanly_and_keeps_the_previous_build(name, tmp_path, good_build):
    content = tmp_path / "content"
    spec = make_case(name, content)
    out = tmp_path / "build"
    shutil.copytree(good_build, out)
    before = snapshot(out)

    run = subprocess.run([sys.executable, "-m", "generator", "build", "--content", str(content), "--out",
                          str(out), *spec.get("args", [])], cwd=ROOT, capture_output=True, text=True)

    assert run.returncode == 1, run.stdout + run.stderr
    assert "Traceback" not in run.stderr and "internal error" not in run.stderr, run.stderr
    lines = run.stderr.strip().splitlines()
    assert 2 <= len(lines) <= 6, run.stderr          # short: the problems, then one line of totals
    assert lines[-1].startswith("Build failed:"), run.stderr
    named = str(content / spec["file"])
    assert any(line.startswith(("error: " + named, "warning: " + named)) for line in lines), run.stderr
    for fragment in spec["expect"]:
        assert fragment in run.stderr, run.stderr
    assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["build", "content"]  # no temp folder left
