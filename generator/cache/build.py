"""Reuse between builds in one process (the dev server): each explainer's
computed states, rendered prose and page, keyed on a hash of their inputs.

Keys hash file contents, never modification times, so saving a file without
changing it, or touching it, reuses everything. What each key covers:

- states: the explainer's non-Markdown files (model.py and anything it reads)
  and its steps' declarations, so a prose-only edit does not recompute;
- charts: the states' key and the site's labels (the data tables' words): the
  charts and tables interned for the page's data;
- prose: every file of the explainer's folder;
- page: the folder, site.toml, the theme's files, the asset names and the
  titles of every explainer (the series navigation shows them all).

Generator code is not part of any key: the dev server starts a fresh cache
whenever generator/ changes.
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Callable, TypeVar

T = TypeVar("T")

_IGNORED_DIRS = {"__pycache__"}


class BuildCache:
    """One entry per explainer and kind, replaced when its key changes."""

    KINDS = ("states", "charts", "prose", "page", "payload", "embeds", "offline")

    def __init__(self):
        self._entries: dict[tuple[str, str], tuple[str, object]] = {}
        self._folder_hashes: dict[Path, list[tuple[str, str]]] = {}
        self.made: dict[str, list[str]] = {kind: [] for kind in self.KINDS}
        self.reused: dict[str, list[str]] = {kind: [] for kind in self.KINDS}

    def begin(self) -> None:
        """Start a build: forget the previous build's counts and file hashes."""
        self._folder_hashes = {}
        for kind in self.KINDS:
            self.made[kind], self.reused[kind] = [], []

    def states(self, explainer, max_states: int, make: Callable[[], T]) -> T:
        return self._get("states", explainer.slug, self._states_key(explainer, max_states), make)

    def charts(self, explainer, site, make: Callable[[], T]) -> T:
        key = _digest(self._states_key(explainer, site.config.max_states), repr(sorted(site.config.labels.items())))
        return self._get("charts", explainer.slug, key, make)

    def prose(self, explainer, make: Callable[[], T]) -> T:
        return self._get("prose", explainer.slug, self._folder(explainer.path), make)

    def page(self, explainer, site, theme, assets: dict[str, str], make: Callable[[], T],
             kind: str = "page") -> T:
        """The explainer's page; `kind` names another output made from the same
        inputs (its inline data, its embeds, its single-file copy), kept beside it."""
        series = [(e.slug, e.title, e.subtitle) for e in site.explainers]
        key = _digest(self._folder(explainer.path), _read(site.config.path), theme.name,
                      *(self._folder(folder) for folder in theme.chain), repr(sorted(assets.items())),
                      repr(series))
        return self._get(kind, explainer.slug, key, make)

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

    def _states_key(self, explainer, max_states: int) -> str:
        return _digest(self._model_inputs(explainer.path), _declarations(explainer), str(max_states))

    def _model_inputs(self, folder: Path) -> str:
        return _digest(*(f"{name}\0{hashed}" for name, hashed in self._file_hashes(folder) if not name.endswith(".md")))

    def _file_hashes(self, folder: Path) -> list[tuple[str, str]]:
        """(name, content hash) of each file of the folder, each file read once per build."""
        if folder not in self._folder_hashes:
            self._folder_hashes[folder] = [(name, _read(path)) for name, path in _files(folder)]
        return self._folder_hashes[folder]


def _declarations(explainer) -> str:
    """Everything about the steps that the computation reads: not their prose."""
    return repr([(s.path.name, s.number, s.compute, s.controls, s.readouts, s.chart) for s in explainer.steps])


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
