"""`new <slug>`: a working explainer that builds, appears in the series where
the author says (or at its end, saying so) and works in a browser, without
site.toml or any existing file ever being rewritten; its placeholder text is
named by `check` and refused by `check --strict` until the author replaces it."""
import re
import subprocess
import sys

import pytest

from generator.build import build
from generator.build import read_site
from generator.errors import GeneratorError
from generator.dev.scaffold import scaffold

from tests.conftest import ROOT, THEMES
from tests.content.reader import drawn_values


def cli(*args):
    return subprocess.run([sys.executable, "-m", "generator", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True)


def make_it_mine(folder):
    """What an author does next: every paragraph, title and placeholder the starter wrote,
    written over (here, by a word of the author's in its first line)."""
    from generator.dev.leftovers import _starter_texts

    for path in folder.rglob("*.md"):
        text = path.read_text()
        for unit in _starter_texts():
            at = unit.first_line.find(" ", unit.first_line.rfind("}") + 1)  # after its first word, past any tag
            text = text.replace(unit.first_line, unit.first_line[:at] + " mine" + unit.first_line[at:])
        path.write_text(text)


def test_new_explainer_builds_joins_the_series_and_checks_strict_once_its_placeholders_are_replaced(tmp_site,
                                                                                                     tmp_path):
    content = tmp_site()
    site_toml = (content / "site.toml").read_bytes()
    created = cli("new", "my-topic", "--content", content, "--subtitle", "Where the numbers come from")
    assert created.returncode == 0, created.stderr
    assert "at the end of the series" in created.stdout

    # site.toml: the author's text untouched, one [[series]] table after the last, saying so.
    after = (content / "site.toml").read_bytes()
    assert after.startswith(site_toml)
    assert after[len(site_toml):].decode() == (
        '\n# my-topic: added by `new` at the end of the series; move this table to its place in the reading '
        'order.\n[[series]]\nslug = "my-topic"\ntitle = "My Topic"\nsubtitle = "Where the numbers come from"\n')
    assert 'subtitle = "Where the numbers come from"' in (content / "my-topic" / "explainer.md").read_text()

    # The starter's own question, description, introduction... and steps: check names each, --strict refuses.
    checked = cli("check", "--content", content)
    assert checked.returncode == 0, checked.stderr
    leftovers = [line for line in checked.stderr.splitlines() if line.startswith("warning:")]
    fields = [re.search(r"\.md:\d+: (?:(\S+): )?the starter's", line).group(1) for line in leftovers]
    assert fields == ["question", "description", "intro", "key-ideas", "questions", None, None, None], leftovers
    assert '"What does temperature do to a softmax?"' in leftovers[0]
    assert "quiz/01-top-word.md:" in leftovers[5] and 'example question ("top-word")' in leftovers[5]
    assert "01-temperature.md:" in leftovers[6] and "example step" in leftovers[6]
    strict = cli("check", "--strict", "--content", content)
    assert strict.returncode == 1 and "8 warnings, which --strict counts as errors" in strict.stderr

    make_it_mine(content / "my-topic")
    checked = cli("check", "--strict", "--content", content)
    assert checked.returncode == 0 and checked.stderr == "", checked.stderr
    site = read_site(content)
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


def test_the_starter_asks_a_question_its_model_answers(tmp_site, tmp_path):
    """The starter shows the questions feature: one choice question, scored, whose options and right
    answer its model computes, and whose text is true of the state it names."""
    content = tmp_site()
    scaffold(content, "my-topic")
    site = read_site(content)
    [question] = site.pages[1].quiz
    assert (question.id, question.kind, question.state) == ("top-word", "choice", {"temperature": 2.0})
    assert site.kind_of(site.pages[1]).scored(site.pages[1]) == 1
    result = build(content, tmp_path / "out", THEMES)
    state = next(s for s in result.computed["my-topic"][0].states if s.choice == {"temperature": 2.0})
    probabilities = state.chart["y"]
    # "the choice evens out" at T = 2.0: the bars are closer than at T = 1.0, in the same order.
    at_one = next(s for s in result.computed["my-topic"][0].states if s.choice == {"temperature": 1.0})
    assert max(probabilities) - min(probabilities) < max(at_one.chart["y"]) - min(at_one.chart["y"])
    assert sorted(range(4), key=probabilities.__getitem__) == sorted(range(4), key=at_one.chart["y"].__getitem__)
    assert state.values["top_word"] == state.values["words"][probabilities.index(max(probabilities))] == "mat"
    page = (tmp_path / "out" / "my-topic" / "index.html").read_text()
    assert "Check your understanding" in page and "Which word still gets" in page
    assert "<strong>mat</strong>, with 42%" in page  # the right feedback, shown with scripts off


# A site.toml laid out as the series' own: a comment before the series, and one before [[extra]].
SERIES_TOML = """title = "A Series"
description = "Explainers in order, and two beside them."
play = "spotlight"

# The numbered series, in reading order.
[[series]]
slug = "self-attention"
title = "How Self-Attention Works"
subtitle = "One word looking at the others"

[[series]]
slug = "multi-head-attention"
title = "How Multi-Head Attention Works"
subtitle = "Several heads at once"

# Related explainers that are not part of the numbered series.
[[extra]]
slug = "bert-masked-language-modeling"
title = "BERT & Masked Language Modeling"
subtitle = "Hide a word and guess it"

[[extra]]
slug = "spotlight"
title = "Spotlight"
subtitle = "A game"
"""


def test_the_entry_goes_where_the_author_says(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    original = SERIES_TOML
    (content / "site.toml").write_text(original)
    scaffold(content, "momentum", after="self-attention", subtitle="Keeping part of the last step")
    scaffold(content, "adam", before="spotlight")
    text = (content / "site.toml").read_text()
    assert text.replace('[[series]]\nslug = "momentum"\ntitle = "Momentum"\nsubtitle = "Keeping part of the last '
                        'step"\n\n', "").replace('[[extra]]\nslug = "adam"\ntitle = "Adam"\n\n', "") == original
    import tomllib
    table = tomllib.loads(text)
    assert [e["slug"] for e in table["series"]][:2] == ["self-attention", "momentum"]
    assert [e["slug"] for e in table["extra"]] == ["bert-masked-language-modeling", "adam", "spotlight"]
    # The end of the series, by default: before the comment that opens [[extra]], not under it.
    scaffold(content, "gradient-descent")
    text = (content / "site.toml").read_text()
    assert text.index('slug = "gradient-descent"') < text.index("# Related explainers")
    assert [e["slug"] for e in tomllib.loads(text)["series"]][-1] == "gradient-descent"
    with pytest.raises(GeneratorError, match="lists no 'nope'"):
        scaffold(content, "other", after="nope")
    assert not (content / "other").exists()


def test_new_asks_for_the_subtitle_when_the_terminal_can_answer(tmp_site, monkeypatch, capsys):
    from generator import cli as command

    content = tmp_site()
    monkeypatch.setattr("sys.stdin.isatty", lambda: True, raising=False)
    monkeypatch.setattr("sys.stdout.isatty", lambda: True, raising=False)
    monkeypatch.setattr("builtins.input", lambda prompt: "  Asked for, and given  ")
    assert command.main(["new", "asked", "--content", str(content)]) == 0
    assert 'subtitle = "Asked for, and given"' in (content / "asked" / "explainer.md").read_text()
    assert 'subtitle = "Asked for, and given"' in (content / "site.toml").read_text()


def test_without_a_subtitle_none_is_made_up(tmp_site):
    content = tmp_site()
    made = cli("new", "quiet", "--content", content)  # no terminal to ask at
    assert made.returncode == 0 and "no subtitle yet" in made.stdout
    assert 'subtitle = ""' in (content / "quiet" / "explainer.md").read_text()
    assert "subtitle" not in (content / "site.toml").read_text().split('slug = "quiet"')[1]


def test_check_warns_about_the_placeholder_subtitle_an_older_new_wrote(tmp_site):
    from generator.dev.leftovers import SUBTITLE_PLACEHOLDER

    content = tmp_site()
    site_toml = (content / "site.toml").read_text().replace("Not written yet.", SUBTITLE_PLACEHOLDER)
    (content / "site.toml").write_text(site_toml)
    warnings = []
    read_site(content, warnings)
    [warning] = warnings
    assert warning.path == content / "site.toml" and warning.line == 12 and warning.field == "subtitle"


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
    assert [e.slug for e in read_site(content).pages] == ["coin-flips", "dice"]


@pytest.mark.parametrize("slug", ["My Topic", "my_topic", "-topic", "topic-", ""])
def test_refuses_a_bad_slug(tmp_site, slug):
    content = tmp_site()
    with pytest.raises(GeneratorError, match="expected a slug"):
        scaffold(content, slug)
    assert sorted(p.name for p in content.iterdir()) == ["coin-flips", "site.toml"]


@pytest.mark.parametrize("slug", ["embed", "offline", "figures", "assets"])
def test_refuses_a_slug_that_names_a_folder_of_the_build(tmp_site, slug):
    """Every build writes these beside the pages: an explainer of that name would share their paths."""
    content = tmp_site()
    before = (content / "site.toml").read_bytes()
    with pytest.raises(GeneratorError, match=f"'{slug}' is a folder every build writes beside the pages"):
        scaffold(content, slug)
    assert sorted(p.name for p in content.iterdir()) == ["coin-flips", "site.toml"]
    assert (content / "site.toml").read_bytes() == before


def test_refuses_a_slug_too_long_for_its_files(tmp_site):
    content = tmp_site()
    with pytest.raises(GeneratorError, match="expected a slug of at most 80 characters, found one of 300"):
        scaffold(content, "a" * 300)
    assert sorted(p.name for p in content.iterdir()) == ["coin-flips", "site.toml"]


def test_a_title_given_as_the_slug_is_answered_with_its_slug(tmp_site):
    """`lensa new "Convolution Filter"` suggests the slug the title makes, and changes nothing."""
    content = tmp_site()
    before = sorted(p.relative_to(content) for p in content.rglob("*")), (content / "site.toml").read_text()
    done = cli("new", "Convolution Filter", "--subtitle", "x", "--content", content)
    assert done.returncode == 1
    assert done.stderr.splitlines()[0] == ("error: Convolution Filter: expected a slug of lowercase letters, digits "
                                           "and hyphens, found 'Convolution Filter' (did you mean "
                                           "'convolution-filter'?)")
    assert (sorted(p.relative_to(content) for p in content.rglob("*")), (content / "site.toml").read_text()) == before


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
    explainer = {e.slug: e for e in read_site(content).pages}["quotes"]
    assert explainer.title == 'The "Best" Path \\ Ever'


def test_the_new_explainer_works_in_the_browser(tmp_site, tmp_path, offline_page):
    content = tmp_site()
    scaffold(content, "my-topic")
    out = tmp_path / "out"
    warnings = []
    result = build(content, out, THEMES, warnings=warnings)
    assert all("the starter's" in w.message for w in warnings)  # its example text, left for the author
    computed, spread = result.computed["my-topic"]
    page = offline_page.page
    page.goto((out / "my-topic" / "index.html").as_uri())
    page.wait_for_function("window.lensa?.runtime && window.Plotly")
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
