"""Shared fixtures: throwaway sites written from a dict of files, the real
site built once per session, and a headless Chromium (Debian's package)."""
from __future__ import annotations

import re
import shutil
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
THEMES = ROOT / "themes"
FIXTURES = Path(__file__).parent / "fixtures"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def write_files(root: Path, files: dict[str, str | bytes]) -> Path:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content).lstrip("\n"), encoding="utf-8")
    return root


def copy_generator(project: Path) -> Path:
    """The generator's code copied into `project/generator/`, away from this checkout, with
    the partial plotly.js bundle and the themes where an installed package carries them
    (generator/vendor/, generator/themes/, as setup.py puts them in the wheel: the load
    stage reads the default theme's words), for tests that run or edit a copy of the code."""
    from generator.resources import VENDORED_PLOTLY, plotly_bundle

    copy = project / "generator"
    shutil.copytree(ROOT / "generator", copy, ignore=shutil.ignore_patterns("__pycache__"))
    bundle = plotly_bundle()
    assert bundle is not None, "plotly-bundle/dist/ has no plotly.js bundle: run 'make build' (make test does)"
    shutil.copytree(bundle.folder, copy / VENDORED_PLOTLY.relative_to(VENDORED_PLOTLY.parents[1]))
    shutil.copytree(ROOT / "themes", copy / "themes", ignore=shutil.ignore_patterns("__pycache__"))
    return copy


@pytest.fixture
def tmp_site(tmp_path):
    """Copy the tiny fixture site, then overwrite or add files: tmp_site({...}) -> content dir.
    Each call makes a site of its own (the first in tmp_path/content)."""
    made = []

    def make(files: dict[str, str | bytes] | None = None, base: str = "tiny") -> Path:
        content = tmp_path / ("content" if not made else f"site-{len(made)}" / Path("content"))
        made.append(content)
        shutil.copytree(FIXTURES / base / "content", content)
        return write_files(content, files or {})
    return make


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """The bundled content, built once into a temporary folder."""
    from generator.build import build

    out = tmp_path_factory.mktemp("site") / "build"
    result = build(CONTENT, out, THEMES)
    return out, result


# The generator's own sites: small fixtures whose every page a test of the generator knows,
# so that editing the series (content/) fails no test of the generator (tests/test_tree.py).
@pytest.fixture(scope="session")
def tiny_site(tmp_path_factory):
    """The tiny fixture site (tests/fixtures/tiny: one explainer, coin-flips), built once: (out, result)."""
    from generator.build import build

    out = tmp_path_factory.mktemp("tiny") / "build"
    return out, build(FIXTURES / "tiny" / "content", out, THEMES)


@pytest.fixture(scope="session")
def charts_site(tmp_path_factory):
    """The charts fixture site (tests/fixtures/charts: one explainer, a step for every chart kind
    and variant), built once: (out, result)."""
    from generator.build import build

    out = tmp_path_factory.mktemp("charts") / "build"
    return out, build(FIXTURES / "charts" / "content", out, THEMES)


@pytest.fixture(scope="session")
def tiny_game_content(tmp_path_factory):
    """The tiny site with a one-round game beside its explainer (tests/tiny_game.py): its content folder."""
    from .tiny_game import write_tiny_game

    return write_tiny_game(tmp_path_factory.mktemp("game") / "content")


@pytest.fixture(scope="session")
def tiny_game(tiny_game_content):
    """(the build folder, the build's result) of the tiny site with the game at blanks/."""
    from generator.build import build

    out = tiny_game_content.parent / "out"
    return out, build(tiny_game_content, out, THEMES)


THEME_NAMES = ("default", "course")


@pytest.fixture(scope="session", params=THEME_NAMES)
def themed_site(request, tmp_path_factory):
    """The bundled content built with each shipped theme: (theme name, build folder)."""
    from generator.build import build

    out = tmp_path_factory.mktemp(f"site-{request.param}") / "build"
    build(CONTENT, out, THEMES, request.param)
    return request.param, out


@pytest.fixture(scope="session")
def scorm_site(built_site, tmp_path_factory):
    """The bundled site's SCORM packages (lensa dist --scorm), made once, written and
    unpacked beside an LMS host page (tests/lms.py): (that folder, packages by zip name)."""
    from .lms import package_site

    root = tmp_path_factory.mktemp("scorm")
    return root, package_site(built_site[1], root)


def built_pages(out: Path) -> list[Path]:
    return sorted(out.rglob("*.html"))


# A suite that checks every page in one browser splits the pages into shards, each a test
# of its own, so that xdist's workers share the work: every page is in exactly one shard,
# and a new page joins one without being named.
PAGE_SHARDS = 3


def page_shard(pages: list, number: int, shards: int = PAGE_SHARDS) -> list:
    """Shard `number` (from 0) of `pages`, taken in turn so that long pages spread out."""
    return sorted(pages)[number::shards]


def rendered_pages(out: Path) -> list[Path]:
    """The pages whose rendering a browser suite checks (axe, 360 px, posters): every
    page of the site (index, 404, each explainer and game) and each one's whole embed.
    A step's embed (embed/<slug>/step-<n>.html) is the whole embed's markup, by the
    same template, cut to one step, and a single-file copy is its page's markup with
    the files inlined: the crawl, Nu, embed and offline suites open each of those."""
    return [path for path in built_pages(out) if path.relative_to(out).parts[0] != "offline"
            and not (path.parent.parent.name == "embed" and path.name != "index.html")]


def wait_for_runtime(page) -> None:
    """Wait until the page's runtime has started, whatever the page's kind: an
    explainer's (which starts without plotly.js, and runs it when a chart needs it)
    or a game's. Pages without one (index, 404) return at once."""
    page.wait_for_function("""() => (!document.getElementById("explainer-data") || window.lensa?.runtime)
        && (!document.getElementById("game-data") || window.lensa?.game)""")


def assert_steps_navigable(page, titles: list[str]) -> None:
    """The page lists its steps by title, and each step says where it is ("Step n of N") and links to
    the previous and next step where there is one."""
    assert page.get_by_role("navigation", name="Steps").get_by_role("link").all_inner_texts() == titles
    for number, title in enumerate(titles, start=1):
        region = page.get_by_role("region", name=title, exact=True)
        assert f"Step {number} of {len(titles)}" in region.inner_text()
        pager = region.get_by_role("navigation")
        assert (pager.get_by_role("link", name=re.compile("Previous step")).count() == 1) == (number > 1)
        assert (pager.get_by_role("link", name=re.compile("Next step")).count() == 1) == (number < len(titles))


# In a page's JavaScript: the next animation frame, or a short timer where Chromium draws no frame
# (a frame out of view, a hidden page), so that a wait in the page always ends.
NEXT_FRAME = ("const nextFrame = () => new Promise(done => "
              "{ requestAnimationFrame(() => done()); setTimeout(done, 100); });")


def wait_until_idle(page) -> None:
    """Until the page (or frame) has been idle once after the idle work it had queued (the runtime's
    early fetch of plotly.js, its idle load of it: requestIdleCallback runs callbacks in the order they
    were asked for), and two frames have been painted (what the view's observers saw, they have
    reported): what the page does when left alone, it has begun. A wait for a condition, where a fixed
    pause would be too short on a loaded machine.

    Bounded, as a wait in a test must be: Chromium can give an out-of-process frame (a sandboxed
    embed) no idle period and a frame out of view no animation frame, and a promise that never
    settles would hang the whole run. The idle callback's deadline is later than any the runtime
    asks for, so the runtime's idle work still comes first; a frame not drawn is stood in for by a
    short timer."""
    page.evaluate(f"""() => new Promise(done => {{
        {NEXT_FRAME}
        requestIdleCallback(() => nextFrame().then(nextFrame).then(() => setTimeout(done, 0)), {{ timeout: 5000 }});
    }})""")


def wait_until_stored(page, check: str) -> None:
    """Until another page of the context, at the page's address, finds what `check` (a function
    in that page) looks for in the browser's storage. A page hands its writes to the browser's
    storage, and a reload may read that from a new renderer before they land: a test reloads
    once the write is seen elsewhere, as a reader's later reload would find it."""
    other = page.context.new_page()
    try:
        other.goto(page.url.split("#")[0])
        other.wait_for_function(check)
    finally:
        other.close()


def draw_every_chart(page) -> None:
    """Scroll each chart into view, as a reader would, with plotly.js run (as a hover
    or a tap has the runtime do), so the lazy runtime draws it with Plotly. In the page,
    in one go: a browser round trip or three per chart would take longer than drawing it."""
    page.wait_for_function("() => window.lensa?.runtime")
    page.evaluate(f"""async () => {{
        await window.lensa.runtime.plotly();
        {NEXT_FRAME}
        for (const chart of document.querySelectorAll("[data-chart]")) {{
            chart.scrollIntoView({{ block: "center", behavior: "instant" }});
            const until = performance.now() + 20000;
            while (!chart.querySelector(".main-svg")) {{
                if (performance.now() > until) throw new Error(`chart ${{chart.dataset.chart}} was not drawn in view`);
                await nextFrame();
            }}
        }}
        window.scrollTo({{ top: 0, behavior: "instant" }});
    }}""")


def open_data_tables(page, label: str = "Show data") -> None:
    """Open every data table the page shows (its <details>, by the label of its
    summary), for a check of the page with them open. Those of a game's rounds not
    shown stay closed, as a reader cannot open them. In one look: a click each would
    take longer than the check."""
    page.evaluate("""label => document.querySelectorAll("details").forEach(details => {
        const summary = details.querySelector("summary");
        if (summary && summary.textContent.trim() === label && summary.checkVisibility()) details.open = true;
    })""", label)


@pytest.fixture(scope="session")
def site_states():
    """Every page of the bundled site computed in Python once for the session, as the
    build does and independent of any page or runtime: (site, states by slug, prose by slug)."""
    from generator.build import read_site
    from generator.render.prose import render_prose
    from generator.compute.states import compute_site

    site = read_site(CONTENT)
    computed = compute_site(site)
    return site, computed, render_prose(site, computed)


def page_states(site_states, slug: str):
    """One explainer's share of site_states: (site, step states, step prose)."""
    site, computed, prose = site_states
    return site, computed[slug], prose[slug]


@pytest.fixture(scope="session")
def mha_states(site_states):
    """The multi-head-attention explainer's states and prose: (site, step states, step prose)."""
    return page_states(site_states, "multi-head-attention")


@pytest.fixture(scope="session")
def browser():
    playwright = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run 'make test' (it installs Debian's chromium)")
    with playwright.sync_playwright() as p:
        instance = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


class PageWatch:
    """A page opened offline: every non-file request is aborted and counted,
    and console errors are collected."""

    def __init__(self, page):
        self.page = page
        self.blocked: list[str] = []
        self.errors: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.route("**/*", self._route)

    def _route(self, route):
        url = route.request.url
        if url.startswith(("file:", "data:", "blob:")):
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort()


@pytest.fixture
def offline_page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    watch = PageWatch(page)
    yield watch
    context.close()


# Tiers: `pytest -m "not browser and not slow"` runs the Python tests alone in a minute
# or two. A test is a browser test by the fixture it uses, so none can be left out by
# forgetting a mark; `slow` marks the few others that run a whole tool (the JVM's Nu
# checker, a wheel built and installed, a retrain).
_SLOW_MODULES = {"test_html_validity", "test_packaging", "test_pages_workflow"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
        if item.module.__name__.rsplit(".", 1)[-1] in _SLOW_MODULES or item.name.endswith("_slow"):
            item.add_marker(pytest.mark.slow)
