"""render/urls.py: every link relative to the page it is on, naming index.html, so a build works
at a domain root, under a subpath and from disk."""
from generator.render.urls import ROOT_NAMES, Urls, embed_path, figures_path, offline_path, page_path
from generator.site import ROOT_NAMES as SITE_ROOT_NAMES


def test_links_from_a_page_and_from_an_embed():
    assert page_path("a") == "a/index.html" and offline_path("a") == "offline/a.html"
    assert embed_path("a") == "embed/a/index.html" and embed_path("a", 2) == "embed/a/step-2.html"
    assert figures_path("a") == "figures/a/index.html"
    index, step = Urls("index.html"), Urls("embed/a/step-2.html", assets={"runtime.js": "runtime.js?v=1"})
    assert index.page("b") == "b/index.html" and index.home() == "index.html"
    assert step.page("b") == "../../b/index.html" and step.asset("runtime.js") == "../../assets/runtime.js?v=1"


def test_published_addresses_need_a_base_url():
    assert Urls("a/index.html").published("a/index.html") is None
    assert Urls("a/index.html", "https://x.org/s/").published("a/index.html") == "https://x.org/s/a/index.html"


def test_the_root_names_are_the_sites():
    assert ROOT_NAMES is SITE_ROOT_NAMES and {"assets", "index.html", "sitemap.xml"} <= set(ROOT_NAMES)
