"""Atomic writes: a failed build leaves the previous one intact, and a folder
the generator did not make is never replaced."""
import pytest

from generator.errors import BuildError
from generator.outputs.writer import MARKER, write_site


def snapshot(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_write_replaces_previous_build(tmp_path):
    out = tmp_path / "build"
    write_site(out, {"a.html": b"1", "sub/b.html": b"2"})
    write_site(out, {"c.html": b"3"})
    assert snapshot(out) == {"c.html": b"3", MARKER: (out / MARKER).read_bytes()}
    assert [p.name for p in tmp_path.iterdir()] == ["build"]  # no temp folders left behind


def test_failed_write_keeps_previous_build(tmp_path):
    out = tmp_path / "build"
    write_site(out, {"a.html": b"1"})
    before = snapshot(out)
    with pytest.raises(BuildError):
        # A file and a folder with the same name cannot both be written.
        write_site(out, {"x": b"file", "x/y.html": b"nested"})
    assert snapshot(out) == before
    assert [p.name for p in tmp_path.iterdir()] == ["build"]


def test_refuses_to_replace_a_folder_it_did_not_make(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("precious")
    with pytest.raises(BuildError, match="not made by this generator"):
        write_site(out, {"a.html": b"1"})
    assert (out / "notes.txt").read_text() == "precious"
