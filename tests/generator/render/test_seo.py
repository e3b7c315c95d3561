"""What search engines and link previews read: present, absolute and true to
the page when base_url is set; absent when it is not."""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

from generator.build import build
from generator.build import read_site
from generator.render.seo import page_url, plain_text

from tests.conftest import FIXTURES, THEMES, write_files
from tests.hosting import build_with_base_url, parse_page

BASE = "https://lensa.example.org/ml/"
TINY = FIXTURES / "tiny" / "content"
# The tiny site, with a bibliography its explainer cites from and a second common question.
BIB = """@article{coins2020,
  author = {Author, Ann and Other, Otto},
  title = {Heads in a Row},
  journal = {Journal of Coins},
  year = {2020},
}

@misc{dice2021,
  author = {Thrower, Dee},
  title = {All About Dice},
  year = {2021},
}
"""
UPDATED = "2026-01-15"  # coin-flips/explainer.md's updated
SITEMAP_NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


@pytest.fixture(scope="module")
def cited(tmp_path_factory):
    """A copy of the tiny site whose explainer cites two works of its bibliography and asks two questions."""
    import shutil

    content = tmp_path_factory.mktemp("cited") / "content"
    shutil.copytree(TINY, content)
    explainer = content / "coin-flips" / "explainer.md"
    text = explainer.read_text("utf-8")
    text = text.replace("A fair coin lands heads half the time.",
                        "A fair coin lands heads half the time [@dice2021; @coins2020].")
    text = text.replace("Yes, in this toy.", "Yes, in this toy.\n\n### How many *flips*?\nUp to three.")
    explainer.write_text(text, "utf-8")
    write_files(content, {"references.bib": BIB})
    return content


@pytest.fixture(scope="module")
def published(cited, tmp_path_factory):
    """The tiny site built with a base_url (from a copy: the fixture stays as it is)."""
    return build_with_base_url(cited, tmp_path_factory.mktemp("seo"), BASE, THEMES)


def pages_of(out):
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*.html"))


def read(out, path):
    return parse_page((out / path).read_text("utf-8"))


def questions_of(html: str) -> list[str]:
    """The <summary> texts of the common questions section (other disclosures, such as the
    charts' Show data and the Embed buttons, are not questions)."""
    return parse_page(re.search(r'<section class="questions".*?</section>', html, re.S).group(0)).summaries


def json_ld(page) -> dict:
    documents = [json.loads(text) for text in page.json_ld]
    return {d["@type"]: d for d in documents}


def test_without_base_url_there_is_nothing_to_point_at(cited, tmp_path):
    out = tmp_path / "out"
    build(cited, out, THEMES)
    assert not (out / "sitemap.xml").exists() and not (out / "robots.txt").exists()
    for path in pages_of(out):
        page = read(out, path)
        assert page.canonical is None and page.json_ld == []
        assert not any(key.startswith(("og:", "twitter:")) for key in page.meta), path


def test_sitemap_lists_every_page_by_its_canonical_address(published):
    tree = ET.parse(published / "sitemap.xml")
    urls = {u.findtext(f"{SITEMAP_NS}loc"): u.findtext(f"{SITEMAP_NS}lastmod")
            for u in tree.getroot().iter(f"{SITEMAP_NS}url")}
    expected = {}
    for path in pages_of(published):
        page = read(published, path)
        if path == "404.html":
            assert page.canonical is None and page.meta.get("robots") == "noindex"
            continue
        if path.startswith(("embed/", "offline/")):
            # Embeds and single-file copies repeat the explainer: only its own page is indexed.
            assert page.canonical is None and page.meta.get("robots") == "noindex", path
            continue
        assert page.canonical and page.canonical.startswith(BASE)
        expected[page.canonical] = path
    assert set(urls) == set(expected), "the sitemap and the pages' canonical links disagree"
    assert urls[BASE + "coin-flips/"] == UPDATED
    assert all(len(lastmod) == 10 for lastmod in urls.values())


def test_robots_txt_points_at_the_sitemap(published):
    robots = (published / "robots.txt").read_text("utf-8").splitlines()
    assert "User-agent: *" in robots
    assert f"Sitemap: {BASE}sitemap.xml" in robots
    assert not any(line.startswith("Disallow: /") for line in robots), "the site must stay crawlable"


def test_link_previews_describe_each_page(published):
    page = read(published, "coin-flips/index.html")
    meta = page.meta
    assert meta["og:type"] == "article" and meta["twitter:card"] == "summary"
    assert meta["og:url"] == page.canonical == BASE + "coin-flips/"
    assert meta["og:title"] == meta["twitter:title"] == "Coin Flips"
    assert meta["og:description"] == meta["twitter:description"] == meta["description"]
    assert meta["og:site_name"] == "Tiny Site"
    assert meta["article:modified_time"] == UPDATED
    index = read(published, "index.html").meta
    assert index["og:type"] == "website" and index["og:url"] == BASE and index["og:title"] == "Tiny Site"


class _Text:
    """Visible text of the parts of the page the JSON-LD repeats."""

    def __init__(self, html: str):
        self.h1 = plain_text(re.search(r"<h1>(.*?)</h1>", html, re.S).group(1))
        self.time = re.search(r'<p class="updated">.*?<time datetime="([^"]+)">', html, re.S).group(1)
        self.answers = [plain_text(a) for a in re.findall(r"<details><summary>.*?</summary>(.*?)</details>",
                                                          html, re.S)]


def test_article_json_ld_matches_the_page(published, cited):
    html = (published / "coin-flips/index.html").read_text("utf-8")
    page, text = parse_page(html), _Text(html)
    article = json_ld(page)["Article"]
    assert article["@context"] == "https://schema.org"
    assert article["headline"] == text.h1 == "Coin Flips"
    assert article["dateModified"] == text.time == UPDATED
    assert article["description"] == page.meta["description"]
    assert article["url"] == article["mainEntityOfPage"] == page.canonical
    assert article["inLanguage"] == "en"
    assert article["isPartOf"]["url"] == BASE and article["isPartOf"]["name"] == "Tiny Site"
    site = read_site(cited)
    [explainer] = [e for e in site.pages if e.slug == "coin-flips"]
    # The works of the page's references, in their order: those its text cites.
    listed = re.findall(r'<li id="ref-([^"]+)">', html)
    assert sorted(listed) == sorted(explainer.cites) == ["coins2020", "dice2021"]
    entries = [site.bibliography.entries[key] for key in listed]
    # Then the works its front matter writes out (the tiny site's "On Coins", 2020).
    assert [c["name"] for c in article["citation"]] == [e.title for e in entries] + ["On Coins"]
    assert [c["datePublished"] for c in article["citation"]] == [e.year for e in entries] + ["2020"]


def test_faq_json_ld_is_the_common_questions(published):
    html = (published / "coin-flips/index.html").read_text("utf-8")
    page, text = parse_page(html), _Text(html)
    faq = json_ld(page)["FAQPage"]
    questions = faq["mainEntity"]
    summaries = questions_of(html)
    assert [q["name"] for q in questions] == summaries
    assert summaries == ["Is the coin fair?", "How many flips?"]
    assert [q["acceptedAnswer"]["text"] for q in questions] == text.answers
    assert all(q["@type"] == "Question" and q["acceptedAnswer"]["@type"] == "Answer" for q in questions)


def test_index_json_ld_names_the_site(published):
    website = json_ld(read(published, "index.html"))["WebSite"]
    assert website["name"] == "Tiny Site" and website["url"] == BASE
    assert website["description"] == "A one-explainer site the tests build."


def test_json_ld_cannot_end_its_script_early(tmp_site, tmp_path):
    config = (FIXTURES / "tiny" / "content" / "site.toml").read_text("utf-8")
    content = tmp_site({"site.toml": f'base_url = "{BASE}"\n' + config})
    explainer = content / "coin-flips" / "explainer.md"
    explainer.write_text(explainer.read_text("utf-8").replace(
        "### Is the coin fair?", "### Is `</script><!--` fair?"), "utf-8")
    out = tmp_path / "out"
    build(content, out, THEMES)
    html = (out / "coin-flips/index.html").read_text("utf-8")
    page = parse_page(html)
    faq = json_ld(page)["FAQPage"]
    assert faq["mainEntity"][0]["name"] == questions_of(html)[0] == "Is </script><!-- fair?"
    # Each JSON-LD block still runs to its own end: "</" and "<!--" are escaped inside it.
    blocks = re.findall(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
    assert [json.loads(block)["@type"] for block in blocks] == ["Article", "FAQPage"]
    assert "<!--" not in "".join(blocks)


def test_page_url_uses_the_folder_form():
    class Config:
        base_url = BASE

    class Site:
        config = Config()

    assert page_url(Site(), "index.html") == BASE
    assert page_url(Site(), "multi-head-attention/index.html") == BASE + "multi-head-attention/"
