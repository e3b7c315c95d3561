"""A tiny game of one round (blanks/) beside the tiny site's explainer: the generator's tests of the
game kind and of the outputs use it (conftest.tiny_game), not the series' Spotlight (content/), so
editing the series fails none of them."""
import shutil
from pathlib import Path

from tests.conftest import FIXTURES, write_files

GAME = '''+++
kind = "game"
title = "Blanks"
subtitle = "A one-round game"
description = "Fill one blank."
updated = 2026-01-31
facts = "facts"

[[rounds]]
title = "The verb"
compute = "verb"
goal = "Light up the word that makes the model answer *sat*."
lesson = "The subject decides: *cat* in the spotlight gives *sat*."
+++

::: intro
Press a word to put it in the spotlight.

::: model
A hand-set toy with {{ heads }} head.
'''

MODEL = '''
def facts():
    return {"heads": 1}


def verb():
    return {
        "words": ["the", "cat", "___", "."], "blank": 2, "target": "sat", "heads": ["Head 1"],
        "candidates": [0, 1], "one_word_per_head": True,
        "states": [{"spotlight": [[]], "answer": "and", "confidence": 0.5},
                   {"spotlight": [[0]], "answer": "the", "confidence": 0.4},
                   {"spotlight": [[1]], "answer": "sat", "confidence": 0.9}],
        "own_attention": [[0.1, 0.8, 0.05, 0.05]], "own_answer": "sat", "own_confidence": 0.9,
        "key_words": [1],
    }
'''


def write_tiny_game(content: Path) -> Path:
    """The tiny site with the game at blanks/, written to `content`."""
    shutil.copytree(FIXTURES / "tiny" / "content", content)
    return write_files(content, {"blanks/game.md": GAME, "blanks/model.py": MODEL})
