"""Static files a build ships: the theme's CSS and runtime, and plotly.js.

plotly.js is shipped as a partial bundle built from the plotly.js that
package.json pins (plotly-bundle/): its core, the scatter and bar traces and the
components the chart kinds use, which is all they draw (their marks are layout
shapes and pictures over scatter traces, and a colour bar rides on a scatter
trace), at about a fifth of the full bundle's size. In this repository's checkout
it is the one plotly-bundle/bundle.js builds (the Makefile runs it after npm ci);
installed, the copy inside the package (resources.py). Without either, the build
stops with one line saying how to make it.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import rcssmin
import rjsmin

from ..errors import BuildError
from ..render.theme import Theme
from ..resources import plotly_bundle

PLOTLY_NAME = "plotly.min.js"  # the name under build/assets/, whichever bundle it holds


def find_plotly_js() -> Path:
    """The partial bundle the pages load: resources.plotly_bundle() (a checkout's
    plotly-bundle/dist/, or the installed package's copy). There is no other plotly.js
    to fall back on: the chart kinds are written for this bundle's version, and a full
    bundle would break the first-view budget."""
    bundle = plotly_bundle()
    if bundle is None:
        raise BuildError("plotly.js not found: plotly-bundle/dist/ has no partial bundle; run 'npm ci' and "
                         "'node plotly-bundle/bundle.js' (make build does both)")
    return bundle.path


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
