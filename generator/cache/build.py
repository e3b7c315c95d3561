"""Reuse between builds in one process (the dev server): each page's computed
states, rendered text and outputs, keyed on a hash of their inputs.

Keys hash file contents, never modification times, so saving a file without
changing it, or touching it, reuses everything. What each key covers:

- states: the page's files but for the Markdown its kind reads as content (model.py
  and anything it reads, dot-files and other .md files too), the files of
  content/_lib/ its model imported, the data files of content/_lib/ (any page may
  read them), and what its kind declares it computes from in that Markdown (an
  explainer's steps, not their prose), so a prose-only edit does not
  recompute and an edited shared helper recomputes exactly the pages that import it;
- charts: the states' key and the site's labels (the data tables' words): the
  charts and tables interned for the page's data;
- prose: every file of the page's folder, its states' key and the bibliography
  (citations name its entries);
- page: the folder, its states' key, site.toml, the bibliography, the theme's
  files, the asset names and the titles of every page (the series navigation
  shows them all).

Generator code is not part of these keys: the dev server starts a fresh cache
whenever generator/ changes.

A page's states, with the figures, tables and drawings its pages made of them,
and its interned charts are also kept on disk for the next build (disk.py's
folder, "states" and "charts"), like the compiled templates: their key adds
everything a fresh process could differ in, the generator's code, the Python and
numpy versions, the page's folder and the whole of content/_lib/ (its helpers and
the data files they read, such as weights.npz). A model that reads a file outside
its folder and content/_lib/ is not covered: that file is no input of a page.
"""
from __future__ import annotations

import hashlib
import pickle
import platform
import sys
from collections import defaultdict
from pathlib import Path
from typing import Callable, TypeVar

from . import disk

T = TypeVar("T")

# What no build reads and no model means to: bytecode, version control and editor
# temporaries. Every other file counts, its name starting with a dot or not (a model's
# .data.json is as much an input as its data.json). The dev server watches the same files.
_IGNORED_DIRS = {"__pycache__", ".git", ".hg", ".svn"}
_TEMPORARY_ENDINGS = ("~", ".swp", ".swx", ".swo", ".tmp", ".pyc", ".pyo")


def ignored(parts: tuple[str, ...] | list[str]) -> bool:
    """Whether a file at these path parts (relative to a watched folder) is left out."""
    name = parts[-1]
    return (any(ignored_folder(part) for part in parts[:-1]) or name.endswith(_TEMPORARY_ENDINGS)
            or name.startswith(".#") or name in ("4913", ".DS_Store"))


def ignored_folder(name: str) -> bool:
    return name in _IGNORED_DIRS


class BuildCache:
    """One entry per page and output ("states", "page", ...), replaced when its
    key changes; and the memo tables of the stages (memo()), which the cache owns
    so that nothing outside it keeps state between builds."""


    def __init__(self):
        self._entries: dict[tuple[str, str], tuple[str, object]] = {}
        self._folder_hashes: dict[Path, list[tuple[str, str]]] = {}
        self._states_keys: dict[str, str] = {}
        self._memos: dict[str, tuple[dict, int]] = {}
        self._stored_keys: dict[str, str] = {}          # slug -> the key of its states on disk
        self._to_store: list[tuple[str, str, object]] = []  # made this build: (kind, key, value)
        self._environment: str | None = None
        self.made: dict[str, list[str]] = defaultdict(list)
        self.reused: dict[str, list[str]] = defaultdict(list)
        self.loaded: dict[str, list[str]] = defaultdict(list)   # read from disk, made by an earlier build

    def begin(self) -> None:
        """Start a build: forget the previous build's counts and file hashes."""
        self._folder_hashes, self._states_keys, self._stored_keys = {}, {}, {}
        self._to_store = []
        self.made.clear()
        self.reused.clear()
        self.loaded.clear()
        for table, limit in self._memos.values():
            if len(table) > limit:
                table.clear()

    def memo(self, name: str, limit: int = 4096) -> dict:
        """A memo table of this cache's, for a stage that meets the same values many
        times; emptied when a build begins with more than `limit` entries in it, so a
        long-running dev server stays bounded."""
        return self._memos.setdefault(name, ({}, limit))[0]

    def states(self, source, declarations: str, max_states: int, make: Callable[[], tuple[T, list[Path]]],
               shared: Path | None = None, accept: Callable[[T], object] | None = None,
               prose: list[Path] = ()) -> T:
        """A page's states. `make` returns them with the shared files its model
        imported (from `shared`, content/_lib/): the entry stands while those files
        too are unchanged. States read from disk are used only if `accept(states)`
        is true (and raises nothing): an entry of another shape is computed again.
        `prose` names the files of the page's content whose computed parts `declarations`
        holds: the only files of its folder left out of the key."""
        # The data files of content/_lib/ (its modules count once imported, through `used`).
        key = _digest(self._model_inputs(source.path, prose), declarations, str(max_states),
                      self._shared_data(shared) if shared is not None else "")
        stored_key = self._stored_keys[source.slug] = _digest(
            key, self.environment(), str(source.path.resolve()), source.slug,
            self._folder(shared) if shared is not None else "")
        entry = self._entries.get(("states", source.slug))
        if entry is not None and entry[0] == key and all(_read(path) == hashed for path, hashed in entry[1][1]):
            self.reused["states"].append(source.slug)
            value, used = entry[1]
        elif (found := _load("states", stored_key, lambda found: _states_entry(found, accept))) is not None:
            value, used = found
            self._entries[("states", source.slug)] = (key, (value, used))
            self.loaded["states"].append(source.slug)
        else:
            value, files = make()  # if it raises, the old entry stays for the next attempt
            used = [(path, _read(path)) for path in files]
            self._entries[("states", source.slug)] = (key, (value, used))
            self._to_store.append(("states", stored_key, (value, used)))
            self.made["states"].append(source.slug)
        self._states_keys[source.slug] = _digest(key, *(hashed for _, hashed in used))
        return value

    def charts(self, source, site, make: Callable[[], T], accept: Callable[[T], object] | None = None) -> T:
        """A page's charts and tables: made from its states, in the words of the site's labels
        (read from disk only if `accept` takes them, as states())."""
        labels = repr(sorted(site.config.labels.items()))
        key = _digest(self._states_keys.get(source.slug, ""), labels)
        stored = self._stored_keys.get(source.slug)
        return self._get("charts", source.slug, key, make, _digest(stored, labels) if stored else None, accept)

    def prose(self, source, make: Callable[[], T], markup: str = "") -> T:
        """A page's text; `markup` is what its HTML depends on besides the page (the bibliography)."""
        return self._get("prose", source.slug, _digest(self._folder(source.path),
                                                        self._states_keys.get(source.slug, ""), markup), make)

    def page(self, source, site, theme, assets: dict[str, str], make: Callable[[], T],
             kind: str = "page") -> T:
        """A page's outputs; `kind` names another output made from the same
        inputs (its inline data, its single-file copy), kept beside it."""
        series = [(page.slug, page.title, page.subtitle) for page in site.pages]
        bibliography = site.bibliography.digest if site.bibliography else ""
        key = _digest(self._folder(source.path), self._states_keys.get(source.slug, ""), _read(site.config.path),
                      bibliography,
                      theme.name, *(self._folder(folder) for folder in theme.chain), repr(sorted(assets.items())),
                      repr(series))
        return self._get(kind, source.slug, key, make)

    def store(self) -> None:
        """Keep on disk what this build computed (states, now with the figures, tables
        and drawings its pages made of them, and charts), for the next build to load."""
        for kind, key, value in self._to_store:
            try:
                data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception:  # noqa: BLE001 (something a model returned that pickle cannot keep: only costs time)
                continue
            disk.write(kind, key, data)
        self._to_store = []

    def environment(self) -> str:
        """What computed states depend on besides the content: the generator's code
        and the Python and numpy it runs on."""
        if self._environment is None:
            import numpy

            self._environment = _digest(sys.version, platform.machine(), numpy.__version__,
                                        self.code_digest(Path(__file__).resolve().parent.parent))
        return self._environment

    @staticmethod
    def code_digest(package: Path) -> str:
        """A digest of every module of the package in the folder (the generator's code)."""
        return _digest(*(f"{path.relative_to(package).as_posix()}\0{_read(path)}"
                         for path in sorted(package.rglob("*.py")) if "__pycache__" not in path.parts))

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

    def _get(self, kind: str, slug: str, key: str, make: Callable[[], T], stored_key: str | None = None,
             accept: Callable[[T], object] | None = None) -> T:
        """The entry for the key: kept in memory, else (with a `stored_key`) read from
        disk, else made (and, with a `stored_key`, stored once the build is done)."""
        entry = self._entries.get((kind, slug))
        if entry is not None and entry[0] == key:
            self.reused[kind].append(slug)
            return entry[1]
        value = _load(kind, stored_key, accept) if stored_key else None
        if value is not None:
            self.loaded[kind].append(slug)
        else:
            value = make()  # if it raises, the old entry stays for the next attempt
            self.made[kind].append(slug)
            if stored_key:
                self._to_store.append((kind, stored_key, value))
        self._entries[(kind, slug)] = (key, value)
        return value

    def _folder(self, folder: Path) -> str:
        return _digest(*(f"{name}\0{hashed}" for name, hashed in self._file_hashes(folder)))

    def _shared_data(self, folder: Path) -> str:
        return _digest(*(f"{name}\0{hashed}" for name, hashed in self._file_hashes(folder)
                         if not name.endswith(".py")))

    def _model_inputs(self, folder: Path, prose: list[Path]) -> str:
        left_out = {path.relative_to(folder).as_posix() for path in prose}
        return _digest(*(f"{name}\0{hashed}" for name, hashed in self._file_hashes(folder) if name not in left_out))

    def _file_hashes(self, folder: Path) -> list[tuple[str, str]]:
        """(name, content hash) of each file of the folder, each file read once per build."""
        if folder not in self._folder_hashes:
            self._folder_hashes[folder] = [(name, _read(path)) for name, path in _files(folder)]
        return self._folder_hashes[folder]


def _load(kind: str, key: str, accept: Callable[[object], object] | None = None):
    """What an earlier build stored for the key, or None: none stored, or an entry
    that cannot be read back (damaged: disk.py checks its digest; pickled by other
    code; or of a shape `accept` refuses) is made again."""
    data = disk.read(kind, key)
    if data is None:
        return None
    try:
        value = pickle.loads(data)
        return value if accept is None or accept(value) else None
    except Exception:  # noqa: BLE001 (whatever a foreign pickle or a wrong shape raises)
        return None


def _states_entry(found, accept) -> bool:
    """A states entry as BuildCache.states() stores it: (states, [(shared file, its hash)...])."""
    return (isinstance(found, tuple) and len(found) == 2 and isinstance(found[1], list)
            and all(isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], Path)
                    and isinstance(item[1], str) for item in found[1])
            and (accept is None or bool(accept(found[0]))))


def _files(folder: Path) -> list[tuple[str, Path]]:
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.rglob("*")):
        parts = path.relative_to(folder).parts
        if ignored(parts) or not path.is_file():
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
