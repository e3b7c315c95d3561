"""Themes: a folder of Jinja templates and static files under themes/<name>/.

A theme is looked up in the site's own themes/ folder first, then among the
themes the package ships (default and course): a theme found in both places is
the site's. A theme may extend another (`extends = "default"` in its theme.toml) and
override only the files it changes; lookups walk the chain, child first.
A template can extend the one it replaces as "@<theme>/<name>.html", and a
theme's `stylesheets` are linked after its parent's, so a child theme can
restyle by adding a few rules instead of copying the whole stylesheet.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from ..errors import ContentError, display_path
from ..resources import THEMES_DIR as PACKAGED_THEMES
from .templating import make_env

TEMPLATES_DIR = "templates"
STATIC_DIR = "static"
_MANIFEST_KEYS = {"extends", "stylesheets", "description"}


@dataclass
class Theme:
    name: str
    chain: list[Path]  # theme folders, the selected theme first
    env: jinja2.Environment
    stylesheets: list[str] = field(default_factory=list)  # static names, linked in this order

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

    def stylesheet_text(self) -> str:
        """Every stylesheet in order, for a page that must inline its CSS."""
        return "\n".join(self.static_text(name) for name in self.stylesheets)

    def render(self, template: str, **context) -> str:
        try:
            return self.env.get_template(template).render(**context)
        except jinja2.TemplateSyntaxError as err:
            # A theme's own mistake: name its file and line, as for any content file. The
            # error may come from a template this one includes or extends.
            where = Path(err.filename) if err.filename else self.chain[0] / TEMPLATES_DIR / (err.name or template)
            raise ContentError.one(where, f"template syntax error: {err.message}", line=err.lineno) from None


def theme_roots(themes_dir: Path) -> list[Path]:
    """Where themes are looked up, in order: the site's own folder, then the packaged themes."""
    roots = [themes_dir]
    if PACKAGED_THEMES.is_dir() and not (themes_dir.is_dir() and themes_dir.samefile(PACKAGED_THEMES)):
        roots.append(PACKAGED_THEMES)
    return roots


def find_theme(themes_dir: Path, name: str) -> Path | None:
    """The folder of the theme called `name`: the site's own if it has one, else the package's."""
    return next((root / name for root in theme_roots(themes_dir) if (root / name).is_dir()), None)


def load_theme(themes_dir: Path, name: str, config_path: Path, cache=None) -> Theme:
    """The theme and the themes it extends; `cache` (a BuildCache) keeps its compiled templates in memory."""
    chain, seen, manifests = [], set(), []
    current = name
    while current:
        folder = find_theme(themes_dir, current)
        if folder is None:
            available = ", ".join(sorted({p.name for root in theme_roots(themes_dir) if root.is_dir()
                                          for p in root.iterdir() if p.is_dir()})) or "none"
            source = config_path if current == name else chain[-1] / "theme.toml"
            raise ContentError.one(source, f"theme {current!r} does not exist in "
                                   f"{display_path(themes_dir, Path.cwd())}/ or among the "
                                   f"packaged themes (available: {available})",
                                   field="theme" if current == name else "extends")
        if current in seen:
            raise ContentError.one(folder / "theme.toml", f"themes extend each other in a loop ({current!r})")
        seen.add(current)
        chain.append(folder)
        manifests.append(_manifest(folder))
        current = manifests[-1].get("extends")
    env = make_env(autoescape=True, search_path=[folder / TEMPLATES_DIR for folder in chain],
                   named={folder.name: folder / TEMPLATES_DIR for folder in chain},
                   memory=cache.memo("templates") if cache else None)
    stylesheets: list[str] = []
    for folder, manifest in zip(reversed(chain), reversed(manifests)):
        for sheet in manifest.get("stylesheets", []):
            if sheet not in stylesheets:
                stylesheets.append(sheet)
    env.globals["stylesheets"] = stylesheets
    theme = Theme(name=name, chain=chain, env=env, stylesheets=stylesheets)
    missing = [sheet for sheet in stylesheets if sheet not in theme.static_files()]
    if missing:
        raise ContentError.one(chain[0] / "theme.toml", f"stylesheet {missing[0]!r} is not in any "
                               f"theme's {STATIC_DIR}/ folder", field="stylesheets")
    return theme


def _manifest(folder: Path) -> dict:
    """theme.toml: `extends` (the parent theme) and `stylesheets` (this theme's own, in order)."""
    path = folder / "theme.toml"
    if not path.exists():
        return {}
    try:
        manifest = tomllib.loads(path.read_text("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise ContentError.one(path, f"invalid theme manifest: {err}") from None
    unknown = sorted(set(manifest) - _MANIFEST_KEYS)
    if unknown:
        raise ContentError.one(path, f"unknown key {unknown[0]!r} (expected one of: "
                               f"{', '.join(sorted(_MANIFEST_KEYS))})", field=unknown[0])
    extends, sheets = manifest.get("extends"), manifest.get("stylesheets", [])
    if extends is not None and (not isinstance(extends, str) or not extends):
        raise ContentError.one(path, f"expected a theme name, found {extends!r}", field="extends")
    if not isinstance(sheets, list) or not all(isinstance(s, str) and s for s in sheets):
        raise ContentError.one(path, f"expected a list of file names, found {sheets!r}", field="stylesheets")
    return manifest
