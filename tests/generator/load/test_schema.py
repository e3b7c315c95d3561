"""The typed schema: every problem in a table collected, each pointing at its
line (also inside arrays of tables and sub-tables), and site options that shape
every page, each bad value one clear error that names the option."""
from pathlib import Path

import pytest

from generator.load import schema
from generator.load.toml_lines import line_of
from generator.load import validation
from generator.kinds.explainer import schema as explainer_schema
from generator.build import read_site
from generator.errors import ContentError

from tests.conftest import FIXTURES

CONFIG = (FIXTURES / "tiny" / "content" / "site.toml").read_text("utf-8")


def problem(content):
    with pytest.raises(ContentError) as info:
        read_site(content)
    [found] = info.value.problems
    return found


def with_config(tmp_site, lines: str):
    head, _, series = CONFIG.partition("[[series]]")
    return tmp_site({"site.toml": f"{head}{lines}\n\n[[series]]{series}"})


@pytest.mark.parametrize("lines, field, message", [
    ('base_url = "https://user.github.io/repo/?ref=x"', "base_url", "without spaces, query or fragment"),
    ('base_url = "/repo/"', "base_url", "with a scheme"),
    ('language = "english please"', "language", "language tag"),
    ('[labels]\nstep_of = "Step {number} of {total}"', "labels.step_of", "unknown placeholder {number}"),
    ('[labels]\ndate_format = "{d}/{m}/{y}"', "labels.date_format", "unknown placeholder {d}"),
    ('[labels]\nmonths = ["Jan", "Feb"]', "labels.months", "expected 12 month names"),
    ('[labels]\nhome = ""', "labels.home", None),
])
def test_bad_site_options_are_named(tmp_site, lines, field, message):
    found = problem(with_config(tmp_site, lines))
    assert found.field == field and str(found.path).endswith("site.toml")
    if message:
        assert message in found.message


def test_base_url_gets_one_trailing_slash(tmp_site):
    site = read_site(with_config(tmp_site, 'base_url = "https://user.github.io/repo"'))
    assert site.config.base_url == "https://user.github.io/repo/"


def test_an_empty_question_is_an_error(tmp_site):
    content = tmp_site()
    explainer = content / "coin-flips" / "explainer.md"
    explainer.write_text(explainer.read_text("utf-8").replace('"What is a coin flip?"', '"  "'), "utf-8")
    found = problem(content)
    assert found.field == "question" and "must not be empty" in found.message

STEP = '''+++
title = "T"
compute = "f"

[[controls]]
name = "a"
label = "A"
values = [1, 2]
default = 1

[[controls]]
name = "b"
label = 7
values = [1, 2]
default = 1
colour = "red"

[chart]
kind = "bar"
height = 5000
+++
Prose with title = "not a key".
'''


def validate(text, table):
    import tomllib

    front = text.split("+++")[1]
    return validation.validate(tomllib.loads(front), table, Path("step.md"), text)


def test_problems_in_nested_tables_point_at_their_own_lines():
    _, errors, warnings = validate(STEP, explainer_schema.STEP)
    found = {p.field: p.line for p in errors}
    assert found == {"controls[1].label": 13, "chart.height": 20}
    [warning] = warnings
    assert (warning.field, warning.line) == ("controls[1].colour", 16)


def test_a_missing_key_in_a_table_points_at_the_table():
    text = STEP.replace('kind = "bar"\n', "")
    _, errors, _ = validate(text, explainer_schema.STEP)
    assert {p.field: p.line for p in errors}["chart.kind"] == 18


def test_every_option_has_a_docstring_and_a_type():
    for table in (schema.SITE, schema.LABELS, schema.SERIES_ENTRY, explainer_schema.EXPLAINER, schema.REFERENCE,
                  explainer_schema.STEP, explainer_schema.CONTROL, explainer_schema.READOUT, explainer_schema.CHART):
        for key, option in table.items():
            assert option.doc.strip() and option.types, key


def test_line_of_ignores_the_markdown_body():
    assert line_of(STEP, "title") == 2
    assert line_of(STEP, "kind", "chart.") == 19
    assert line_of(STEP, "nothing") is None
