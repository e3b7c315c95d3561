"""Static files a build ships: the theme's CSS and runtime, and plotly.js.

plotly.js is shipped as the partial "cartesian" bundle that package.json pins:
it holds the heatmap and bar traces the chart kinds draw, at about a third of
the full bundle's size. In this repository's checkout it is the one `npm ci`
(which the Makefile runs) puts in node_modules/; installed, the copy inside the
package (resources.py). Without either, the full bundle inside the plotly
Python package is the fallback. Either way the file is found on disk without
importing plotly (importing it costs more than the rest of the build).
"""
from __future__ import annotations

import hashlib
import importlib.util
import re
from pathlib import Path

from ..errors import BuildError
from ..render.theme import Theme
from ..resources import plotly_bundle

PLOTLY_NAME = "plotly.min.js"  # the name under build/assets/, whichever bundle it holds
PARTIAL_BUNDLE = Path("plotly.js-cartesian-dist-min") / "plotly-cartesian.min.js"


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


def served(path: Path, memo: dict | None = None) -> bytes | Path:
    """What the build ships of a static file: a style sheet without its comments,
    which are for the theme's authors and a quarter of its gzipped bytes (every page
    loads the style sheet: the pages' own-bytes budget counts it), anything else as it
    is. `memo` (a build cache table) keeps a sheet by its size and modification time."""
    if path.suffix != ".css":
        return path
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns)
    if memo is not None and key in memo:
        return memo[key]
    text = css_without_comments(path.read_text("utf-8")).encode("utf-8")
    if memo is not None:
        memo[key] = text
    return text


# A string (kept as written), or a comment (closed, or open to the end of the sheet).
_CSS_PART = re.compile(r""""(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|/\*.*?(?:\*/|\Z)""", re.S)
_JOINS = set(" \t\n{};:,>+~()[]")


def css_without_comments(css: str) -> str:
    """A style sheet with its comments removed and the lines they leave empty; strings
    (a content: "/* */") are kept. A comment wedged between two words is kept too:
    whether it stands for nothing (.a/**/.b) or for a space (1px/**/solid) depends on
    where it is."""
    def part(match: re.Match) -> str:
        text = match.group(0)
        if not text.startswith("/*"):
            return text
        before = css[match.start() - 1] if match.start() else " "
        after = css[match.end()] if match.end() < len(css) else " "
        return "" if before in _JOINS or after in _JOINS else text

    lines = (line.rstrip() for line in _CSS_PART.sub(part, css).split("\n"))
    return "\n".join(line for line in lines if line) + "\n"
