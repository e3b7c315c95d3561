"""Prose links to other pages (render/links.py): `page:<slug>` resolved for each output."""
import pytest

from generator.errors import ContentError
from generator.render.links import resolve_page_links

SLUGS = {"alpha", "beta"}
HTML = ('<p><a href="page:beta#step-3">Beta</a></p>'
        '<script type="application/json">{"prose":"\\u003ca href=\\"page:alpha\\"\\u003eA\\u003c/a\\u003e"}</script>')


def test_a_page_links_relative_to_itself_in_markup_and_in_its_data():
    html = resolve_page_links(HTML, "gamma/index.html", SLUGS)
    assert '<a href="../beta/index.html#step-3">' in html
    assert 'href=\\"../alpha/index.html\\"' in html


def test_an_embed_links_from_its_depth_and_opens_a_new_tab():
    html = resolve_page_links(HTML, "embed/gamma/step-1.html", SLUGS)
    assert '<a target="_blank" rel="noopener" href="../../beta/index.html#step-3">' in html
    assert 'target=\\"_blank\\" rel=\\"noopener\\" href=\\"../../alpha/index.html\\"' in html


def test_text_that_only_mentions_page_is_left_alone():
    text = "<p>On this page: nothing to link.</p>"
    assert resolve_page_links(text, "gamma/index.html", SLUGS) == text


def test_a_link_to_no_page_names_the_folder_and_the_pages_there_are(tmp_path):
    with pytest.raises(ContentError) as caught:
        resolve_page_links('<a href="page:gamma">', "alpha/index.html", SLUGS, tmp_path / "alpha")
    message = str(caught.value)
    assert "alpha" in message and "'page:gamma'" in message and "alpha, beta" in message
    assert "\n" not in message


def test_a_built_page_links_through_page_addresses(tmp_site, tmp_path):
    """A `page:` link in an explainer's prose is resolved in the built page, and none is left."""
    from generator.build import build
    from tests.conftest import THEMES

    step = "coin-flips/steps/01-runs.md"
    text = (tmp_site() / step).read_text("utf-8")
    content = tmp_site({step: text.replace("::: hint", "See [the first step](page:coin-flips#step-1).\n\n::: hint")})
    build(content, tmp_path / "out", THEMES)
    html = (tmp_path / "out" / "coin-flips" / "index.html").read_text("utf-8")
    assert 'href="../coin-flips/index.html#step-1"' in html
    assert "page:" not in html.replace("page: ", "")
