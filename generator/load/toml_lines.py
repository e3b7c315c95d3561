"""Where a key or a table stands in a TOML text (a content file's front matter, site.toml):
the one line finder every message pointing at a line uses, and the tables of a file as
`new` edits them (dev/scaffold.py). Best effort, by reading the lines: tomllib keeps no
positions."""
from __future__ import annotations

import functools
import re

HEADER = re.compile(r"^\s*\[(\[)?\s*([^\[\]]+?)\s*\]\]?\s*(?:#.*)?$")
_SECTION = re.compile(r"^(.*?)(?:\[(\d+)\])?\.$")


def line_of(text: str, key: str | None, prefix: str = "") -> int | None:
    """Best-effort line of `key = ...` in the TOML table that `prefix` names
    ("" top level, "chart.", "controls[1]."), or of the table's header when
    `key` is None. Front matter is searched only up to its closing '+++'."""
    if not text:
        return None
    wanted = None
    if prefix:
        match = _SECTION.match(prefix)
        wanted = (match.group(1), int(match.group(2)) if match.group(2) else None)
    headers, keys = _line_index(text)
    return headers.get(wanted) if key is None else keys.get((wanted, key))


_KEY = re.compile(r'^\s*(?:"([^"]*)"|([^\s="]+))\s*=')


@functools.lru_cache(maxsize=1024)  # every content file: a build asks again when it computes the steps
def _line_index(text: str) -> tuple[dict, dict]:
    """Every table header's and key's first line, read in one pass: validation asks
    for the line of every key of a file, and rescanning the file each time was slow."""
    lines = text.split("\n")
    front_matter = bool(lines) and lines[0].strip() == "+++"
    headers: dict = {}
    keys: dict = {}
    current, seen = None, {}
    for number, line in enumerate(lines[1:] if front_matter else lines, start=2 if front_matter else 1):
        if front_matter and line.strip() == "+++":
            break
        header = HEADER.match(line)
        if header:
            name = header.group(2).strip()
            if header.group(1):  # [[name]]: one more table in an array
                seen[name] = seen.get(name, -1) + 1
                current = (name, seen[name])
            else:
                current = (name, None)
            headers.setdefault(current, number)
            continue
        assigned = _KEY.match(line)
        if assigned:
            keys.setdefault((current, assigned.group(1) if assigned.group(1) is not None else assigned.group(2)),
                            number)
    return headers, keys


def tables(lines: list[str]) -> list[tuple[str, int, int]]:
    """Each table of a TOML text, split into lines: its name, its header's line index and
    its last line with content."""
    found = []
    for index, line in enumerate(lines):
        header = HEADER.match(line)
        if header:
            found.append([header.group(2).strip(), index, index])
        elif found and line.strip() and not line.lstrip().startswith("#"):
            found[-1][2] = index
    return [tuple(t) for t in found]
