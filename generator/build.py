"""build(): the list of its stages. Everything is read and checked before
anything is written, and build/ is replaced only once the new one is complete."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .assets import collect_assets, versioned_names
from .content import Site, load_site
from .errors import Problem
from .pages import render_pages
from .prose import render_prose
from .seo import site_files
from .states import compute_site
from .theme import load_theme
from .writer import write_site


@dataclass
class BuildResult:
    site: Site
    files: dict[str, bytes | Path]
    warnings: list[Problem]


def build(content_dir: Path, out_dir: Path | None, themes_dir: Path, theme: str | None = None) -> BuildResult:
    site = load_site(content_dir)                                     # 1. load and validate
    chosen = load_theme(themes_dir, theme or site.config.theme, site.config.path)
    computed = compute_site(site)                                     # 2. compute every state
    prose = render_prose(site, computed)                              # 3. prose of every state
    assets = collect_assets(chosen)
    pages = render_pages(site, computed, prose, chosen, versioned_names(assets))  # 4. pages
    files: dict[str, bytes | Path] = {f"assets/{name}": path for name, path in assets.items()}
    files.update({page.path: page.html.encode("utf-8") for page in pages})
    files.update(site_files(site, pages))                             # 5. sitemap.xml, robots.txt
    files[".nojekyll"] = b""  # GitHub Pages: serve the files as they are, no Jekyll pass
    if out_dir is not None:
        write_site(out_dir, files)                                    # 6. write, atomically
    return BuildResult(site, files, site.warnings)
