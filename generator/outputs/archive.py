"""The distributable zip: the whole built site in one archive, for readers
who need it offline (a course's USB stick, a classroom without Wi-Fi).

The archive is reproducible: entries are sorted, and every entry has the same
timestamp and permissions, so the same build always gives the same bytes."""
from __future__ import annotations

import os
import re
import unicodedata
import zipfile
from collections.abc import Iterable
from pathlib import Path

from ..errors import BuildError
from .writer import MARKER

# The earliest date a zip entry can hold; any fixed date would do.
FIXED_TIME = (1980, 1, 1, 0, 0, 0)
# The comment of every zip this tool writes: the mark that lets the next run replace it.
COMMENT = b"Written by lensa; the next `lensa dist` replaces it."


def archive_name(site_title: str) -> str:
    """'Lensa ML' -> 'lensa-ml': the zip's file name and its top folder."""
    ascii_title = unicodedata.normalize("NFKD", site_title).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_title.lower()).strip("-") or "site"


def pack_site(build_dir: Path, zip_path: Path, folder: str) -> int:
    """Write build_dir into zip_path under `folder/`; return the number of files.
    The zip is written beside its target and renamed into place."""
    if not (build_dir / MARKER).is_file():
        raise BuildError(f"{build_dir}: is not a build of this generator (run 'make build' first)")
    files = sorted((p.relative_to(build_dir).as_posix(), p) for p in build_dir.rglob("*")
                   if p.is_file() and p.name != MARKER)
    write_zip(((f"{folder}/{name}", path.read_bytes()) for name, path in files), zip_path)
    return len(files)


def write_zip(entries: Iterable[tuple[str, bytes]], zip_path: Path) -> None:
    """Write the (name, content) entries, in the order given, into zip_path: each with
    the same timestamp and permissions, so the same entries always give the same
    bytes. Written beside its target and renamed into place, and only over a zip
    this tool wrote (ours), never over a file of someone else's: a .docx, a .jar or
    an .epub is a zip too."""
    if zip_path.suffix.lower() != ".zip":
        raise BuildError(f"{zip_path}: expected a file name ending .zip for the archive")
    if (zip_path.exists() or zip_path.is_symlink()) and not ours(zip_path):
        raise BuildError(f"{zip_path}: exists and is not a zip this tool wrote; refusing to replace it "
                         "(move it away, or choose another name)")
    zip_path.parent.mkdir(parents=True, exist_ok=True)
    temp = zip_path.with_name(f".{zip_path.name}.tmp-{os.getpid()}")
    try:
        with zipfile.ZipFile(temp, "w") as archive:
            archive.comment = COMMENT
            for name, content in entries:
                info = zipfile.ZipInfo(name, FIXED_TIME)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.create_system = 3                 # Unix, so the permissions below apply
                info.external_attr = 0o644 << 16
                archive.writestr(info, content, compresslevel=9)
        os.replace(temp, zip_path)
    except OSError as err:
        temp.unlink(missing_ok=True)
        raise BuildError(f"{zip_path}: cannot write the archive ({err.strerror or err})") from None


def ours(zip_path: Path) -> bool:
    """A regular file that this tool wrote: a zip with our comment, or, as every zip it
    wrote before it signed them, whose every entry has our fixed date and permissions."""
    if zip_path.is_symlink() or not zip_path.is_file():
        return False
    try:
        with zipfile.ZipFile(zip_path) as archive:
            if archive.comment == COMMENT:
                return True
            infos = archive.infolist()
            return bool(infos) and all(info.date_time == FIXED_TIME and info.external_attr >> 16 == 0o644
                                       for info in infos)
    except (OSError, zipfile.BadZipFile):
        return False
