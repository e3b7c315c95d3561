"""Themes: a folder of Jinja templates and static files under themes/<name>/.

A theme may extend another (`extends = "default"` in its theme.toml) and
override only the files it changes; lookups walk the chain, child first.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import jinja2

from .errors import ContentError
from .templating import make_env

TEMPLATES_DIR = "templates"
STATIC_DIR = "static"


@dataclass
class Theme:
    name: str
    chain: list[Path]  # theme folders, the selected theme first
    env: jinja2.Environment

    def static_files(self) -> dict[str, Path]:
        """Relative name -> file; a child theme's file hides its parent's."""
        files: dict[str, Path] = {}
        for folder in reversed(self.chain):
            static = folder / STATIC_DIR
            if static.is_dir():
                for path in sorted(static.rglob("*")):
                    if path.is_file():
                        files[path.relative_to(static).as_posix()] = path
        return files

    def static_text(self, name: str) -> str:
        path = self.static_files().get(name)
        return path.read_text("utf-8") if path else ""

    def render(self, template: str, **context) -> str:
        return self.env.get_template(template).render(**context)


def load_theme(themes_dir: Path, name: str, config_path: Path) -> Theme:
    chain, seen = [], set()
    current = name
    while current:
        folder = themes_dir / current
        if not folder.is_dir():
            available = ", ".join(sorted(p.name for p in themes_dir.iterdir() if p.is_dir())) \
                if themes_dir.is_dir() else "none"
            source = config_path if current == name else chain[-1] / "theme.toml"
            raise ContentError.one(source, f"theme {current!r} does not exist in {themes_dir} "
                                   f"(available: {available})", field="theme" if current == name else "extends")
        if current in seen:
            raise ContentError.one(folder / "theme.toml", f"themes extend each other in a loop ({current!r})")
        seen.add(current)
        chain.append(folder)
        current = _parent(folder)
    env = make_env(autoescape=True, search_path=[folder / TEMPLATES_DIR for folder in chain])
    return Theme(name=name, chain=chain, env=env)


def _parent(folder: Path) -> str | None:
    manifest = folder / "theme.toml"
    if not manifest.exists():
        return None
    try:
        return tomllib.loads(manifest.read_text("utf-8")).get("extends")
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise ContentError.one(manifest, f"invalid theme manifest: {err}") from None
