"""Figures at build time (render/figures.py, kinds/explainer/figures.py): every
chart of every explainer in its default state as an SVG file under
figures/<slug>/, with its title, caption, source and licence, and the page that
shows them with the code to cite them; in the sitemap with image entries."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from generator.build import build
from generator.errors import BuildError
from generator.render.figures import PADDING, WIDTH, Source, bibtex, figure_svg, line_width, theme_palette, wrap
from generator.render.poster import drawing

from tests.conftest import FIXTURES, THEMES
from tests.hosting import build_with_base_url, parse_page

SVG = "{http://www.w3.org/2000/svg}"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
IMAGE = "{http://www.google.com/schemas/sitemap-image/1.1}"


def svg_text(root) -> list[str]:
    """The text of each <text> element of a figure, outside its drawing of the chart, its lines joined."""
    return [" ".join("".join(span.itertext()) for span in text) or "".join(text.itertext())
            for text in root.iter(f"{SVG}text") if text not in set(_drawn(root))]


def _drawn(root):
    for plot in root.findall(f"{SVG}svg"):
        yield from plot.iter(f"{SVG}text")


def link_of(root) -> str:
    [link] = root.findall(f"{SVG}a")
    return link.get("href")


def explainers(result):
    return [page for page in result.site.pages if page.kind == "explainer"]


@pytest.fixture(scope="module", params=["charts_site", "tiny_site"])
def fixture_site(request):
    """Each of the generator's fixture sites, built, with its text rendered: (out, result, site, prose)."""
    from generator.build import read_site
    from generator.render.prose import render_prose

    out, result = request.getfixturevalue(request.param)
    site = read_site(FIXTURES / request.param.removesuffix("_site") / "content")
    return out, result, site, render_prose(site, result.computed)


def test_every_chart_of_every_explainer_has_a_figure_file(fixture_site):
    out, result, site, prose = fixture_site
    assert explainers(result)
    for explainer in explainers(result):
        for states, texts in zip(result.computed[explainer.slug], prose[explainer.slug]):
            step = states.step
            for index, chart in enumerate(step.charts):
                path = out / "figures" / explainer.slug / f"step-{step.number}-chart-{index + 1}.svg"
                where = (explainer.slug, step.number, index)
                root = ET.parse(path).getroot()  # well-formed XML, or this raises
                assert root.tag == f"{SVG}svg", where
                width, height = int(root.get("width")), int(root.get("height"))
                assert root.get("viewBox") == f"0 0 {width} {height}", where
                title = chart.title or step.title
                assert root.findtext(f"{SVG}title") == title, where
                caption = texts.summaries[states.default_key][index]
                lines = svg_text(root)
                assert lines[0] == title, where
                if caption:
                    assert lines[1] == caption, where
                assert f"Source: {explainer.title}, {site.config.title}" in lines, where
                # It names the page's place in the site, and links there from where the file sits.
                assert f"{explainer.slug}/index.html#step-{step.number}" in lines, where
                assert link_of(root) == f"../../{explainer.slug}/index.html#step-{step.number}", where
                # The chart itself, as the page's still picture draws it, in colours a file can hold.
                assert root.findall(f"{SVG}svg"), where
                text = path.read_text("utf-8")
                assert "var(--" not in text and "calc(" not in text, where


def test_each_explainer_links_to_its_page_of_figures(fixture_site):
    out, result, _, _ = fixture_site
    for explainer in explainers(result):
        page = parse_page((out / explainer.slug / "index.html").read_text("utf-8"))
        assert f"../figures/{explainer.slug}/index.html" in page.links, explainer.slug
        figures = (out / "figures" / explainer.slug / "index.html").read_text("utf-8")
        parsed = parse_page(figures)
        files = sorted(p.name for p in (out / "figures" / explainer.slug).glob("*.svg"))
        assert sorted(set(re.findall(r'<img src="([^"]+)"', figures))) == files
        assert sorted({link for link in parsed.links if link.endswith(".svg")}) == files
        assert f"../../{explainer.slug}/index.html#step-1" in parsed.links
        assert figures.count("@misc{") == len(files) and figures.count("<pre><code>“") == len(files)
        # Not part of the explainer's first view: the page links to the figures, it does not load them.
        assert not [url for url in page.loads if "figures/" in url or "figures.css" in url], page.loads


def test_the_licence_line_is_shown_and_cited_when_site_toml_sets_it(tmp_site, tmp_path):
    licence = "CC BY 4.0: share & adapt with credit"
    content = tmp_site()
    config = content / "site.toml"
    config.write_text(f"licence = {licence!r}\n" + config.read_text("utf-8"), "utf-8")
    out = tmp_path / "out"
    build(content, out, THEMES)
    root = ET.parse(out / "figures/coin-flips/step-1-chart-1.svg").getroot()
    assert svg_text(root)[-1] == licence
    figures = (out / "figures/coin-flips/index.html").read_text("utf-8")
    assert "CC BY 4.0: share &amp; adapt with credit</code>" in figures
    assert r"note         = {CC BY 4.0: share \&amp; adapt with credit}" in figures
    # The page carries it to Download figure, which ends its figures with it.
    assert '"licence": "CC BY 4.0: share \\u0026 adapt with credit"' in (out / "coin-flips/index.html").read_text()
    without = tmp_path / "without"
    config.write_text(config.read_text("utf-8").split("\n", 1)[1], "utf-8")
    build(content, without, THEMES)
    assert "CC BY" not in (without / "figures/coin-flips/step-1-chart-1.svg").read_text("utf-8")


def test_the_licence_must_be_text(tmp_site):
    from generator.errors import ContentError
    from generator.build import read_site

    content = tmp_site()
    config = content / "site.toml"
    config.write_text("licence = 4\n" + config.read_text("utf-8"), "utf-8")
    with pytest.raises(ContentError) as caught:
        read_site(content)
    assert "licence" in str(caught.value) and "expected a string" in str(caught.value)


def test_published_figures_cite_their_address_and_are_in_the_sitemap(tmp_site, tmp_path):
    base = "https://example.org/tiny/"
    out = build_with_base_url(tmp_site(), tmp_path / "published", base, THEMES)
    root = ET.parse(out / "figures/coin-flips/step-1-chart-1.svg").getroot()
    assert link_of(root) == f"{base}coin-flips/#step-1"
    sitemap = ET.parse(out / "sitemap.xml").getroot()
    urls = {url.findtext(f"{SITEMAP}loc"): [image.findtext(f"{IMAGE}loc") for image in url.iter(f"{IMAGE}image")]
            for url in sitemap.iter(f"{SITEMAP}url")}
    assert urls[f"{base}figures/coin-flips/"] == [f"{base}figures/coin-flips/step-1-chart-1.svg"]
    assert urls[f"{base}coin-flips/"] == [], "the explainer's own entry lists no figures: they are not its first view"
    page = parse_page((out / "figures/coin-flips/index.html").read_text("utf-8"))
    assert page.canonical == f"{base}figures/coin-flips/"


def test_the_palette_is_the_light_one_the_theme_declares():
    css = """/* :root { --fg: #bad; } */
    :root { --fg: #111111; --chart-text: var(--fg); --bg: #ffffff; }
    @media screen and (prefers-color-scheme: dark) { :root { --fg: #eeeeee; } }
    .x { --fg: #222222; }
    :root { --accent: #0000ff; --loop: var(--loop); }"""
    palette = theme_palette(css)
    assert palette["--fg"] == "#111111" and palette["--chart-text"] == "#111111"
    assert palette["--accent"] == "#0000ff" and "--loop" not in palette


def test_a_colour_the_theme_does_not_give_is_a_clear_error():
    figure = {"data": [{"type": "scatter", "x": [0, 1], "y": [0, 1], "line": {"color": "var(--chart-ink)"}}],
              "layout": {"height": 200}}
    palette = theme_palette(":root { --fg: #000; --muted: #333; --accent: #00f; }")
    with pytest.raises(BuildError, match=r"give no value to --chart-"):
        figure_svg(drawing(figure), "T", "", Source("Source", "", ""), palette, "sans-serif")


def test_text_wraps_between_words_and_long_addresses_where_they_must():
    lines = wrap("The 6×6 matrix of attention weights " * 6, 14, 300)
    assert len(lines) > 1 and all(line_width(line, 14) <= 300 for line in lines)
    address = "https://example.org/" + "x" * 200
    assert "".join(wrap(address, 12, 300)) == address


def test_bibtex_escapes_what_tex_reads_as_commands():
    entry = bibtex("k", "50% of #1 & more_", "A_B", "Site", 2026, "https://x.org/a#step-1", "")
    assert r"title        = {50\% of \#1 \& more\_}" in entry
    assert "url          = {https://x.org/a#step-1}" in entry and entry.startswith("@misc{k,\n")


def test_every_figure_s_text_fits_its_width_in_chromium_s_font(charts_site, tiny_site, browser):
    """Each line of a figure file's title, caption and source, as Chromium draws it in the
    figure's own font, ends inside the figure's width: every figure of the fixture sites, and one
    whose caption is made of the widest letters. (The series' figures: tests/content/test_figures_fit.py.)"""
    assert_figures_fit(charts_site, tiny_site, browser=browser)


def assert_figures_fit(*sites, browser) -> None:
    """Every figure file of the built sites, and the stress figure, fit their width (above)."""
    palette = theme_palette((THEMES / "default" / "static" / "style.css").read_text())
    wide = "Mammoth WWW kernel windows summing M×W many maximum widths — " * 4
    stress = figure_svg(None, wide, wide, Source(wide, "", ""), palette,
                        "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif").svg
    files = [stress] + [path.read_text() for out, _ in sites for path in sorted((out / "figures").rglob("*.svg"))]
    page = browser.new_page()
    page.set_content("<!doctype html><body>" + "".join(files) + "</body>")
    overflow = page.evaluate("""([right]) => [...document.querySelectorAll('body > svg')].flatMap((svg, n) =>
        [...svg.querySelectorAll(':scope > text tspan, :scope > a > text tspan')].filter(line =>
            Number(line.getAttribute('x')) + line.getComputedTextLength() > right).map(line => [n, line.textContent]))""",
                             [WIDTH + PADDING])
    page.close()
    charts = sum(len(states.step.charts) for _, result in sites for steps in result.computed.values()
                 if isinstance(steps, list) for states in steps if hasattr(states, "figures"))
    assert charts and len(files) == 1 + charts and overflow == []

