"""build(): the list of its stages. Everything is read and checked before
anything is written, and build/ is replaced only once the new one is complete.
The stages know pages of any kind (kinds/) and call only their interface."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .cache.build import BuildCache
from .compute.states import compute_site
from .errors import Problem, StrictModeError
from .dev.leftovers import site_leftovers
from .kinds import discover
from .load.content import load_site
from .outputs.assets import collect_assets, shipped, versioned_names
from .outputs.offline import render_offline
from .outputs.writer import Outputs, check_output_folder, write_site
from .render.pages import render_pages
from .render.prose import render_prose
from .render.seo import site_files
from .render.theme import load_theme
from .render.urls import ASSETS_DIR, NO_JEKYLL
from .site import Site


@dataclass
class BuildResult:
    site: Site
    files: dict[str, bytes | Path]
    warnings: list[Problem]
    computed: dict[str, object]   # slug -> the page's states, as its kind computed them

    @property
    def state_count(self) -> int:
        return sum(self.site.kind_of(page).state_count(self.computed[page.slug]) for page in self.site.pages)


def build(content_dir: Path, out_dir: Path | None, themes_dir: Path, theme: str | None = None, *,
          strict: bool = False, warnings: list[Problem] | None = None,
          cache: BuildCache | None = None, kinds: dict | None = None) -> BuildResult:
    """Build the site; write it to out_dir unless that is None (a check).

    `warnings` collects the warnings (the caller reports and counts them); with
    `strict`, any warning fails the build before anything is written. `cache`
    lets the dev server reuse what an unchanged page computed last time. `kinds`
    (name -> PageKind) is the registry the stages reach a page's kind through
    (every kind under generator/kinds/ by default)."""
    cache = cache or BuildCache()
    cache.begin()
    if out_dir is not None:  # a folder that cannot be replaced is said before the work, not after
        check_output_folder(out_dir, protect=(content_dir, themes_dir))
    site = read_site(content_dir, warnings, kinds)                        # 1. load and validate
    chosen = load_theme(themes_dir, theme or site.config.theme, site.config.path, cache)
    computed = compute_site(site, cache=cache)                            # 2. compute every state
    prose = render_prose(site, computed, cache)                           # 3. text of every state
    assets = collect_assets(chosen)
    names = versioned_names(assets, cache.memo("digests", limit=256))
    pages = render_pages(site, computed, prose, chosen, names, cache)     # 4. pages, embeds
    shipped_assets = shipped(assets, cache.memo("minified", limit=64))
    files = Outputs()  # each path made once: two outputs at one path fail the build
    files.add_all({f"{ASSETS_DIR}/{name}": content for name, content in shipped_assets.items()}, "the theme")
    for page in pages:
        files.add(page.path, page.html.encode("utf-8"), f"page {page.source!r}" if page.source else "the site",
                  site.root / page.source if page.source else None)
    files.add_all(render_offline(site, pages, files, chosen, names, cache), "a single-file copy")
    files.add_all(site_files(site, pages), "the site")                   # 5. sitemap.xml, robots.txt
    files.add(NO_JEKYLL, b"", "the site")  # GitHub Pages: serve the files as they are, no Jekyll pass
    if strict and site.warnings:
        raise StrictModeError(site.warnings)
    if out_dir is not None:
        write_site(out_dir, files, protect=(content_dir, themes_dir))      # 6. write, atomically
    cache.store()                                                         #  computed states, for the next build
    return BuildResult(site, files, site.warnings, computed)


def read_site(content_dir: Path, warnings: list[Problem] | None = None, kinds: dict | None = None) -> Site:
    """Stage 1 as build() runs it: content/ read by the kinds of the registry (every kind
    under generator/kinds/ by default), then what the starter wrote that the author has
    left as it was (dev/leftovers.py: warnings, which --strict refuses)."""
    site = load_site(content_dir, discover() if kinds is None else kinds, warnings)
    site.warnings += site_leftovers(site)
    return site
