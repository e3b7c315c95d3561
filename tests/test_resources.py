"""Where the packaged files are: in this checkout, the top-level themes/ and the
plotly.js bundle that package.json names, as npm ci installed it (installed from
the wheel, the package's own copies: tests/test_packaging.py)."""
import json

import pytest

from generator import resources
from generator.resources import Bundle, bundle_dependency, plotly_bundle

from .conftest import ROOT, THEMES, write_files


def test_in_the_checkout_the_packaged_files_are_the_repositorys():
    assert resources.CHECKOUT == ROOT and resources.THEMES_DIR == THEMES
    manifest = json.loads((ROOT / "package.json").read_text())
    bundle = plotly_bundle()
    assert bundle.name in manifest["dependencies"] and bundle.folder == ROOT / "node_modules" / bundle.name
    assert bundle.version == manifest["dependencies"][bundle.name], "the version package.json pins"
    assert bundle.path.is_file() and bundle.describe().startswith(f"plotly.js {bundle.version} ")


def test_a_bundle_is_read_from_its_npm_folder(tmp_path):
    folder = write_files(tmp_path / "pkg", {"package.json": '{"name": "plotly.js-x", "version": "9.1.0", '
                                                             '"license": "MIT", "main": "dist/x.min.js"}'})
    assert Bundle.read(folder) is None, "no file: not a bundle"
    write_files(folder, {"dist/x.min.js": "/* x */"})
    assert Bundle.read(folder) == Bundle(folder, "plotly.js-x", "9.1.0", "MIT", "dist/x.min.js")
    assert Bundle.read(tmp_path / "missing") is None


@pytest.mark.parametrize("dependencies, found", [
    ({"plotly.js-basic-dist-min": "4.0.0"}, "plotly.js-basic-dist-min"),
    ({}, None),
    ({"plotly.js-a": "1", "plotly.js-b": "1"}, None),
])
def test_the_bundle_is_the_one_plotly_js_dependency(tmp_path, dependencies, found):
    write_files(tmp_path, {"package.json": json.dumps({"dependencies": dependencies,
                                                       "devDependencies": {"axe-core": "4"}})})
    if found:
        assert bundle_dependency(tmp_path) == found
    else:
        with pytest.raises(ValueError, match="expected one plotly.js package in dependencies"):
            bundle_dependency(tmp_path)
