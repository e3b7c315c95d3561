"""Write build/ atomically: everything goes to a temporary folder beside it,
which is swapped in only once complete. A failed build leaves the previous
build/ untouched, and nothing but a folder this generator made is removed."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from ..errors import BuildError

# Marks a folder as made by this generator, so we never replace a user's folder.
MARKER = ".generator-build"


def write_site(out_dir: Path, files: dict[str, bytes | Path], protect: tuple[Path, ...] = ()) -> None:
    """Write `files` (name -> bytes, or a file to copy) as out_dir. `protect`
    lists folders (the sources) that out_dir must neither be nor contain."""
    out_dir = out_dir.resolve()
    _check_replaceable(out_dir, protect)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    temp = out_dir.parent / f".{out_dir.name}.tmp-{os.getpid()}"
    old = out_dir.parent / f".{out_dir.name}.old-{os.getpid()}"
    for leftover in (temp, old):
        if leftover.exists():
            shutil.rmtree(leftover)
    try:
        for name, content in sorted(files.items()):
            target = temp / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, Path):
                shutil.copyfile(content, target)
            else:
                target.write_bytes(content)
        (temp / MARKER).write_text("This folder is generated; the next build replaces it.\n")
        if out_dir.exists():
            os.replace(out_dir, old)
        os.replace(temp, out_dir)
    except BaseException as err:  # an OS error, or Ctrl+C half way: put the old build back
        if old.exists() and not out_dir.exists():
            os.replace(old, out_dir)
        shutil.rmtree(temp, ignore_errors=True)
        if isinstance(err, OSError):
            raise BuildError(f"{out_dir}: cannot write the build ({err.strerror or err})") from None
        raise
    shutil.rmtree(old, ignore_errors=True)


def _check_replaceable(out_dir: Path, protect: tuple[Path, ...]) -> None:
    for source in protect:
        source = source.resolve()
        if out_dir == source or out_dir in source.parents:
            raise BuildError(f"{out_dir}: the output folder would replace the sources in {source}; "
                             "choose another output folder")
    if out_dir.exists() and not out_dir.is_dir():
        raise BuildError(f"{out_dir}: exists and is not a folder; refusing to replace it")
    if out_dir.is_dir() and any(out_dir.iterdir()) and not (out_dir / MARKER).exists():
        raise BuildError(f"{out_dir}: is not empty and was not made by this generator; "
                         "refusing to replace it (choose another output folder)")
