"""Where the files the package ships besides its code are: the themes, and the
partial plotly.js bundle with its version and licence.

Installed from a wheel, they are inside the package (lensa/themes/,
lensa/vendor/plotly/). In this repository's checkout, where generator/ is the
package's code, they are the top-level themes/ and the bundle that
plotly-bundle/bundle.js builds into plotly-bundle/dist/ from the plotly.js source
npm ci installs; pyproject.toml maps themes/ into the package, and setup.py copies
the bundle in when a wheel or sdist is built (docs/architecture.md says why).

Standard library only: setup.py runs this file on its own, before the package
or its dependencies are installed.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
VENDORED_PLOTLY = PACKAGE_DIR / "vendor" / "plotly"   # the bundle's folder, as the wheel carries it
BUILT_PLOTLY = Path("plotly-bundle") / "dist"          # in a checkout: what plotly-bundle/bundle.js builds
PACKAGE_JSON = "package.json"


def _checkout() -> Path | None:
    """The repository around the package, when it runs from this repository's
    generator/ folder (python -m generator, or an editable install)."""
    root = PACKAGE_DIR.parent
    return root if PACKAGE_DIR.name == "generator" and (root / "pyproject.toml").is_file() else None


CHECKOUT = _checkout()
# The packaged themes: inside the installed package, else the checkout's themes/.
THEMES_DIR = PACKAGE_DIR / "themes" if CHECKOUT is None else CHECKOUT / "themes"
# The guides for authors (`lensa docs`): inside the installed package, else the checkout's docs/.
DOCS_DIR = PACKAGE_DIR / "docs" if CHECKOUT is None else CHECKOUT / "docs"
# The guides the package ships, by the name `lensa docs` takes; authoring first, the one for every field.
GUIDES = ("authoring", "embedding", "lms", "figures", "deep-links")


@dataclass(frozen=True)
class Bundle:
    """A bundle of plotly.js: its folder and what the package.json beside it records."""
    folder: Path
    name: str
    version: str
    licence: str
    main: str          # the file the pages load, relative to the folder

    @property
    def path(self) -> Path:
        return self.folder / self.main

    def describe(self) -> str:
        return f"plotly.js {self.version} ({self.name}, {self.licence} licence)"

    @classmethod
    def read(cls, folder: Path) -> Bundle | None:
        """The bundle in `folder`, or None when it is not there (or not whole)."""
        try:
            manifest = json.loads((folder / PACKAGE_JSON).read_text("utf-8"))
        except (OSError, ValueError):
            return None
        bundle = cls(folder, manifest.get("name", "?"), manifest.get("version", "?"),
                     manifest.get("license", "?"), manifest.get("main", ""))
        return bundle if bundle.main and bundle.path.is_file() else None


def plotly_bundle() -> Bundle | None:
    """The partial bundle the pages load: in a checkout, the one built from the
    plotly.js that package.json pins (make rebuilds it when that changes); installed,
    the package's copy."""
    return Bundle.read(VENDORED_PLOTLY if CHECKOUT is None else CHECKOUT / BUILT_PLOTLY)
