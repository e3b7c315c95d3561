"""The built site as readers meet it: published under a subpath the way GitHub
Pages does it (with and without base_url), and opened from disk. Every link,
stylesheet, script and image must resolve, and nothing may leave the site."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.conftest import CONTENT, PAGE_SHARDS, THEMES, page_shard, wait_for_runtime
from tests.hosting import PagesServer, build_with_base_url, crawl, fetch_file, fetch_http

PLAIN, PUBLISHED = "some-repo", "published-repo"


@pytest.fixture(scope="module")
def hosted(built_site, tmp_path_factory):
    """One server, two sites: the plain build at /some-repo/, and a build whose
    base_url is its own address at /published-repo/."""
    plain, _ = built_site
    with PagesServer() as server:
        plain_url = server.publish(PLAIN, plain)
        published_url = f"{server.origin}/{PUBLISHED}/"
        published = build_with_base_url(CONTENT, tmp_path_factory.mktemp("published"), published_url, THEMES)
        server.publish(PUBLISHED, published)
        yield server, {PLAIN: (plain_url, plain), PUBLISHED: (published_url, published)}


def built_pages(out: Path) -> set[str]:
    return {p.relative_to(out).as_posix() for p in out.rglob("*.html")} - {"404.html"}


def reached(report, root_url: str) -> set[str]:
    """Built files the crawl reached, directory addresses counted as their index.html."""
    files = set()
    for url, status in report.fetched.items():
        if status == 200 and url.startswith(root_url):
            path = url[len(root_url):].split("?")[0]
            files.add(path + "index.html" if path == "" or path.endswith("/") else path)
    return files


@pytest.mark.parametrize("name", [PLAIN, PUBLISHED])
def test_crawl_under_a_subpath_finds_every_page_and_nothing_broken(hosted, name):
    server, sites = hosted
    root_url, out = sites[name]
    before = len(server.outside)
    report = crawl(root_url + "index.html", fetch_http, inside=root_url)
    assert report.problems == []
    assert built_pages(out) <= reached(report, root_url), "a page cannot be reached by links"
    figures = {p.relative_to(out).as_posix() for p in (out / "figures").rglob("*.svg")}
    assert figures and figures <= reached(report, root_url), "a figure file cannot be reached by links"
    assert {"assets/style.css", "assets/runtime.js", "assets/plotly.min.js", "assets/game.js"} <= reached(report, root_url)
    assert len(server.outside) == before, f"requests escaped the subpath: {server.outside[before:]}"
    # References open in new pages on other sites; nothing is loaded from them.
    assert all(link.startswith("https://") for link in report.external_links)


def test_every_address_of_the_sitemap_and_robots_txt_is_served(hosted):
    _, sites = hosted
    root_url, out = sites[PUBLISHED]
    sitemap = ET.parse(out / "sitemap.xml").getroot()
    addresses = [loc.text for loc in sitemap.iter() if loc.tag.endswith("}loc")]
    robots = (out / "robots.txt").read_text("utf-8")
    addresses += re.findall(r"^Sitemap: (\S+)$", robots, re.M)
    assert len(addresses) > len(built_pages(out)) // 2 and any(a.endswith(".svg") for a in addresses)
    for address in addresses:
        assert address.startswith(root_url), f"{address} is not under the published address {root_url}"
        assert fetch_http(address).status == 200, f"{address} is not served"


@pytest.mark.parametrize("name", [PLAIN, PUBLISHED])
def test_crawl_from_disk_finds_every_page_and_nothing_broken(hosted, name):
    _, sites = hosted
    _, out = sites[name]
    root_url = out.resolve().as_uri() + "/"
    report = crawl(root_url + "index.html", fetch_file, inside=root_url)
    assert report.problems == []
    assert built_pages(out) <= reached(report, root_url)


def test_every_link_names_a_file_so_it_opens_from_disk(built_site):
    out, _ = built_site
    root_url = out.resolve().as_uri() + "/"
    report = crawl(root_url + "index.html", fetch_file, inside=root_url)
    for url, page in report.pages.items():
        for link in page.links:
            if not re.match(r"^[a-z]+:", link) and not link.startswith("#"):
                # A page, or a file (a figure's SVG): never a folder.
                assert re.search(r"\.[a-z0-9]+$", link.split("#")[0].split("?")[0]), f"{url}: {link!r} names a folder"


def test_not_found_page_is_served_for_missing_paths_at_any_depth(hosted):
    _, sites = hosted
    for name, (root_url, _) in sites.items():
        for missing in ("nope.html", "nope/", "multi-head-attention/nope.html", "a/b/c/d/e/"):
            resource = fetch_http(root_url + missing)
            assert resource.status == 404
            assert b"<h1>Page not found</h1>" in resource.body
            # Its own look travels with it: no stylesheet to find from an unknown depth.
            assert b"<style>" in resource.body and b'rel="stylesheet"' not in resource.body


def test_published_404_links_home_by_the_site_address(hosted):
    _, sites = hosted
    root_url, out = sites[PUBLISHED]
    html = (out / "404.html").read_text("utf-8")
    assert f'href="{root_url}index.html"' in html
    # The only script left is the colour-scheme one every page has in its head.
    assert "location.pathname" not in html, "with base_url the page needs no script to find home"


# --- In Chromium: what a reader sees -------------------------------------------------------------


@pytest.fixture
def reader(browser, hosted):
    """A page that records every failed load, error status and console error."""
    server, _ = hosted
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    trouble: list[str] = []
    # A load the browser itself cancels (ERR_ABORTED) as the reader follows a link away, such
    # as the tab's icon of a page left at once, is the reader's doing, not the page's.
    page.on("requestfailed", lambda r: trouble.append(f"failed: {r.url} {r.failure}")
            if "ERR_ABORTED" not in (r.failure or "") else None)
    page.on("response", lambda r: trouble.append(f"{r.status}: {r.request.method} {r.url}")
            if r.status >= 400 else None)
    page.on("console", lambda m: trouble.append(f"console: {m.text} ({m.location.get('url')})")
            if m.type == "error" else None)
    page.on("pageerror", lambda e: trouble.append(f"error: {e}"))
    # Nothing but the local server and disk: references to other sites are links, never loads.
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1)"), lambda route: (trouble.append(
        f"external request: {route.request.url}"), route.abort()))
    yield page, trouble
    context.close()


# True once the page's plotly.js file (the script in its <template data-plotly>) has
# arrived, or at once where it has none to fetch (a page without charts, a single-file copy).
PLOTLY_ARRIVED = """() => {
    const held = document.querySelector("template[data-plotly]");
    const script = held && held.content.querySelector("script[src]");
    if (!script) return true;
    const file = new URL(script.getAttribute("src"), location.href).pathname;
    return performance.getEntriesByType("resource").some(e => new URL(e.name).pathname === file && e.responseEnd > 0);
}"""


@pytest.mark.parametrize("shard", range(PAGE_SHARDS))
@pytest.mark.parametrize("name", [PLAIN, PUBLISHED])
def test_every_page_loads_in_chromium_under_a_subpath(hosted, reader, name, shard):
    server, sites = hosted
    page, trouble = reader
    root_url, out = sites[name]
    before = len(server.outside)
    for path in page_shard(built_pages(out), shard):
        page.goto(root_url + path)
        wait_for_runtime(page)
        # plotly.js is fetched once the first view is painted, after the load event: it must
        # arrive too (a failure or an error status is trouble), so the page is left only then.
        page.wait_for_function(PLOTLY_ARRIVED)
        sheets = page.evaluate("Array.from(document.styleSheets).map(s => s.cssRules.length)")
        assert sheets and all(count > 0 for count in sheets), f"{path}: a stylesheet is empty or missing"
    assert trouble == []
    assert len(server.outside) == before


def test_a_reader_moves_through_the_site_by_links_alone(hosted, reader):
    _, sites = hosted
    page, trouble = reader
    root_url, _ = sites[PLAIN]
    page.goto(root_url + "index.html")
    page.get_by_role("link", name="How Multi-Head Attention Works").click()
    page.wait_for_url(root_url + "multi-head-attention/index.html")
    assert page.get_by_role("heading", level=1).inner_text() == "How Multi-Head Attention Works"
    series = page.get_by_role("navigation", name="The series")
    assert series.get_by_role("link", name="How Multi-Head Attention Works").get_attribute("aria-current") == "page"
    page.get_by_role("navigation", name="Steps").get_by_role("link", name="Concatenation").click()
    assert page.url.endswith("#step-4")
    page.get_by_role("region", name="Concatenation").get_by_role("link", name=re.compile("Next step")).click()
    assert page.url.endswith("#step-5")
    assert page.get_by_role("region", name="Output Projection").is_visible()
    page.get_by_role("contentinfo").get_by_role("link", name="All explainers").click()
    page.wait_for_url(root_url + "index.html")
    assert page.get_by_role("heading", level=1).inner_text() == "Lensa ML"
    assert trouble == []


def _heading_style(page) -> dict:
    return page.get_by_role("heading", level=1).evaluate(
        "h => { const s = getComputedStyle(h); return {font: s.fontFamily, size: s.fontSize, weight: s.fontWeight,"
        " colour: s.color, body: getComputedStyle(document.body).fontFamily}; }")


@pytest.mark.parametrize("missing", ["no/such/explainer/page.html", "multi-head-attention/gone/step.html"])
@pytest.mark.parametrize("name", [PLAIN, PUBLISHED])
def test_404_at_a_deep_path_looks_like_the_site_and_leads_home(hosted, reader, name, missing):
    server, sites = hosted
    page, trouble = reader
    root_url, _ = sites[name]
    page.goto(root_url + "index.html")
    site_style = _heading_style(page)
    before = len(server.outside)
    response = page.goto(root_url + missing)
    assert response.status == 404
    trouble.clear()  # the 404 itself is expected
    assert page.get_by_role("heading", level=1).inner_text() == "Page not found"
    assert _heading_style(page) == site_style, "the not-found page does not get the site's stylesheet"
    home = page.get_by_role("main").get_by_role("link", name="All explainers")
    # Without base_url the page works out the site's root from the address itself.
    assert home.evaluate("a => a.href").endswith(f"/{name}/index.html")
    home.click()
    page.wait_for_url(root_url + "index.html")
    assert page.get_by_role("heading", level=1).inner_text() == "Lensa ML"
    assert trouble == []  # and it made no request of its own to find it
    assert len(server.outside) == before, f"requests escaped the subpath: {server.outside[before:]}"


def test_404_opened_from_disk_leads_home(built_site, offline_page):
    out, _ = built_site
    page = offline_page.page
    page.goto((out / "404.html").as_uri())
    page.get_by_role("main").get_by_role("link", name="All explainers").click()
    page.wait_for_url((out / "index.html").as_uri())
    assert page.get_by_role("heading", level=1).inner_text() == "Lensa ML"
    assert offline_page.blocked == [] and offline_page.errors == []
