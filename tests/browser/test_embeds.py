"""Embeds: each explainer whole and each step alone, with minimal chrome, and
a course page on one localhost port that embeds steps served from another
port, as a Canvas page would (no script of its own)."""
import functools
import html
import json
import re
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest

from generator.build import build
from generator.build import read_site
from generator.render.prose import render_prose
from generator.kinds.explainer.pages import step_embed_code
from generator.render.urls import Urls
from generator.compute.states import compute_site

from tests.conftest import CONTENT, THEMES

SLUG = "multi-head-attention"


def payload(page_html):
    return json.loads(re.search(r'<script type="application/json" id="explainer-data">(.*?)</script>',
                                page_html, re.S).group(1))


@pytest.fixture
def tiny_build(tmp_site, tmp_path):
    out = tmp_path / "build"
    build(tmp_site(), out, THEMES)
    return out


def test_every_explainer_and_step_has_an_embed(tiny_build):
    whole = (tiny_build / "embed/coin-flips/index.html").read_text()
    step = (tiny_build / "embed/coin-flips/step-1.html").read_text()
    for page in (whole, step):
        assert "site-header" not in page and "series-nav" not in page and "site-footer" not in page
        assert '<meta name="robots" content="noindex">' in page
        link = re.search(r'<a href="([^"]+)" target="_blank" rel="noopener" data-state-link>', page)
        assert link, "an embed links to its full explainer, in a new tab"
        for script in ("runtime.js", "share.js", "frame.js", "plotly.min.js"):
            assert f"assets/{script}?v=" in page
    assert re.search(r'href="\.\./\.\./coin-flips/index\.html#step-1" target="_blank"', step)
    # A step embed has no pager to steps that are not in it, and no Embed button of its own.
    assert 'rel="next"' not in step and "data-embed-code" not in step
    assert 'data-embed-step="1"' in step and 'data-embed="coin-flips"' in whole


def test_a_step_embed_carries_only_its_own_step(built_site):
    out, result = built_site
    full = payload((out / SLUG / "index.html").read_text())
    explainer = next(page for page in result.site.pages if page.slug == SLUG)
    for number, step in enumerate(explainer.steps, start=1):
        page = (out / "embed" / SLUG / f"step-{number}.html").read_text()
        data = payload(page)
        assert len(data["steps"]) == 1
        assert set(data["steps"][0]["states"]) == set(full["steps"][number - 1]["states"])
        assert data["steps"][0]["default"] == full["steps"][number - 1]["default"]
        assert page.count('<section class="step"') == 1
        assert f'id="step-{number}"' in page and 'data-step="0"' in page
    whole = payload((out / "embed" / SLUG / "index.html").read_text())
    assert len(whole["steps"]) == len(explainer.steps)


def _resolved(node, pool, used):
    """`node` with every pool reference {"$": i} replaced by what it names; `used` collects i."""
    if isinstance(node, dict):
        if len(node) == 1 and "$" in node:
            used.add(node["$"])
            return _resolved(pool[node["$"]], pool, used)
        return {key: _resolved(value, pool, used) for key, value in node.items()}
    if isinstance(node, list):
        return [_resolved(item, pool, used) for item in node]
    return node


def test_a_step_embed_s_bytes_are_its_step_s_alone(built_site):
    """Every byte of a step embed's data is its own step's: the step as the explainer page
    carries it, and a pool with no array the step does not use; no other step's markup."""
    out, result = built_site
    for explainer in (page for page in result.site.pages if page.kind == "explainer"):
        full = payload((out / explainer.slug / "index.html").read_text())
        for number in range(1, len(explainer.steps) + 1):
            page = (out / "embed" / explainer.slug / f"step-{number}.html").read_text()
            data, used = payload(page), set()
            [step] = _resolved(data["steps"], data["pool"], used)
            own = _resolved(full["steps"][number - 1], full["pool"], set())
            # Links in the prose are written for the embed (one level up, a new tab): the same text.
            for states in (step["states"], own["states"]):
                for state in states.values():
                    state["prose"] = re.sub(r"<[^>]+>", "", state["prose"])
            assert step == own, (explainer.slug, number)
            assert used == set(range(len(data["pool"]))), f"{explainer.slug} step {number}: pooled arrays it never uses"
            others = {f'id="step-{n}"' for n in range(1, len(explainer.steps) + 1)} - {f'id="step-{number}"'}
            assert not any(anchor in page for anchor in others) and page.count("data-poster") <= len(step["charts"])


def test_the_explainer_and_each_step_offer_their_iframe_code(tiny_build):
    page = (tiny_build / "coin-flips/index.html").read_text()
    boxes = re.findall(r"(<textarea[^>]*data-embed-code[^>]*>)(.*?)</textarea>", page, re.S)
    site = read_site(tiny_build.parent / "content")
    explainer = site.pages[0]
    whole, step = step_embed_code(Urls("page/index.html", site.config.base_url), explainer, None), step_embed_code(Urls("page/index.html", site.config.base_url), explainer, explainer.steps[0])
    assert [html.unescape(code) for _, code in boxes] == [whole.html, step.html]
    assert whole.src == "../embed/coin-flips/index.html" and whole.height > step.height
    assert 'data-embed-src="../embed/coin-flips/step-1.html"' in boxes[1][0]
    assert page.count("data-embed-relative") == 2, "a relative address is explained"
    # Previews open the embeds themselves, from disk too.
    assert re.findall(r'<a href="([^"]+)" target="_blank" rel="noopener" data-embed-preview>', page) == [
        "../embed/coin-flips/index.html", "../embed/coin-flips/step-1.html"]


# ---- A course page on one port, the embeds on another ----

class QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def servers():
    """Two static servers on 127.0.0.1: yield (start, stop) helpers."""
    running = []

    def start(folder):
        server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(folder)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        running.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield start
    for server in running:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def expected():
    site = read_site(CONTENT)
    computed = compute_site(site)
    return computed[SLUG], render_prose(site, computed)[SLUG]


@pytest.fixture(scope="module")
def published(tmp_path_factory, servers):
    """The real content built with base_url set to where a server publishes it."""
    tmp_path = tmp_path_factory.mktemp("published")
    site_dir = tmp_path / "site"
    origin = servers(site_dir)  # served from the folder the build is about to write
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    config = content / "site.toml"
    config.write_text(f'base_url = "{origin}/"\n' + config.read_text())
    build(content, site_dir, THEMES)
    return origin, site_dir


def iframe_code(page_html, number):
    section = page_html.split(f'id="step-{number}"', 1)[1]
    return html.unescape(re.search(r"<textarea[^>]*data-embed-code[^>]*>(.*?)</textarea>", section, re.S).group(1))


RECORD_MESSAGES = """
if (window === window.top) {
  window.__messages = [];
  window.addEventListener("message", function (event) {
    var frames = Array.prototype.slice.call(document.querySelectorAll("iframe"));
    window.__messages.push({ data: event.data, origin: event.origin,
                             frame: frames.findIndex(function (f) { return f.contentWindow === event.source; }) });
  });
}
"""


def serve_course_page(servers, folder, name, title, body):
    """A page of a course site: a plain document holding what an author pasted, on its own port."""
    folder.mkdir()
    (folder / name).write_text("<!doctype html><html lang='en'><head><meta charset='utf-8'>"
                               f"<title>{title}</title></head><body>{body}</body></html>")
    return servers(folder)


def test_course_page_embeds_live_steps_from_another_origin(browser, published, servers, tmp_path, expected):
    origin, site = published
    steps, prose = expected
    page_html = (site / SLUG / "index.html").read_text()
    step3_code = iframe_code(page_html, 3)
    assert f'src="{origin}/embed/{SLUG}/step-3.html"' in step3_code
    # What an author pastes into an LMS page: the two iframes and nothing else.
    course_origin = serve_course_page(servers, tmp_path / "course", "week-3.html", "Week 3",
                                      f"<h1>Week 3</h1>{iframe_code(page_html, 1)}<p>Between the figures.</p>"
                                      f"{step3_code}")
    assert course_origin != origin

    context = browser.new_context(viewport={"width": 900, "height": 700})
    context.add_init_script(RECORD_MESSAGES)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{course_origin}/week-3.html")

    def messages(frame, kind):
        found = []
        for m in page.evaluate("window.__messages"):
            if m["frame"] != frame:
                continue
            data = json.loads(m["data"]) if isinstance(m["data"], str) else m["data"]
            if kind == "generic" and isinstance(data, dict) and data.get("type") == "lensa:resize":
                found.append((m, data))
            if kind == "canvas" and isinstance(m["data"], str) and data.get("subject") == "lti.frameResize":
                found.append((m, data))
        return found

    page.wait_for_function("""() => {
        const kinds = new Set(window.__messages.map(m => m.frame + ':' + (typeof m.data === 'string' ? 'canvas' : m.data.type)));
        return ['0:canvas', '0:lensa:resize', '1:canvas', '1:lensa:resize'].every(k => kinds.has(k));
    }""")
    for frame, number in ((0, 1), (1, 3)):
        (message, generic), = messages(frame, "generic")[-1:]
        assert message["origin"] == origin
        assert generic["version"] == 1 and generic["slug"] == SLUG and generic["step"] == number
        assert generic["height"] > steps[number - 1].step.chart.height
        _, canvas = messages(frame, "canvas")[-1]
        assert canvas["height"] == generic["height"]

    # The controls inside the iframe work, by role and name, as a reader uses them.
    embed = page.frame_locator(f'iframe[title="How Multi-Head Attention Works: {steps[2].step.title}"]')
    step = steps[2].step
    before = len(messages(1, "generic"))
    embed.get_by_role("group", name="Head", exact=True).get_by_role("button", name="Head 5").click()
    embed.get_by_role("group", name="Query", exact=True).get_by_role("button", name="mat", exact=True).click()
    key = f"{step.controls[0].values.index(5)}.{step.controls[1].values.index('mat')}"
    state = steps[2].by_key(key)
    assert embed.locator("dl dd").all_inner_texts() == state.readouts
    assert embed.locator("figcaption").inner_text() == prose[2].states[key][1]
    embed.locator("[data-chart] .main-svg").first.wait_for()
    # Every state change reports the height again.
    page.wait_for_function(f"window.__messages.filter(m => m.frame === 1 && m.data.type === 'lensa:resize').length >= {before + 2}")
    # The embed's own address holds its state, and its link to the full explainer carries it along.
    # (written when the reader pauses, a moment after the last click).
    frame = [f for f in page.frames if "step-3.html" in f.url][0]
    frame.wait_for_function("hash => location.hash === hash", arg="#step-3&s3=head:5,query:mat")
    assert frame.evaluate("location.href").endswith("step-3.html#step-3&s3=head:5,query:mat")
    link = embed.get_by_role("link", name=re.compile("Open the full explainer"))
    assert link.get_attribute("href") == f"{origin}/{SLUG}/index.html#step-3&s3=head:5,query:mat"
    assert errors == []
    context.close()


def test_host_helper_sizes_each_iframe_to_its_content(browser, published, servers, tmp_path):
    origin, site = published
    page_html = (site / SLUG / "index.html").read_text()
    # A deep link in the src opens the embed in that state.
    code = iframe_code(page_html, 3).replace("step-3.html", "step-3.html#s3=head:2,query:sat")
    host = serve_course_page(servers, tmp_path / "course", "page.html", "Course",
                             f"{code}{iframe_code(page_html, 6)}<script src='{origin}/assets/embed.js'></script>")
    context = browser.new_context(viewport={"width": 900, "height": 700})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{host}/page.html")
    frames = page.locator("iframe")
    for index in range(2):
        page.wait_for_function("i => document.querySelectorAll('iframe')[i].style.height !== ''", arg=index)
    embed = page.frame_locator("iframe").first
    group = embed.get_by_role("group", name="Head", exact=True)
    assert group.get_by_role("button", pressed=True).inner_text().startswith("Head 2")
    assert embed.get_by_role("group", name="Query", exact=True).get_by_role("button", pressed=True).inner_text() == "sat"
    # The iframe is as tall as the document inside it: no inner scrollbar.
    inner = [f for f in page.frames if "step-3.html" in f.url][0]
    content = inner.evaluate("Math.ceil(document.documentElement.getBoundingClientRect().height)")
    page.wait_for_function(f"Math.abs(parseFloat(document.querySelector('iframe').style.height) - {content}) <= 1")
    assert inner.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")
    # A message that does not come from an embed's own window resizes nothing.
    height = frames.first.evaluate("f => f.style.height")
    page.evaluate("""() => new Promise(done => {
        // Messages to one window arrive in order: once "checked" arrives, the forgery was handled.
        window.addEventListener("message", e => { if (e.data === "checked") done(); });
        window.postMessage({type: "lensa:resize", version: 1, height: 99}, "*");
        window.postMessage("checked", "*");
    })""")
    assert frames.first.evaluate("f => f.style.height") == height
    assert errors == []
    context.close()


def test_embed_button_copies_absolute_code(browser, published, built_site, servers):
    origin, _ = published
    plain = servers(built_site[0])  # a build without base_url, served over http
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    for site, expected_origin in ((origin, origin), (plain, plain)):
        page.goto(f"{site}/{SLUG}/index.html")
        page.wait_for_function("window.lensa?.share")
        section = page.get_by_role("region", name="Concatenation", exact=True)
        section.get_by_text("Embed", exact=True).click()
        box = section.get_by_role("textbox", name="Embed code (HTML)")
        # Without base_url, a page served over http still knows its address.
        assert box.input_value().startswith(f'<iframe src="{expected_origin}/embed/{SLUG}/step-4.html" ')
        assert not section.get_by_text("This address is relative").is_visible()
        section.get_by_role("group", name="Heads", exact=True).get_by_role("button", name="8").click()
        section.get_by_role("button", name="Copy code").click()
        section.get_by_role("status").filter(has_text="Copied.").wait_for()
        copied = page.evaluate("navigator.clipboard.readText()")
        assert copied == box.input_value()
        assert f'src="{expected_origin}/embed/{SLUG}/step-4.html#s4=heads:8"' in copied
    context.close()


def test_course_page_embeds_the_game_from_another_origin(browser, published, servers, tmp_path):
    """The game's Embed code, pasted into a course page on another port: it sizes
    itself through the same messages, and plays inside the frame."""
    origin, site = published
    page_html = (site / "spotlight" / "index.html").read_text()
    code = html.unescape(re.search(r"<textarea[^>]*data-embed-code[^>]*>(.*?)</textarea>", page_html, re.S).group(1))
    assert code.startswith(f'<iframe src="{origin}/embed/spotlight/index.html" title="Spotlight"')
    course = serve_course_page(servers, tmp_path / "course", "game.html", "Week 4", f"<h1>Week 4</h1>{code}")
    context = browser.new_context(viewport={"width": 900, "height": 700})
    context.add_init_script(RECORD_MESSAGES)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{course}/game.html")
    page.wait_for_function("window.__messages.some(m => m.data && m.data.type === 'lensa:resize' "
                           "&& m.data.slug === 'spotlight' && m.data.height > 300)")
    embed = page.frame_locator('iframe[title="Spotlight"]')
    region = embed.get_by_role("region", name="Agreement", exact=True)
    before = page.evaluate("window.__messages.length")
    region.get_by_role("group", name="Spotlight", exact=True).get_by_role("button", name="key", exact=True).click()
    answer = region.locator("xpath=.//dl/div[dt[normalize-space()='Answer']]/dd")
    assert answer.inner_text() == "is"
    # The lesson appears once the round is solved, and the frame reports its new height.
    assert region.get_by_role("region", name="What this round shows").is_visible()
    page.wait_for_function(f"window.__messages.length > {before}")
    link = embed.get_by_role("link", name=re.compile("Open the full game"))
    assert link.get_attribute("href") == f"{origin}/spotlight/index.html#round-1&spotlight=01000"
    assert errors == []
    context.close()


def test_host_helper_sizes_frames_on_a_page_opened_from_disk(browser, built_site, tmp_path):
    """A course page saved to disk beside the site: its frames' messages come from origin
    "null" while their src is a file: URL, and embed.js still sizes each frame by its window."""
    out, _ = built_site
    host = tmp_path / "course.html"
    host.write_text(f"""<!doctype html><html lang="en"><title>Course</title>
<script>window.origins = []; addEventListener("message", e => origins.push(e.origin));</script>
<iframe src="{(out / 'embed' / SLUG / 'step-1.html').as_uri()}" title="Step 1" width="100%" height="150"></iframe>
<script src="{(out / 'assets' / 'embed.js').as_uri()}"></script></html>""")
    page = browser.new_page()
    page.goto(host.as_uri())
    page.wait_for_function("document.querySelector('iframe').style.height !== ''")
    inner = [f for f in page.frames if f.url.endswith("step-1.html")][0]
    content = inner.evaluate("Math.ceil(document.documentElement.getBoundingClientRect().height)")
    assert set(page.evaluate("origins")) == {"null"} and content > 150
    page.wait_for_function(f"Math.abs(parseFloat(document.querySelector('iframe').style.height) - {content}) <= 1")
    page.close()

