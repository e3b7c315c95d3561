"""Page kinds: a new kind is one module under generator/kinds/ and a runtime
script in the theme. The test kind (fixtures/kinds/glossary/glossary.py) is
copied into a copy of the generator, and the site builds and runs with no edit
to any stage."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generator.kinds import PageKind, discover

from tests.conftest import FIXTURES, ROOT, THEMES, copy_generator

KIND_FIXTURE = FIXTURES / "kinds"


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    project = tmp_path_factory.mktemp("kinds")
    copy_generator(project)
    shutil.copy(KIND_FIXTURE / "glossary" / "glossary.py", project / "generator" / "kinds" / "glossary.py")
    shutil.copytree(THEMES / "default", project / "themes" / "default")
    shutil.copytree(KIND_FIXTURE / "theme", project / "themes" / "kinds")
    shutil.copytree(KIND_FIXTURE / "content", project / "content")
    return project


def _build(project: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", "build", "--content", "content", "--themes", "themes",
                           "--out", "out", *args], cwd=project, capture_output=True, text=True, timeout=120)


def test_the_explainer_is_a_kind():
    kind = discover()["explainer"]
    assert isinstance(kind, PageKind) and kind.main_file == "explainer.md" and kind.runtime == "runtime.js"


def test_a_new_kind_builds_with_no_edit_to_the_stages(project, browser):
    run = _build(project, "--theme", "kinds")
    assert run.returncode == 0, run.stderr
    out = project / "out"
    page = (out / "terms" / "index.html").read_text()
    assert "Attention terms" in page and "<strong>looks for</strong>" in page
    assert 'href="terms/index.html"' in (out / "index.html").read_text()  # the index lists it like any page
    assert (out / "offline" / "terms.html").is_file()  # and it gets a single-file copy
    tab = browser.new_page()
    tab.goto((out / "terms" / "index.html").as_uri())
    tab.get_by_role("button", name="key").click()
    assert "offers" in tab.locator("[data-meaning]").inner_text()
    assert tab.get_by_role("button", name="key").get_attribute("aria-pressed") == "true"
    tab.close()


def test_a_theme_without_the_kinds_runtime_is_a_clear_error(project):
    run = _build(project)  # the default theme has no glossary.js
    assert run.returncode == 1
    assert "has no static/glossary.js, the script that runs pages of kind 'glossary'" in run.stderr, run.stderr


def test_a_main_file_naming_an_unknown_kind_is_an_error(tmp_site, tmp_path):
    content = tmp_site()
    main = content / "coin-flips" / "explainer.md"
    main.write_text(main.read_text().replace("+++\n", '+++\nkind = "quiz"\n', 1))
    run = subprocess.run([sys.executable, "-m", "generator", "check", "--content", str(content)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 1
    assert f"{main}:2: kind: unknown page kind 'quiz': expected one of explainer" in run.stderr, run.stderr
