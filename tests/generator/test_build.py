"""Whole builds through the command line: reproducible to the byte, and
atomic (a failed or interrupted build leaves the previous one as it was, and
nothing outside the output folder is touched)."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from generator.outputs import writer
from generator.build import build

from tests.conftest import FIXTURES, ROOT, THEMES

TINY = FIXTURES / "tiny" / "content"


def snapshot(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def cli(*args, env=None):
    return subprocess.run([sys.executable, "-m", "generator", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, **(env or {})})


def test_same_sources_give_byte_identical_builds(tmp_path):
    # Separate processes with different hash seeds, clocks and folder names:
    # nothing of that may reach the output.
    first = cli("build", "--out", tmp_path / "one" / "build", env={"PYTHONHASHSEED": "1",
                                                                    "SOURCE_DATE_EPOCH": "1700000000"})
    second = cli("build", "--out", tmp_path / "two" / "site", env={"PYTHONHASHSEED": "2", "TZ": "Asia/Tokyo"})
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    one, two = snapshot(tmp_path / "one" / "build"), snapshot(tmp_path / "two" / "site")
    assert one.keys() == two.keys()
    different = [name for name in one if one[name] != two[name]]
    assert different == []
    for name, data in one.items():
        assert str(tmp_path).encode() not in data, f"{name} contains the output path"


def test_a_good_build_replaces_the_previous_one_and_touches_nothing_else(tmp_path):
    out = tmp_path / "build"
    neighbour = tmp_path / "notes.txt"
    neighbour.write_text("mine")
    assert cli("build", "--content", TINY, "--out", out).returncode == 0
    (out / "stale.html").write_text("from an older build")
    assert cli("build", "--content", TINY, "--out", out).returncode == 0
    assert not (out / "stale.html").exists()
    assert (out / "coin-flips" / "index.html").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["build", "notes.txt"]
    assert neighbour.read_text() == "mine"


def test_refuses_to_replace_a_folder_it_did_not_make(tmp_path):
    mine = tmp_path / "site"
    mine.mkdir()
    (mine / "essay.md").write_text("precious")
    result = cli("build", "--content", TINY, "--out", mine)
    assert result.returncode == 1
    assert "was not made by this generator" in result.stderr and "Traceback" not in result.stderr
    assert snapshot(mine) == {"essay.md": b"precious"}


def test_refuses_an_output_folder_holding_the_sources(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(TINY, project / "content")
    (project / ".generator-build").write_text("")  # even a folder that looks like an old build
    result = cli("build", "--content", project / "content", "--out", project)
    assert result.returncode == 1 and "would replace the sources" in result.stderr
    assert (project / "content" / "site.toml").is_file()


@pytest.mark.parametrize("inside", ["content/build", "themes/out", "content/coin-flips/out"])
def test_refuses_an_output_folder_inside_the_sources(tmp_path, inside):
    """The next build would read a build inside content/ as content: refused before any work."""
    shutil.copytree(TINY, tmp_path / "content")
    shutil.copytree(THEMES, tmp_path / "themes")
    result = cli("build", "--content", tmp_path / "content", "--themes", tmp_path / "themes",
                 "--out", tmp_path / inside)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    source = inside.split("/")[0]
    assert result.stderr.startswith(f"error: {tmp_path / inside}: the output folder is inside the sources in "
                                    f"{tmp_path / source}"), result.stderr
    assert not (tmp_path / inside).exists()


def test_two_outputs_at_one_path_fail_the_build(tmp_path, monkeypatch):
    """Whatever makes them (here a kind that also writes the index page), a second file at
    a path is an error naming both makers, never a page silently replaced."""
    from generator.kinds import discover
    from generator.site import Page

    kind = type(discover()["explainer"])
    render = kind.render
    monkeypatch.setattr(kind, "render", lambda self, source, *rest: render(self, source, *rest) + [
        Page("index.html", "<p>mine</p>", source=source.slug)])
    out = tmp_path / "build"
    with pytest.raises(Exception) as failed:
        build(TINY, out, THEMES)
    assert str(failed.value).endswith("index.html would be written twice, by the site and by page 'coin-flips'; "
                                      "neither is written")
    assert failed.value.problems[0].path == TINY / "coin-flips"
    assert not out.exists()


def test_an_interrupted_write_keeps_the_previous_build(tmp_path, monkeypatch):
    out = tmp_path / "build"
    build(TINY, out, THEMES)
    before = snapshot(out)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(writer.shutil, "copyfile", interrupted)
    with pytest.raises(KeyboardInterrupt):
        build(TINY, out, THEMES)
    assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["build"]


def test_strict_build_with_warnings_keeps_the_previous_build(tmp_site, tmp_path):
    out = tmp_path / "build"
    build(TINY, out, THEMES)
    before = snapshot(out)
    content = tmp_site({"site.toml": 'colour = "red"\n' + (TINY / "site.toml").read_text()})
    result = cli("build", "--strict", "--content", content, "--out", out)
    assert result.returncode == 1 and "--strict" in result.stderr
    assert snapshot(out) == before


PROBE = """
import json, sys
from generator.cli import main
code = main(["build", "--content", sys.argv[2], "--out", sys.argv[1]])
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def test_build_imports_only_what_it_needs(tmp_path):
    """plotly.js is found on disk: the plotly Python package (slow to import) and the
    dev server's livereload are never imported by a build."""
    done = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path / "build"), str(TINY)], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["code"] == 0
    top = {name.split(".")[0] for name in report["modules"]}
    assert {"numpy", "jinja2", "markdown"} <= top
    assert not top & {"plotly", "livereload", "tornado", "playwright"}
