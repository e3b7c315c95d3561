"""`new <slug>`: start an explainer from the small working example in
generator/dev/starter/, and add it to the series in site.toml.

Nothing an author wrote is overwritten: the command refuses an existing
folder, and site.toml only gets a [[series]] table appended to its end (its
text, comments and order untouched), after checking the result still parses.
"""
from __future__ import annotations

import datetime as _dt
import os
import shutil
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..load import schema
from ..load.content import SITE_FILE
from ..errors import GeneratorError, display_path

STARTER = Path(__file__).resolve().parent / "starter"


@dataclass
class Scaffolded:
    folder: Path
    files: list[Path]
    site_file: Path
    added_to_series: bool

    def report(self, base: Path, command: str = "lensa") -> list[str]:
        """What was made, and what to run next (`command`: the command line as the author typed it)."""
        lines = [f"Created {display_path(self.folder, base)}/ with:"]
        lines += [f"  {display_path(path, base)}" for path in self.files]
        if self.added_to_series:
            lines.append(f"Added it to the series at the end of {display_path(self.site_file, base)}.")
        else:
            lines.append(f"{display_path(self.site_file, base)} already lists it; left as it was.")
        lines.append(f"Next: `{command} serve` and open it in the browser; Lensa's authoring guide "
                     "(docs/authoring.md) explains every field.")
        return lines


def scaffold(content_dir: Path, slug: str, title: str | None = None,
             today: _dt.date | None = None) -> Scaffolded:
    """Create content_dir/slug from the starter and list it in site.toml."""
    problem = schema.check_slug(slug)
    if problem:
        raise GeneratorError(f"{slug}: {problem}")
    folder = content_dir / slug
    site_file = content_dir / SITE_FILE
    if folder.exists() or folder.is_symlink():
        raise GeneratorError(f"{display_path(folder, Path.cwd())}: already exists; choose another slug "
                             "(nothing was changed)")
    if not site_file.is_file():
        raise GeneratorError(f"{display_path(site_file, Path.cwd())}: is missing; is "
                             f"{display_path(content_dir, Path.cwd())} the content folder? (nothing was changed)")
    text, table = _read_site(site_file)
    listed = {entry.get("slug"): entry for entry in table.get("series", []) + table.get("extra", [])
              if isinstance(entry, dict)}
    title = title or (listed[slug].get("title") if slug in listed else None) or _title_of(slug)
    addition = None
    if slug not in listed:
        addition = _series_entry(text, slug, title)
        _check_addition(site_file, text + addition, slug)
    escaped = title.replace("\\", "\\\\").replace('"', '\\"')  # it sits in TOML and Python strings
    files = _write_folder(folder, {"__TITLE__": escaped, "__TODAY__": (today or _dt.date.today()).isoformat()})
    if addition is not None:
        try:
            with site_file.open("a", encoding="utf-8") as handle:
                handle.write(addition)
        except OSError as err:
            shutil.rmtree(folder)  # the folder was made just now, by this command
            raise GeneratorError(f"{site_file}: cannot append to it ({err.strerror or err}); "
                                 "nothing was changed") from None
    return Scaffolded(folder, files, site_file, addition is not None)


def _read_site(site_file: Path) -> tuple[str, dict]:
    try:
        text = site_file.read_text("utf-8")
        return text, tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise GeneratorError(f"{site_file}: cannot be read as TOML ({err}); fix it first, or run "
                             "`python -m generator check` to see why (nothing was changed)") from None


def _series_entry(text: str, slug: str, title: str) -> str:
    separator = "" if text.endswith("\n\n") or not text else ("\n" if text.endswith("\n") else "\n\n")
    quoted = lambda value: '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'  # noqa: E731
    return (f"{separator}[[series]]\nslug = {quoted(slug)}\ntitle = {quoted(title)}\n"
            f"subtitle = {quoted('A one-line promise of what the reader will understand')}\n")


def _check_addition(site_file: Path, new_text: str, slug: str) -> None:
    """Appending a [[series]] table is only safe when series is an array of tables."""
    try:
        series = tomllib.loads(new_text).get("series", [])
    except tomllib.TOMLDecodeError:
        series = []
    if not series or series[-1].get("slug") != slug:
        raise GeneratorError(f"{site_file}: cannot add {slug!r} to the series by appending a [[series]] table "
                             "(is series written as an inline list?); add it by hand (nothing was changed)")


def _write_folder(folder: Path, replacements: dict[str, str]) -> list[Path]:
    """Write the starter into a hidden folder beside the target, then rename it
    into place, so a failure never leaves half an explainer behind."""
    temp = folder.parent / f".{folder.name}.new-{os.getpid()}"
    written = []
    try:
        for source in sorted(STARTER.rglob("*")):
            if source.is_dir() or "__pycache__" in source.parts:
                continue
            relative = source.relative_to(STARTER)
            target = temp / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            text = source.read_text("utf-8")
            for token, value in replacements.items():
                text = text.replace(token, value)
            with target.open("x", encoding="utf-8") as handle:
                handle.write(text)
            written.append(folder / relative)
        os.rename(temp, folder)
    except OSError as err:
        shutil.rmtree(temp, ignore_errors=True)
        raise GeneratorError(f"{folder}: cannot create it ({err.strerror or err}); nothing was changed") from None
    return written


def _title_of(slug: str) -> str:
    return " ".join(word.capitalize() for word in slug.split("-"))
