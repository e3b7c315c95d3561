"""Where the packaged files are: in this checkout, the top-level themes/ and the
plotly.js bundle built from the plotly.js that package.json pins (installed from
the wheel, the package's own copies: tests/generator/test_packaging.py)."""
import json

from generator import resources
from generator.resources import BUILT_PLOTLY, Bundle, plotly_bundle

from tests.conftest import ROOT, THEMES, write_files


def test_in_the_checkout_the_packaged_files_are_the_repositorys():
    assert resources.CHECKOUT == ROOT and resources.THEMES_DIR == THEMES
    manifest = json.loads((ROOT / "package.json").read_text())
    bundle = plotly_bundle()
    assert bundle.folder == ROOT / BUILT_PLOTLY
    assert bundle.version == manifest["dependencies"]["plotly.js"], "the version package.json pins"
    assert bundle.path.is_file() and bundle.describe().startswith(f"plotly.js {bundle.version} ")


def test_a_bundle_is_read_from_its_npm_folder(tmp_path):
    folder = write_files(tmp_path / "pkg", {"package.json": '{"name": "plotly.js-x", "version": "9.1.0", '
                                                             '"license": "MIT", "main": "dist/x.min.js"}'})
    assert Bundle.read(folder) is None, "no file: not a bundle"
    write_files(folder, {"dist/x.min.js": "/* x */"})
    assert Bundle.read(folder) == Bundle(folder, "plotly.js-x", "9.1.0", "MIT", "dist/x.min.js")
    assert Bundle.read(tmp_path / "missing") is None
