"""The site's bibliography: one BibTeX file (content/references.bib by default),
read with bibtexparser, every entry's names and text decoded from LaTeX
(pylatexenc), so the render stage cites plain fields and never sees BibTeX.

A duplicate key, an entry the parser cannot read, or one without the authors,
title or year an author–year citation needs, is an error at its line."""
from __future__ import annotations

import functools
import hashlib
import logging
import pickle
import re
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path

from ..cache import disk
from ..errors import Problem, closest

# What a parsed file depends on besides its text: the parser, the decoder and this code. Parsing
# and decoding cost far more than a build's other loading (bibtexparser and pylatexenc are slow
# to import too), so the entries are kept on disk like Markdown's HTML, and in memory for the
# dev server's rebuilds; the two libraries are imported only to parse a file not seen before.
_VERSION = hashlib.sha256(Path(__file__).read_bytes()
                          + f"{version('bibtexparser')} {version('pylatexenc')}".encode()).hexdigest()


@dataclass(frozen=True)
class Entry:
    """One work, its fields as plain text."""
    key: str
    line: int                   # of its '@type{key,' in the file
    type: str                   # article, inproceedings, misc, ...
    authors: tuple[str, ...]    # "Ashish Vaswani", "Gemma Team"
    surnames: tuple[str, ...]   # "Vaswani", "Gemma Team": what a citation names
    more_authors: bool          # the list ends in "and others": et al.
    year: str
    title: str
    venue: str                  # journal, proceedings, publisher or series, with volume and pages; "" when none
    note: str                   # the entry's note ("Llama Team, AI @ Meta"), shown after the authors
    doi: str
    arxiv: str
    url: str
    bibtex: str                 # the entry as written in the file


@dataclass
class Bibliography:
    path: Path
    entries: dict[str, Entry] = field(default_factory=dict)
    digest: str = ""            # of the file's bytes: citations' HTML depends on them

    def closest(self, key: str) -> str | None:
        return closest(key, self.entries, cutoff=0.5)


class _Captured(logging.Handler):
    """bibtexparser logs why a block failed; the message is the reason an error gives."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def load_bibliography(path: Path, errors: list[Problem]) -> Bibliography:
    """The entries of the file; problems at their lines are appended to `errors`."""
    try:
        data = path.read_bytes()
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as err:
        errors.append(Problem(path, f"cannot be read as UTF-8 text: {err}"))
        return Bibliography(path)
    entries, problems = _parsed(text)
    errors += [Problem(path, message, line) for message, line in problems]
    return Bibliography(path, dict(entries), hashlib.sha256(data).hexdigest())


@functools.lru_cache(maxsize=8)  # by the file's text: the dev server rebuilds with the same file
def _parsed(text: str) -> tuple[dict, tuple]:
    key = disk.digest(_VERSION, text)
    stored = disk.read("bibliography", key)
    if stored is not None:
        try:
            return pickle.loads(stored)
        except Exception:  # noqa: BLE001 (a damaged entry: parse again)
            pass
    found: list[tuple[str, int]] = []
    entries = _parse(text, found)
    result = (entries, tuple(found))
    disk.write("bibliography", key, pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
    return result


def _parse(text: str, problems: list[tuple[str, int]]) -> dict:
    """(message, line) of each problem appended to `problems`; the readable entries by key."""
    import bibtexparser
    from bibtexparser import middlewares
    from bibtexparser.model import DuplicateBlockKeyBlock, ParsingFailedBlock

    logger = logging.getLogger("bibtexparser")
    captured, propagate = _Captured(), logger.propagate
    logger.addHandler(captured)
    logger.propagate = False
    try:
        library = bibtexparser.parse_string(text, append_middleware=[middlewares.SeparateCoAuthors(),
                                                                   middlewares.SplitNameParts()])
    finally:
        logger.removeHandler(captured)
        logger.propagate = propagate
    for block in library.failed_blocks:
        line = block.start_line + 1
        if isinstance(block, DuplicateBlockKeyBlock):
            first = next((e.start_line + 1 for e in library.entries if e.key == block.key), None)
            problems.append((f"duplicate key {block.key!r}" + (f" (first at line {first})" if first else ""), line))
        elif isinstance(block, ParsingFailedBlock):
            reason = next((m for m in captured.messages if f"(line {block.start_line})" in m), "")
            reason = " ".join(reason.split("due to syntactical error in bibtex:")[-1].split()) or "syntax error"
            problems.append((f"cannot read this entry: {reason}", line))
    entries = {}
    for parsed in library.entries:
        entry = _entry(parsed, problems)
        if entry is not None:
            entries[entry.key] = entry
    return entries


def _entry(parsed, problems: list[tuple[str, int]]) -> Entry | None:
    fields = {f.key.lower(): f.value for f in parsed.fields}
    line = parsed.start_line + 1
    names = fields.get("author") or fields.get("editor") or []
    people = [name for name in names if not _is_others(name)] if isinstance(names, list) else []
    missing = [name for name, present in (("author", people), ("title", fields.get("title")),
                                          ("year", fields.get("year"))) if not present]
    if missing:
        problems.append((f"entry {parsed.key!r} has no {' or '.join(missing)}: an author–year "
                         "citation needs the authors (or editors), the title and the year", line))
        return None
    year = _text(fields["year"])
    eprint = _text(fields.get("eprint", ""))
    arxiv = eprint if eprint and _text(fields.get("archiveprefix", "arXiv")).lower() == "arxiv" else ""
    url = _text(fields.get("url", ""))
    if not arxiv and (found := re.search(r"arxiv\.org/(?:abs|pdf)/([\w.\-/]+?)(?:v\d+)?(?:\.pdf)?$", url)):
        arxiv = found.group(1)
    return Entry(
        key=parsed.key, line=line, type=parsed.entry_type.lower(),
        authors=tuple(_full_name(name) for name in people), surnames=tuple(_surname(name) for name in people),
        more_authors=len(people) < len(names), year=year, title=_text(fields["title"]),
        venue=_venue(fields), note=_text(fields.get("note", "")),
        doi=re.sub(r"^(?:https?://(?:dx\.)?doi\.org/|doi:)", "", _text(fields.get("doi", "")), flags=re.I),
        arxiv=arxiv, url=url, bibtex=parsed.raw.strip(),
    )


def _venue(fields: dict) -> str:
    """Where the work appeared: "Cognitive Psychology 23, pp. 45–93"."""
    venue = _text(next((fields[key] for key in ("journal", "booktitle", "howpublished", "publisher", "series",
                                                 "institution", "school") if fields.get(key)), ""))
    if venue and fields.get("volume"):
        venue += f" {_text(fields['volume'])}"
    if venue and fields.get("pages"):
        venue += f", pp. {_text(fields['pages'])}"
    return venue


def _is_others(name) -> bool:
    return not name.first and not name.von and not name.jr and name.last == ["others"]


def _full_name(name) -> str:
    return _text(" ".join(name.first + name.von + name.last) + (", " + " ".join(name.jr) if name.jr else ""))


def _surname(name) -> str:
    return _text(" ".join(name.von + name.last))


def _text(value) -> str:
    """A field's LaTeX as plain text: {\\L}ukasz is Łukasz, braces go, --- is an em dash."""
    value = str(value)
    if not re.search(r"[\\{}~$-]", value):
        return " ".join(value.split())
    return " ".join(_decoder().latex_to_text(value).split())


@functools.lru_cache(maxsize=1)
def _decoder():
    from pylatexenc.latex2text import LatexNodes2Text

    return LatexNodes2Text(math_mode="verbatim")
