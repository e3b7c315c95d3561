"""The `make dist` zip: the whole build under one folder, reproducible byte
for byte, and never written over a file that is not a zip."""
import zipfile

import pytest

from generator.outputs.archive import FIXED_TIME, archive_name, pack_site
from generator.cli import main
from generator.errors import BuildError
from generator.outputs.writer import MARKER, write_site

from tests.conftest import FIXTURES

FILES = {"index.html": b"<p>home</p>", "topic/index.html": b"<p>topic</p>", "assets/a.js": b"var a;",
         "offline/topic.html": b"<p>all in one</p>", ".nojekyll": b""}


def test_archive_name():
    assert archive_name("Lensa ML") == "lensa-ml"
    assert archive_name("  Ünïcode & Co.  ") == "unicode-co"
    assert archive_name("!!!") == "site"


def test_zip_holds_the_build_under_one_folder_in_sorted_order(tmp_path):
    write_site(tmp_path / "build", FILES)
    count = pack_site(tmp_path / "build", tmp_path / "dist" / "site.zip", "site")
    with zipfile.ZipFile(tmp_path / "dist" / "site.zip") as archive:
        infos = archive.infolist()
        names = [info.filename for info in infos]
        assert names == sorted(f"site/{name}" for name in FILES)
        assert f"site/{MARKER}" not in names, "the build marker is not for readers"
        assert count == len(FILES)
        assert all(info.date_time == FIXED_TIME and info.external_attr >> 16 == 0o644 for info in infos)
        assert archive.read("site/topic/index.html") == b"<p>topic</p>"
        assert archive.testzip() is None


def test_same_build_gives_the_same_bytes(tmp_path):
    write_site(tmp_path / "build", FILES)
    pack_site(tmp_path / "build", tmp_path / "one.zip", "site")
    # Rewritten later, with other timestamps on disk: the archive must not change.
    write_site(tmp_path / "build", dict(reversed(list(FILES.items()))))
    pack_site(tmp_path / "build", tmp_path / "two.zip", "site")
    assert (tmp_path / "one.zip").read_bytes() == (tmp_path / "two.zip").read_bytes()


def test_refuses_a_folder_that_is_not_a_build(tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "mine.txt").write_text("keep")
    with pytest.raises(BuildError, match="is not a build of this generator"):
        pack_site(tmp_path / "notes", tmp_path / "x.zip", "site")
    assert not (tmp_path / "x.zip").exists()


def test_never_overwrites_a_file_that_is_not_a_zip(tmp_path):
    write_site(tmp_path / "build", FILES)
    target = tmp_path / "report.zip"
    target.write_text("my own notes")
    with pytest.raises(BuildError, match="is not a zip this tool wrote"):
        pack_site(tmp_path / "build", target, "site")
    assert target.read_text() == "my own notes"


def _someone_elses_zip(path):
    with zipfile.ZipFile(path, "w") as archive:  # dated today, as any other tool writes
        archive.writestr("word/document.xml", "<w:document>my report</w:document>")
    return path.read_bytes()


@pytest.mark.parametrize("name", ["report.docx", "report.zip", "slides.ZIP"])
def test_never_overwrites_a_zip_it_did_not_write(tmp_path, capsys, name):
    """A .docx is a zip: `dist --zip report.docx` once replaced it with the site."""
    target = tmp_path / name
    before = _someone_elses_zip(target)
    assert main(["dist", "--content", str(FIXTURES / "tiny" / "content"), "--out", str(tmp_path / "build"),
                 "--zip", str(target)]) == 1
    error = capsys.readouterr().err
    assert error.startswith(f"error: {target}: ") and "Traceback" not in error
    assert ("expected a file name ending .zip" if name.endswith(".docx") else "is not a zip this tool wrote") in error
    assert target.read_bytes() == before


def test_overwrites_a_zip_it_wrote_before(tmp_path):
    write_site(tmp_path / "build", FILES)
    target = tmp_path / "site.zip"
    pack_site(tmp_path / "build", target, "site")
    with zipfile.ZipFile(target) as archive:
        assert archive.comment.startswith(b"Written by lensa")
    write_site(tmp_path / "build", {**FILES, "new.html": b"<p>new</p>"})
    pack_site(tmp_path / "build", target, "site")
    with zipfile.ZipFile(target) as archive:
        assert "site/new.html" in archive.namelist()
    # One written before zips were signed: every entry at the fixed date and mode is ours too.
    with zipfile.ZipFile(target, "w") as archive:
        info = zipfile.ZipInfo("site/index.html", FIXED_TIME)
        info.external_attr = 0o644 << 16
        archive.writestr(info, b"<p>old</p>")
    pack_site(tmp_path / "build", target, "site")
    with zipfile.ZipFile(target) as archive:
        assert "site/new.html" in archive.namelist()


def test_dist_command_builds_and_packs(tmp_path, capsys):
    target = tmp_path / "out.zip"
    assert main(["dist", "--content", str(FIXTURES / "tiny" / "content"), "--out", str(tmp_path / "build"),
                 "--zip", str(target)]) == 0
    assert "Packed" in capsys.readouterr().out
    with zipfile.ZipFile(target) as archive:
        names = set(archive.namelist())
    for page in ("index.html", "coin-flips/index.html", "embed/coin-flips/step-1.html",
                 "offline/coin-flips.html", "assets/embed.js"):
        assert f"tiny-site/{page}" in names
