"""`init [FOLDER]`: a site that builds, with a series of one explainer, a
workflow that publishes it, and a README; a folder that is not empty is
refused with one line and nothing changed, and no file is ever overwritten.
(tests/generator/test_packaging.py runs it from the installed wheel.)"""
import re
import tomllib

import pytest

import generator
from generator.build import build
from generator.cli import main
from generator.dev.site_scaffold import init_site
from generator.errors import GeneratorError
from generator.build import read_site

from tests.conftest import ROOT, write_files


def _files(folder):
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in folder.rglob("*") if path.is_file()}


def test_init_starts_a_site_that_builds(tmp_path, capsys):
    assert main(["init", str(tmp_path / "my-site")]) == 0
    folder = tmp_path / "my-site"
    assert sorted(_files(folder)) == [
        ".github/workflows/pages.yml", ".gitignore", "README.md", "content/references.bib", "content/site.toml",
        "content/softmax-temperature/explainer.md", "content/softmax-temperature/model.py",
        "content/softmax-temperature/quiz/01-top-word.md", "content/softmax-temperature/steps/01-temperature.md",
        "content/softmax-temperature/steps/02-spread.md",
        "requirements.txt"]
    config = tomllib.loads((folder / "content" / "site.toml").read_text())
    assert config["title"] == "My Site" and [entry["slug"] for entry in config["series"]] == ["softmax-temperature"]
    assert re.search(r"^# base_url = ", (folder / "content" / "site.toml").read_text(), re.M), "a commented base_url"
    assert (folder / "requirements.txt").read_text().splitlines()[-1] == f"lensa-ml=={generator.__version__}"
    assert {"/build/", "/dist/", "/.venv/"} <= set((folder / ".gitignore").read_text().splitlines())
    readme = (folder / "README.md").read_text()
    assert readme.startswith("# My Site\n")
    for command in ("lensa serve", "lensa new my-topic", "lensa build", "Settings → Pages"):
        assert command in readme, command
    site = read_site(folder / "content")
    assert [page.slug for page in site.pages] == ["softmax-temperature"]
    result = build(folder / "content", tmp_path / "out", folder / "themes")  # no themes/: the packaged ones
    assert (tmp_path / "out" / "softmax-temperature" / "index.html").is_file() and result.state_count > 1
    out = capsys.readouterr().out.splitlines()
    assert out[-4] == "Next:"
    assert re.match(rf"  cd {re.escape(str(folder))} && python -m generator serve +preview it on http://127.0.0.1:8000",
                    out[-3])
    assert out[-2].split()[:3] == ["python", "-m", "generator"] and out[-2].split()[3:5] == ["new", "my-topic"]
    assert out[-1].split()[3] == "build"


def test_the_next_commands_start_in_the_site(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    started = init_site(tmp_path / "my site", version="1.2.3")
    assert started.report(tmp_path)[-3:] == [
        "  cd 'my site' && lensa serve   preview it on http://127.0.0.1:8000, rebuilt as you edit",
        "  lensa new my-topic            start an explainer of your own",
        "  lensa build                   build the site into build/ (README.md: publishing it on GitHub Pages)"]
    here = init_site(tmp_path / "here", version="1.2.3")
    assert here.report(tmp_path / "here", "python -m lensa")[-3][:22] == "  python -m lensa serv"


def test_a_folder_that_is_not_empty_is_refused_and_left_as_it_was(tmp_path, capsys):
    folder = write_files(tmp_path / "notes", {"ideas.md": "mine\n", "drafts/one.md": "draft\n"})
    before = _files(folder)
    assert main(["init", str(folder)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and err[-1] == "Init failed: 1 error."
    assert re.fullmatch(r"error: .*notes: is not empty \(drafts, ideas\.md\): start the site in an empty folder, "
                        r"or add --force .* \(nothing was changed\)", err[0])
    assert _files(folder) == before and sorted(p.name for p in folder.iterdir()) == ["drafts", "ideas.md"]


def test_force_adds_the_files_beside_the_authors_and_overwrites_none(tmp_path):
    folder = write_files(tmp_path / "repo", {"README.md": "# Mine\n", ".gitignore": "secret.txt\n"})
    started = init_site(folder, force=True, version="1.2.3")
    assert (folder / "README.md").read_text() == "# Mine\n" and (folder / ".gitignore").read_text() == "secret.txt\n"
    assert {path.name for path in started.kept} == {"README.md", ".gitignore"}
    assert (folder / "content" / "softmax-temperature" / "model.py").is_file()
    # Again: everything is there, so nothing is written, and nothing changes.
    before = _files(folder)
    again = init_site(folder, force=True, version="1.2.3")
    assert again.written == [] and _files(folder) == before


def test_an_existing_site_keeps_its_content(tmp_site, tmp_path):
    content = tmp_site()
    before = _files(content)
    started = init_site(content.parent, force=True, version="1.2.3")
    assert _files(content) == before, "not a file of content/ is touched"
    assert content / "site.toml" in started.kept and (content.parent / "requirements.txt").is_file()


def test_a_folder_of_hidden_files_counts_as_empty(tmp_path):
    folder = write_files(tmp_path / "clone", {".git/HEAD": "ref: refs/heads/main\n"})
    init_site(folder, version="1.2.3")
    assert (folder / "content" / "site.toml").is_file() and (folder / ".git" / "HEAD").is_file()


def test_a_title_with_quotes_stays_valid_toml(tmp_path):
    init_site(tmp_path / "s", 'The "Best" Site \\ Ever', version="1.2.3")
    assert tomllib.loads((tmp_path / "s" / "content" / "site.toml").read_text())["title"] == 'The "Best" Site \\ Ever'
    assert (tmp_path / "s" / "README.md").read_text().startswith('# The "Best" Site \\ Ever\n')


def test_a_file_is_not_a_folder(tmp_path):
    (tmp_path / "taken").write_text("x")
    with pytest.raises(GeneratorError, match=r"taken: is a file, not a folder"):
        init_site(tmp_path / "taken", version="1.2.3")
    assert (tmp_path / "taken").read_text() == "x"


def test_the_sites_workflow_uses_the_actions_this_repositorys_does(tmp_path):
    """The workflow a site gets and this repository's own use the same official
    actions at the same versions, so they are upgraded together."""
    init_site(tmp_path / "s", version="1.2.3")
    ours = (ROOT / ".github" / "workflows" / "pages.yml").read_text()
    theirs = (tmp_path / "s" / ".github" / "workflows" / "pages.yml").read_text()
    uses = lambda text: re.findall(r"uses: (\S+)", text)  # noqa: E731
    assert uses(theirs) == uses(ours)
    assert "run: pip install -r requirements.txt" in theirs and "run: lensa build" in theirs
