"""The typed schema: every problem in a table collected, each pointing at
its line, also inside arrays of tables and sub-tables."""
from pathlib import Path

from generator import schema

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
    return schema.validate(tomllib.loads(front), table, Path("step.md"), text)


def test_problems_in_nested_tables_point_at_their_own_lines():
    _, errors, warnings = validate(STEP, schema.STEP)
    found = {p.field: p.line for p in errors}
    assert found == {"controls[1].label": 13, "chart.height": 20}
    [warning] = warnings
    assert (warning.field, warning.line) == ("controls[1].colour", 16)


def test_a_missing_key_in_a_table_points_at_the_table():
    text = STEP.replace('kind = "bar"\n', "")
    _, errors, _ = validate(text, schema.STEP)
    assert {p.field: p.line for p in errors}["chart.kind"] == 18


def test_every_option_has_a_docstring_and_a_type():
    for table in (schema.SITE, schema.LABELS, schema.SERIES_ENTRY, schema.EXPLAINER, schema.REFERENCE,
                  schema.STEP, schema.CONTROL, schema.READOUT, schema.CHART):
        for key, option in table.items():
            assert option.doc.strip() and option.types, key


def test_line_of_ignores_the_markdown_body():
    assert schema.line_of(STEP, "title") == 2
    assert schema.line_of(STEP, "kind", "chart.") == 19
    assert schema.line_of(STEP, "nothing") is None
