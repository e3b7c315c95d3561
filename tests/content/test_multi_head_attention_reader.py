"""The Multi-Head Attention page as a reader sees it: its intro headed by its question, the
series' navigation, its steps' counters and pagers, every section around the steps from its
explainer.md, and its chart titles as text of the page (the generator's own tests of these, on
its fixtures: tests/generator/render/test_pages.py)."""
from __future__ import annotations

import html as html_module
import re

import pytest

from generator.build import read_site

from tests.conftest import CONTENT, assert_steps_navigable

SLUG = "multi-head-attention"


def test_the_intro_is_headed_by_its_question(built_site):
    out, _ = built_site
    html = (out / SLUG / "index.html").read_text("utf-8")
    intro = re.search(r'<section class="intro" aria-labelledby="([^"]+)"><h2 id="\1">(.*?)</h2>', html)
    assert intro and intro.group(2) == "What is multi-head attention?"


@pytest.fixture(scope="module")
def explainer():
    site = read_site(CONTENT)
    return site, next(e for e in site.pages if e.slug == SLUG)


@pytest.fixture
def page(built_site, offline_page):
    out, _ = built_site
    offline_page.page.goto((out / SLUG / "index.html").as_uri())
    return offline_page.page


def test_series_navigation_marks_the_current_page_and_links_only_built_ones(page, explainer):
    site, _ = explainer
    nav = page.get_by_role("navigation", name="The series")
    items = nav.get_by_role("listitem")
    assert [t.split(" coming soon")[0] for t in items.all_inner_texts()] == [e.title for e in site.config.series]
    # Every explainer of the series is published: each title is a link, this page's marked current.
    links = items.get_by_role("link")
    assert links.all_inner_texts() == [e.title for e in site.config.series]
    current = [link.inner_text() for link in links.all() if link.get_attribute("aria-current") == "page"]
    assert current == ["How Multi-Head Attention Works"]


def test_steps_have_a_counter_a_list_and_previous_next_links(page, explainer):
    _, mha = explainer
    titles = [s.title for s in mha.steps]
    assert_steps_navigable(page, titles)


def test_every_section_around_the_steps_comes_from_the_explainer(page, explainer):
    site, mha = explainer
    day = mha.updated
    assert page.get_by_text(f"Last updated {day.day} {day.strftime('%B')} {day.year}").is_visible()
    intro = page.get_by_role("region", name="What is multi-head attention?")
    assert intro.get_by_role("heading", level=2).inner_text() == "What is multi-head attention?"
    assert "Multi-head attention runs several self-attention heads" in intro.inner_text()
    ideas = page.get_by_role("region", name="Key ideas").get_by_role("listitem")
    assert ideas.count() == 6 and ideas.first.inner_text().startswith("Heads work in parallel.")
    questions = page.get_by_role("region", name="Common questions")
    summaries = questions.locator("summary")
    assert summaries.all_inner_texts() == re.findall(r"^### (.+)$", mha.questions, re.M)
    first_answer = re.split(r"^### .+$", mha.questions, flags=re.M)[1].strip().split("\n")[0][:30]
    answer = questions.get_by_text(first_answer)
    assert not answer.first.is_visible()
    summaries.first.click()
    assert answer.first.is_visible()
    related = page.get_by_role("region", name="Related explainers").get_by_role("listitem")
    titles = {e.slug: e.title for e in site.config.series + site.config.extra}
    assert [t.split(" coming soon")[0].split("\n")[0] for t in related.all_inner_texts()] == \
        [titles[slug] for slug in mha.related]
    # The works its text cites, from the site's bibliography, in author-year order, each with its
    # DOI or arXiv link (or its title linked to its url) and its BibTeX.
    references = page.get_by_role("region", name="References").get_by_role("listitem")
    texts = references.all_inner_texts()
    assert len(texts) == len(mha.cites) > 10
    for key in mha.cites:
        entry = site.bibliography.entries[key]
        [text] = [t for t in texts if f"). {entry.title}" in t]
        assert text.rstrip().endswith("BibTeX") and (entry.arxiv in text or entry.doi in text or entry.url)
    # Its neighbours in the series: the explainers before and after it.
    pager = page.get_by_role("navigation", name="More in the series").get_by_role("link")
    assert pager.all_inner_texts() == ["← Previous explainer: How Self-Attention Works",
                                       "Next explainer: Positional Encoding →"]


def test_a_chart_title_is_text_of_the_page_not_of_the_plot(built_site):
    """Above the chart, where a narrow screen wraps it; Plotly would cut it off."""
    out, _ = built_site
    html = (out / "multi-head-attention" / "index.html").read_text("utf-8")
    site = read_site(CONTENT)
    [explainer] = [page for page in site.pages if page.slug == "multi-head-attention"]
    titles = [chart.title for step in explainer.steps for chart in step.charts if chart.title]
    shown = re.findall(r'<figure class="chart-figure">\s*<p class="chart-title">([^<]*)</p>', html)
    assert shown and [html_module.unescape(t) for t in shown] == titles
    data = html[html.index('id="explainer-data"'):]
    assert not [t for t in titles if f'"text":"{t}"' in data], "no chart title inside a Plotly layout"


