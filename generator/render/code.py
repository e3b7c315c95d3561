"""Code in an author's Markdown: fenced blocks highlighted with Pygments at build
time (classes only; the theme colours them in its light and dark schemes; its
small script gives each block a Copy button, which could do nothing without
scripts); and where code sits in Markdown source, which math and citations leave
alone (`prose_parts`, in load/syntax.py: the load stage reads it too)."""
from __future__ import annotations

import html
import re

import pygments
from markdown.extensions.codehilite import CodeHiliteExtension
from pygments.formatters.html import HtmlFormatter
from pygments.token import Token

from ..load.syntax import prose_parts  # noqa: F401 (where code sits: read when the site is loaded, too)

PYGMENTS_VERSION = pygments.__version__

class _CodeBlockFormatter(HtmlFormatter):
    """Pygments' HTML, wrapped as the theme styles it: the block and its code, focusable,
    as a long line scrolls sideways on a phone."""

    def __init__(self, lang_str: str = "", **options):
        super().__init__(**options)
        self._language = lang_str

    def format_unencoded(self, tokensource, outfile):
        super().format_unencoded(_plain_spaces(_whole_markers(tokensource)), outfile)

    def wrap(self, source):
        language = f' class="{html.escape(self._language)}"' if self._language else ""
        yield 0, f'<div class="code-block"><pre tabindex="0"><code{language}>'
        yield from source
        yield 0, "</code></pre></div>"

    def _wrap_div(self, inner):
        return inner


def _whole_markers(tokens):
    """A value a prose template printed stands in the text as a marker (prose.py, _to_slot),
    filled in after Markdown: kept whole in one token, so it is still found there."""
    pending = None
    for kind, value in tokens:
        if pending is not None:
            pending = (pending[0], pending[1] + value)
            if pending[1].count("\ue000") == pending[1].count("\ue001"):
                yield pending
                pending = None
        elif value.count("\ue000") > value.count("\ue001"):
            pending = (kind, value)
        else:
            yield kind, value
    if pending is not None:
        yield pending


def _plain_spaces(tokens):
    """Whitespace as plain text: a span around it would colour nothing."""
    for kind, value in tokens:
        yield (Token.Text if kind in Token.Text.Whitespace else kind), value


def code_extension() -> CodeHiliteExtension:
    """Fenced code highlighted by Pygments: a block with a language is coloured by its
    lexer; one without, or with a language Pygments does not know, stays plain text."""
    return CodeHiliteExtension(guess_lang=False, css_class="code-block", lang_prefix="language-",
                               pygments_formatter=_CodeBlockFormatter)


def code_block(source: str, language: str) -> str:
    """A block of code that is not highlighted (a bibliography entry's BibTeX, kept small),
    laid out as fenced code is."""
    return (f'<div class="code-block"><pre tabindex="0"><code class="language-{html.escape(language)}">'
            f"{html.escape(source, quote=False)}</code></pre></div>")
