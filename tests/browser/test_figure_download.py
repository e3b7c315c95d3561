"""Download figure, in Chromium, as a reader uses it: under every chart of every
explainer, after choosing a state, the SVG is a valid SVG document holding the
chart's title, that state's caption, the source line with that state's address,
and the chart drawn in that state (compared with the state's figure computed in
Python); the PNG is the same figure at twice its size. The same from file:// with
the network blocked (every test here), in a step's embed and in the single-file
copy; and in a sandboxed iframe that may not download, the figure opens in the frame."""
from __future__ import annotations

import base64
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import quote, unquote

import pytest
from playwright.sync_api import expect

from generator.kinds.explainer.content import value_text
from generator.build import read_site

from tests.conftest import CONTENT, THEMES, PageWatch, wait_until_idle
from tests.content.reader import choose, every_choice, resolve_theme_colours, wait_until_drawn
from tests.hosting import PagesServer, build_with_base_url
from tests.pictures import png_size

EXPLAINERS = [page.slug for page in read_site(CONTENT).pages if page.kind == "explainer"]
SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"


@pytest.fixture
def reader(browser):
    """A page from file:// with every other request blocked, that accepts downloads."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    watch = PageWatch(context.new_page())
    yield watch
    context.close()


def labels_of(site_states):
    return site_states[0].config.labels


def panel_of(section, index, labels):
    """The Download figure panel of the step's chart number `index`, opened."""
    button = section.get_by_role("button", name=labels["figure"], exact=True).nth(index)
    if button.get_attribute("aria-expanded") != "true":
        button.click()
    # The first press loads figure.js, which then opens the panel.
    expect(button).to_have_attribute("aria-expanded", "true")
    panel = section.page.locator(f"#{button.get_attribute('aria-controls')}")
    assert panel.get_attribute("role") == "group"
    assert panel.get_attribute("aria-label").startswith(labels["figure"] + ": ")
    return panel


def download(section, index, labels, what="figure_svg", light=False):
    """Press SVG (or PNG) in a chart's panel; the file's bytes and suggested name."""
    panel = panel_of(section, index, labels)
    panel.get_by_role("checkbox", name=labels["figure_light"]).set_checked(light)
    with section.page.expect_download() as info:
        panel.get_by_role("button", name=labels[what], exact=True).click()
    file = info.value
    return Path(file.path()).read_bytes(), file.suggested_filename


def away_from_default(section, states):
    """Choose the value after the default of the step's first control, as a reader
    would, and return the key of the state now shown (the default, with no control)."""
    controls = states.step.controls
    key = states.default_key
    if controls:
        number, value = every_choice(controls)[0]
        choose(section, controls[number], value)
        key = states.by_key(key).to[number][value]
        wait_until_drawn(section)
    return key


def fragment(states, key) -> str:
    """The deep link's fragment of a step's state (docs/deep-links.md)."""
    step = states.step
    anchor = f"step-{step.number}"
    if key == states.default_key:
        return anchor
    choice = states.by_key(key).choice
    pairs = ",".join(f"{c.name}:{quote(value_text(choice[c.name]), safe=chr(39) + '-_.!~*()')}"
                     for c in step.controls)
    return f"{anchor}&s{step.number}={pairs}"


def read_figure(data: bytes):
    root = ET.fromstring(data)  # well-formed XML, or this raises
    assert root.tag == f"{SVG}svg"
    [plot] = root.findall(f"{SVG}svg")  # the chart, as Plotly drew it
    texts = ["".join(t.itertext()) if not list(t) else " ".join("".join(s.itertext()) for s in t)
             for t in root.findall(f".//{SVG}text") if t not in set(plot.iter(f"{SVG}text"))]
    [link] = root.findall(f"{SVG}a")
    return root, plot, texts, link.get("href")


def drawn(plot) -> dict:
    """What a chart's SVG shows: its layout pictures, its shapes, and every text in it."""
    parents = {child: parent for parent in plot.iter() for child in parent}

    def inside(element, layer):
        while element in parents:
            element = parents[element]
            if layer in (element.get("class") or "").split():
                return True
        return False

    return {
        "images": [image.get(f"{XLINK}href") or image.get("href") for image in plot.iter(f"{SVG}image")
                   if inside(image, "imagelayer")],
        "shapes": sum(1 for path in plot.iter(f"{SVG}path") if path.get("data-index") is not None
                      and inside(path, "shapelayer")),
        "texts": {" ".join("".join(t.itertext()).split()) for t in plot.iter(f"{SVG}text")},
    }


def plain(markup: str) -> list[str]:
    """The lines of a Plotly text as it shows them: <br> breaks, other tags dropped."""
    return [" ".join(re.sub(r"<[^>]+>", "", line).replace("&amp;", "&").split())
            for line in re.split(r"<br\s*/?>", str(markup))]


def check_drawing(plot, figure, where):
    """The chart in the SVG is the state's figure: the same pictures, as many shapes,
    and the texts of its annotations and labelled ticks."""
    seen = drawn(plot)
    layout = figure["layout"]
    assert seen["images"] == [image["source"] for image in layout.get("images", [])], where
    assert seen["shapes"] == len(layout.get("shapes", [])), where
    wanted = [line for note in layout.get("annotations", []) for line in plain(note.get("text", ""))]
    for name, axis in layout.items():
        if name.startswith(("xaxis", "yaxis")) and axis.get("ticktext") and axis.get("showticklabels", True):
            wanted += [line for tick in axis["ticktext"] for line in plain(tick)]
    text = " ".join(seen["texts"])
    missing = [line for line in wanted if line and line not in text]
    assert not missing, (where, missing[:5])


def check_figure(data, states, texts, index, key, address, site, title, where):
    """A downloaded SVG holds the chart's title, the caption of state `key` (not the
    default's when they differ), the source line, `address` at that state, and the chart."""
    root, plot, lines, link = read_figure(data)
    chart = states.step.charts[index]
    caption = texts.summaries[key][index]
    default = texts.summaries[states.default_key][index]
    assert root.findtext(f"{SVG}title") == lines[0] == (chart.title or states.step.title), where
    if caption:
        assert lines[1] == caption, where
    if default != caption:
        assert default not in lines, where
    assert f"Source: {title}, {site.config.title}" in lines, where
    assert link == f"{address}#{fragment(states, key)}", where
    assert lines[lines.index(f"Source: {title}, {site.config.title}") + 1].replace(" ", "") == link.replace(" ", "")
    assert int(plot.get("width")) > 0 and int(plot.get("height")) == chart.height, where
    return root, plot


@pytest.mark.parametrize("slug", EXPLAINERS)
def test_every_chart_downloads_the_state_shown(slug, built_site, reader, site_states):
    out, _ = built_site
    site, computed, prose = site_states
    labels = labels_of(site_states)
    explainer = next(page for page in site.pages if page.slug == slug)
    page = reader.page
    page.goto((out / slug / "index.html").as_uri())
    page.wait_for_function("window.lensa?.runtime && window.Plotly")
    address = (out / slug / "index.html").resolve().as_uri()
    first_png = True
    for states, texts in zip(computed[slug], prose[slug]):
        section = page.get_by_role("region", name=states.step.title, exact=True)
        section.scroll_into_view_if_needed()
        key = away_from_default(section, states)
        for index in range(len(states.step.charts)):
            where = (slug, states.step.number, index, key)
            data, name = download(section, index, labels)
            assert name == f"{slug}-step-{states.step.number}-chart-{index + 1}.svg", where
            root, plot = check_figure(data, states, texts, index, key, address, site, explainer.title, where)
            chart = section.locator("[data-chart]").nth(index)
            figure = resolve_theme_colours(chart, states.figures[index][key])
            check_drawing(plot, figure, where)
            assert int(plot.get("width")) == round(chart.bounding_box()["width"]), where
            if first_png:  # one PNG an explainer: the same figure, drawn at twice its size
                first_png = False
                png, png_name = download(section, index, labels, "figure_png")
                assert png_name == name.replace(".svg", ".png")
                assert png_size(png) == (2 * int(root.get("width")), 2 * int(root.get("height"))), where
    assert reader.blocked == [], f"the page made network requests: {reader.blocked}"
    assert reader.errors == []


def test_colours_follow_the_scheme_shown_or_light_on_white(built_site, browser, site_states):
    out, _ = built_site
    site, computed, _ = site_states
    labels = labels_of(site_states)
    slug = EXPLAINERS[0]
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True,
                                  color_scheme="dark")
    page = context.new_page()
    page.goto((out / slug / "index.html").as_uri())
    page.wait_for_function("window.lensa?.runtime && window.Plotly")
    section = page.get_by_role("region", name=computed[slug][0].step.title, exact=True)
    dark = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--bg').trim()")
    shown, _ = download(section, 0, labels)
    light, _ = download(section, 0, labels, light=True)
    context.close()
    ground = lambda data: ET.fromstring(data).find(f"{SVG}rect").get("fill")  # noqa: E731
    ink = lambda data: ET.fromstring(data).get("color")  # noqa: E731
    assert ground(shown) == dark != "#ffffff"
    assert ground(light) == "#ffffff"
    assert ink(light) != ink(shown)


def first_step_with_controls(states_list):
    return next(states for states in states_list if states.step.controls)


@pytest.mark.parametrize("slug", EXPLAINERS)
def test_a_step_embed_downloads_its_state_citing_the_full_explainer(slug, built_site, reader, site_states):
    out, _ = built_site
    site, computed, prose = site_states
    labels = labels_of(site_states)
    explainer = next(page for page in site.pages if page.slug == slug)
    states = first_step_with_controls(computed[slug])
    texts = prose[slug][computed[slug].index(states)]
    page = reader.page
    page.goto((out / "embed" / slug / f"step-{states.step.number}.html").as_uri())
    page.wait_for_function("window.lensa?.runtime && window.Plotly")
    section = page.get_by_role("region", name=states.step.title, exact=True)
    key = away_from_default(section, states)
    data, _ = download(section, 0, labels)
    check_figure(data, states, texts, 0, key, (out / slug / "index.html").resolve().as_uri(), site,
                 explainer.title, slug)
    assert reader.blocked == [] and reader.errors == []


@pytest.mark.parametrize("slug", EXPLAINERS)
def test_the_single_file_copy_carries_download_figure(slug, built_site, reader, site_states, tmp_path):
    out, _ = built_site
    site, computed, prose = site_states
    labels = labels_of(site_states)
    explainer = next(page for page in site.pages if page.slug == slug)
    alone = tmp_path / "kept" / f"{slug}.html"
    alone.parent.mkdir()
    shutil.copyfile(out / "offline" / f"{slug}.html", alone)
    states = first_step_with_controls(computed[slug])
    texts = prose[slug][computed[slug].index(states)]
    page = reader.page
    page.goto(alone.as_uri())
    page.wait_for_function("window.lensa?.runtime && window.Plotly")
    assert page.evaluate("typeof window.lensa?.figure") == "undefined", "the figure code ran before it was asked for"
    section = page.get_by_role("region", name=states.step.title, exact=True)
    section.scroll_into_view_if_needed()
    key = away_from_default(section, states)
    data, _ = download(section, 0, labels)
    # No site address to cite without base_url: the copy's own, at that state.
    root, _ = check_figure(data, states, texts, 0, key, alone.as_uri(), site, explainer.title, slug)
    png, _ = download(section, 0, labels, "figure_png")
    assert png_size(png) == (2 * int(root.get("width")), 2 * int(root.get("height")))
    assert reader.blocked == [] and reader.errors == []


def test_the_figure_code_loads_only_when_asked(built_site, reader, site_states):
    out, _ = built_site
    labels = labels_of(site_states)
    page = reader.page
    loaded = []
    page.on("request", lambda request: loaded.append(request.url))
    page.goto((out / EXPLAINERS[0] / "index.html").as_uri())
    page.wait_for_function("window.lensa?.runtime && window.Plotly")
    page.mouse.wheel(0, 20000)
    page.wait_for_function("window.scrollY > 0")  # scrolled, and the charts that came into view are drawn
    wait_until_idle(page)
    assert not any("figure.js" in url for url in loaded)
    buttons = page.get_by_role("button", name=labels["figure"], exact=True)
    assert buttons.count() == page.locator("[data-chart]").count()
    buttons.first.focus()
    page.keyboard.press("Enter")  # a real button: the keyboard opens it too
    page.wait_for_function("window.lensa?.figure")
    assert sum("figure.js" in url for url in loaded) == 1
    assert buttons.first.get_attribute("aria-expanded") == "true"


def test_in_a_sandboxed_frame_without_downloads_the_figure_opens(built_site, browser, site_states, tmp_path):
    out, _ = built_site
    site, computed, prose = site_states
    labels = labels_of(site_states)
    slug = EXPLAINERS[0]
    states = first_step_with_controls(computed[slug])
    texts = prose[slug][computed[slug].index(states)]
    course = tmp_path / "course"
    course.mkdir()
    with PagesServer() as server:
        site_url = server.publish("site", out)
        host_url = server.publish("course", course)
        (course / "index.html").write_text(
            '<!doctype html><title>Course</title><iframe sandbox="allow-scripts" width="1000" height="800" '
            f'src="{site_url}embed/{slug}/step-{states.step.number}.html"></iframe>', "utf-8")
        context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
        page = context.new_page()
        downloads = []
        page.on("download", lambda download: downloads.append(download))
        page.goto(host_url + "index.html")
        frame = page.frame_locator("iframe")
        section = frame.get_by_role("region", name=states.step.title, exact=True)
        section.get_by_role("button", name=labels["figure"], exact=True).first.click()
        panel = frame.get_by_role("group", name=re.compile("^" + re.escape(labels["figure"] + ": ")))
        panel.get_by_role("button", name=labels["figure_svg"], exact=True).click()
        image = panel.get_by_role("img")
        image.wait_for()
        expect(image).to_have_attribute("src", re.compile(r"^data:image/svg\+xml"))
        wait_until_idle(page.frames[1])  # the click's work is done: a download it started would have begun
        source = image.get_attribute("src")
        context.close()
    assert downloads == [], "a frame without allow-downloads cannot save: the figure is opened instead"
    head, _, body = source.partition(",")
    assert head.startswith("data:image/svg+xml")
    data = base64.b64decode(body) if head.endswith(";base64") else unquote(body).encode()
    _, _, lines, link = read_figure(data)
    assert texts.summaries[states.default_key][0] in lines
    assert link.endswith(f"{slug}/index.html#step-{states.step.number}")


def test_a_published_site_cites_its_own_address_from_the_page_and_its_embeds(tmp_site, tmp_path, reader):
    base = "https://example.org/tiny/"
    out = build_with_base_url(tmp_site(), tmp_path / "published", base, THEMES)
    site = read_site(tmp_path / "published" / "content")
    labels = site.config.labels
    [explainer] = site.pages
    step = explainer.steps[0]
    page = reader.page
    for path in ("coin-flips/index.html", "embed/coin-flips/step-1.html", "offline/coin-flips.html"):
        page.goto((out / path).as_uri())
        page.wait_for_function("window.lensa?.runtime && window.Plotly")
        section = page.get_by_role("region", name=step.title, exact=True)
        data, _ = download(section, 0, labels)
        assert read_figure(data)[3] == f"{base}coin-flips/#step-1", path
    assert reader.blocked == [] and reader.errors == []
