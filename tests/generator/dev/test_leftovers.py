"""dev/leftovers.py: what the starter wrote that an author left as it was, found once the site
is loaded (build.read_site calls it from above the stages), each a warning at its line."""
from pathlib import Path
from types import SimpleNamespace

from generator.dev.leftovers import STARTER, SUBTITLE_PLACEHOLDER, site_leftovers, starter_leftovers


def test_the_starters_own_text_is_found_and_an_authors_is_not(tmp_path):
    page = tmp_path / "topic"
    page.mkdir()
    main = page / "explainer.md"
    starter = (STARTER / "explainer.md").read_text("utf-8")
    found = starter_leftovers([SimpleNamespace(path=page)], {main: starter}, tmp_path / "site.toml", "")
    assert found and all(problem.path == main and problem.line for problem in found)
    assert starter_leftovers([SimpleNamespace(path=page)], {main: "+++\ntitle = \"Mine\"\n+++\nMy own words.\n"},
                             tmp_path / "site.toml", "") == []


def test_the_old_placeholder_subtitle_in_site_toml(tmp_path):
    site_toml = tmp_path / "site.toml"
    text = f'title = "S"\n\n[[series]]\nslug = "a"\nsubtitle = "{SUBTITLE_PLACEHOLDER}"\n'
    [warning] = starter_leftovers([], {}, site_toml, text)
    assert (warning.path, warning.line, warning.field) == (site_toml, 5, "subtitle")


def test_a_site_with_no_config_has_none():
    assert site_leftovers(SimpleNamespace(config=None, pages=[])) == []


def test_the_starter_is_in_the_package():
    assert (STARTER / "explainer.md").is_file() and isinstance(STARTER, Path)
