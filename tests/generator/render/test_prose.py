"""Prose templates: an undefined value or a syntax error names the
explainer, the step, the template part and the file line."""
import json
import re

import markdown
import pytest

from generator.build import build
from generator.build import read_site
from generator.errors import ContentError
from generator.render.prose import render_prose
from generator.compute.states import compute_site

from tests.conftest import FIXTURES, THEMES

STEP = (FIXTURES / "tiny/content/coin-flips/steps/01-runs.md").read_text()


def prose_problem(content):
    site = read_site(content)
    with pytest.raises(ContentError) as info:
        render_prose(site, compute_site(site))
    [problem] = info.value.problems
    return problem


def test_hint_may_not_use_a_value_that_changes(tmp_site):
    content = tmp_site({"coin-flips/steps/01-runs.md": STEP.replace("Click **3**.", "Click **{{ flips }}**.")})
    problem = prose_problem(content)
    assert problem.field == "hint" and problem.line == 31
    assert "explainer coin-flips, step 1" in problem.message and "template hint" in problem.message
    assert "changes with the controls" in problem.message


def test_an_undefined_value_in_the_summary_points_at_its_line(tmp_site):
    content = tmp_site({"coin-flips/steps/01-runs.md": STEP.replace("A run of {{ flips }}", "A run of {{ runs }}")})
    problem = prose_problem(content)
    assert (problem.field, problem.line) == ("summary", 5)
    assert "undefined value 'runs'" in problem.message and "template summary" in problem.message


def test_a_misspelt_value_in_prose_or_a_summary_gets_the_name_the_model_returns(tmp_site):
    content = tmp_site({"coin-flips/steps/01-runs.md": STEP.replace("A run of {{ flips }}", "A run of {{ flip }}")})
    assert "undefined value 'flip' (did you mean 'flips'?)" in prose_problem(content).message
    content = tmp_site({"coin-flips/steps/01-runs.md": STEP.replace("With {{ flips }}", "With {{ outcome }}")})
    assert "undefined value 'outcome' (did you mean 'outcomes'?)" in prose_problem(content).message


def test_a_misspelt_list_readout_or_chart_key_gets_the_model_s_name(tmp_site):
    def problem_of(files):
        site = read_site(tmp_site(files))
        with pytest.raises(ContentError) as info:
            compute_site(site)
        return info.value.problems[0].message
    assert "model.py defines no list 'FLIP' (did you mean 'FLIPS'?)" in problem_of(
        {"coin-flips/steps/01-runs.md": STEP.replace('values = "FLIPS"', 'values = "FLIP"')})
    assert "returned no value 'outcome' (did you mean 'outcomes'?)" in problem_of(
        {"coin-flips/steps/01-runs.md": STEP.replace('value = "outcomes"', 'value = "outcome"')})
    model = (FIXTURES / "tiny/content/coin-flips/model.py").read_text()
    assert "unknown key 'highlite' (did you mean 'highlight'?)" in problem_of(
        {"coin-flips/model.py": model.replace('"highlight"', '"highlite"')})


def test_a_syntax_error_in_deeper_points_at_its_line(tmp_site):
    content = tmp_site({"coin-flips/steps/01-runs.md": STEP + "\n::: deeper\nFine.\n{% if %}\n"})
    problem = prose_problem(content)
    assert problem.field == "deeper" and problem.line == 35 and "template syntax error" in problem.message


# Values inside Markdown: each state's own numbers, shown as text, one conversion per shape.

WORDS_MODEL = """
WORDS = ["plain", "*starred*", "<b>bold</b>", "1. listed", "a & b"]


def runs(word):
    return {"values": {"word": word, "length": len(word), "long": len(word) > 6},
            "chart": {"x": ["a", "b"], "y": [1.0, 2.0], "highlight": 0}}
"""

WORDS_STEP = """
+++
title = "Words"
compute = "runs"
summary = "The word {{ word }}."

[[controls]]
name = "word"
label = "Word"
values = "WORDS"
default = "plain"

[chart]
kind = "bar"
+++
{{ word }} has **{{ length }}** characters{% if long %}, a long one{% endif %}.
See [the word]({{ word }}) and `{{ word }}`.
"""


def state_prose(tmp_site, step: str = WORDS_STEP) -> dict[str, str]:
    content = tmp_site({"coin-flips/model.py": WORDS_MODEL, "coin-flips/steps/01-runs.md": step})
    result = build(content, None, THEMES)
    html = result.files["coin-flips/index.html"].decode()
    data = json.loads(re.search(r'id="explainer-data">(.*?)</script>', html, re.S).group(1))
    return {key: state["prose"] for key, state in data["steps"][0]["states"].items()}


def test_each_state_gets_its_own_values(tmp_site):
    prose = state_prose(tmp_site)
    assert prose["0"].startswith("<p>plain has <strong>5</strong> characters.")
    assert "has <strong>9</strong> characters, a long one." in prose["1"]


def test_values_are_text_never_markdown_or_html(tmp_site):
    prose = state_prose(tmp_site)
    assert "*starred* has" in prose["1"] and "<em>" not in prose["1"]
    assert "&lt;b&gt;bold&lt;/b&gt; has" in prose["2"] and "<b>" not in prose["2"]
    assert prose["3"].startswith("<p>1. listed has") and "<ol>" not in prose["3"]
    assert "a &amp; b has" in prose["4"]
    # Inside a link address and a code span, the value is escaped exactly once.
    assert 'href="a &amp; b"' in prose["4"] and "<code>a &amp; b</code>" in prose["4"]


def test_a_value_is_text_even_when_a_filter_marks_it_safe(tmp_site):
    """Prose holds only the HTML its author wrote: |safe cannot turn a value into markup."""
    prose = state_prose(tmp_site, WORDS_STEP.replace("{{ word }} has", "{{ word | safe }} has"))
    assert prose["2"].startswith("<p>&lt;b&gt;bold&lt;/b&gt; has") and "<b>" not in prose["2"]


@pytest.mark.parametrize("prose", [
    "See [the word]({{ 'javascript:alert(' ~ length ~ ')' }}).",   # a value that makes a link's address
    "See <b{{ {'onclick': word} | xmlattr }}>this</b>.",          # values that make an attribute
])
def test_values_inside_a_tag_are_checked_with_the_state(tmp_site, prose):
    step = WORDS_STEP.replace("See [the word]({{ word }}) and `{{ word }}`.", prose)
    content = tmp_site({"coin-flips/model.py": WORDS_MODEL, "coin-flips/steps/01-runs.md": step})
    problem = prose_problem(content)
    lines = step.lstrip("\n").splitlines()  # as the file is written
    line = lines.index(next(text for text in lines if prose in text)) + 1
    assert problem.line == line and "is not allowed in prose" in problem.message


def test_states_differing_only_in_values_share_one_markdown_conversion(tmp_site, tmp_path, monkeypatch):
    from generator.cache import disk as diskcache

    # Nothing remembered from earlier builds: each build's memory is its own cache's.
    monkeypatch.setenv(diskcache.CACHE_ENV, str(tmp_path / "empty-cache"))  # nor on disk
    texts = []
    original = markdown.Markdown.convert

    def counting(self, text):
        texts.append(text)
        return original(self, text)
    monkeypatch.setattr(markdown.Markdown, "convert", counting)
    prose = state_prose(tmp_site)
    state_texts = [t for t in texts if "characters" in t]
    # Five states, two shapes of sentence: with and without ", a long one".
    assert len(prose) == 5 and len(state_texts) == 2


def test_an_authors_private_use_characters_are_left_alone(tmp_site):
    step = WORDS_STEP.replace("{{ word }} has", "\ue000{{ word }}\ue001 has")
    prose = state_prose(tmp_site, step)
    assert prose["0"].startswith("<p>\ue000plain\ue001 has")


def test_a_negative_number_printed_as_it_is_has_the_minus_sign():
    from generator.render.prose import text_renderer
    from generator.render.templating import compile_string

    text = text_renderer()
    assert compile_string(text.text_env, "{{ a }} and {{ b }}").render(a=-0.5, b=3) == "\u22120.5 and 3"
    assert compile_string(text.html_env, "{{ a }}").render(a=-2) == "\u22122"  # no slots: the value itself


# --- Line breaks after a tag (Jinja's trim_blocks would drop them) ---------------------------

LINE_BREAKS = """Each step {{ verdict }}.{% if far %}
It lands farther from the minimum, on the other side.{% endif %}
Because the axis is logarithmic, both runs read.{# a note to the author #}
A last sentence, after a comment.
Line one.
{% if far %}A whole line that only a far run has.{% endif %}
Line three.

{% if far %}
A paragraph of its own.
{% endif %}

The last paragraph.{% if far -%}
 stripped on purpose{%- endif %}"""


def paragraphs(html: str) -> list[str]:
    return [" ".join(re.sub(r"<[^>]+>", "", p).split()) for p in re.findall(r"<p>(.*?)</p>", html, re.S)]


@pytest.mark.parametrize("trim_blocks", [True, False])
def test_a_sentence_that_ends_a_line_never_runs_into_the_next(trim_blocks):
    """Prose is Markdown, where a line break is a space: a tag at the end of a line keeps
    the line's break, whatever the environment's whitespace settings, and a line that a
    false condition empties leaves no blank line (which Markdown would read as a new
    paragraph) behind."""
    from generator.render.prose import render_markdown
    from generator.render.templating import make_env

    env = make_env(autoescape=True, prose=True, trim_blocks=trim_blocks)
    far = paragraphs(render_markdown(env.from_string(LINE_BREAKS).render(verdict="diverges", far=True)))
    assert far == ["Each step diverges. It lands farther from the minimum, on the other side. Because the axis is "
                   "logarithmic, both runs read. A last sentence, after a comment. Line one. A whole line that "
                   "only a far run has. Line three.", "A paragraph of its own.",
                   "The last paragraph.stripped on purpose"]
    near = paragraphs(render_markdown(env.from_string(LINE_BREAKS).render(verdict="converges", far=False)))
    assert near == ["Each step converges. Because the axis is logarithmic, both runs read. A last sentence, after "
                    "a comment. Line one. Line three.", "The last paragraph."]


def test_the_page_keeps_the_line_break_and_the_blank_line_after_a_tag(tmp_site):
    step = WORDS_STEP.replace("characters{% if long %}, a long one{% endif %}.\n",
                              "characters.{% if long %}\nA long one.{% endif %}\nThe end.\n\n"
                              "{% if long %}Its own paragraph.{% endif %}\n\nThe last.\n")
    prose = state_prose(tmp_site, step)
    assert paragraphs(prose["0"])[0] == "plain has 5 characters. The end."
    assert paragraphs(prose["1"]) == ["*starred* has 9 characters. A long one. The end.", "Its own paragraph.",
                                      "The last. See the word and *starred*."]
    assert paragraphs(prose["0"])[1:] == ["The last. See the word and plain."]


def test_raw_text_keeps_its_tags_as_written():
    from generator.render.templating import make_env

    env = make_env(autoescape=False, prose=True)
    assert env.from_string("{% raw %}{% if x %}\nshown{% endraw %}\nnext").render() == "{% if x %}\nshown\nnext"


# Numbers that agree with their sentence: the bound and plural filters in a step's prose.

def test_a_count_and_its_words_agree_in_every_state(tmp_site):
    step = STEP.replace("With {{ flips }} flips there are", "{{ flips | count('flip') }} {{ flips | plural('gives', "
                        "'give') }} {{ outcomes | count('outcome') }}; all heads stays above "
                        "{{ probability | lower_bound(2) }}, and")
    site = read_site(tmp_site({"coin-flips/steps/01-runs.md": step}))
    prose = render_prose(site, compute_site(site))["coin-flips"][0].states
    assert prose["0"][0].startswith("<p>1 flip gives 2 outcomes; all heads stays above 0.49, and")
    assert prose["2"][0].startswith("<p>3 flips give 8 outcomes; all heads stays above 0.12, and")


def test_a_bound_that_says_nothing_in_one_state_is_an_error_naming_it(tmp_site):
    step = STEP.replace("With {{ flips }} flips", "All heads stays above {{ probability | lower_bound(1, limit=0.1) }}.")
    problem = prose_problem(tmp_site({"coin-flips/steps/01-runs.md": step}))
    assert problem.field == "prose" and "explainer coin-flips, step 1" in problem.message
    assert "rounds to 0.1, as far as it can go" in problem.message and "(state flips=3)" in problem.message
