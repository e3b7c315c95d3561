"""kinds/explainer/content.py: explainer.md, its steps and its quiz/ read into an Explainer; a problem
is one line at its file and line."""
import pytest

from generator.errors import ContentError
from generator.kinds.explainer import KIND


def test_an_explainer_is_read_with_its_steps_and_questions(coin_flips):
    site, _, _, _ = coin_flips
    [explainer] = site.pages
    assert explainer.title == "Coin Flips" and [s.title for s in explainer.steps] == ["Runs of Heads"]
    assert [c.name for c in explainer.steps[0].controls] == ["flips"] and len(explainer.quiz) == 1


def test_two_controls_of_one_name_are_an_error_at_the_second(tmp_site):
    content = tmp_site()
    step = content / "coin-flips" / "steps" / "01-runs.md"
    text = step.read_text("utf-8")
    control = text[text.index("[[controls]]"):text.index("[[readouts]]")]
    step.write_text(text.replace(control, control + control), "utf-8")
    with pytest.raises(ContentError) as failed:
        KIND.load(content / "coin-flips", [])
    [problem] = failed.value.problems
    assert "two controls are named 'flips'" in problem.message and problem.line
