"""Static files a build ships: the theme's CSS and runtime, and plotly.js.

plotly.js is shipped as the partial "basic" bundle that package.json pins: it
holds the scatter and bar traces, which is all the chart kinds draw (their
marks are layout shapes and pictures over those traces, and a colour bar rides
on a scatter trace), at about a quarter of the full bundle's size. In this
repository's checkout it is the one `npm ci` (which the Makefile runs) puts in
node_modules/; installed, the copy inside the package (resources.py). Without
either, the full bundle inside the plotly Python package is the fallback.
Either way the file is found on disk without importing plotly (importing it
costs more than the rest of the build).
"""
from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path

import rcssmin
import rjsmin

from ..errors import BuildError
from ..render.theme import Theme
from ..resources import plotly_bundle

PLOTLY_NAME = "plotly.min.js"  # the name under build/assets/, whichever bundle it holds
PARTIAL_BUNDLE = Path("plotly.js-basic-dist-min") / "plotly-basic.min.js"


def find_plotly_js(node_modules: Path | None = None) -> Path:
    """The partial bundle (from `node_modules` when given, else resources.plotly_bundle()),
    or the plotly package's full one when there is none."""
    if node_modules is not None:
        partial = node_modules / PARTIAL_BUNDLE
        return partial if partial.is_file() else full_plotly_js()
    bundle = plotly_bundle()
    return bundle.path if bundle else full_plotly_js()


def full_plotly_js() -> Path:
    spec = importlib.util.find_spec("plotly")
    if spec is None or not spec.submodule_search_locations:
        raise BuildError("plotly.js not found: neither node_modules/ (npm ci) nor the plotly package "
                         "is installed; run 'make build'")
    path = Path(list(spec.submodule_search_locations)[0]) / "package_data" / PLOTLY_NAME
    if not path.is_file():
        raise BuildError(f"plotly is installed but {path} is missing; reinstall it")
    return path


def collect_assets(theme: Theme) -> dict[str, Path]:
    """Name under build/assets/ -> source file."""
    files = theme.static_files()
    files[PLOTLY_NAME] = find_plotly_js()
    return files


def shipped(files: dict[str, Path], memo: dict | None = None) -> dict[str, bytes | Path]:
    """What build/assets/ holds for each file: the theme's scripts and stylesheets
    without their comments and spaces (rjsmin, rcssmin: the comments that explain the
    runtime are a third of its bytes, and every page downloads them), every other
    file (plotly.js, already minified; pictures) as it is. `memo` (a build cache
    table) keeps the result of an unchanged file by its size and modification time."""
    out: dict[str, bytes | Path] = {}
    for name, path in files.items():
        minify = _MINIFIERS.get(path.suffix) if name != PLOTLY_NAME else None
        if minify is None:
            out[name] = path
            continue
        stat = path.stat()
        key = ("minified", str(path), stat.st_size, stat.st_mtime_ns)
        if memo is None or key not in memo:
            text = minify(path.read_text("utf-8")).strip() + "\n"
            if memo is None:
                out[name] = text.encode("utf-8")
                continue
            memo[key] = text.encode("utf-8")
        out[name] = memo[key]
    return out


_MINIFIERS = {".js": rjsmin.jsmin, ".css": rcssmin.cssmin}


def versioned_names(files: dict[str, Path], memo: dict | None = None) -> dict[str, str]:
    """name -> 'name?v=<hash>': browsers and CDNs refetch a file when it changes,
    and the query string is harmless on file://. `memo` (a build cache table)
    remembers the hash of an unchanged file by its size and modification time:
    hashing plotly.js (1.4 to 4.8 MB) on every rebuild is measurable."""
    return {name: f"{name}?v={_digest(path, memo)}" for name, path in files.items()}


def _digest(path: Path, memo: dict | None) -> str:
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if memo is None or key not in memo:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:10]
        if memo is None:
            return digest
        memo[key] = digest
    return memo[key]
