"""Code in an author's Markdown: fenced blocks highlighted with Pygments at build
time (classes only; the theme colours them in its light and dark schemes; its
small script gives each block a Copy button, which could do nothing without
scripts); and where code sits in Markdown source, which math and citations leave
alone (`prose_parts`)."""
from __future__ import annotations

import html
import re

import pygments
from markdown.extensions.codehilite import CodeHiliteExtension
from pygments.formatters.html import HtmlFormatter
from pygments.token import Token

PYGMENTS_VERSION = pygments.__version__

# A fence opens a block: three or more backticks or tildes, indented by at most three spaces.
_FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,}|~{3,})(?P<info>[^\n]*)$", re.M)
_BACKTICKS = re.compile(r"`+")


def prose_parts(text: str) -> list[tuple[bool, str]]:
    """The text cut into (is_code, piece) pieces, in order: fenced code blocks and
    code spans are code, the rest is prose. A fence left open runs to the end, and an
    unmatched run of backticks is prose, as Markdown reads them."""
    parts: list[tuple[bool, str]] = []
    at = 0
    for start, end in _fenced_blocks(text):
        parts += _spans(text[at:start])
        parts.append((True, text[start:end]))
        at = end
    parts += _spans(text[at:])
    return [part for part in parts if part[1]]


def _fenced_blocks(text: str) -> list[tuple[int, int]]:
    blocks, at = [], 0
    while (opening := _FENCE.search(text, at)) is not None:
        fence = opening.group("fence")
        if fence[0] == "`" and "`" in opening.group("info"):  # not a fence: a code span at a line's start
            at = opening.end()
            continue
        closing = re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$", re.M)
        found = closing.search(text, opening.end())
        end = found.end() if found else len(text)
        blocks.append((opening.start(), end))
        at = end
    return blocks


def _spans(text: str) -> list[tuple[bool, str]]:
    """Code spans: a run of backticks up to the next run of the same length."""
    parts, at, search = [], 0, 0
    while (opening := _BACKTICKS.search(text, search)) is not None:
        run = opening.group(0)
        closing = next((m for m in _BACKTICKS.finditer(text, opening.end()) if m.group(0) == run), None)
        if closing is None:
            search = opening.end()
            continue
        parts += [(False, text[at:opening.start()]), (True, text[opening.start():closing.end()])]
        at = search = closing.end()
    parts.append((False, text[at:]))
    return parts


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
