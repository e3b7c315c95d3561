"""kinds/explainer/schema.py: an explainer's files as option tables; a readout's format is one
compute/formats.py knows, checked here since the load stage cannot ask it."""
from generator.kinds.explainer.schema import EXPLAINER, READOUT, STEP, format_check


def test_formats_are_checked_with_a_suggestion():
    assert format_check("fixed:2") is None and format_check("percent") is None
    assert "did you mean 'percent'" in format_check("percnt")


def test_every_option_has_a_doc():
    for table in (EXPLAINER, STEP, READOUT):
        assert all(option.doc.strip() for option in table.values())
    assert READOUT["format"].check is format_check
