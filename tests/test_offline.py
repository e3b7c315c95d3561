"""Single-file copies: everything inlined, and the file works copied alone
into an empty folder, opened from file:// with the network cut."""
import re
import shutil

import pytest

from generator.cache import disk as diskcache
from generator.load.content import load_site
from generator.outputs.offline import drop_marked, script_text, single_file
from generator.render.prose import render_prose
from generator.compute.states import compute_site

from .conftest import CONTENT

SLUG = "multi-head-attention"

PAGE = """<!doctype html>
<html><head><link rel="stylesheet" href="../assets/site.css?v=1"><link rel="canonical" href="https://example.org/x/"></head>
<body><a href="../index.html">Home</a> <a href="#step-2">Next</a> <a href="https://example.org/">Out</a>
<p data-offline="omit">Gone <span>with <p>nested</p></span></p><p>Text about href="../index.html" stays.</p>
<img src="../assets/dot.svg" alt="dot">
<script src="../assets/late.js?v=2" defer></script>
<script>var early = '<a href="../index.html">';</script>
<script src="../assets/now.js"></script>
</body></html>"""

FILES = {
    "topic/index.html": PAGE.encode(),
    "index.html": b"<p>home</p>",
    "assets/site.css": b"body { background: url(dot.svg) } a::after { content: '</style>'; }",
    "assets/dot.svg": b"<svg xmlns='http://www.w3.org/2000/svg'/>",
    "assets/late.js": b"var s = '</script><!-- x'; var r = /<\\/script>/;",
    "assets/now.js": b"var now = 1;",
}


def test_inlines_scripts_styles_and_files():
    html = single_file(PAGE, "topic/index.html", FILES)
    assert "assets/" not in html
    assert "<style>body { background: url(\"data:image/svg+xml;base64," in html
    assert "content: '<\\/style>'" in html
    assert '<img src="data:image/svg+xml;base64,' in html
    # Deferred scripts run last, as they would have: after every inline script.
    scripts = re.findall(r"<script>(.*?)</script>", html, re.S)
    assert scripts == ["var early = '<a href=\"../index.html\">';", "var now = 1;",
                       "var s = '<\\/script>\\x3C!-- x'; var r = /<\\/script>/;"]
    assert html.index("var s =") > html.index("</p>")
    assert html.count("</body>") == 1 and html.index("var s =") < html.index("</body>")


def test_links_to_other_pages_need_the_site():
    offline = single_file(PAGE, "topic/index.html", FILES)
    assert "<a>Home</a>" in offline, "a page that is not beside the copy is not a link"
    assert '<a href="#step-2">Next</a>' in offline and '<a href="https://example.org/">Out</a>' in offline
    assert 'Text about href="../index.html" stays.' in offline, "only attributes are rewritten, never text"
    online = single_file(PAGE, "topic/index.html", FILES, "https://example.org/site/")
    assert '<a href="https://example.org/site/index.html">Home</a>' in online
    assert '<meta name="robots" content="noindex">' in online


def test_marked_elements_are_left_out():
    assert drop_marked('<div>a<p data-offline="omit">b<p>c</p>d</p>e</div>') == "<div>ae</div>"
    assert drop_marked('x<img data-offline="omit" src="y">z') == "xz"
    assert "Gone" not in single_file(PAGE, "topic/index.html", FILES)


def test_large_scripts_are_escaped_once_and_kept_on_disk(tmp_path, monkeypatch):
    monkeypatch.setenv(diskcache.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setattr(diskcache, "_MEMORY", {})
    library = ("var s = '</script>'; " + "x = 1; " * 20_000).encode()
    files = dict(FILES, **{"assets/late.js": library})
    first = single_file(PAGE, "topic/index.html", files)
    stored = [path for path in (tmp_path / "cache" / "scripts").rglob("*") if path.is_file()]
    assert len(stored) == 1 and stored[0].read_text("utf-8") == script_text(library.decode())
    monkeypatch.setattr(diskcache, "_MEMORY", {})  # a new build reads it back
    stored[0].write_text("var read = 'from the cache';", "utf-8")
    assert "from the cache" in single_file(PAGE, "topic/index.html", files)
    assert "var s = '<\\/script>'" in first


def test_an_unwritable_cache_only_costs_time(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv(diskcache.CACHE_ENV, str(blocker / "cache"))
    monkeypatch.setattr(diskcache, "_MEMORY", {})
    library = ("x = '<!--'; " * 10_000).encode()
    html = single_file(PAGE, "topic/index.html", dict(FILES, **{"assets/late.js": library}))
    assert script_text(library.decode()) in html


def test_script_text_cannot_close_its_element():
    text = script_text("a = '</SCRIPT>'; b = '<!-- c'; d = '\x1a\x01\t';")
    assert "</script" not in text.lower() and "<!--" not in text
    assert text == "a = '<\\/SCRIPT>'; b = '\\x3C!-- c'; d = '\\u001A\\u0001\t';"


def test_built_copy_refers_to_nothing_outside_itself(built_site):
    out, _ = built_site
    html = (out / "offline" / f"{SLUG}.html").read_text()
    markup = re.sub(r"<(script|style)\b[^>]*>.*?</\1>", "", html, flags=re.S)
    assert not re.search(r'\b(src|href)="(?!#|https?:|data:)[^"]*"', markup)
    assert "<link" not in markup.replace('<link rel="canonical"', "")
    assert "data-embed-code" not in markup and "data-offline" not in markup
    inline = re.findall(r"<script>(.*?)</script>", html, re.S)
    assert any("Plotly" in s for s in inline) and any("explainerRuntime" in s for s in inline)


@pytest.fixture(scope="module")
def expected():
    site = load_site(CONTENT)
    computed = compute_site(site)
    return computed[SLUG], render_prose(site, computed)[SLUG]


def test_copy_alone_in_an_empty_folder_is_fully_interactive(built_site, offline_page, tmp_path, expected):
    out, _ = built_site
    steps, prose = expected
    alone = tmp_path / "somewhere else" / "saved.html"
    alone.parent.mkdir()
    shutil.copyfile(out / "offline" / f"{SLUG}.html", alone)
    assert [p.name for p in alone.parent.iterdir()] == ["saved.html"]
    page = offline_page.page
    page.goto(alone.as_uri())
    page.wait_for_function("window.explainerRuntime && window.Plotly")
    for computed, texts in zip(steps, prose):
        step = computed.step
        section = page.get_by_role("region", name=step.title, exact=True)
        section.scroll_into_view_if_needed()
        section.locator("[data-chart] .main-svg").first.wait_for()
        choice = {c.name: c.values.index(c.default) for c in step.controls}
        for control in step.controls:
            # The last value differs from the default in every control of this explainer.
            index = len(control.values) - 1 if control.values.index(control.default) != len(control.values) - 1 else 0
            name = control.button.replace("{value}", str(control.values[index]))
            section.get_by_role("group", name=control.label, exact=True).get_by_role(
                "button", name=re.compile(rf"^{re.escape(name)}\b")).click()
            choice[control.name] = index
        key = ".".join(str(choice[c.name]) for c in step.controls)
        assert key != computed.default_key
        assert section.locator("dl dd").all_inner_texts() == computed.by_key(key).readouts
        if texts.states[key][1]:
            assert section.locator("figcaption").inner_text() == texts.states[key][1]
    assert offline_page.blocked == []
    assert offline_page.errors == []
