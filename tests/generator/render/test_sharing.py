"""The iframe code of the Embed button: Canvas-safe attributes, escaping, and
an absolute address only when the site knows where it is published."""
import re
from html.parser import HTMLParser

from generator.build import read_site
from generator.kinds.explainer.pages import step_embed_code
from generator.render.sharing import IFRAME_ATTRIBUTES, iframe_html
from generator.render.urls import Urls, embed_path, offline_path


class Tags(HTMLParser):
    def __init__(self, text):
        super().__init__()
        self.tags = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def test_addresses():
    assert embed_path("coin-flips") == "embed/coin-flips/index.html"
    assert embed_path("coin-flips", 3) == "embed/coin-flips/step-3.html"
    assert offline_path("coin-flips") == "offline/coin-flips.html"


def test_code_without_base_url_is_relative_to_the_page(tmp_site):
    site = read_site(tmp_site())
    explainer = site.pages[0]
    code = step_embed_code(Urls("page/index.html", site.config.base_url), explainer, explainer.steps[0])
    assert code.src == "../embed/coin-flips/step-1.html" and not code.absolute
    [(tag, attributes)] = Tags(code.html).tags
    assert tag == "iframe"
    assert set(attributes) <= set(IFRAME_ATTRIBUTES)
    assert attributes["src"] == code.src
    assert attributes["width"] == "100%"
    assert attributes["title"] == "Coin Flips: Runs of Heads"
    # Taller than the chart alone: the embed also holds its controls, readouts and text.
    assert int(attributes["height"]) > explainer.steps[0].chart.height


def test_code_with_base_url_is_absolute(tmp_site):
    content = tmp_site()
    config = content / "site.toml"
    config.write_text('base_url = "https://example.org/course"\n' + config.read_text())
    site = read_site(content)
    code = step_embed_code(Urls("page/index.html", site.config.base_url), site.pages[0], site.pages[0].steps[0])
    assert code.absolute
    assert code.src == "https://example.org/course/embed/coin-flips/step-1.html"


def test_code_escapes_its_attributes():
    html = iframe_html('x.html?a=1&b="2"', 'Cats & "dogs" <3', 500)
    assert '&b=' not in html and '"2"' not in html and "<3" not in html
    [(_, attributes)] = Tags(html).tags
    assert attributes["src"] == 'x.html?a=1&b="2"'
    assert attributes["title"] == 'Cats & "dogs" <3'
    assert html.endswith("></iframe>")


# ---- The Embed button in the page (themes/default/static/share.js) ----

def test_embed_button_shows_and_copies_the_code_from_disk(charts_site, offline_page):
    out, _ = charts_site
    page = offline_page.page
    page.goto((out / "chart-kinds" / "index.html").as_uri())
    page.wait_for_function("window.lensa?.share")
    section = page.get_by_role("region", name="Vectors as arrows", exact=True)
    box = section.get_by_role("textbox", name="Embed code (HTML)")
    assert not box.is_visible()
    section.get_by_text("Embed", exact=True).click()
    built = box.input_value()
    assert built.startswith('<iframe src="../embed/chart-kinds/step-3.html" ')
    # From disk the address cannot be made absolute, and the page says why.
    assert section.get_by_text("This address is relative").is_visible()

    section.get_by_role("group", name="Angle", exact=True).get_by_role("button", name="45").click()
    assert box.input_value() == built.replace("step-3.html", "step-3.html#s3=angle:45")
    section.get_by_role("checkbox", name="Open in the state shown").uncheck()
    assert box.input_value() == built

    # The whole explainer's code carries every step away from its defaults.
    page.get_by_text("Embed the whole explainer", exact=True).click()
    whole = page.get_by_role("textbox", name="Embed code (HTML)").first
    section.get_by_role("checkbox", name="Open in the state shown").check()
    page.get_by_role("region", name="A line over labels", exact=True).get_by_role("button", name="1").click()
    assert 'src="../embed/chart-kinds/index.html#s2=pair:1&amp;s3=angle:45"' in whole.input_value()
    assert section.get_by_role("link", name="Preview the embed").get_attribute("href") == \
        "../embed/chart-kinds/step-3.html#s3=angle:45"

    section.get_by_role("button", name="Copy code").click()
    status = section.get_by_role("status")
    status.filter(has_text=re.compile(r"\S")).wait_for()
    assert status.inner_text() in ("Copied.", "The code is selected: press Ctrl+C (⌘C on a Mac) to copy it.")
    assert offline_page.errors == []
