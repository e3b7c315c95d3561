"""The project installs as a package (pyproject.toml): into a fresh virtualenv,
`pip install` gives the `lensa` command, whose exit status is the command
line's and whose default folders are those of the current folder."""
import importlib.util
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from .conftest import FIXTURES, ROOT

TINY = FIXTURES / "tiny" / "content"


def _builds_wheels_offline() -> bool:
    """Whether this environment's setuptools can build the wheel with no build isolation
    (it builds wheels by itself from 70.1; before, it needs the wheel package)."""
    spec = importlib.util.find_spec("setuptools")
    if spec is None:
        return False
    import setuptools

    version = tuple(int(part) for part in setuptools.__version__.split(".")[:2])
    return version >= (70, 1) or importlib.util.find_spec("wheel") is not None


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    """A virtualenv with the package installed from a copy of the project's files
    (so that no build/ or *.egg-info appears in the checkout). It borrows the
    dependencies this environment already has through a .pth file, like
    --system-site-packages would, so nothing but the build backend is downloaded."""
    root = tmp_path_factory.mktemp("packaging")
    source = root / "source"
    shutil.copytree(ROOT / "generator", source / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copyfile(ROOT / name, source / name)
    folder = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    site_packages = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                   capture_output=True, text=True, check=True).stdout.strip()
    (root / "venv" / site_packages).joinpath("borrowed.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    isolation = ["--no-build-isolation"] if _builds_wheels_offline() else []  # else pip fetches setuptools
    done = subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-deps", "--disable-pip-version-check",
                           *isolation, str(source)], capture_output=True, text=True, cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    return folder


def lensa(venv, *args, cwd):
    return subprocess.run([venv / "bin" / "lensa", *map(str, args)], cwd=cwd, capture_output=True, text=True)


def test_the_package_has_its_code_and_data_files(venv, tmp_path):
    where = subprocess.run([venv / "bin" / "python", "-c", "import generator; print(generator.__file__)"],
                           cwd=tmp_path, capture_output=True, text=True, check=True).stdout.strip()
    package = Path(where).resolve().parent
    assert package.is_relative_to(venv.resolve()), "the installed copy, not the checkout"
    for name in ("dev/client.js", "dev/starter/explainer.md", "dev/starter/steps/01-temperature.md",
                 "render/charts/__init__.py", "outputs/offline.py"):
        assert (package / name).is_file(), name


def test_lensa_has_help(venv, tmp_path):
    result = lensa(venv, "--help", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: lensa ")
    for command in ("build", "serve", "new", "check", "dist"):
        assert command in result.stdout
    build_help = lensa(venv, "build", "--help", cwd=tmp_path)
    assert build_help.returncode == 0 and build_help.stdout.startswith("usage: lensa build")


def test_lensa_builds_the_fixture_site(venv, tmp_path):
    out = tmp_path / "out"
    result = lensa(venv, "build", "--content", TINY, "--themes", ROOT / "themes", "--out", out, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Built 6 pages (3 states)" in result.stdout
    for name in ("index.html", "coin-flips/index.html", "offline/coin-flips.html", "assets/plotly.min.js"):
        assert (out / name).is_file(), name


def test_lensa_defaults_to_the_current_folder(venv, tmp_path):
    shutil.copytree(TINY, tmp_path / "content")
    shutil.copytree(ROOT / "themes", tmp_path / "themes")
    made = lensa(venv, "new", "my-topic", cwd=tmp_path)  # from the starter the package carries
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "content" / "my-topic" / "explainer.md").is_file()
    result = lensa(venv, "build", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "into build in" in result.stdout and (tmp_path / "build" / "my-topic" / "index.html").is_file()


def test_lensa_fails_with_the_command_lines_exit_status(venv, tmp_path):
    result = lensa(venv, "check", "--content", tmp_path / "nope", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == "error: nope: does not exist: expected the content folder, with a site.toml"
    assert "Traceback" not in result.stderr
    assert lensa(venv, "build", "--no-such-option", cwd=tmp_path).returncode == 2
