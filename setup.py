"""What pyproject.toml cannot declare about the package.

- Its packages: generator/ installs as `lensa`, and themes/ as `lensa.themes`;
  every folder under them is found here, so a new subpackage, theme or starter
  file is in the wheel without being listed (the folders of templates and
  starters are data: every file in them is shipped).
- The guides for authors (docs/authoring.md and the guides it links to), which
  `lensa docs` prints: the wheel carries them under lensa/docs/.
- The partial plotly.js bundle built from the plotly.js that package.json pins
  (plotly-bundle/bundle.js, into plotly-bundle/dist/): the wheel and the sdist
  carry it with its package.json (name, version, licence) and licence file; it
  is built here first when npm ci has run but the bundle has not been built.
  docs/architecture.md says why it is copied, not committed.

An sdist holds the bundle at the same place (plotly-bundle/dist/), so a wheel
builds from it with no npm or Node. An editable install (make build) needs no
copy: it runs from the checkout, which finds plotly-bundle/dist/ itself.
"""
import runpy
import shutil
import subprocess
from pathlib import Path

from setuptools import find_namespace_packages, setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent
resources = runpy.run_path(str(HERE / "generator" / "resources.py"))  # stdlib only; the package is not installed yet
VENDORED = Path("lensa") / "vendor" / "plotly"   # inside the wheel; resources.VENDORED_PLOTLY reads it
GUIDES = [HERE / "docs" / f"{name}.md" for name in resources["GUIDES"]]  # into lensa/docs/: resources.DOCS_DIR


def _bundle():
    """The partial bundle in plotly-bundle/dist/, built first from the plotly.js npm ci
    installed when it is not there yet; a clear stop otherwise."""
    folder = HERE / resources["BUILT_PLOTLY"]
    bundle = resources["Bundle"].read(folder)
    if bundle is None and (HERE / "node_modules" / "plotly.js").is_dir():
        subprocess.run(["node", str(HERE / "plotly-bundle" / "bundle.js")], cwd=HERE, check=True)
        bundle = resources["Bundle"].read(folder)
    if bundle is None:
        raise SystemExit(f"error: {resources['BUILT_PLOTLY']}/ is missing or incomplete: run `npm ci` (or `make build`) "
                         "before building the package, so that it carries the partial plotly.js bundle")
    return bundle


def _bundle_files(bundle) -> list[Path]:
    licences = sorted(path for path in bundle.folder.iterdir() if path.name.upper().startswith(("LICENSE", "LICENCE")))
    return [bundle.folder / "package.json", bundle.path, *licences]


class BuildPy(build_py):
    def run(self):
        super().run()
        if self.editable_mode:
            return
        bundle = _bundle()
        for path in _bundle_files(bundle):
            target = Path(self.build_lib) / VENDORED / path.relative_to(bundle.folder)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
        for path in GUIDES:
            target = Path(self.build_lib) / "lensa" / "docs" / path.name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)


class Sdist(sdist):
    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        bundle = _bundle()
        for path in [*_bundle_files(bundle), *GUIDES]:
            target = Path(base_dir) / path.relative_to(HERE)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)


def _packages(folder: str, name: str) -> list[str]:
    found = find_namespace_packages(folder, exclude=["__pycache__", "*.__pycache__"])
    return [name] + [f"{name}.{package}" for package in found]


CODE = _packages("generator", "lensa")
DATA = [name for name in CODE if name.startswith(("lensa.dev.starter", "lensa.dev.site_starter"))] + \
    _packages("themes", "lensa.themes")

setup(
    package_dir={"lensa": "generator", "lensa.themes": "themes"},
    packages=CODE + _packages("themes", "lensa.themes"),
    package_data={"lensa.dev": ["client.js"], **{name: ["*"] for name in DATA}},
    cmdclass={"build_py": BuildPy, "sdist": Sdist},
)
