"""The theme's words (load/words.py): the labels of themes/default/labels.toml, each with a
doc and a default, none empty, the month names twelve, placeholders only those it names."""
from generator.load import schema, words


def test_every_label_has_words_and_a_doc():
    assert words.LABELS is schema.LABELS and len(words.LABELS) > 50
    for key, option in words.LABELS.items():
        assert option.doc.strip() and option.default, key
        assert option.check(option.default) is None, key  # its own default passes its check
        assert option.check("" if option.types == (str,) else []) is not None, key  # and nothing is not a label


def test_a_words_file_is_data(tmp_path):
    path = tmp_path / "labels.toml"
    path.write_text('[greet]\ndoc = "Hello."\ndefault = "Hi {name}"\nplaceholders = ["name"]\n\n'
                    '[months]\ndoc = "Months."\ndefault = ["x"]\n', "utf-8")
    found = words.options(path)
    assert list(found) == ["greet", "months"]
    assert found["greet"].check("Hi {name}") is None and "unknown placeholder {who}" in found["greet"].check("{who}")
    assert "12 month names" in found["months"].check(["January"])
