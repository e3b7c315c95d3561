"""The validation engine (load/validation.py): every problem of a table collected, at its line,
unknown keys as warnings that suggest the nearest option, and records made from a table."""
import dataclasses
import datetime
from pathlib import Path

import pytest

from generator.load.validation import Option, placeholders, record, validate

TABLE = {
    "title": Option((str,), "A title.", required=True),
    "count": Option((int,), "How many.", default=3),
    "updated": Option((datetime.date,), "When.", default=None),
    "mode": Option((str,), "Which.", default="a", choices=("a", "b")),
}
TEXT = 'title = "T"\ncount = "four"\nupdated = "2026-01-31"\nmode = "c"\ncuont = 2\n'


def test_every_problem_is_collected_at_its_line():
    values, errors, warnings = validate({"title": "T", "count": "four", "updated": "2026-01-31", "mode": "c",
                                         "cuont": 2}, TABLE, Path("x.toml"), TEXT)
    assert [(e.field, e.line) for e in errors] == [("count", 2), ("updated", 3), ("mode", 4)]
    assert "write the number without quotes" in errors[0].message
    assert "write the date without quotes" in errors[1].message
    [unknown] = warnings
    assert unknown.field == "cuont" and unknown.line == 5 and "did you mean 'count'" in unknown.message


def test_defaults_fill_what_is_left_out_and_a_required_key_is_an_error():
    values, errors, _ = validate({"title": "T"}, TABLE, Path("x.toml"))
    assert values == {"title": "T", "count": 3, "updated": None, "mode": "a"} and not errors
    _, [missing], _ = validate({}, TABLE, Path("x.toml"))
    assert missing.field == "title" and missing.message.startswith("is required")


def test_a_control_character_in_text_is_an_error():
    _, [error], _ = validate({"title": "a\x0bb"}, TABLE, Path("x.toml"))
    assert "U+000B" in error.message


@pytest.mark.parametrize("text, problem", [("Step {n}", None), ("Step {m}", "unknown placeholder {m}"),
                                           ("", "must not be empty")])
def test_placeholders(text, problem):
    found = placeholders("n")(text)
    assert found == problem or (problem and problem in found)


def test_a_record_is_a_frozen_dataclass_of_the_table():
    Thing = record("Thing", TABLE, __name__)
    thing = Thing(title="T", count=1, updated=None, mode="a")
    assert [f.name for f in dataclasses.fields(Thing)] == list(TABLE)
    with pytest.raises(dataclasses.FrozenInstanceError):
        thing.count = 2
