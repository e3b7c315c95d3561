import pytest

from generator.errors import ContentError
from generator.load.frontmatter import load_document


def write(tmp_path, text, name="doc.md", raw=None):
    path = tmp_path / name
    if raw is not None:
        path.write_bytes(raw)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_parts_split_on_markers(tmp_path):
    path = write(tmp_path, '+++\ntitle = "T"\n+++\nMain {{ x }}\n\n::: hint\nClick.\n')
    doc = load_document(path, ("main", "hint"))
    assert doc.meta == {"title": "T"}
    assert doc.parts == {"main": "Main {{ x }}", "hint": "Click."}
    assert doc.part_lines == {"main": 4, "hint": 7}


@pytest.mark.parametrize("text, message, line", [
    ('title = "T"\n', "must start with a '+++'", 1),
    ('+++\ntitle = "T"\n', "not closed", 1),
    ('+++\ntitle = "T\n+++\n', "invalid TOML", 2),
    ('+++\n+++\nx\n::: bogus\ny\n', "unknown part '::: bogus'", 4),
])
def test_errors_name_file_and_line(tmp_path, text, message, line):
    path = write(tmp_path, text)
    with pytest.raises(ContentError) as info:
        load_document(path, ("main", "hint"))
    problem = info.value.problems[0]
    assert message in problem.message
    assert problem.line == line
    assert str(path) in str(problem)


def test_empty_and_non_utf8_files(tmp_path):
    with pytest.raises(ContentError, match="is empty"):
        load_document(write(tmp_path, "  \n"), ("main",))
    with pytest.raises(ContentError, match="not valid UTF-8"):
        load_document(write(tmp_path, "", raw=b"+++\ntitle = '\xff'\n+++\n"), ("main",))
