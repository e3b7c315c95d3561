"""Write build/ atomically: everything goes to a temporary folder beside it,
which is swapped in only once complete. A failed build leaves the previous
build/ untouched, and nothing but a folder this generator made is removed."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

from ..errors import BuildError, ContentError

# Marks a folder as made by this generator, so we never replace a user's folder.
MARKER = ".generator-build"


class Outputs(dict):
    """The build's files by path, each made once: a second output at a path is an error
    naming both makers, never a page silently replaced by another."""

    def __init__(self):
        super().__init__()
        self._makers: dict[str, str] = {}

    def add(self, path: str, content: bytes | Path, maker: str, source: Path | None = None) -> None:
        """Add the file `maker` (in words) made; `source` is the content it comes from."""
        if path in self:
            message = f"{path} would be written twice, by {self._makers[path]} and by {maker}; neither is written"
            raise ContentError.one(source, message) if source is not None else BuildError(message)
        self[path] = content
        self._makers[path] = maker

    def add_all(self, files: dict[str, bytes | Path], maker: str) -> None:
        for path, content in files.items():
            self.add(path, content, maker)


def write_site(out_dir: Path, files: dict[str, bytes | Path], protect: tuple[Path, ...] = ()) -> None:
    """Write `files` (name -> bytes, or a file to copy) as out_dir. `protect`
    lists folders (the sources) that out_dir must neither be nor contain."""
    out_dir = out_dir.resolve()
    check_output_folder(out_dir, protect)
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


def check_output_folder(out_dir: Path, protect: tuple[Path, ...]) -> None:
    """That out_dir can be replaced by a build: it is not, nor holds, nor sits inside a
    folder of `protect` (a build inside content/ would be read as content by the next),
    and is empty or a build of ours. build() asks before it reads anything."""
    out_dir = out_dir.resolve()
    for source in protect:
        source = source.resolve()
        if out_dir == source or out_dir in source.parents:
            raise BuildError(f"{out_dir}: the output folder would replace the sources in {source}; "
                             "choose another output folder")
        if source in out_dir.parents:
            raise BuildError(f"{out_dir}: the output folder is inside the sources in {source}, where the next "
                             "build would read it; choose a folder outside it (the default is build/)")
    if out_dir.exists() and not out_dir.is_dir():
        raise BuildError(f"{out_dir}: exists and is not a folder; refusing to replace it")
    if out_dir.is_dir() and any(out_dir.iterdir()) and not (out_dir / MARKER).exists():
        raise BuildError(f"{out_dir}: is not empty and was not made by this generator; "
                         "refusing to replace it (choose another output folder)")
