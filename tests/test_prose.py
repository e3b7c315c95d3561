"""Prose templates: an undefined value or a syntax error names the
explainer, the step, the template part and the file line."""
import pytest

from generator.content import load_site
from generator.errors import ContentError
from generator.prose import render_prose
from generator.states import compute_site

from .conftest import FIXTURES

STEP = (FIXTURES / "tiny/content/coin-flips/steps/01-runs.md").read_text()


def prose_problem(content):
    site = load_site(content)
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


def test_a_syntax_error_in_deeper_points_at_its_line(tmp_site):
    content = tmp_site({"coin-flips/steps/01-runs.md": STEP + "\n::: deeper\nFine.\n{% if %}\n"})
    problem = prose_problem(content)
    assert problem.field == "deeper" and problem.line == 35 and "template syntax error" in problem.message
