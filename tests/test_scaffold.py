"""`new <slug>`: a working explainer that builds, passes check --strict,
appears in the series and works in a browser, without site.toml or any
existing file ever being rewritten."""
import re
import subprocess
import sys

import pytest

from generator.build import build
from generator.load.content import load_site
from generator.errors import GeneratorError
from generator.dev.scaffold import scaffold

from .conftest import ROOT, THEMES
from .content.reader import drawn_values


def cli(*args):
    return subprocess.run([sys.executable, "-m", "generator", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True)


def test_new_explainer_builds_checks_strict_and_joins_the_series(tmp_site, tmp_path):
    content = tmp_site()
    site_toml = (content / "site.toml").read_bytes()
    created = cli("new", "my-topic", "--content", content)
    assert created.returncode == 0, created.stderr
    assert "Added it to the series" in created.stdout

    # site.toml: the author's text untouched, one [[series]] table appended.
    after = (content / "site.toml").read_bytes()
    assert after.startswith(site_toml)
    assert after[len(site_toml):].decode() == (
        '\n[[series]]\nslug = "my-topic"\ntitle = "My Topic"\n'
        'subtitle = "A one-line promise of what the reader will understand"\n')

    checked = cli("check", "--strict", "--content", content)
    assert checked.returncode == 0 and checked.stderr == "", checked.stderr
    site = load_site(content)
    assert [e.slug for e in site.pages] == ["coin-flips", "my-topic"]
    step, spread = site.pages[1].steps
    assert len(step.controls) == 1 and len(step.readouts) == 1 and step.chart.kind == "bar"
    assert "{{" in step.prose  # the prose uses computed values
    # The second step shows more of the vocabulary: a toggle and a line chart.
    assert [c.kind for c in spread.controls] == ["buttons", "toggle"] and spread.chart.kind == "line"

    out = tmp_path / "out"
    built = cli("build", "--strict", "--content", content, "--out", out)
    assert built.returncode == 0, built.stderr
    index = (out / "index.html").read_text()
    assert 'href="my-topic/index.html"' in index and "My Topic" in index


def test_refuses_an_existing_folder_and_changes_nothing(tmp_site):
    content = tmp_site()
    before = (content / "site.toml").read_bytes()
    model = (content / "coin-flips" / "model.py").read_bytes()
    result = cli("new", "coin-flips", "--content", content)
    assert result.returncode == 1
    assert "already exists" in result.stderr and "Traceback" not in result.stderr
    assert (content / "site.toml").read_bytes() == before
    assert (content / "coin-flips" / "model.py").read_bytes() == model


def test_an_explainer_already_listed_is_not_listed_twice(tmp_site):
    content = tmp_site()  # site.toml plans "dice" without a folder
    before = (content / "site.toml").read_bytes()
    made = scaffold(content, "dice")
    assert not made.added_to_series
    assert (content / "site.toml").read_bytes() == before
    assert 'title = "Dice"' in (content / "dice" / "explainer.md").read_text()
    assert [e.slug for e in load_site(content).pages] == ["coin-flips", "dice"]


@pytest.mark.parametrize("slug", ["My Topic", "my_topic", "-topic", "topic-", ""])
def test_refuses_a_bad_slug(tmp_site, slug):
    content = tmp_site()
    with pytest.raises(GeneratorError, match="expected a slug"):
        scaffold(content, slug)
    assert sorted(p.name for p in content.iterdir()) == ["coin-flips", "site.toml"]


def test_refuses_when_series_is_an_inline_list(tmp_site):
    content = tmp_site({"site.toml": 'title = "T"\nseries = [{slug = "coin-flips", title = "Coin Flips"}]\n'})
    before = (content / "site.toml").read_bytes()
    with pytest.raises(GeneratorError, match="add it by hand"):
        scaffold(content, "my-topic")
    assert (content / "site.toml").read_bytes() == before
    assert not (content / "my-topic").exists()


def test_a_title_with_quotes_stays_valid_toml(tmp_site):
    content = tmp_site()
    scaffold(content, "quotes", title='The "Best" Path \\ Ever')
    explainer = {e.slug: e for e in load_site(content).pages}["quotes"]
    assert explainer.title == 'The "Best" Path \\ Ever'


def test_the_new_explainer_works_in_the_browser(tmp_site, tmp_path, offline_page):
    content = tmp_site()
    scaffold(content, "my-topic")
    out = tmp_path / "out"
    result = build(content, out, THEMES, strict=True)
    computed, spread = result.computed["my-topic"]
    page = offline_page.page
    page.goto((out / "my-topic" / "index.html").as_uri())
    page.wait_for_function("window.explainerRuntime && window.Plotly")
    section = page.get_by_role("region", name=computed.step.title, exact=True)
    chart = section.locator("[data-chart]")
    chart.locator(".main-svg").first.wait_for()
    group = section.get_by_role("group", name="Temperature", exact=True)
    control = computed.step.controls[0]
    seen = set()
    for index, value in enumerate(control.values):
        group.get_by_role("button", name=f"T = {value}", exact=True).click()
        state = computed.by_key(str(index))
        assert section.locator("dl dd").all_inner_texts() == state.readouts
        prose = section.locator("[data-prose]").inner_text()
        assert f"At temperature {value}" in prose
        assert re.search(rf"{re.escape(state.values['top_word'])}\s+a probability of {state.readouts[0]}", prose)
        [drawn] = drawn_values(chart)
        assert drawn == pytest.approx(state.chart["y"], abs=1e-4)
        seen.add((tuple(section.locator("dl dd").all_inner_texts()), prose, tuple(drawn)))
    assert len(seen) == len(control.values)  # every click changed readout, prose and chart
    # The second step: a line chart whose rule follows the temperature, and a toggle.
    section = page.get_by_role("region", name=spread.step.title, exact=True)
    section.scroll_into_view_if_needed()
    chart = section.locator("[data-chart]")
    chart.locator(".main-svg").first.wait_for()
    toggle = section.get_by_role("button", name="Keep the top two", exact=True)
    assert toggle.get_attribute("aria-pressed") == "false"
    for pressed in (True, False):
        toggle.click()
        assert toggle.get_attribute("aria-pressed") == ("true" if pressed else "false")
        state = next(s for s in spread.states if s.choice == {"temperature": 1.0, "top_two": pressed})
        assert section.locator("dl dd").all_inner_texts() == state.readouts
        assert [pytest.approx(line, abs=1e-4) for line in state.chart["y"]] == drawn_values(chart)
    section.get_by_role("group", name="Temperature", exact=True).get_by_role("button", name="T = 2.0").click()
    rule = chart.evaluate("el => el.layout.shapes.map(shape => shape.x0)")
    assert 2.0 in rule
    assert offline_page.blocked == [] and offline_page.errors == []
