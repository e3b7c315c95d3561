"""load/bibliography.py: the site's BibTeX file read into plain fields, each problem at its line,
and the nearest key for a slip."""
from generator.load.bibliography import load_bibliography

BIB = """@article{vaswani2017,
  author = {Vaswani, Ashish and Shazeer, Noam and others},
  title = {Attention Is All You Need},
  journal = {NeurIPS},
  year = {2017},
}

@misc{devlin2019,
  author = {Devlin, Jacob},
  title = {{BERT}: Pre-training},
  year = {2019},
}
"""


def test_entries_as_plain_fields(tmp_path):
    path = tmp_path / "references.bib"
    path.write_text(BIB, "utf-8")
    errors = []
    bibliography = load_bibliography(path, errors)
    assert errors == [] and list(bibliography.entries) == ["vaswani2017", "devlin2019"]
    entry = bibliography.entries["vaswani2017"]
    assert entry.surnames[:2] == ("Vaswani", "Shazeer") and entry.more_authors and entry.year == "2017"
    devlin = bibliography.entries["devlin2019"]
    assert devlin.title == "BERT: Pre-training" and devlin.line == 8
    assert bibliography.closest("vaswani2071") == "vaswani2017" and bibliography.digest


def test_a_duplicate_key_is_an_error_at_its_line(tmp_path):
    path = tmp_path / "references.bib"
    path.write_text(BIB + BIB.split("\n\n")[1], "utf-8")
    errors = []
    load_bibliography(path, errors)
    assert errors and errors[0].path == path and errors[0].line


def test_a_file_that_is_not_text_is_an_error(tmp_path):
    path = tmp_path / "references.bib"
    path.write_bytes(b"\xff\xfe@")
    errors = []
    assert load_bibliography(path, errors).entries == {} and "UTF-8" in errors[0].message
