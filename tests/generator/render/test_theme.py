"""Themes: folders of templates and static files; a theme extends another and
overrides only what it changes. Both shipped themes build the bundled site."""
from __future__ import annotations

import re
import subprocess
import sys

import pytest

from generator.build import build
from generator.errors import ContentError
from generator.outputs.assets import shipped
from generator.render.theme import load_theme

from tests.conftest import FIXTURES, ROOT, THEME_NAMES, THEMES, write_files

TINY = FIXTURES / "tiny" / "content"


def theme_error(themes, name="child"):
    with pytest.raises(ContentError) as info:
        load_theme(themes, name, ROOT / "site.toml")
    return str(info.value)


def test_course_theme_extends_default_and_adds_its_stylesheet():
    theme = load_theme(THEMES, "course", TINY / "site.toml")
    assert [folder.name for folder in theme.chain] == ["course", "default"]
    assert theme.stylesheets == ["style.css", "course.css"]
    files = theme.static_files()
    # Inherited files come from the parent; the theme's own from its folder.
    assert files["runtime.js"] == THEMES / "default" / "static" / "runtime.js"
    assert files["course.css"] == THEMES / "course" / "static" / "course.css"
    assert theme.env.get_template("base.html").filename == str(THEMES / "course" / "templates" / "base.html")
    assert theme.env.get_template("_step.html").filename == str(THEMES / "default" / "templates" / "_step.html")


def test_a_child_overrides_one_file_and_extends_the_template_it_replaces(tmp_path):
    themes = write_files(tmp_path / "themes", {
        "child/theme.toml": 'extends = "default"\nstylesheets = ["extra.css"]\n',
        "child/static/runtime.js": "var replaced = true;  /* the child's own runtime */",
        "child/static/extra.css": "body { color: black; }",
        "child/templates/base.html": '{% extends "@default/base.html" %}'
                                     '{% block footer %}<footer>child footer</footer>{% endblock %}',
    })
    (themes / "default").symlink_to(THEMES / "default")
    out = tmp_path / "build"
    build(TINY, out, themes, "child")
    html = (out / "index.html").read_text("utf-8")
    assert "<footer>child footer</footer>" in html
    assert re.search(r'href="assets/style\.css\?v=\w+"><link rel="stylesheet" href="assets/extra\.css', html)
    # Each shipped as the theme has it, without comments and spaces.
    assert (out / "assets" / "runtime.js").read_text() == "var replaced=true;\n"
    style = THEMES / "default" / "static" / "style.css"
    assert (out / "assets" / "style.css").read_bytes() == shipped({"style.css": style})["style.css"]
    not_found = (out / "404.html").read_text("utf-8")
    assert "body { color: black; }" in not_found and "--chart-grid" in not_found  # every stylesheet, inlined


@pytest.mark.parametrize("files, message", [
    ({"child/theme.toml": 'extends = "nowhere"'}, "theme 'nowhere' does not exist"),
    ({"child/theme.toml": 'extends = "other"', "other/theme.toml": 'extends = "child"'}, "loop"),
    ({"child/theme.toml": 'stylesheets = "a.css"'}, "stylesheets: expected a list of file names"),
    ({"child/theme.toml": 'stylesheets = ["missing.css"]'}, "stylesheet 'missing.css' is not in"),
    ({"child/theme.toml": 'extend = "default"'}, "unknown key 'extend'"),
    ({"child/theme.toml": 'extends = ['}, "invalid theme manifest"),
])
def test_theme_manifest_errors_name_the_file(tmp_path, files, message):
    themes = write_files(tmp_path / "themes", files)
    error = theme_error(themes)
    assert message in error
    assert "theme.toml" in error


def test_unknown_theme_lists_the_available_ones():
    error = theme_error(THEMES, "nope")
    assert "theme 'nope' does not exist" in error and "course" in error and "default" in error


def test_theme_is_chosen_in_site_toml_or_on_the_command_line(tmp_site, tmp_path):
    site_toml = (FIXTURES / "tiny" / "content" / "site.toml").read_text("utf-8")
    content = tmp_site({"site.toml": 'theme = "course"\n' + site_toml})
    out = tmp_path / "from-config"
    build(content, out, THEMES)
    assert "course.css" in (out / "index.html").read_text("utf-8")
    cli = tmp_path / "from-cli"
    done = subprocess.run([sys.executable, "-m", "generator", "build", "--content", str(content),
                           "--out", str(cli), "--theme", "default"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "course.css" not in (cli / "index.html").read_text("utf-8")


@pytest.mark.parametrize("theme", THEME_NAMES)
def test_course_theme_drops_the_site_chrome_but_keeps_the_toggle(theme, tmp_path):
    out = tmp_path / "build"
    build(TINY, out, THEMES, theme)
    html = (out / "coin-flips" / "index.html").read_text("utf-8")
    assert "data-scheme-toggle" in html
    assert ('class="site-header"' in html) == (theme == "default")
    assert ('class="site-footer"' in html) == (theme == "default")


def test_both_dark_blocks_of_the_stylesheet_are_identical():
    """Dark colours apply for a saved choice and for the system preference:
    the stylesheet states them twice and the two must never drift apart."""
    css = (THEMES / "default" / "static" / "style.css").read_text("utf-8")
    chosen = re.search(r':root\[data-scheme="dark"\][^{]*\{([^}]*)\}', css).group(1)
    system = re.search(r':root:not\(\[data-scheme="light"\]\)[^{]*\{([^}]*)\}', css).group(1)
    declarations = lambda block: sorted(line.strip() for line in block.splitlines() if line.strip())
    assert declarations(chosen) == declarations(system)
    # Every colour the dark blocks switch has a dark value defined.
    for name in re.findall(r"var\(--(dark-[\w-]+)\)", chosen):
        assert f"--{name}:" in css


@pytest.mark.parametrize("template, broken", [
    ("base.html", '{% extends "@default/base.html" %}{% block footer %}\n<footer>{{ site.title }</footer>\n'
                  '{% endblock %}'),
    ("_step.html", "<section>\n\n{% if step.title %}<h2>{{ step.title }}</h2>\n</section>\n"),
])
def test_a_template_syntax_error_names_the_template_file_and_line(tmp_path, template, broken):
    """The theme's own file, its line, one line of message and exit code 1: no
    'internal error', whether the broken template is the page's or one it includes."""
    themes = write_files(tmp_path / "themes", {"child/theme.toml": 'extends = "default"\n',
                                               f"child/templates/{template}": broken})
    (themes / "default").symlink_to(THEMES / "default")
    run = subprocess.run([sys.executable, "-m", "generator", "build", "--content", str(FIXTURES / "tiny" / "content"),
                          "--out", str(tmp_path / "build"), "--themes", str(themes), "--theme", "child"],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 1, run.stderr
    lines = run.stderr.strip().splitlines()
    path = themes / "child" / "templates" / template
    line = 2 if template == "base.html" else 3  # the unclosed tag
    assert lines[0].startswith(f"error: {path}:{line}: template syntax error: "), run.stderr
    assert "internal error" not in run.stderr and "Traceback" not in run.stderr
    assert len(lines) == 2 and lines[-1] == "Build failed: 1 error."
    assert not (tmp_path / "build").exists()


def test_a_site_theme_extends_a_packaged_one_without_copying_it(tmp_path):
    """A site's themes/ holds only its own theme; the default and course themes it
    extends come from the package."""
    themes = write_files(tmp_path / "themes", {
        "mine/theme.toml": 'extends = "course"\nstylesheets = ["mine.css"]\n',
        "mine/static/mine.css": "body { margin: 0; }",
    })
    theme = load_theme(themes, "mine", ROOT / "site.toml")
    assert theme.chain == [themes / "mine", THEMES / "course", THEMES / "default"]
    assert theme.stylesheets == ["style.css", "course.css", "mine.css"]
    out = tmp_path / "build"
    build(FIXTURES / "tiny" / "content", out, themes, "mine")
    assert "assets/mine.css" in (out / "index.html").read_text("utf-8")


def test_a_site_theme_wins_over_a_packaged_one_of_the_same_name(tmp_path):
    themes = write_files(tmp_path / "themes", {
        "course/templates/base.html": '{% extends "@default/base.html" %}'
                                      '{% block footer %}<footer>the site\'s own course</footer>{% endblock %}',
        "course/theme.toml": 'extends = "default"\n',
    })
    theme = load_theme(themes, "course", ROOT / "site.toml")
    assert theme.chain == [themes / "course", THEMES / "default"] and theme.stylesheets == ["style.css"]
    out = tmp_path / "build"
    build(FIXTURES / "tiny" / "content", out, themes, "course")
    html = (out / "index.html").read_text("utf-8")
    assert "<footer>the site's own course</footer>" in html and "course.css" not in html
