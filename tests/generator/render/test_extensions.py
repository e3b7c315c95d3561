"""render/extensions.py: the Markdown extensions of an author's text, and the cache key of the
HTML they make, which covers the code that finds code and citations (load/syntax.py) too."""
from pathlib import Path
from types import SimpleNamespace

from generator.load import syntax
from generator.render import extensions
from generator.render.extensions import TextExtensions


def test_the_key_covers_the_syntax_and_the_bibliography():
    assert Path(syntax.__file__) in extensions._MODULES
    plain = TextExtensions()
    cited = TextExtensions(SimpleNamespace(digest="abc", entries={}))
    assert plain.key != cited.key and cited.key.endswith(" abc")


def test_plain_text_of_math():
    assert TextExtensions().plain("the $x^2$ term") == "the x² term"
