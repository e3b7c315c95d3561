"""Where code and citations sit in an author's Markdown source: read when the site is
loaded (load/content.py checks every cited key at its file and line) and again when the
text is rendered (render/code.py, render/math.py, render/citations.py), so both stages
find the same things. Pandoc's citation syntax: `[@key]`, `[@a; @b]`, a locator
`[@key, §3.2]`, a prefix `[see @key]`, the year alone `[-@key]`, a narrative `@key`."""
from __future__ import annotations

import re
from dataclasses import dataclass

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


# A key: Pandoc's, letters, digits and _ with inner punctuation (a trailing one is the sentence's).
_KEY = r"(?:\{(?P<braced>[^{}\n]+)\}|(?P<bare>\w(?:[\w:.#$%&+?<>~/-]*\w)?))"
_NARRATIVE = re.compile(r"(?<![\w@\\/])(?P<minus>-?)@" + _KEY + r"(?:[ \t]?\[(?P<locator>[^\[\]\n]+)\])?")
_BRACKETED = re.compile(r"\[(?P<body>[^\[\]]*?(?<![\w\\])-?@[^\[\]]*)\](?![(\[])")
# A link reference definition ('[label]: address' opening a line) is Markdown's, not a citation.
_DEFINITION = re.compile(r"(?:^|\n)[ ]{0,3}\Z")
_ITEM = re.compile(r"^(?P<prefix>.*?)(?<![\w@\\])(?P<minus>-?)@" + _KEY + r"(?P<suffix>.*)$", re.S)


@dataclass(frozen=True)
class Cited:
    key: str
    prefix: str = ""
    locator: str = ""
    year_only: bool = False


@dataclass(frozen=True)
class Citation:
    items: tuple[Cited, ...]
    narrative: bool
    source: str          # as written: what an error quotes and looks for
    start: int


def find_citations(text: str, narrative: bool = True) -> list[Citation]:
    """Every citation of a Markdown text, in order, outside code; `narrative` false leaves
    @key alone (a site without a bibliography), [@key] is still a citation."""
    found: list[Citation] = []
    offset = 0
    for is_code, part in prose_parts(text):
        if not is_code and "@" in part:
            found += [Citation(c.items, c.narrative, c.source, c.start + offset) for c in _in_prose(part, narrative)]
        offset += len(part)
    return found


def _in_prose(text: str, narrative: bool) -> list[Citation]:
    citations, taken = [], []
    for match in _BRACKETED.finditer(text):
        if _BLANK.search(match.group(0)):
            continue
        if text.startswith(":", match.end()) and _DEFINITION.search(text, 0, match.start()):
            taken.append(range(match.start(), match.end()))
            continue
        items = [_ITEM.match(item) for item in match.group("body").split(";")]
        if all(items):
            citations.append(Citation(tuple(_cited(item) for item in items), False, match.group(0), match.start()))
            taken.append(range(match.start(), match.end()))
    for match in _NARRATIVE.finditer(text) if narrative else ():
        if any(match.start() in span for span in taken) or match.group("minus"):
            continue
        citations.append(Citation((Cited(_key(match), locator=(match.group("locator") or "").strip()),), True,
                                  match.group(0), match.start()))
    return sorted(citations, key=lambda c: c.start)


_BLANK = re.compile(r"\n[ \t]*\n")


def _key(match: re.Match) -> str:
    return match.group("braced") or match.group("bare")


def _cited(match: re.Match) -> Cited:
    suffix = " ".join(match.group("suffix").split())
    return Cited(_key(match), prefix=" ".join(match.group("prefix").split()),
                 locator=suffix[1:].strip() if suffix.startswith(",") else suffix, year_only=bool(match.group("minus")))


def cited_keys(text: str) -> list[str]:
    """The keys a text cites, in order of first citation."""
    return list(dict.fromkeys(item.key for citation in find_citations(text) for item in citation.items))
