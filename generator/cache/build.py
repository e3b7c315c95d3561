"""Reuse between builds in one process (the dev server): each page's computed
states, rendered text and outputs, keyed on a hash of their inputs.

Keys hash file contents, never modification times, so saving a file without
changing it, or touching it, reuses everything. What each key covers:

- states: the page's non-Markdown files (model.py and anything it reads), the
  files of content/_lib/ its model imported, and what its kind declares it
  computes from (an explainer's steps, not their prose), so a prose-only edit
  does not recompute and an edited shared helper recomputes exactly the pages
  that import it;
- charts: the states' key and the site's labels (the data tables' words): the
  charts and tables interned for the page's data;
- prose: every file of the page's folder, and its states' key;
- page: the folder, its states' key, site.toml, the theme's files, the asset
  names and the titles of every page (the series navigation shows them all).

Generator code is not part of any key: the dev server starts a fresh cache
whenever generator/ changes.
"""
from __future__ import annotations

import hashlib
from collections import defaultdict
from pathlib import Path
from typing import Callable, TypeVar

T = TypeVar("T")

_IGNORED_DIRS = {"__pycache__"}


class BuildCache:
    """One entry per page and output ("states", "page", ...), replaced when its
    key changes; and the memo tables of the stages (memo()), which the cache owns
    so that nothing outside it keeps state between builds."""


    def __init__(self):
        self._entries: dict[tuple[str, str], tuple[str, object]] = {}
        self._folder_hashes: dict[Path, list[tuple[str, str]]] = {}
        self._states_keys: dict[str, str] = {}
        self._memos: dict[str, tuple[dict, int]] = {}
        self.made: dict[str, list[str]] = defaultdict(list)
        self.reused: dict[str, list[str]] = defaultdict(list)

    def begin(self) -> None:
        """Start a build: forget the previous build's counts and file hashes."""
        self._folder_hashes, self._states_keys = {}, {}
        self.made.clear()
        self.reused.clear()
        for table, limit in self._memos.values():
            if len(table) > limit:
                table.clear()

    def memo(self, name: str, limit: int = 4096) -> dict:
        """A memo table of this cache's, for a stage that meets the same values many
        times; emptied when a build begins with more than `limit` entries in it, so a
        long-running dev server stays bounded."""
        return self._memos.setdefault(name, ({}, limit))[0]

    def states(self, source, declarations: str, max_states: int, make: Callable[[], tuple[T, list[Path]]]) -> T:
        """A page's states. `make` returns them with the shared files its model
        imported: the entry stands while those files too are unchanged."""
        key = _digest(self._model_inputs(source.path), declarations, str(max_states))
        entry = self._entries.get(("states", source.slug))
        if entry is not None and entry[0] == key and all(_read(path) == hashed for path, hashed in entry[1][1]):
            self.reused["states"].append(source.slug)
            value, used = entry[1]
        else:
            value, files = make()  # if it raises, the old entry stays for the next attempt
            used = [(path, _read(path)) for path in files]
            self._entries[("states", source.slug)] = (key, (value, used))
            self.made["states"].append(source.slug)
        self._states_keys[source.slug] = _digest(key, *(hashed for _, hashed in used))
        return value

    def charts(self, source, site, make: Callable[[], T]) -> T:
        """A page's charts and tables: made from its states, in the words of the site's labels."""
        key = _digest(self._states_keys.get(source.slug, ""), repr(sorted(site.config.labels.items())))
        return self._get("charts", source.slug, key, make)

    def prose(self, source, make: Callable[[], T]) -> T:
        return self._get("prose", source.slug, _digest(self._folder(source.path),
                                                        self._states_keys.get(source.slug, "")), make)

    def page(self, source, site, theme, assets: dict[str, str], make: Callable[[], T],
             kind: str = "page") -> T:
        """A page's outputs; `kind` names another output made from the same
        inputs (its inline data, its single-file copy), kept beside it."""
        series = [(page.slug, page.title, page.subtitle) for page in site.pages]
        key = _digest(self._folder(source.path), self._states_keys.get(source.slug, ""), _read(site.config.path),
                      theme.name, *(self._folder(folder) for folder in theme.chain), repr(sorted(assets.items())),
                      repr(series))
        return self._get(kind, source.slug, key, make)

    def summary(self) -> str:
        """One line for the dev server's log: what was redone and what was reused."""
        parts = []
        for kind, verb in (("states", "recomputed"), ("prose", "re-rendered prose of"),
                           ("page", "re-rendered page of")):
            if self.made[kind]:
                parts.append(f"{verb} {', '.join(self.made[kind])}")
        reused = sorted(set(self.reused["states"]))
        if reused:
            parts.append(f"reused the states of {', '.join(reused)}")
        return "; ".join(parts) or "nothing to redo"

    def _get(self, kind: str, slug: str, key: str, make: Callable[[], T]) -> T:
        entry = self._entries.get((kind, slug))
        if entry is not None and entry[0] == key:
            self.reused[kind].append(slug)
            return entry[1]
        value = make()  # if it raises, the old entry stays for the next attempt
        self._entries[(kind, slug)] = (key, value)
        self.made[kind].append(slug)
        return value

    def _folder(self, folder: Path) -> str:
        return _digest(*(f"{name}\0{hashed}" for name, hashed in self._file_hashes(folder)))

    def _model_inputs(self, folder: Path) -> str:
        return _digest(*(f"{name}\0{hashed}" for name, hashed in self._file_hashes(folder) if not name.endswith(".md")))

    def _file_hashes(self, folder: Path) -> list[tuple[str, str]]:
        """(name, content hash) of each file of the folder, each file read once per build."""
        if folder not in self._folder_hashes:
            self._folder_hashes[folder] = [(name, _read(path)) for name, path in _files(folder)]
        return self._folder_hashes[folder]


def _files(folder: Path) -> list[tuple[str, Path]]:
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.rglob("*")):
        parts = path.relative_to(folder).parts
        if any(part in _IGNORED_DIRS or part.startswith(".") for part in parts) or not path.is_file():
            continue
        found.append(("/".join(parts), path))
    return found


def _read(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "unreadable"


def _digest(*parts: str) -> str:
    hasher = hashlib.sha256()
    for part in parts:
        hasher.update(part.encode("utf-8", "surrogateescape"))
        hasher.update(b"\0")
    return hasher.hexdigest()
