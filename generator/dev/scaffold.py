"""`new <slug>`: start an explainer from the small working example in
generator/dev/starter/, and add it to the series in site.toml.

Nothing an author wrote is overwritten: the command refuses an existing
folder, and site.toml only gets one [[series]] table inserted (its text,
comments and order otherwise untouched), after checking the result parses to
the series with the new entry where it was meant to go: after or before the
entry the author names, or else after the last entry of the series, with a
comment saying so. What the starter writes for the author to replace is
found by dev/leftovers.py, and `check --strict` refuses it until it is.
"""
from __future__ import annotations

import datetime as _dt
import os
import re
import shutil
import tomllib
from dataclasses import dataclass
from pathlib import Path

from ..load import schema
from ..load.toml_lines import tables as tables_of
from ..load.content import SITE_FILE
from ..errors import GeneratorError, display_path

from .leftovers import STARTER

STARTER_BIBLIOGRAPHY = "references.bib"  # the works the starter cites, added to the site's own


@dataclass
class Scaffolded:
    folder: Path
    files: list[Path]
    site_file: Path
    added_to_series: bool
    placed: str = ""       # where the entry went: "at the end of the series", "after 'x'"...
    subtitle: str = ""
    bibliography: Path | None = None  # the site's .bib file, when the starter's cited work was added to it

    def report(self, base: Path, command: str = "lensa") -> list[str]:
        """What was made, and what to run next (`command`: the command line as the author typed it)."""
        lines = [f"Created {display_path(self.folder, base)}/ with:"]
        lines += [f"  {display_path(path, base)}" for path in self.files]
        if self.added_to_series:
            lines.append(f"Added it to {display_path(self.site_file, base)}, {self.placed}.")
        else:
            lines.append(f"{display_path(self.site_file, base)} already lists it; left as it was.")
        if self.bibliography:
            lines.append(f"Added the work its text cites to {display_path(self.bibliography, base)}.")
        if not self.subtitle:
            lines.append("It has no subtitle yet: write one in its explainer.md (and its site.toml entry).")
        lines.append("The starter's example text (its question, introduction, key ideas, two steps and a quiz "
                     f"question) is yours to replace: `{command} check` lists what is left, and fails on it "
                     "with --strict.")
        lines.append(f"Next: `{command} serve` and open it in the browser; `{command} docs` prints Lensa's "
                     "authoring guide, which explains every field.")
        return lines


def scaffold(content_dir: Path, slug: str, title: str | None = None, today: _dt.date | None = None, *,
             subtitle: str | None = None, after: str | None = None, before: str | None = None) -> Scaffolded:
    """Create content_dir/slug from the starter and list it in site.toml: after the entry
    `after`, before the entry `before`, or else at the end of the series."""
    problem = schema.check_slug(slug)
    if problem:
        raise GeneratorError(f"{slug if len(slug) <= schema.MAX_SLUG else slug[:20] + '...'}: {problem}")
    folder = content_dir / slug
    site_file = content_dir / SITE_FILE
    if folder.exists() or folder.is_symlink():
        raise GeneratorError(f"{display_path(folder, Path.cwd())}: already exists; choose another slug "
                             "(nothing was changed)")
    if not site_file.is_file():
        raise GeneratorError(f"{display_path(site_file, Path.cwd())}: is missing; is "
                             f"{display_path(content_dir, Path.cwd())} the content folder? (nothing was changed)")
    if after and before:
        raise GeneratorError("give --after or --before, not both (nothing was changed)")
    text, table = _read_site(site_file)
    listed = {entry.get("slug"): entry for entry in table.get("series", []) + table.get("extra", [])
              if isinstance(entry, dict)}
    title = title or (listed[slug].get("title") if slug in listed else None) or _title_of(slug)
    subtitle = " ".join((subtitle or (listed[slug].get("subtitle") if slug in listed else "") or "").split())
    new_text, placed = None, ""
    if slug not in listed:
        new_text, placed = _with_entry(site_file, text, table, slug, title, subtitle, after or before, bool(before))
    files = _write_folder(folder, {"__TITLE__": _escaped(title), "__SUBTITLE__": _escaped(subtitle),
                                   "__TODAY__": (today or _dt.date.today()).isoformat()})
    bibliography = content_dir / str(table.get("bibliography") or schema.SITE["bibliography"].default)
    before_text = bibliography.read_bytes() if bibliography.is_file() else None
    try:
        cited = _add_starter_works(bibliography)
        if new_text is not None:
            _replace_file(site_file, new_text)
    except OSError as err:
        shutil.rmtree(folder)  # the folder was made just now, by this command
        if before_text is None:
            bibliography.unlink(missing_ok=True)
        else:
            bibliography.write_bytes(before_text)
        raise GeneratorError(f"{err.filename or site_file}: cannot write it ({err.strerror or err}); "
                             "nothing was changed") from None
    return Scaffolded(folder, files, site_file, new_text is not None, placed, subtitle,
                      bibliography if cited else None)


_ENTRY_KEY = re.compile(r"@\s*\w+\s*[{(]\s*([^,\s]+)\s*,")


def _add_starter_works(bibliography: Path) -> list[str]:
    """The starter's text cites a work: add its entry to the site's bibliography, unless a
    work of that key is there already (the author's own stays as it is). The keys added."""
    starter = (STARTER / STARTER_BIBLIOGRAPHY).read_text("utf-8")
    existing = bibliography.read_text("utf-8") if bibliography.is_file() else ""
    have = set(_ENTRY_KEY.findall(existing))
    entries = re.split(r"\n(?=@)", starter.strip())
    added = [entry for entry in entries if _ENTRY_KEY.match(entry) and _ENTRY_KEY.match(entry).group(1) not in have]
    if added:
        separator = "" if not existing else ("\n" if existing.endswith("\n") else "\n\n")
        with bibliography.open("a", encoding="utf-8") as handle:
            handle.write(separator + "\n\n".join(added) + "\n")
    return [_ENTRY_KEY.match(entry).group(1) for entry in added]


def _escaped(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')  # it sits in TOML and Python strings


def _replace_file(path: Path, text: str) -> None:
    """Write the new site.toml beside the old one, then rename it over: never half a file."""
    temp = path.with_name(f".{path.name}.new-{os.getpid()}")
    try:
        temp.write_text(text, encoding="utf-8")
        shutil.copymode(path, temp)  # the file keeps its permissions
        os.replace(temp, path)
    except OSError:
        temp.unlink(missing_ok=True)
        raise


def _read_site(site_file: Path) -> tuple[str, dict]:
    try:
        text = site_file.read_text("utf-8")
        return text, tomllib.loads(text)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise GeneratorError(f"{site_file}: cannot be read as TOML ({err}); fix it first, or run "
                             "`python -m generator check` to see why (nothing was changed)") from None


def _with_entry(site_file: Path, text: str, table: dict, slug: str, title: str, subtitle: str,
                neighbour: str | None, before: bool) -> tuple[str, str]:
    """site.toml's text with a [[series]] (or [[extra]]) table for `slug` inserted, and
    where it went, in words. Only the new table's lines are added: every other line
    stays as the author wrote it."""
    lines = text.split("\n")
    tables = tables_of(lines)  # (name, first line, last line) of every [table] and [[table]]
    if neighbour is not None:
        where = next(((i, t) for i, t in enumerate(tables) if t[0] in ("series", "extra")
                      and _slug_in(lines, t) == neighbour), None)
        if where is None:
            known = [e.get("slug") for e in table.get("series", []) + table.get("extra", []) if isinstance(e, dict)]
            raise GeneratorError(f"{site_file}: lists no {neighbour!r} to put {slug!r} "
                                 f"{'before' if before else 'after'} (it lists: {', '.join(known) or 'none'}); "
                                 "nothing was changed")
        index, (name, first, last) = where
        at = _leading_comments(lines, first) if before else last + 1
        comment, placed = [], f"{'before' if before else 'after'} {neighbour!r} in its {name}"
    else:
        name = "series"
        series = [t for t in tables if t[0] == "series"]
        if series:  # after the others: a place to confirm, which a comment says
            at = series[-1][2] + 1
            comment = [f"# {slug}: added by `new` at the end of the series; move this table to its place in "
                       "the reading order."]
            placed = "at the end of the series (a comment in it says so)"
        else:  # the first of the series: before the first table (and its comments), after the top-level keys
            at = _leading_comments(lines, tables[0][1]) if tables else len(lines)
            comment, placed = [], "as the first of the series"
    entry = [f"[[{name}]]", f"slug = {_quoted(slug)}", f"title = {_quoted(title)}"]
    if subtitle:
        entry.append(f"subtitle = {_quoted(subtitle)}")
    block = comment + entry
    # A blank line between tables, as the file writes them.
    head, tail = lines[:at], lines[at:]
    while head and not head[-1].strip() and (not tail or not tail[0].strip()):
        tail.insert(0, head.pop())
    block = ([""] if head and head[-1].strip() else []) + block + ([""] if tail and tail[0].strip() else [])
    if not tail:
        block.append("")
    new_text = "\n".join(head + block + tail)
    _check_entry(site_file, text, new_text, name, slug)
    return new_text, placed


def _slug_in(lines: list[str], table: tuple[str, int, int]) -> str | None:
    for line in lines[table[1] + 1:table[2] + 1]:
        match = re.match(r"""\s*slug\s*=\s*["']([^"']*)["']""", line)
        if match:
            return match.group(1)
    return None


def _leading_comments(lines: list[str], header: int) -> int:
    """The first line of the comments just above a table's header (they belong to it)."""
    at = header
    while at > 0 and lines[at - 1].lstrip().startswith("#"):
        at -= 1
    return at


def _quoted(value: str) -> str:
    return '"' + _escaped(value) + '"'


def _check_entry(site_file: Path, old_text: str, new_text: str, name: str, slug: str) -> None:
    """The new text must parse to the old tables with one more entry, for `slug`: else
    (series written as an inline list, a multi-line string that looks like a header...)
    nothing is changed and the author adds it by hand."""
    try:
        old, new = tomllib.loads(old_text), tomllib.loads(new_text)
    except tomllib.TOMLDecodeError:
        new = None
    entries = new.get(name, []) if isinstance(new, dict) else []
    same = isinstance(new, dict) and isinstance(entries, list) and [
        e for e in entries if not (isinstance(e, dict) and e.get("slug") == slug)] == old.get(name, []) \
        and {k: v for k, v in new.items() if k != name} == {k: v for k, v in old.items() if k != name}
    if not same or sum(1 for e in entries if isinstance(e, dict) and e.get("slug") == slug) != 1:
        raise GeneratorError(f"{site_file}: cannot add {slug!r} to the {name} by inserting a [[{name}]] table "
                             f"(is {name} written as an inline list?); add it by hand (nothing was changed)")


def _write_folder(folder: Path, replacements: dict[str, str]) -> list[Path]:
    """Write the starter into a hidden folder beside the target, then rename it
    into place, so a failure never leaves half an explainer behind."""
    temp = folder.parent / f".{folder.name}.new-{os.getpid()}"
    written = []
    try:
        for source in sorted(STARTER.rglob("*")):
            if source.is_dir() or "__pycache__" in source.parts or source.name == STARTER_BIBLIOGRAPHY:
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
