"""The one TOML line finder (load/toml_lines.py): keys at the top, in tables and arrays of
tables, headers, front matter ending at its '+++'; and the tables `new` edits."""
from generator.load.toml_lines import line_of, tables

TEXT = """+++
title = "x"
[chart]
kind = "bar"
[[controls]]
name = "a"
[[controls]]
name = "b"
+++
title = "not front matter"
"""


def test_keys_and_headers_are_found_in_their_table():
    assert line_of(TEXT, "title") == 2
    assert line_of(TEXT, "kind", "chart.") == 4
    assert line_of(TEXT, None, "chart.") == 3
    assert line_of(TEXT, "name", "controls[1].") == 8
    assert line_of(TEXT, None, "controls[0].") == 5
    assert line_of(TEXT, "missing") is None and line_of("", "title") is None


def test_the_tables_of_a_file():
    lines = ['title = "x"', "", "[[series]]", 'slug = "a"', "# a comment", "", "[labels]", 'home = "Home"']
    assert tables(lines) == [("series", 2, 3), ("labels", 6, 7)]
