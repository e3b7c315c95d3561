"""The Markdown extensions of an author's text, one module each: math (math.py),
citations (citations.py) and highlighted code (code.py). TextExtensions holds what
they need from the site (its bibliography), gives Markdown the extensions and the
cache a key for what they make, and writes a plain text's math and citations in
their plain forms. An expression or citation that cannot be rendered is found in
the page's files, to name the file and the line."""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import MarkupError, Problem
from ..load import syntax
from . import citations, code, math

_MODULES = (Path(math.__file__), Path(citations.__file__), Path(code.__file__), Path(syntax.__file__), Path(__file__))
# What the HTML of a text depends on besides the text and the site: the converters and this code.
_VERSION = hashlib.sha256(b"".join(path.read_bytes() for path in _MODULES)
                          + f"{math.LATEX2MATHML_VERSION} {code.PYGMENTS_VERSION}".encode()).hexdigest()


@dataclass
class TextExtensions:
    bibliography: object = None     # load/bibliography.py's Bibliography, or None: the site has none
    style: citations.CitationStyle = field(init=False)

    def __post_init__(self):
        self.style = citations.CitationStyle(self.bibliography)

    @classmethod
    def of(cls, site) -> "TextExtensions":
        return cls(site.bibliography)

    @property
    def key(self) -> str:
        """Everything besides a text that its HTML depends on."""
        bibliography = self.bibliography.digest if self.bibliography else ""
        return f"{_VERSION} {bibliography}"

    def extensions(self, marker: re.Pattern | None) -> list:
        """Markdown's extensions: code first (fenced code is set aside before math and citations are read)."""
        return [code.code_extension(), math.MathExtension(marker),
                citations.CitationExtension(self.style)]

    def plain(self, text: str) -> str:
        """A plain text (a chart's summary) with its math and citations in their plain forms."""
        return citations.plain_citations(math.plain_math(text), self.style)

    def references(self, keys) -> list[citations.ReferenceView]:
        """The reference list of the entries `keys` names, in the list's order."""
        return citations.reference_list(self.style, keys)

    def inline_references(self, references) -> list[citations.ReferenceView]:
        """A page's own [[references]] tables, in the list's style."""
        return [citations.inline_reference(ref) for ref in references]

    def cited_in(self, *fragments: str) -> list[str]:
        """The keys the HTML fragments cite."""
        return citations.keys_in_html("".join(fragments), self.style)


def plain_text_of(fragment: str) -> str:
    """An HTML fragment ready for striptags: its math as plain text, its citations' cards left out."""
    return citations.without_cards(math.html_with_plain_math(fragment))


def located(error: MarkupError, folder: Path) -> Problem:
    """The problem at the file and line of the page's folder where the fragment is written
    (as it is, or with TOML's doubled backslashes), else at the folder."""
    fragment = error.fragment.split("{{ … }}")[0] or error.fragment
    candidates = [fragment, fragment.replace("\\", "\\\\"), fragment.split("\n")[0]]
    for path in sorted(folder.rglob("*.md")) if folder.is_dir() else []:
        try:
            text = path.read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        for candidate in candidates:
            at = text.find(candidate) if candidate else -1
            if at >= 0:
                return Problem(path, str(error), text.count("\n", 0, at) + 1)
    return Problem(folder, str(error))
