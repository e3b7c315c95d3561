"""Static files a build ships: the theme's CSS and runtime, and plotly.js.

plotly.js is found on disk without importing the plotly Python package
(importing it costs more than the rest of the build).
"""
from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path

from .errors import BuildError
from .theme import Theme

PLOTLY_NAME = "plotly.min.js"


def find_plotly_js() -> Path:
    spec = importlib.util.find_spec("plotly")
    if spec is None or not spec.submodule_search_locations:
        raise BuildError("plotly is not installed: run 'make build' (or pip install -r requirements.txt)")
    path = Path(list(spec.submodule_search_locations)[0]) / "package_data" / PLOTLY_NAME
    if not path.is_file():
        raise BuildError(f"plotly is installed but {path} is missing; reinstall it")
    return path


def collect_assets(theme: Theme) -> dict[str, Path]:
    """Name under build/assets/ -> source file."""
    files = theme.static_files()
    files[PLOTLY_NAME] = find_plotly_js()
    return files


def versioned_names(files: dict[str, Path]) -> dict[str, str]:
    """name -> 'name?v=<hash>': browsers and CDNs refetch a file when it changes,
    and the query string is harmless on file://."""
    return {name: f"{name}?v={hashlib.sha256(path.read_bytes()).hexdigest()[:10]}"
            for name, path in files.items()}
