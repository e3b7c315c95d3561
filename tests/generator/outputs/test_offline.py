"""Single-file copies: everything inlined, and the file works copied alone
into an empty folder, opened from file:// with the network cut."""
import re
import shutil

import pytest

from generator.build import build
from generator.cache import disk as diskcache
from generator.errors import BuildError
from generator.build import read_site
from generator.outputs import offline
from generator.outputs.offline import drop_marked, script_text, single_file
from generator.outputs.scorm.page import _PackagePage, package_page
from generator.render.prose import render_prose
from generator.compute.states import compute_site

from tests.conftest import CONTENT, THEMES, write_files

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
    library = ("var s = '</script>'; " + "x = 1; " * 20_000).encode()
    files = dict(FILES, **{"assets/late.js": library})
    first = single_file(PAGE, "topic/index.html", files)
    stored = [path for path in (tmp_path / "cache" / "scripts").rglob("*") if path.is_file()]
    assert len(stored) == 1 and diskcache.read_entry(stored[0]) == script_text(library.decode()).encode()
    # A copy made with no memory of its own (a new build) reads it back.
    diskcache.write_entry(stored[0], "var read = 'from the cache';".encode())
    assert "from the cache" in single_file(PAGE, "topic/index.html", files)
    assert "var s = '<\\/script>'" in first


def test_an_unwritable_cache_only_costs_time(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv(diskcache.CACHE_ENV, str(blocker / "cache"))
    library = ("x = '<!--'; " * 10_000).encode()
    html = single_file(PAGE, "topic/index.html", dict(FILES, **{"assets/late.js": library}))
    assert script_text(library.decode()) in html


def test_script_text_cannot_close_its_element():
    text = script_text("a = '</SCRIPT>'; b = '<!-- c'; d = '\x1a\x01\t';")
    assert "</script" not in text.lower() and "<!--" not in text
    assert text == "a = '<\\/SCRIPT>'; b = '\\x3C!-- c'; d = '\\u001A\\u0001\t';"


# What each kind's single-file copy must run inline: its runtime.
RUNTIMES = {"explainer": ("explainerRuntime",), "game": ("gameRuntime",)}


def test_every_built_copy_refers_to_nothing_outside_itself(built_site):
    out, result = built_site
    assert {page.kind for page in result.site.pages} == set(RUNTIMES)
    for source in result.site.pages:
        html = (out / "offline" / f"{source.slug}.html").read_text()
        markup = re.sub(r"<(script|style)\b[^>]*>.*?</\1>", "", html, flags=re.S)
        assert not re.search(r'\b(src|href)="(?!#|https?:|data:)[^"]*"', markup), source.slug
        # The site's icon is inline (a data: address); no other <link> stays.
        assert not re.search(r'<link(?! rel="icon" href="data:)', markup), source.slug
        assert "data-embed-code" not in markup and "data-offline" not in markup, source.slug
        inline = re.findall(r"<script>(.*?)</script>", html, re.S)
        for name in RUNTIMES[source.kind]:
            assert any(name in script for script in inline), f"{source.slug}: no {name} inline"
        # plotly.js is inline too, in a <template> that holds it until the runtime runs it.
        held = re.findall(r'<template data-plotly><script>(.*?)</script></template>', html, re.S)
        assert (len(held), "plotly.js" in "".join(held)[:300]) == ((1, True) if "data-chart" in html else (0, False))


@pytest.fixture(scope="module")
def expected():
    site = read_site(CONTENT)
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
            # The first chart's summary (a step may draw several charts).
            assert section.locator("figcaption").first.inner_text() == texts.states[key][1]
    assert offline_page.blocked == []
    assert offline_page.errors == []


# A theme that writes its markup the other ways HTML allows: single-quoted and bare
# attribute values, upper-case names.
QUIRKY = """<!DOCTYPE html>
<HTML><HEAD><LINK REL='stylesheet' HREF='../assets/style.css?v=1'><link rel=canonical href=https://example.org/x/>
<Link rel=icon href='../assets/dot.svg'>
<!-- <img src="../assets/gone.png"> is a comment, not a reference -->
</HEAD>
<BODY><A HREF=../index.html>Home</A> <A href='#step-2' class=next>Next</A>
<IMG SRC=x.png alt='a "dot"'><DIV Data-Offline=omit>Embed <div>code</div><IMG SRC=gone.png></DIV>
<img src=x.png data-offline='omit'>
<SCRIPT src=../assets/runtime.js defer></SCRIPT>
<script type=application/json id=data>{"html": "<a href='../index.html'>"}</script>
<Script Src='../assets/now.js'></Script>
</BODY></HTML>"""

QUIRKY_FILES = {
    "topic/index.html": QUIRKY.encode(),
    "topic/x.png": b"\x89PNG\r\n",
    "index.html": b"<p>home</p>",
    "assets/style.css": b"body { background: url('dot.svg') }",
    "assets/dot.svg": b"<svg xmlns='http://www.w3.org/2000/svg'/>",
    "assets/runtime.js": b"var runtime = '</SCRIPT>';",
    "assets/now.js": b"var now = 1;",
}


def test_a_theme_may_quote_attributes_any_way_html_allows():
    html = single_file(QUIRKY, "topic/index.html", QUIRKY_FILES)
    markup = re.sub(r"<(script|style)\b[^>]*>.*?</\1>", "", html, flags=re.S | re.I)
    assert "assets/" not in markup.replace('<img src="../assets/gone.png">', "")
    assert '<style>body { background: url("data:image/svg+xml;base64,' in html
    assert "<Link rel=icon href=\"data:image/svg+xml;base64," in html
    assert '<IMG SRC="data:image/png;base64,iVBORw0K" alt=\'a "dot"\'>' in html
    assert "Embed" not in html and "gone.png>" not in html and "canonical" not in html
    assert "<A>Home</A> <A href='#step-2' class=next>Next</A>" in html, "other bytes stay as written"
    assert '<meta name="robots" content="noindex">\n</HEAD>' in html
    scripts = re.findall(r"<script[^>]*>(.*?)</script>", html, re.S | re.I)
    assert scripts == ['{"html": "<a href=\'../index.html\'>"}', "var now = 1;", "var runtime = '<\\/SCRIPT>';"]
    assert html.index("var runtime") > html.index("var now") and html.endswith("</script>\n</BODY></HTML>")


def test_the_copy_keeps_what_it_does_not_change_byte_for_byte():
    page = ("<!doctype html><html><head><title>a &amp; b</title></head>\n<body>\n"
            "<p class=x title='it&#39;s'>1 < 2 &lt;3</p><!-- <a href=\"../index.html\"> --><br/>\n</body></html>")
    copy = single_file(page, "topic/index.html", {})
    assert copy == page.replace("</head>", '<meta name="robots" content="noindex">\n</head>')


@pytest.mark.parametrize("markup, missing", [
    ("<script src=../assets/gone.js></script>", "assets/gone.js"),
    ("<link rel='stylesheet' href='../assets/gone.css'>", "assets/gone.css"),
    ("<img src=gone.png>", "topic/gone.png"),
    ("<link rel=stylesheet href=../assets/fonts.css>", "assets/font.woff2"),
])
def test_a_missing_build_file_is_a_clear_error(markup, missing):
    files = dict(FILES, **{"assets/fonts.css": b"@font-face { src: url(font.woff2) }"})
    page = f"<!doctype html>\n<html><head></head>\n<body>\n{markup}\n</body></html>"
    with pytest.raises(BuildError) as error:
        single_file(page, "topic/index.html", files)
    message = str(error.value)
    assert message.startswith("topic/index.html:4: ") and "\n" not in message
    assert f"refers to {missing}, which is not in the build" in message


@pytest.mark.parametrize("markup, problem", [
    ('<img src="../assets/dot.svg" alt="dot"', "cannot read the markup <img"),
    ("<!-- a comment never closed", "cannot read the markup <!--"),
    ("<p>a paragraph</p\n", "cannot read the markup </p"),
    ("<div data-offline=omit>an omitted element never closed", "marked <div> element is never closed"),
    ("<script src=../assets/now.js>", "never closed"),
    ("<script src=../assets/now.js />", "needs its </script>"),
])
def test_markup_the_parser_cannot_read_is_a_clear_error(markup, problem):
    page = f"<!doctype html>\n<html><head></head>\n<body>\n{markup}"
    with pytest.raises(BuildError) as error:
        single_file(page, "topic/index.html", FILES)
    message = str(error.value)
    assert message.startswith("topic/index.html:4: single-file copy: ") and "\n" not in message
    assert problem in message


def test_tags_read_without_the_parser_make_the_copy_the_parser_makes(built_site, monkeypatch):
    """Plain tags (offline.plain_tag) skip the parser's reading of their attributes; with
    every tag read by the parser, every copy and every SCORM package page (a walk that
    looks at more tags: templates, links that leave) comes out the same."""
    out, result = built_site
    marked = ('<div class="a">x<div data-offline="omit">y<div>z</div><div/><DIV\nclass="b">'
              '<img src="data:,a"></DIV></div><a href="#k" title="&amp;">k</a><a href="../index.html">h</a>'
              '<a href="https://example.org/">out</a><template><script src="../assets/now.js"></script></template>'
              '</div>')
    pages = {f"{source.slug}/index.html": (out / source.slug / "index.html").read_text()
             for source in result.site.pages}
    pages["topic/index.html"] = PAGE.replace("<body>", f"<body>{marked}")
    files = {**FILES, **{path: html.encode() for path, html in pages.items()}}
    files.update({path.relative_to(out).as_posix(): path.read_bytes() for path in (out / "assets").iterdir()})

    def made():
        return ({path: single_file(html, path, files, "https://example.org/site/") for path, html in pages.items()},
                {path: package_page(html, path, files, "https://example.org/site/", "<script></script>")
                 for path, html in pages.items()})
    fast = made()
    for walk in (offline._Walk, _PackagePage):
        monkeypatch.setattr(walk, "plain_tag", re.compile(r"(?!)"))  # matches nothing
    assert made() == fast
    assert "y" not in fast[0]["topic/index.html"].split("<body>")[1][:80]
    assert '<a target="_blank" href="https://example.org/">out</a>' in fast[1]["topic/index.html"][0]


def test_marked_elements_are_found_however_they_are_written():
    assert drop_marked("<DIV DATA-OFFLINE=omit>a<div>b</div></DIV>c<br data-offline='omit'/>d") == "cd"
    assert drop_marked("<p data-offline=keep>a</p>") == "<p data-offline=keep>a</p>"


QUIRKY_THEME = {
    "theme.toml": 'extends = "default"\n',
    "templates/explainer.html": """\
        {% extends "@default/explainer.html" %}
        {% block styles %}{% for sheet in stylesheets %}<LINK REL='stylesheet' HREF='{{ asset(sheet) }}'>{% endfor %}{% endblock %}
        {% block scripts %}
        <SCRIPT type=application/json id=explainer-data>{{ payload|safe }}</SCRIPT>
        <script src={{ asset('plotly.min.js') }} defer></script>
        <Script SRC='{{ asset("runtime.js") }}' DEFER></Script>
        <script src={{ asset('share.js') }} defer></script>
        {{ extra|default("") }}
        {% endblock %}
        """,
}


def quirky_themes(tmp_path, **templates):
    themes = tmp_path / "themes"
    shutil.copytree(THEMES / "default", themes / "default")
    write_files(themes / "quirky", dict(QUIRKY_THEME, **templates))
    return themes


def test_a_quirky_theme_gets_a_working_copy(tmp_site, tmp_path, offline_page):
    out = tmp_path / "build"
    build(tmp_site(), out, quirky_themes(tmp_path), "quirky")
    assert "<LINK REL='stylesheet'" in (out / "coin-flips/index.html").read_text()
    alone = tmp_path / "alone" / "saved.html"
    alone.parent.mkdir()
    shutil.copyfile(out / "offline/coin-flips.html", alone)
    html = alone.read_text()
    markup = re.sub(r"<(script|style)\b[^>]*>.*?</\1>", "", html, flags=re.S | re.I)
    assert not re.search(r"\b(src|href)=(?![\"']?(#|https?:|data:))", markup, re.I)
    page = offline_page.page
    page.goto(alone.as_uri())
    page.wait_for_function("window.explainerRuntime && window.Plotly")
    page.locator("[data-chart] .main-svg").first.wait_for()
    assert offline_page.blocked == [] and offline_page.errors == []


def test_a_build_whose_copy_would_be_broken_fails_naming_the_page(tmp_site, tmp_path):
    broken = QUIRKY_THEME["templates/explainer.html"].replace(
        '{{ extra|default("") }}', "<img src=../assets/missing.png alt=''>")
    themes = quirky_themes(tmp_path, **{"templates/explainer.html": broken})
    with pytest.raises(BuildError, match=r"^coin-flips/index\.html:\d+: single-file copy: <img src=\.\./assets/"
                                         r"missing\.png alt=''> refers to assets/missing\.png, which is not in the build$"):
        build(tmp_site(), tmp_path / "build", themes, "quirky")


def test_a_link_that_goes_keeps_no_attribute_that_needs_it():
    page = ('<!doctype html><html><head><title>t</title></head><body>'
            '<a href="../next/index.html" rel="next" target="_blank">Next</a> <a href="#x" rel="bookmark">x</a>'
            '</body></html>')
    html = single_file(page, "topic/index.html", {"topic/index.html": page.encode()})
    assert "<a>Next</a>" in html  # the text stays; href, rel and target go together
    assert '<a href="#x" rel="bookmark">x</a>' in html  # a link that stays keeps its attributes


def test_links_in_the_page_data_follow_the_links_of_the_page():
    """The prose of states not yet shown is HTML inside the page's JSON data: its links
    to the site become absolute under base_url, or lose their href, as markup links do."""
    data = ('<script type="application/json" id="explainer-data">{"prose":"\\u003ca href=\\"../other/index.html\\"'
            '\\u003eOther\\u003c/a\\u003e \\u003ca href=\\"#step-2\\"\\u003eNext\\u003c/a\\u003e"}</script>')
    page = PAGE.replace("</body>", data + "</body>")
    files = {**FILES, "topic/index.html": page.encode()}
    alone = single_file(page, "topic/index.html", files)
    assert '\\u003ca \\u003eOther' in alone and 'href=\\"#step-2\\"' in alone
    published = single_file(page, "topic/index.html", files, base_url="https://example.org/site/")
    assert 'href=\\"https://example.org/site/other/index.html\\"' in published
