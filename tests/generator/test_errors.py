"""errors.py: one line per problem, and the one place a message suggests a near name."""
from pathlib import Path

from generator.errors import ContentError, Problem, closest, did_you_mean, report_lines


def test_did_you_mean_names_the_nearest():
    assert did_you_mean("sumary", ["summary", "title"]) == " (did you mean 'summary'?)"
    assert did_you_mean("zzz", ["summary"]) == "" and did_you_mean("title", ["title"]) == ""
    assert closest("k1", ["k2", "zz"], cutoff=0.5) == "k2"


def test_a_problem_is_one_line_with_its_file_and_line():
    error = ContentError([Problem(Path("content/a.md"), "bad", 3, "title")])
    [line, *_] = report_lines(error, [])
    assert "content/a.md:3" in line and "title" in line and "bad" in line
