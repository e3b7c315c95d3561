"""The game kind (kinds/game/), on the tiny game (tests/tiny_game.py; the series' Spotlight is
tested in tests/content/test_spotlight_game.py): bad game content and a model that breaks the
game's rules fail with one clear line naming the file, the game's note is prose in the sandbox,
and a text edit between builds reuses the rounds."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import THEMES

SLUG = "blanks"


@pytest.fixture
def run(capsys):
    """The command line in this process (the tiny game checks in well under a second; a new
    interpreter each would take longer than the check): run(*args) -> (exit code, stderr)."""
    from generator.cli import main

    def run(*args) -> Run:
        capsys.readouterr()
        code = main([str(arg) for arg in args])
        return Run(code, capsys.readouterr().err)
    return run


class Run:
    def __init__(self, returncode: int, stderr: str):
        self.returncode, self.stderr = returncode, stderr


@pytest.fixture
def game_site(tiny_game_content, tmp_path):
    """A copy of the tiny site with its game, to edit."""
    content = tmp_path / "content"
    shutil.copytree(tiny_game_content, content, ignore=shutil.ignore_patterns("__pycache__"))
    return content


def edit(path: Path, old: str, new: str) -> Path:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    return path


def test_the_tiny_game_checks(run, game_site):
    done = run("check", "--content", game_site)
    assert done.returncode == 0, done.stderr


def test_a_lesson_edited_between_builds_reuses_the_rounds(game_site):
    """The dev server's case: a text edit re-renders the page, not the model's rounds."""
    from generator.build import build
    from generator.cache.build import BuildCache

    cache = BuildCache()
    build(game_site, None, THEMES, cache=cache)
    edit(game_site / SLUG / "game.md", "The subject decides", "The subject really decides")
    result = build(game_site, None, THEMES, cache=cache)
    assert SLUG in cache.reused["states"] and SLUG not in cache.made["states"]
    assert "The subject really decides" in result.files[f"{SLUG}/index.html"].decode()


@pytest.mark.parametrize("edit_, message", [
    (('compute = "verb"', 'compute = "no_such_round"'),
     r"game\.md:\d+: rounds\[0\]\.compute: model\.py defines no function 'no_such_round'"),
    (('facts = "facts"\n', 'facts = "facts"\nmax_states = 2\n'),
     r"game\.md:\d+: rounds\[0\]: blanks, round 1 \(verb\): has 3 spotlights, more than the game's max_states = 2"),
    (("gives *sat*.", "gives *sat* ([see](../nowhere/index.html#step-1))."),
     r"game\.md:\d+: rounds\[0\]\.lesson: links to '\.\./nowhere/index\.html#step-1', which is not a page"),
    (('title = "The verb"\n', 'title = "The verb"\ngaol = "typo"\n'), r"game\.md:\d+: rounds\[0\]\.gaol: unknown key"),
    (('facts = "facts"\n', 'facts = "facts"\nanswer_names = { "." = "" }\n'),
     r"game\.md:\d+: answer_names: each name must be a non-empty string, found '\.' = ''"),
])
def test_bad_game_content_is_a_clear_error(run, game_site, edit_, message):
    edit(game_site / SLUG / "game.md", *edit_)
    done = run("build", "--strict", "--content", game_site, "--out", game_site.parent / "out")
    assert done.returncode == 1
    assert re.search(message, done.stderr), done.stderr


def test_the_note_on_the_model_renders_in_the_sandbox(run, game_site):
    """The game's '::: model' note is prose like any other: data, not code."""
    main = game_site / SLUG / "game.md"
    text = main.read_text()
    line = text[:text.index("with {{ heads }} head")].count("\n") + 1
    edit(main, "with {{ heads }} head", "with {{ heads.__class__.__mro__ }} head")
    done = run("check", "--content", game_site)
    assert done.returncode == 1
    assert f"{main}:{line}: model: unsafe access refused: access to attribute '__class__' of 'int' object is unsafe" \
        in done.stderr, done.stderr


def test_a_model_that_misses_a_spotlight_is_named(run, game_site):
    model = edit(game_site / SLUG / "model.py", '{"spotlight": [[0]], "answer": "the", "confidence": 0.4},\n', "")
    done = run("check", "--content", game_site)
    assert done.returncode == 1
    assert (f"{model}: blanks, round 1 (verb): states must list every spotlight: 3 for 1 head(s) "
            "over 2 words, found 2") in done.stderr, done.stderr


@pytest.mark.parametrize("old, new, message", [
    ('"key_words": [1],', '"key_words": [2],',
     r"round 1 \(verb\): key_words must list positions among the candidates \(0, 1\), each once, found \[2\]"),
    ('"key_words": [1],', '"key_words": [0],',
     r"round 1 \(verb\): no spotlight that holds every key word \(the\) makes the model answer the target 'sat'"),
    ('"key_words": [1],', '"key_words": [1], "own_heads": ["Head 1", "Head 2"],',
     r"round 1 \(verb\): own_attention must hold 2 row\(s\) of 4 finite weights, one per head of own_heads"),
])
def test_bad_key_words_and_reveal_heads_are_named(run, game_site, old, new, message):
    model = edit(game_site / SLUG / "model.py", old, new)
    done = run("check", "--content", game_site)
    assert done.returncode == 1
    # One line per round with the problem, each naming the file and the round.
    lines = [line for line in done.stderr.splitlines() if str(model) in line]
    assert lines and any(re.search(message, line) for line in lines), done.stderr
