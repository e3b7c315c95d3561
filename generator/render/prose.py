"""Render the Markdown prose of every state, and of each step's static parts.

Prose is rendered at build time for every state, so the page needs no
template engine and every sentence goes through the same checks as the data.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import jinja2
import markdown
import markupsafe
from markdown.extensions.abbr import AbbrExtension
from markdown.extensions.attr_list import AttrListExtension
from markdown.extensions.def_list import DefListExtension
from markdown.extensions.fenced_code import FencedCodeExtension
from markdown.extensions.footnotes import FootnoteExtension
from markdown.extensions.md_in_html import MarkdownInHtmlExtension
from markdown.extensions.sane_lists import SaneListExtension
from markdown.extensions.tables import TableExtension

from ..cache.build import BuildCache
from ..cache.disk import digest, kept
from ..errors import ContentError, MarkupError, Problem
from ..site import Site
from ..compute.formats import minus
from . import markup
from .extensions import TextExtensions, located
from .markup import UnsafeHtml, check_html
from .templating import make_env

# "extra" and "sane_lists", given as objects: naming them makes Markdown scan
# every installed package's metadata for extensions, which costs more than a build's prose.
_MARKDOWN_EXTENSIONS = (AbbrExtension, AttrListExtension, DefListExtension, FencedCodeExtension,
                        FootnoteExtension, MarkdownInHtmlExtension, TableExtension, SaneListExtension)


class MarkdownRenderer:
    """Markdown to HTML, kept (diskcache.kept): many states render to the same
    text, and a build renders mostly the texts of the build before. What is kept
    is shared by every renderer (the output depends only on the text), in memory
    for the rest of the process and on disk for the next build."""

    def __init__(self, memory: dict | None = None, extensions: TextExtensions | None = None):
        self._md = None  # made on first use: a renderer whose texts are all kept needs none
        self._memory = memory  # a memo table of the build cache, or None: the disk alone
        self.extensions = extensions or TextExtensions()  # math, citations and code (render/extensions.py)

    def __call__(self, text: str, source: Path | None = None) -> str:
        """The HTML of a Markdown text from the file `source`: HTML that prose may not hold
        (markup.py) is an error at that file, at the first line that shows it."""
        try:
            return kept("markdown", digest(_MARKDOWN_VERSION, markup.RULES, self.extensions.key, text),
                        lambda: self._convert(text), self._memory)
        except UnsafeHtml as err:
            if source is None:
                raise
            raise refused(err, source) from None

    def _convert(self, text: str) -> str:
        if self._md is None:
            extensions = [make() for make in _MARKDOWN_EXTENSIONS] + self.extensions.extensions(_MARKER)
            self._md = markdown.Markdown(extensions=extensions, output_format="html")
        html = self._md.reset().convert(text)
        check_html(html)  # before it is kept: what is kept was checked
        return html


# What the HTML of a text depends on, besides the text: the library and the extensions in use
# (and markup.RULES: a text kept before the rules of what HTML prose may hold changed is checked again).
_MARKDOWN_VERSION = f"{markdown.__version__} {[e.__name__ for e in _MARKDOWN_EXTENSIONS]} html"


def check_with_values(html: str, source: Path) -> None:
    """markup.check_html of a state's HTML once its values are in (they stood in a tag of
    the author's), as an error at the file."""
    try:
        check_html(html)
    except UnsafeHtml as err:
        raise refused(err, source) from None


def refused(err: UnsafeHtml, source: Path) -> ContentError:
    """HTML prose may not hold, as an error at the file and the first line that shows it."""
    return ContentError.one(source, str(err), _line_showing(source, err.snippets))


def _line_showing(path: Path, snippets: tuple[str, ...]) -> int | None:
    """The first line of the file that holds the first of `snippets` found there (in any case)."""
    try:
        lines = path.read_text("utf-8").lower().split("\n")
    except (OSError, UnicodeDecodeError):
        return None
    for snippet in snippets:
        found = next((number for number, line in enumerate(lines, start=1) if snippet.lower() in line), None)
        if found:
            return found
    return None


# While a state's prose goes through Markdown, each value it prints stands as a
# numbered marker; the values go back into the HTML afterwards. States whose
# prose differs only in its numbers then share one Markdown conversion (the
# costly part), and a value always reads as text, never as Markdown syntax.
_SLOTS = "_printed_values"
_MARKER = re.compile("\ue000(\\d+)\ue001")


@jinja2.pass_context
def _to_slot(context, value):
    value = _shown(value)
    slots = context.get(_SLOTS)
    if slots is None:
        return value
    # Autoescape's job, done here for the real value; a value is always text, so even
    # markup a filter made (|safe, |xmlattr) is escaped: prose holds only the HTML its author wrote.
    slots.append(str(markupsafe.escape(str(value))))
    return f"\ue000{len(slots) - 1}\ue001"


@dataclass
class TextRenderer:
    """What a kind renders its text with: Jinja for the prose of each state (HTML,
    with values kept out of Markdown, see _to_slot) and for plain text (chart
    summaries), and Markdown."""
    html_env: jinja2.Environment
    text_env: jinja2.Environment
    to_html: MarkdownRenderer
    plain: Callable[[str], str] = str   # a plain text (a summary) with its math and citations in plain forms
    slots_name: str = _SLOTS
    marker: re.Pattern = _MARKER


def _shown(value):
    """A number printed as it is ({{ value }}, no filter): negative with the minus sign (−)."""
    if type(value) in (int, float) and value < 0:
        return minus(str(value))
    return value


def text_renderer(cache: BuildCache | None = None, site: Site | None = None) -> TextRenderer:
    templates = cache.memo("templates") if cache else None
    to_html = markdown_renderer(cache, site)
    return TextRenderer(make_env(autoescape=True, finalize=_to_slot, memory=templates, prose=True),
                        make_env(autoescape=False, finalize=_shown, memory=templates, prose=True),
                        to_html, to_html.extensions.plain)


def markdown_renderer(cache: BuildCache | None = None, site: Site | None = None) -> MarkdownRenderer:
    """A renderer that keeps what it made in the build cache's memory, as well as on disk; with
    the site's bibliography for its citations."""
    return MarkdownRenderer(cache.memo("markdown", limit=20_000) if cache else None,
                            TextExtensions.of(site) if site else None)


def render_prose(site: Site, computed: dict, cache: BuildCache | None = None) -> dict:
    """The text of every state of every page, as its kind renders it; with a
    cache, a page whose folder is unchanged is not rendered again."""
    cache = cache or BuildCache()
    text = text_renderer(cache, site)
    errors: list[Problem] = []
    result = {}
    for page in site.pages:
        def make(page=page):
            return site.kind_of(page).render_text(page, computed[page.slug], text)
        try:
            result[page.slug] = cache.prose(page, make, text.to_html.extensions.key)
        except ContentError as err:
            errors += err.problems
        except MarkupError as err:  # math or a citation: found at its file and line
            errors.append(located(err, page.path))
    if errors:
        raise ContentError(errors)
    return result


def render_markdown(text: str, to_html: MarkdownRenderer | None = None) -> str:
    return (to_html or MarkdownRenderer())(text)
