"""Loading and validating content: typed errors that name the file, the line
and the field, all collected before stopping."""
import pytest

from generator.build import read_site
from generator.errors import ContentError


def problems(content):
    with pytest.raises(ContentError) as info:
        read_site(content)
    return info.value.problems


def test_tiny_site_loads(tmp_site):
    site = read_site(tmp_site())
    assert site.config.title == "Tiny Site"
    [explainer] = site.pages
    assert explainer.slug == "coin-flips"
    [step] = explainer.steps
    assert step.number == 1 and step.slug == "runs"
    assert step.controls[0].values_from == "FLIPS"
    assert [r.label for r in step.readouts] == ["Probability", "Outcomes"]
    assert site.warnings == []


def test_all_errors_in_a_file_are_collected(tmp_site):
    content = tmp_site({"site.toml": 'title = 3\nlanguage = ["en"]\nbase_url = "example.org"\n'})
    found = {p.field: p for p in problems(content)}
    assert set(found) == {"title", "language", "base_url"}
    assert "expected a string, found 3" in found["title"].message
    assert found["title"].line == 1 and found["base_url"].line == 3
    assert "with a scheme" in found["base_url"].message
    assert all(str(p.path).endswith("site.toml") for p in found.values())


def test_missing_required_fields(tmp_site):
    content = tmp_site({"coin-flips/steps/01-runs.md": '+++\ntitle = "Runs"\n+++\nText.\n'})
    fields = {p.field for p in problems(content)}
    assert {"compute", "chart"} <= fields


def test_unknown_keys_are_warnings_with_a_suggestion(tmp_site):
    content = tmp_site({"site.toml": 'title = "T"\ntitel = "typo"\n[[extra]]\nslug = "dice"\ntitle = "Dice"\nplanned = true\n'})
    site = read_site(content)
    [warning] = site.warnings
    assert warning.field == "titel" and "did you mean 'title'" in warning.message and warning.line == 2


def test_loading_again_reads_every_edit_and_gives_fresh_objects(tmp_site):
    """Parsed files are kept by their text (the dev server loads the site on every
    rebuild): an edit is read, a file's warnings come again, and what a build
    changes in what it loaded is not what the next load gives."""
    content = tmp_site({"site.toml": 'title = "T"\ntitel = "typo"\n[[extra]]\nslug = "dice"\ntitle = "Dice"\nplanned = true\n'})
    step_file = content / "coin-flips" / "steps" / "01-runs.md"
    first = read_site(content)
    [step] = first.pages[0].steps
    step.controls = []                       # as the build gives a step its resolved controls
    step.readouts.clear()
    again = read_site(content)
    [kept] = again.pages[0].steps
    assert kept is not step and len(kept.controls) == 1 and len(kept.readouts) == 2
    assert [w.field for w in again.warnings] == ["titel"]
    step_file.write_text(step_file.read_text("utf-8").replace("With {{ flips }} flips", "Edited: {{ flips }}")
                         .replace('title = "Runs of Heads"', 'title = "Runs"\ncolour = "red"'), "utf-8")
    edited = read_site(content)
    [step] = edited.pages[0].steps
    assert step.prose.startswith("Edited: ") and step.title == "Runs"
    assert sorted(w.field for w in edited.warnings) == ["colour", "titel"]


def test_default_must_be_one_of_the_literal_values(tmp_site):
    step = (FIXTURE_STEP.replace('values = "FLIPS"', "values = [1, 2]").replace("default = 2", "default = 5"))
    content = tmp_site({"coin-flips/steps/01-runs.md": step})
    [problem] = problems(content)
    assert problem.field == "controls[0].default" and "found 5" in problem.message


def test_empty_values_and_duplicate_series_slugs(tmp_site):
    content = tmp_site({
        "coin-flips/steps/01-runs.md": FIXTURE_STEP.replace('values = "FLIPS"', "values = []"),
        "site.toml": 'title = "T"\n[[series]]\nslug = "a"\ntitle = "A"\n[[series]]\nslug = "a"\ntitle = "B"\n',
    })
    messages = [p.message for p in problems(content)]
    assert any("at least one value" in m for m in messages)
    assert any("listed more than once" in m for m in messages)


FIXTURE_STEP = open(__import__("pathlib").Path(__file__).parents[2] / "fixtures/tiny/content/coin-flips/steps/01-runs.md").read()


@pytest.mark.parametrize("values, said", [
    ("[]", "must list at least one value"),
    ("[1, 1, 2]", "values must be unique"),
    ("[1, true, 2]", "values must be strings or numbers, found True"),
    ("[nan, inf, 2.0]", "values must be finite numbers, found nan"),
    ("[1, 2, -inf]", "values must be finite numbers, found -inf"),
    ("3", "expected a list or a string, found 3 (an integer)"),
])
def test_a_values_error_is_one_line(tmp_site, values, said):
    """Said once, at its key: never followed by 'is required' or a default that is not among them."""
    content = tmp_site({"coin-flips/steps/01-runs.md": FIXTURE_STEP.replace('values = "FLIPS"', f"values = {values}")})
    [problem] = problems(content)
    assert (problem.field, problem.line, problem.message) == ("controls[0].values", 10, said)
