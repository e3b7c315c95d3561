"""An explainer's questions (kinds/explainer/quiz/) in Python: read from quiz/,
resolved against the computed states, shown on the page, its embeds and in its
data, and every mistake in a question file reported at its file, line and field
(tests/fixtures/invalid/quiz-* run the same through the command line)."""
from __future__ import annotations

import json
import re

import pytest

from generator.build import build
from generator.errors import ContentError
from generator.outputs.scorm import scorm_packages

from tests.conftest import THEMES

QUESTION = """\
+++
kind = "{kind}"
step = "runs"
{extra}
+++
{text}

::: right
Right: {{{{ outcomes }}}} outcomes.

::: wrong
Count again.
"""


# The tiny site's one step, asked about: a number, read in the state of three flips.
OUTCOMES = """\
+++
kind = "number"
step = "runs"
state = { flips = 3 }
answer = "outcomes"
distractors = "[flips * 2]"
+++
How many outcomes do {{ flips }} flips have?

::: right
Each flip doubles them: {{ outcomes | count }}.

::: wrong
Each flip doubles the outcomes; it does not add two.
"""


@pytest.fixture
def site(tmp_site):
    """The tiny fixture site with a question (OUTCOMES), then `files` over it."""
    return lambda files=None: tmp_site({"coin-flips/quiz/01-outcomes.md": OUTCOMES, **(files or {})})


def question(kind: str = "number", extra: str = 'answer = "outcomes"', text: str = "How many outcomes?") -> str:
    return QUESTION.format(kind=kind, extra=extra, text=text)


def problems(site, files: dict) -> list[str]:
    """The problems a check of the tiny site with `files` reports, one line each."""
    with pytest.raises(ContentError) as raised:
        build(site(files), None, THEMES)
    return [problem.describe() for problem in raised.value.problems]


def built(site, files: dict):
    return build(site(files), None, THEMES)


def data_of(html: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="quiz-data">(.*?)</script>', html, re.S).group(1))


def test_each_kind_of_question_is_resolved_from_the_states(site):
    result = built(site, {
        "coin-flips/quiz/02-chance.md": question("choice", 'state = { flips = 3 }\noptions = "[probability, '
                                                 'probability * 2, 0.5]"\nanswer = "probability"'),
        "coin-flips/quiz/03-unlikely.md": question("chart", 'goal = "probability < 0.2"'),
    })
    html = result.files["coin-flips/index.html"].decode()
    data = data_of(html)
    assert [q["id"] for q in data["questions"]] == ["outcomes", "chance", "unlikely"]
    number, choice, chart = data["questions"]
    assert (number["kind"], number["answer"], number["tolerance"]) == ("number", 8, 0)
    assert (choice["kind"], choice["correct"]) == ("choice", [0])
    # Each option is named (for an LMS's records) by its input's value, made of its text.
    assert re.findall(r'name="question-chance" value="([^"]+)"', html) == ["0-125", "0-25", "0-5"]
    assert (chart["kind"], chart["step"], chart["keys"], chart["example"]) == ("chart", 1, ["2"], [["flips", "3"]])
    assert data["mastery"] == 0.8 and data["storage"] == "lensa-quiz:coin-flips"
    # On the page: a fieldset per question, named by its legend, its answer behind a disclosure.
    assert html.count('<fieldset class="question"') == 3
    assert '<legend><span class="question-count">Question 2 of 3</span>' in html
    assert 'type="radio" name="question-chance"' in html and "<p class=\"quiz-answer-text\">Answer: 0.125</p>" in html
    assert 'href="#step-1&amp;s1=flips:3" data-quiz-explain' in html
    assert "One answer: step 1 with Flips: 3" in html


def test_a_step_embed_asks_only_about_its_step_and_the_page_loads_the_script_only_with_questions(site):
    content = site()
    result = build(content, None, THEMES)
    for path in ("coin-flips/index.html", "embed/coin-flips/index.html", "embed/coin-flips/step-1.html"):
        html = result.files[path].decode()
        assert html.count('<fieldset class="question"') == 1 and "assets/questions.js" in html, path
    assert "questions.js" not in result.files["index.html"].decode()
    (content / "coin-flips/quiz/01-outcomes.md").unlink()
    html = build(content, None, THEMES).files["coin-flips/index.html"].decode()
    assert "questions.js" not in html and 'id="quiz-data"' not in html and 'class="quiz"' not in html


def test_the_page_data_cannot_end_its_script(site):
    result = built(site, {"coin-flips/quiz/02-tags.md": question(
        "choice", 'options = ["</script><b>", "a & b"]\nanswer = ["a & b"]')})
    html = result.files["coin-flips/index.html"].decode()
    script = re.search(r'id="quiz-data">(.*?)</script>', html, re.S).group(1)
    assert "</script" not in script and "<b>" not in script
    assert 'value="script-b"><span>&lt;/script&gt;&lt;b&gt;</span></label>' in html


@pytest.mark.parametrize("extra, expected", [
    ('options = ["a", "b"]\nanswer = "outcomes"',
     "01-outcomes.md:4: options: a 'number' question has no options (options is for 'choice' questions)"),
    ('answer = "outcomes"\ngoal = "flips > 1"',
     "01-outcomes.md:5: goal: a 'number' question has no goal (goal is for 'chart' questions)"),
])
def test_a_key_of_another_kind_is_an_error(site, extra, expected):
    [line] = problems(site, {"coin-flips/quiz/01-outcomes.md": question(extra=extra)})
    assert line.endswith(expected), line


def test_several_right_options_need_multiple(site):
    extra = 'options = ["2", "4", "8"]\nanswer = ["4", "8"]'
    content = site({"coin-flips/quiz/01-outcomes.md": question("choice", extra)})
    with pytest.raises(ContentError) as raised:
        build(content, None, THEMES)
    [line] = [problem.describe() for problem in raised.value.problems]
    assert "01-outcomes.md:5: answer: 2 options are right (4, 8), but a reader picks one: set multiple = true" in line
    (content / "coin-flips/quiz/01-outcomes.md").write_text(question("choice", extra + "\nmultiple = true"), "utf-8")
    assert build(content, None, THEMES).files


@pytest.mark.parametrize("extra, field, expected", [
    ('goal = "outcomes"', "goal", "expected a condition, true or false, found 2 for flips=1"),
    ('goal = "flips >"', "goal", "cannot read the expression 'flips >'"),
    ('goal = "flips > 1"\nstate = { flips = 1 }', "state", "this state does not reach the goal 'flips > 1'"),
    ('goal = "flips > 1"\nstate = { flips = "1" }', "state", "this state does not reach the goal"),
])
def test_a_goal_must_be_a_condition_and_its_state_must_reach_it(site, extra, field, expected):
    [line] = problems(site, {"coin-flips/quiz/01-outcomes.md": question("chart", extra)})
    assert f": {field}: " in line and expected in line, line


def test_every_problem_of_every_question_file_is_reported_together(site):
    """What reading the files finds, in every file at once; then, once they read, what
    resolving them against the states finds, in every file at once."""
    lines = problems(site, {
        "coin-flips/quiz/01-outcomes.md": question(extra='answer = "outcomes"\nstate = { flip = 2 }'),
        "coin-flips/quiz/02-parts.md": "+++\nkind = \"number\"\nstep = 1\nanswer = 2\n+++\nHow many?\n",
        "coin-flips/quiz/03-step.md": question("chart", 'goal = "flips > 1"').replace('step = "runs"', "step = 2"),
    })
    assert len(lines) == 4, lines
    assert any("01-outcomes.md:5: state.flip: step 1 has no control 'flip'" in line for line in lines)
    assert any("02-parts.md: right: has no '::: right', the feedback on a right answer" in line for line in lines)
    assert any("02-parts.md: wrong: has no '::: wrong'" in line for line in lines)
    assert any("03-step.md:3: step: there is no step 2: the explainer has 1 steps" in line for line in lines)


def test_every_answer_that_cannot_be_resolved_is_reported_together(site):
    lines = problems(site, {
        "coin-flips/quiz/01-outcomes.md": question(extra='answer = "outcome"'),
        "coin-flips/quiz/02-goal.md": question("chart", 'goal = "probability > 2"'),
        "coin-flips/quiz/03-list.md": question(text="- a list\n- is no legend"),
    })
    assert len(lines) == 3, lines
    assert any("01-outcomes.md:4: answer: names 'outcome'" in line and "did you mean 'outcomes'?" in line
               for line in lines)
    assert any("02-goal.md:4: goal: no state of step 1 reaches the goal" in line for line in lines)
    assert any("03-list.md:6: question: a question starts with a paragraph" in line for line in lines)
def test_two_questions_may_not_share_a_name(site):
    lines = problems(site, {"coin-flips/quiz/02-outcomes.md": question()})
    assert len(lines) == 2 and all("another question's file has the name 'outcomes' too" in line for line in lines)


def test_an_unknown_key_is_a_warning_with_the_nearest_name(site):
    warnings = []
    build(site({"coin-flips/quiz/01-outcomes.md": question(extra='answer = "outcomes"\ntolerence = 1')}),
          None, THEMES, warnings=warnings)
    assert [w.describe().split("quiz/")[1] for w in warnings] == [
        "01-outcomes.md:5: tolerence: unknown key (did you mean 'tolerance'?); it is ignored"]


def test_the_mastery_score_reaches_the_page_and_the_manifests(site):
    content = site()
    config = content / "site.toml"
    config.write_text(config.read_text("utf-8").replace("[[series]]", "mastery_score = 70\n\n[[series]]", 1), "utf-8")
    result = build(content, None, THEMES)
    assert data_of(result.files["coin-flips/index.html"].decode())["mastery"] == 0.7
    manifests = {b.name: dict(b.entries)["imsmanifest.xml"].decode() for b in scorm_packages(result.site, result.files)}
    assert "<adlcp:masteryscore>70</adlcp:masteryscore>" in manifests["coin-flips-scorm12.zip"]
    assert "<imsss:minNormalizedMeasure>0.7</imsss:minNormalizedMeasure>" in manifests["coin-flips-scorm2004.zip"]


@pytest.mark.parametrize("value", ["0", "101", "\"80%\""])
def test_a_mastery_score_is_a_percentage(site, value):
    content = site()
    config = content / "site.toml"
    config.write_text(config.read_text("utf-8").replace("[[series]]", f"mastery_score = {value}\n\n[[series]]", 1),
                      "utf-8")
    with pytest.raises(ContentError) as raised:
        build(content, None, THEMES)
    [problem] = raised.value.problems
    assert problem.field == "mastery_score" and problem.line
