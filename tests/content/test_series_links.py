"""The series' pages link to each other where their text says so (page: links, render/links.py)."""


def test_the_bundled_site_links_its_families_to_their_explainers(built_site):
    out, _ = built_site
    html = (out / "transformer-architecture" / "index.html").read_text("utf-8")
    assert 'href="../decoder-only-transformers/index.html"' in html
    assert "page:" not in html.replace("page: ", "")
