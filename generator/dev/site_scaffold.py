"""`init [FOLDER]`: start a site from generator/dev/site_starter/: content/site.toml
with a series of one explainer (the one `new` writes), a .gitignore,
requirements.txt naming this version of lensa, a GitHub Pages workflow that
installs it, and a README on previewing, adding an explainer and publishing.

A folder that is not empty is refused unless forced, and even then no file is
ever overwritten: each is created only if it does not exist (kept otherwise),
and a content/ that already has a site.toml is left alone entirely.
"""
from __future__ import annotations

import datetime as _dt
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import GeneratorError, display_path
from ..load.content import SITE_FILE
from .scaffold import scaffold

SITE_STARTER = Path(__file__).resolve().parent / "site_starter"
# Stored without their leading dot, so that in this repository they are not this
# folder's own .gitignore, nor a workflow folder.
_DOTTED = {"gitignore": ".gitignore", "github": ".github"}
FIRST_EXPLAINER = ("softmax-temperature", "How Temperature Shapes a Softmax")  # what the starter explains


@dataclass
class StartedSite:
    folder: Path
    written: list[Path] = field(default_factory=list)
    kept: list[Path] = field(default_factory=list)     # already there (--force): left as they were

    def report(self, base: Path, command: str = "lensa") -> list[str]:
        shown = display_path(self.folder, base)
        lines = [f"Started a site in {shown}/ with:" if self.written else f"{shown}/ already has every file of a site."]
        lines += [f"  {display_path(path, base)}" for path in self.written]
        lines += [f"  {display_path(path, base)}: already there, kept as it was" for path in self.kept]
        here = self.folder.resolve() == base.resolve()
        enter = "" if here else f"cd {_quoted(shown)} && "
        steps = [(f"{enter}{command} serve", "preview it on http://127.0.0.1:8000, rebuilt as you edit"),
                 (f"{command} new my-topic", "start an explainer of your own"),
                 (f"{command} build", "build the site into build/ (README.md: publishing it on GitHub Pages)")]
        width = max(len(run) for run, _ in steps)
        return lines + ["Next:"] + [f"  {run.ljust(width)}   {what}" for run, what in steps]


def init_site(folder: Path, title: str | None = None, *, force: bool = False, version: str,
              today: _dt.date | None = None) -> StartedSite:
    """Write a new site's files into `folder`, made if missing."""
    shown = display_path(folder, Path.cwd())
    if folder.exists() and not folder.is_dir():
        raise GeneratorError(f"{shown}: is a file, not a folder: choose another place for the site "
                             "(nothing was changed)")
    if folder.is_dir() and not force:
        # Hidden entries (a fresh clone's .git) do not count: only what an author made.
        present = sorted(path.name for path in folder.iterdir() if not path.name.startswith("."))
        if present:
            named = ", ".join(present[:3]) + (", …" if len(present) > 3 else "")
            raise GeneratorError(f"{shown}: is not empty ({named}): start the site in an empty folder, or add "
                                 "--force to add its files beside these, keeping every one (nothing was changed)")
    name = folder.resolve().name
    title = title or " ".join(word.capitalize() for word in name.replace("_", "-").split("-") if word) or "My Explainers"
    started = StartedSite(folder)
    made_folder = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        content = folder / "content"
        has_site = (content / SITE_FILE).exists()
        for source in sorted(SITE_STARTER.rglob("*")):
            if source.is_dir() or "__pycache__" in source.parts:
                continue
            relative = source.relative_to(SITE_STARTER)
            if relative.parts[0] == "content" and has_site:
                continue  # an existing site's content is the author's: not a file of it is touched
            target = folder.joinpath(_DOTTED.get(relative.parts[0], relative.parts[0]), *relative.parts[1:])
            # In TOML the title is a quoted string; in the README, plain text.
            shown_title = _escaped(title) if source.suffix == ".toml" else title
            text = source.read_text("utf-8").replace("__TITLE__", shown_title).replace("__VERSION__", version)
            _write_new(target, text, started)
        if has_site:
            started.kept.append(content / SITE_FILE)
        elif not (content / FIRST_EXPLAINER[0]).exists():
            explainer = scaffold(content, *FIRST_EXPLAINER, today=today)
            started.written += explainer.files + ([explainer.bibliography] if explainer.bibliography else [])
    except (OSError, GeneratorError) as err:
        _undo(started, folder if made_folder else None)
        if isinstance(err, GeneratorError):
            raise
        raise GeneratorError(f"{shown}: cannot write the site's files ({err.strerror or err}); "
                             "nothing was changed") from None
    return started


def _write_new(target: Path, text: str, started: StartedSite) -> None:
    """Create the file, or keep the one already there: never overwrite."""
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        with target.open("x", encoding="utf-8") as handle:  # "x": fails rather than replace a file
            handle.write(text)
    except FileExistsError:
        started.kept.append(target)
        return
    started.written.append(target)


def _undo(started: StartedSite, made_folder: Path | None) -> None:
    """Remove what this run wrote, so a failure leaves the folder as it was."""
    if made_folder is not None:
        shutil.rmtree(made_folder, ignore_errors=True)
        return
    for path in reversed(started.written):
        path.unlink(missing_ok=True)
        for parent in path.parents:
            if parent == started.folder or not parent.is_dir() or any(parent.iterdir()):
                break
            parent.rmdir()


def _escaped(title: str) -> str:
    """The title inside a TOML string."""
    return title.replace("\\", "\\\\").replace('"', '\\"')


def _quoted(path: str) -> str:
    return path if all(c.isalnum() or c in "-_./" for c in path) else "'" + path.replace("'", "'\\''") + "'"
