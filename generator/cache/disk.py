"""Results kept on disk between builds, the way Python keeps bytecode in
__pycache__: compiled templates (templating.py), Markdown turned into HTML
(prose.py) and scripts escaped for inlining (offline.py). Each entry is named
by a digest of everything its result depends on, so an entry is either right
or never looked up; a build with an empty cache makes the same bytes, slower.

The cache lives in $LENSA_CACHE_DIR (default ~/.cache/lensa-ml); an empty
value turns it off. A cache that cannot be read or written only costs time.
Every entry starts with a digest of its bytes, checked before it is used: an
entry cut short (a full disk, a killed process on a file system that does not
rename atomically) or damaged in any other way is made again, never used.
kept() adds a memory (a memo table the build cache owns) of what was made or
read, for the dev server's rebuilds and for the texts a build meets many times.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Callable

CACHE_ENV = "LENSA_CACHE_DIR"


def cache_root() -> Path | None:
    configured = os.environ.get(CACHE_ENV)
    if configured is not None:
        return Path(configured) if configured.strip() else None
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "lensa-ml"


def digest(*parts: str | bytes) -> str:
    hasher = hashlib.sha256()
    for part in parts:
        hasher.update(part.encode("utf-8", "surrogateescape") if isinstance(part, str) else part)
        hasher.update(b"\0")
    return hasher.hexdigest()


def remembered(kind: str, key: str, make: Callable[[], str]) -> str:
    """make(), or the text it returned before for the same key."""
    found = read(kind, key)
    if found is not None:
        try:
            return found.decode("utf-8")
        except UnicodeDecodeError:
            pass
    text = make()
    write(kind, key, text.encode("utf-8"))
    return text


def read(kind: str, key: str) -> bytes | None:
    """The entry kept for the key, or None (none kept, no cache, unreadable or damaged)."""
    root = cache_root()
    return read_entry(root / kind / key[:2] / key) if root is not None else None


def write(kind: str, key: str, data: bytes) -> None:
    """Keep `data` for the key; a cache that cannot be written only costs time."""
    root = cache_root()
    if root is not None:
        write_entry(root / kind / key[:2] / key, data)


# An entry: this header, the SHA-256 digest of the data, then the data.
_HEADER = b"lensa-cache-1\n"
_DIGEST = hashlib.sha256().digest_size


def read_entry(entry: Path) -> bytes | None:
    """The data of an entry file whose digest matches its bytes, or None."""
    try:
        raw = entry.read_bytes()
    except OSError:
        return None
    start = len(_HEADER) + _DIGEST
    if not raw.startswith(_HEADER) or hashlib.sha256(raw[start:]).digest() != raw[len(_HEADER):start]:
        return None  # damaged, cut short, or written by an older version: made again (and written over)
    return raw[start:]


def write_entry(entry: Path, data: bytes) -> None:
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        partial = entry.with_name(f"{entry.name}.{os.getpid()}.tmp")
        partial.write_bytes(_HEADER + hashlib.sha256(data).digest() + data)
        partial.replace(entry)  # never a half-written entry, even with two builds at once
    except OSError:
        pass


def kept(kind: str, key: str, make: Callable[[], str], memory: dict | None = None, on_disk: bool = True) -> str:
    """remembered() (or, with on_disk false, make()), kept in `memory` too: a memo
    table of the build cache (BuildCache.memo), which the dev server keeps from one
    rebuild to the next and which bounds its size."""
    found = memory.get((kind, key)) if memory is not None else None
    if found is None:
        found = remembered(kind, key, make) if on_disk else make()
        if memory is not None:
            memory[(kind, key)] = found
    return found
