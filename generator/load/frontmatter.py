"""Split a content file into TOML front matter and named Markdown parts.

Front matter sits between two `+++` lines at the top (as in Zola and Hugo):
TOML is typed and ships with Python, so no YAML parser is needed. The body is
split into parts by marker lines such as `::: hint`; text before the first
marker is the part called `main`.
"""
from __future__ import annotations

import functools
import os
import re
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..errors import ContentError
from .validation import FORBIDDEN, forbidden_character

_DELIMITER = "+++"
_MARKER = re.compile(r"^:::\s*([A-Za-z][\w-]*)\s*$")
_TOML_LINE = re.compile(r"at line (\d+)")


@dataclass
class Document:
    path: Path
    meta: dict
    parts: dict[str, str] = field(default_factory=dict)
    # Line of each part's first body line, for error messages.
    part_lines: dict[str, int] = field(default_factory=dict)
    text: str = ""
    body_line: int = 1


def read_text(path: Path) -> str:
    """Read a UTF-8 file, turning every OS or decoding failure into one clear line."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise ContentError.one(path, unreadable_reason(path, err)) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise ContentError.one(
            path, f"is not valid UTF-8 (byte {err.start}: {data[err.start:err.start + 1]!r})"
        ) from None
    if not text.strip():
        raise ContentError.one(path, "is empty")
    text = text.replace("\r\n", "\n")
    if found := FORBIDDEN.search(text):  # every content file is read here: its text fields and Markdown
        raise ContentError.one(path, forbidden_character(found.group(0)), line=text.count("\n", 0, found.start()) + 1)
    return text


def unreadable_reason(path: Path, err: OSError | None = None) -> str:
    """Why a path that should be a readable file is not, in words."""
    if path.is_symlink() and not path.exists():
        return f"is a link to {os.readlink(path)}, which does not exist: expected a file"
    if path.is_dir():
        return "is a folder: expected a file"
    if not path.exists():
        return "does not exist"
    return f"cannot be read ({err.strerror or err})" if err else "cannot be read"


def parse_toml(text: str, path: Path, first_line: int = 1) -> dict:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        message = str(err)
        match = _TOML_LINE.search(message)
        if match:
            line = first_line + int(match.group(1)) - 1
        else:  # "at end of document": point at the last line of the TOML
            line = first_line + max(text.rstrip("\n").count("\n"), 0)
        message = _TOML_LINE.sub("", message).split("(")[0].strip().rstrip(",")
        raise ContentError.one(path, f"invalid TOML: {message}", line=line) from None


def load_document(path: Path, allowed_parts: tuple[str, ...] | None) -> Document:
    """The front matter and the '::: part's of a file; allowed_parts None takes any part."""
    doc = _parsed(path, read_text(path), allowed_parts)
    # The caller's own copy of what it may change: the parse is kept for the next reader.
    return replace(doc, meta=_fresh(doc.meta), parts=dict(doc.parts), part_lines=dict(doc.part_lines))


# Kept by the text: the dev server's rebuilds read every file again, most of them
# unchanged, and parsing their TOML was most of loading a site.
@functools.lru_cache(maxsize=1024)
def _parsed(path: Path, text: str, allowed_parts: tuple[str, ...] | None) -> Document:
    return parse_document(path, text, allowed_parts)


def _fresh(value):
    """A copy of TOML values: its tables and arrays new, the rest (strings, numbers,
    dates) immutable."""
    if isinstance(value, dict):
        return {key: _fresh(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_fresh(item) for item in value]
    return value


def parse_document(path: Path, text: str, allowed_parts: tuple[str, ...] | None) -> Document:
    """load_document of the file's text."""
    lines = text.split("\n")
    if lines[0].strip() != _DELIMITER:
        raise ContentError.one(path, "must start with a '+++' line opening the TOML front matter", line=1)
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == _DELIMITER)
    except StopIteration:
        raise ContentError.one(path, "front matter is not closed: no second '+++' line", line=1) from None
    meta = parse_toml("\n".join(lines[1:end]), path, first_line=2)
    doc = Document(path=path, meta=meta, text=text, body_line=end + 2)
    current, start, buffer = "main", end + 2, []
    for number, line in enumerate(lines[end + 1:], start=end + 2):
        marker = _MARKER.match(line)
        if marker:
            _store_part(doc, current, buffer, start)
            current, start, buffer = marker.group(1), number + 1, []
            if allowed_parts is not None and current not in allowed_parts:
                expected = ", ".join(f"'::: {p}'" for p in allowed_parts if p != "main")
                raise ContentError.one(
                    path, f"unknown part '::: {current}' (expected {expected})", line=number
                )
            if current in doc.parts:
                raise ContentError.one(path, f"part '::: {current}' appears twice", line=number)
        else:
            buffer.append(line)
    _store_part(doc, current, buffer, start)
    return doc


def _store_part(doc: Document, name: str, buffer: list[str], start: int) -> None:
    joined = "\n".join(buffer)
    body = joined.strip("\n")
    if body.strip():
        doc.parts[name] = body
        # The body's first line, after the blank lines that were stripped.
        doc.part_lines[name] = start + joined[:len(joined) - len(joined.lstrip("\n"))].count("\n")
