"""kinds/explainer/quiz/content.py: a question file read: its kind, step and state, its parts; a
state naming no control of the step is an error at its line."""
import pytest

from generator.errors import ContentError
from generator.kinds.explainer import KIND
from tests.generator.kinds.explainer.conftest import QUESTION


def test_a_question_is_read(coin_flips):
    site, _, _, _ = coin_flips
    [question] = site.pages[0].quiz
    assert question.kind == "number" and question.step == 0 and question.state == {"flips": 3}  # step 1, from 0


def test_an_unknown_control_is_an_error_with_a_suggestion(tmp_site):
    content = tmp_site({"coin-flips/quiz/01-outcomes.md": QUESTION.replace("flips = 3", "flps = 3")})
    with pytest.raises(ContentError) as failed:
        KIND.load(content / "coin-flips", [])
    [problem] = failed.value.problems
    assert "did you mean 'flips'" in problem.message and problem.line == 4
