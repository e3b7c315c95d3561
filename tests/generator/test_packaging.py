"""The package stands alone: the sdist and the wheel, built with the pinned build
tools of requirements-dev.txt and no network, install into a fresh virtualenv as
`lensa`, and an author who has only that starts a site in an empty folder far
from this checkout (with no node_modules/ anywhere), builds it, adds an
explainer, and gets pages that work from disk and under a GitHub Pages subpath
with this repository's first view.

One wheel and one virtualenv for the session: the wheel is built from the sdist
(as `python -m build` does), so the sdist is shown to be complete too."""
from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

import generator
from generator.resources import BUILT_PLOTLY, Bundle

from tests.conftest import ROOT, write_files
from tests.hosting import PagesServer

# The wheel and its virtualenv are made once per worker: keep these tests on one (make test runs pytest -n auto --dist loadgroup).
pytestmark = pytest.mark.xdist_group("wheel")

VERSION = generator.__version__
BUNDLE = Bundle.read(ROOT / BUILT_PLOTLY)
STARTER_SLUG = "softmax-temperature"
FIRST_VIEW_BUDGET = 600 * 1024   # gzipped, docs: the standing budgets


@pytest.fixture(scope="session")
def dists(tmp_path_factory):
    """The sdist and the wheel, built from a copy of the checkout's files (those git keeps)
    and the plotly.js bundle built from node_modules/ (so nothing lands in the checkout)."""
    assert BUNDLE is not None, "plotly-bundle/dist/ is not built: run `make build` (make test does)"
    root = tmp_path_factory.mktemp("dists")
    source = root / "source"
    tracked = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                             capture_output=True, check=True).stdout
    for name in filter(None, tracked.decode().split("\0")):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    shutil.copytree(BUNDLE.folder, source / BUILT_PLOTLY)
    done = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(root / "dist"),
                           str(source)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    [sdist] = (root / "dist").glob("*.tar.gz")
    [wheel] = (root / "dist").glob("*.whl")
    return sdist, wheel


@pytest.fixture(scope="session")
def venv(dists, tmp_path_factory):
    """A fresh virtualenv with the wheel installed. Its dependencies, which pip would
    download, are linked in from this environment: exactly those the wheel's metadata
    names (and theirs), so a missing dependency fails here as it would for an author."""
    _, wheel = dists
    root = tmp_path_factory.mktemp("venv")
    folder = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    purelib = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                  capture_output=True, text=True, check=True).stdout.strip())
    dependencies = root / "dependencies"
    _link_distributions(_requirements(wheel), dependencies)
    (purelib / "dependencies.pth").write_text(f"{dependencies}\n")
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps",
                           "--no-index", "--disable-pip-version-check", str(wheel)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    return folder


def _requirements(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        metadata = archive.read(next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    return [line.split(":", 1)[1].strip() for line in metadata.splitlines() if line.startswith("Requires-Dist:")]


def _link_distributions(requirements: list[str], target: Path) -> None:
    """Link each required distribution's top-level files into `target`, with what they require."""
    target.mkdir()
    seen: set[str] = set()
    queue = [Requirement(line) for line in requirements]
    while queue:
        requirement = queue.pop()
        name = requirement.name.lower().replace("_", "-")
        if name in seen or (requirement.marker and not requirement.marker.evaluate({"extra": ""})):
            continue
        seen.add(name)
        distribution = importlib.metadata.distribution(name)
        queue += [Requirement(line) for line in distribution.requires or []]
        for top in sorted({Path(str(file)).parts[0] for file in distribution.files or []}):
            if top not in {"..", "__pycache__"} and not (target / top).exists():
                (target / top).symlink_to(Path(str(distribution.locate_file(top))).resolve())


def lensa(venv: Path, *args, cwd: Path, command: str = "lensa") -> subprocess.CompletedProcess:
    """The installed command, run as an author would: the venv first on PATH, nothing of the checkout."""
    run = [venv / "bin" / "lensa"] if command == "lensa" else [venv / "bin" / "python", "-m", "lensa"]
    return subprocess.run([*run, *map(str, args)], cwd=cwd, capture_output=True, text=True, env=_author_env(venv))


def _author_env(venv: Path) -> dict:
    """The author's environment: the virtualenv's commands alone on the PATH, so no Node.js
    (nor anything else of this machine) can be what makes a command work."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["PATH"] = str(venv / "bin")
    env["LENSA_CACHE_DIR"] = str(venv.parent / "cache")
    assert shutil.which("node", path=env["PATH"]) is None and shutil.which("npm", path=env["PATH"]) is None
    return env


def _away_from_the_checkout(folder: Path) -> Path:
    assert ROOT not in folder.resolve().parents and not any(
        (parent / "node_modules").exists() for parent in [folder, *folder.resolve().parents]), folder
    return folder


@pytest.fixture(scope="session")
def author_site(venv, tmp_path_factory):
    """The author's path: `lensa init`, `lensa build`, `lensa new second-topic`, and build again,
    in an empty folder; each command's result, and the site's folder."""
    folder = _away_from_the_checkout(tmp_path_factory.mktemp("author")) / "my-site"
    runs = {"init": lensa(venv, "init", "my-site", cwd=folder.parent)}
    assert runs["init"].returncode == 0, runs["init"].stderr
    runs["build"] = lensa(venv, "build", cwd=folder)
    assert runs["build"].returncode == 0, runs["build"].stderr
    runs["new"] = lensa(venv, "new", "second-topic", cwd=folder)
    assert runs["new"].returncode == 0, runs["new"].stderr
    runs["rebuild"] = lensa(venv, "build", cwd=folder)
    assert runs["rebuild"].returncode == 0, runs["rebuild"].stderr
    return folder, runs


def test_the_wheel_holds_the_package_and_nothing_else(dists):
    sdist, wheel = dists
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        vendored = json.loads(archive.read("lensa/vendor/plotly/package.json"))
        shipped = archive.read(f"lensa/vendor/plotly/{BUNDLE.main}")
    assert {name.split("/")[0] for name in names} == {"lensa", f"lensa_ml-{VERSION}.dist-info"}, "no top-level generator"
    expected = {f"lensa/{path.relative_to(ROOT / 'generator').as_posix()}" for path in (ROOT / "generator").rglob("*")
                if path.is_file() and "__pycache__" not in path.parts}
    expected |= {f"lensa/themes/{path.relative_to(ROOT / 'themes').as_posix()}" for path in (ROOT / "themes").rglob("*")
                 if path.is_file()}
    assert expected - names == set(), "every module, theme file and starter file of the checkout"
    # The partial bundle, with its version and licence recorded beside it.
    assert (vendored["name"], vendored["version"], vendored["license"]) == (BUNDLE.name, BUNDLE.version, BUNDLE.licence)
    assert shipped == BUNDLE.path.read_bytes() and "lensa/vendor/plotly/LICENSE" in names
    assert not any(line.startswith("plotly") for line in _requirements(wheel)), "the full plotly.js is not needed"
    with tarfile.open(sdist) as archive:
        members = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"pyproject.toml", "setup.py", "generator/cli.py", "themes/default/theme.toml",
            f"{BUILT_PLOTLY.as_posix()}/package.json", f"{BUILT_PLOTLY.as_posix()}/{BUNDLE.main}"} <= members


def test_the_installed_package_imports_as_lensa(venv, tmp_path):
    for command in ("lensa", "python"):
        done = lensa(venv, "--version", cwd=tmp_path, command=command)
        assert done.returncode == 0, done.stderr
        assert done.stdout == f"lensa {VERSION}, with {BUNDLE.describe()}\n"
    found = subprocess.run([venv / "bin" / "python", "-c", "import lensa, sys; print(lensa.__file__); import generator"],
                           cwd=tmp_path, capture_output=True, text=True, env=_author_env(venv))
    assert Path(found.stdout.strip()).is_relative_to(venv), "the installed copy, not the checkout"
    assert "No module named 'generator'" in found.stderr, "no module with a name as general as `generator`"
    helped = lensa(venv, "--help", cwd=tmp_path)
    assert helped.stdout.startswith("usage: lensa ")
    assert all(command in helped.stdout for command in ("init", "new", "serve", "check", "build", "dist"))


def test_init_build_new_build_in_an_empty_folder(author_site):
    folder, runs = author_site
    lines = runs["init"].stdout.splitlines()
    assert lines[0] == "Started a site in my-site/ with:"
    assert [line.split()[:3] for line in lines[-3:]] == [["cd", "my-site", "&&"], ["lensa", "new", "my-topic"],
                                                         ["lensa", "build", "build"]], "the next three commands"
    assert lines[-4] == "Next:"
    for name in ("content/site.toml", f"content/{STARTER_SLUG}/explainer.md", f"content/{STARTER_SLUG}/model.py",
                 ".gitignore", "requirements.txt", ".github/workflows/pages.yml", "README.md"):
        assert (folder / name).is_file(), name
    assert (folder / "requirements.txt").read_text().splitlines()[-1] == f"lensa-ml=={VERSION}"
    # Per explainer: its page, its page of figures, its embeds and single-file copy; and the index and 404.
    assert "Built 8 pages" in runs["build"].stdout and "Built 14 pages" in runs["rebuild"].stdout
    index = (folder / "build" / "index.html").read_text()
    assert f'href="{STARTER_SLUG}/index.html"' in index and 'href="second-topic/index.html"' in index
    # The starter writes math, code and a citation of the work `init` added to content/references.bib,
    # which `new` leaves as it is (the second explainer cites the same work).
    assert (folder / "content" / "references.bib").read_text().count("@misc{hinton2015,") == 1
    for slug in (STARTER_SLUG, "second-topic"):
        page = (folder / "build" / slug / "index.html").read_text()
        assert '<math display="block">' in page and '<code class="language-python">' in page, slug
        assert '<a href="#ref-hinton2015">Hinton et al., 2015</a>' in page and 'id="ref-hinton2015"' in page, slug
    assert not (folder / "themes").exists() and not (folder / "node_modules").exists()


def test_the_workflow_installs_this_version_and_deploys_with_the_official_actions(author_site):
    yaml = pytest.importorskip("yaml")
    folder, _ = author_site
    workflow = yaml.safe_load((folder / ".github" / "workflows" / "pages.yml").read_text())
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert triggers["push"]["branches"] == ["main"] and "workflow_dispatch" in triggers
    build, deploy = workflow["jobs"]["build"], workflow["jobs"]["deploy"]
    uses = [step.get("uses", "").split("@")[0] for step in build["steps"] + deploy["steps"]]
    assert {"actions/checkout", "actions/setup-python", "actions/upload-pages-artifact",
            "actions/deploy-pages"} <= set(uses)
    runs = [step.get("run") for step in build["steps"] if step.get("run")]
    assert runs == ["pip install -r requirements.txt", "lensa build"]
    artifact = next(step for step in build["steps"] if step.get("uses", "").startswith("actions/upload-pages-artifact"))
    assert artifact["with"]["path"].rstrip("/") == "build"
    assert deploy["needs"] == "build" and deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert workflow["permissions"] == {"contents": "read"}


def test_the_pages_work_from_disk_and_under_a_subpath(author_site, browser):
    folder, _ = author_site
    out = folder / "build"
    with PagesServer() as server:
        site = server.publish("my-site", out)
        for start in ((out / "index.html").as_uri(), site):
            context = browser.new_context()
            page = context.new_page()
            errors, requests = [], []
            # The browser's own guess at a site icon (/favicon.ico, outside any project
            # site) is not a request of the page's.
            page.on("console", lambda m: errors.append(f"{m.text} ({m.location.get('url')})")
                    if m.type == "error" and not m.location.get("url", "").endswith("/favicon.ico") else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("request", lambda r: requests.append(r.url) if not r.url.endswith("/favicon.ico") else None)
            page.goto(start)
            page.get_by_role("link", name="How Temperature Shapes a Softmax").first.click()
            page.wait_for_function("window.lensa?.runtime && window.Plotly")
            section = page.get_by_role("region", name="Temperature Reshapes the Choice", exact=True)
            readout = section.locator("dl dd").first
            before = readout.inner_text()
            section.get_by_role("group", name="Temperature", exact=True).get_by_role("button", name="T = 2.0").click()
            assert readout.inner_text() != before, start
            assert "At temperature 2.0" in section.locator("[data-prose]").inner_text()
            section.locator("[data-chart] .main-svg").first.wait_for()
            assert errors == [], errors
            assert all(url.startswith(("file:", "data:", "blob:", site)) for url in requests), requests
            context.close()
        assert set(server.outside) <= {"/favicon.ico"}, "every address of the site's stays under /my-site/"


def test_the_first_view_is_the_repositorys(author_site):
    from bench.first_view import page_bytes

    folder, _ = author_site
    sizes = page_bytes(folder / "build" / STARTER_SLUG / "index.html")
    assert sizes["total"] <= FIRST_VIEW_BUDGET, f"{sizes['total'] / 1024:.0f} KB gzipped"
    assert (folder / "build" / "assets" / "plotly.min.js").read_bytes() == BUNDLE.path.read_bytes()


def test_check_dist_and_serve_work_in_the_site(author_site, venv):
    folder, _ = author_site
    checked = lensa(venv, "check", cwd=folder)
    assert checked.returncode == 0 and checked.stdout.startswith("OK: 2 pages"), checked.stderr
    packed = lensa(venv, "dist", cwd=folder)
    assert packed.returncode == 0, packed.stderr
    assert list((folder / "dist").glob("*.zip"))
    server = subprocess.Popen([venv / "bin" / "lensa", "serve", "--port", "0"], cwd=folder, env=_author_env(venv),
                              stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    try:
        seen = []
        for line in server.stderr:
            seen.append(line)
            found = re.search(r"Serving (http://127\.0\.0\.1:\d+/)", line)
            if found:
                from tests.hosting import fetch_http

                page = fetch_http(found.group(1) + f"{STARTER_SLUG}/index.html")
                assert page.status == 200 and b"How Temperature Shapes a Softmax" in page.body
                break
        else:
            pytest.fail("lensa serve did not start:\n" + "".join(seen))
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_init_refuses_a_folder_that_is_not_empty(venv, tmp_path):
    folder = write_files(_away_from_the_checkout(tmp_path) / "notes", {"ideas.md": "mine\n"})
    refused = lensa(venv, "init", cwd=folder)
    assert refused.returncode == 1
    assert refused.stderr.splitlines()[0].startswith("error: .: is not empty (ideas.md): ")
    assert [path.name for path in folder.iterdir()] == ["ideas.md"] and refused.stdout == ""
    assert lensa(venv, "init", "--no-such-option", cwd=folder).returncode == 2  # argparse's usage error


def test_a_site_theme_that_extends_a_packaged_theme_builds(venv, tmp_path):
    folder = _away_from_the_checkout(tmp_path) / "themed"
    assert lensa(venv, "init", folder, cwd=tmp_path).returncode == 0
    write_files(folder / "themes", {
        "mine/theme.toml": 'extends = "default"\nstylesheets = ["mine.css"]\n',
        "mine/static/mine.css": ".site-header { border-bottom: 4px solid; }\n",
        "mine/templates/base.html": '{% extends "@default/base.html" %}{% block footer %}'
                                    '<footer class="site-footer">Made by me</footer>{% endblock %}\n',
    })
    built = lensa(venv, "build", "--theme", "mine", cwd=folder)
    assert built.returncode == 0, built.stderr
    index = (folder / "build" / "index.html").read_text()
    assert "Made by me" in index and "assets/mine.css" in index and "assets/style.css" in index
    assert (folder / "build" / "assets" / "runtime.js").is_file(), "the packaged theme's files"


# --- Publishing: what .github/workflows/release.yml does on a version tag, run here ---

RELEASE = ROOT / ".github" / "workflows" / "release.yml"
_PINNED = re.compile(r"^[\w.-]+/[\w.-]+@[0-9a-f]{40}$")


def test_the_distributions_pass_twine_check_strict(dists):
    checked = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, dists)],
                             capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("PASSED") == 2, checked.stdout


def test_the_release_workflow_builds_checks_tries_and_publishes_by_trusted_publishing():
    yaml = pytest.importorskip("yaml")
    workflow = yaml.safe_load(RELEASE.read_text())
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert triggers == {"push": {"tags": ["v*"]}}
    assert workflow["permissions"] == {"contents": "read"}
    build, publish = workflow["jobs"]["build"], workflow["jobs"]["publish"]
    steps = build["steps"] + publish["steps"]
    uses = [step["uses"] for step in steps if "uses" in step]
    assert uses and all(_PINNED.match(use) for use in uses), "every action pinned to a full commit"
    assert [use.split("@")[0] for use in uses] == [
        "actions/checkout", "actions/setup-python", "actions/setup-node", "actions/upload-artifact",
        "actions/download-artifact", "pypa/gh-action-pypi-publish"]
    node = next(step for step in build["steps"] if step.get("uses", "").startswith("actions/setup-node"))
    assert int(node["with"]["node-version"]) >= 22, "plotly.js 4.1.1 needs Node.js 22"
    script = "\n".join(step.get("run", "") for step in build["steps"])
    for command in ("npm ci --omit=dev", "node plotly-bundle/bundle.js", "-r requirements-build.txt",
                    "python -m build --no-isolation", "python -m twine check --strict dist/*",
                    'PATH="$RUNNER_TEMP/author/bin"', "! command -v node", "lensa init my-site", "lensa build"):
        assert command in script, command
    assert script.index("twine check") < script.index("lensa init") < script.index("lensa build")
    # Trusted publishing: the publish job alone may ask for an identity token, and gives no password.
    assert publish["needs"] == "build" and publish["permissions"] == {"id-token": "write"}
    assert publish["environment"]["name"] == "pypi"
    assert "with" not in publish["steps"][-1] and "secrets." not in RELEASE.read_text()
    assert "twine==" in (ROOT / "requirements-build.txt").read_text()


def test_lensa_docs_prints_the_guide_this_version_ships(venv, tmp_path, dists):
    done = lensa(venv, "docs", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (ROOT / "docs" / "authoring.md").read_text("utf-8")
    where = lensa(venv, "docs", "lms", "--path", cwd=tmp_path)
    assert Path(where.stdout.strip()).is_relative_to(venv) and where.stdout.strip().endswith("lensa/docs/lms.md")
    with zipfile.ZipFile(dists[1]) as archive:
        assert {"lensa/docs/authoring.md", "lensa/docs/embedding.md"} <= set(archive.namelist())
    assert "lensa docs" in lensa(venv, "--help", cwd=tmp_path).stdout


def test_what_an_author_is_given_points_at_lensa_docs_and_scorm(author_site):
    """No file an author gets names docs/authoring.md, which their site does not have."""
    folder, runs = author_site
    written = [path for path in folder.rglob("*") if path.is_file() and "build" not in path.relative_to(folder).parts]
    assert not [path for path in written if "docs/authoring.md" in path.read_text("utf-8", errors="replace")]
    assert "docs/authoring.md" not in runs["new"].stdout and "lensa docs" in runs["new"].stdout
    readme = (folder / "README.md").read_text()
    assert "lensa docs" in readme and "lensa dist --scorm" in readme
    assert "lensa docs" in (folder / "content" / "site.toml").read_text()


def test_the_readme_starts_an_author_from_the_package_index():
    readme = (ROOT / "README.md").read_text()
    start = readme[readme.index("## Start your own site"):readme.index("## This repository's site")]
    first_block = start[start.index("```sh"):start.index("```", start.index("```sh") + 5)]
    assert "pip install lensa-ml" in first_block and "npm" not in first_block
    assert "lensa dist --scorm" in start and "lensa docs" in start
    assert "Node.js 22 or later" in start and "npm ci --omit=dev" in start, "the checkout route, for contributors"


def test_an_author_s_npm_install_holds_only_what_a_build_needs():
    """package.json's dependencies are the bundle's source and its two build tools; the test and
    benchmark tools are devDependencies, which `npm ci --omit=dev` (make build, the README's
    checkout route, the release) leaves out and `make test` and `make bench` install."""
    package = json.loads((ROOT / "package.json").read_text())
    assert set(package["dependencies"]) == {"plotly.js", "esbuild", "acorn"}
    assert {"lighthouse", "vnu-jar", "axe-core", "scorm-again"} <= set(package["devDependencies"])
    lock = json.loads((ROOT / "package-lock.json").read_text())["packages"]
    for name in ("lighthouse", "vnu-jar", "axe-core"):
        assert lock[f"node_modules/{name}"].get("dev") is True, name
    def recipes(target):
        done = subprocess.run(["make", "-n", "-B", target], cwd=ROOT, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return [line for line in done.stdout.splitlines() if line.startswith("npm ci")]
    assert recipes("build") and all("--omit=dev" in line for line in recipes("build"))
    assert any("--omit=dev" not in line for line in recipes("test"))
    assert any("--omit=dev" not in line for line in recipes("bench"))

