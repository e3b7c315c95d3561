"""Where everything sits in build/, and the one object that turns those build
paths into the links of a page. Every link is relative to the page it is on
and names an explicit index.html, so one build works at a domain root, under a
subpath, and straight from disk (file:// resolves no directory URLs)."""
from __future__ import annotations

# The names at the build's root are the site's (site.py), since load checks slugs against them.
from ..site import (ASSETS_DIR, EMBED_DIR, FIGURES_DIR, INDEX, NO_JEKYLL, NOT_FOUND, OFFLINE_DIR,  # noqa: F401
                    ROBOTS, ROOT_FOLDERS, ROOT_NAMES, SITEMAP)


def page_path(slug: str) -> str:
    return f"{slug}/index.html"


def embed_path(slug: str, part: int | None = None) -> str:
    """A page whole at embed/<slug>/index.html, one of its parts (a step) at embed/<slug>/step-<n>.html."""
    name = "index.html" if part is None else f"step-{part}.html"
    return f"{EMBED_DIR}/{slug}/{name}"


def offline_path(slug: str) -> str:
    return f"{OFFLINE_DIR}/{slug}.html"


def figures_path(slug: str, name: str = "index.html") -> str:
    """A page's figures: the page that shows them at figures/<slug>/index.html, and each file beside it."""
    return f"{FIGURES_DIR}/{slug}/{name}"


class Urls:
    """The links of the page at build path `at` (e.g. "embed/x/step-1.html")."""

    def __init__(self, at: str, base_url: str = "", assets: dict[str, str] | None = None):
        self.at = at
        self.root = "../" * at.count("/")
        self.base_url = base_url
        self._assets = assets or {}

    def to(self, path: str) -> str:
        """A relative link from this page to the build path `path`."""
        return self.root + path

    def page(self, slug: str) -> str:
        return self.to(page_path(slug))

    def embed(self, slug: str, part: int | None = None) -> str:
        return self.to(embed_path(slug, part))

    def offline(self, slug: str) -> str:
        return self.to(offline_path(slug))

    def figures(self, slug: str) -> str:
        return self.to(figures_path(slug))

    def home(self) -> str:
        return self.to(INDEX)

    def asset(self, name: str) -> str:
        """A file of the theme (or plotly.js), by its versioned name ("runtime.js?v=…")."""
        return self.to(f"{ASSETS_DIR}/{self._assets[name]}")

    def published(self, path: str) -> str | None:
        """The absolute address of a build path once published, when the site has a base_url."""
        return f"{self.base_url}{path}" if self.base_url else None
