"""docs/authoring.md carries a field reference generated from the schema:
it must be current, and it must cover every option and chart kind."""
from generator.render import charts
from generator.dev import reference
from generator.load import schema
from generator.kinds.explainer import schema as explainer_schema


def test_the_manual_reference_is_current():
    text = reference.DOC.read_text("utf-8")
    assert reference.current(text), "run `python -m generator.dev.reference` (or `make docs`)"


def test_the_reference_names_every_option_and_chart_key():
    generated = reference.render()
    for table in (schema.SITE, schema.LABELS, schema.SERIES_ENTRY, explainer_schema.EXPLAINER, schema.REFERENCE,
                  explainer_schema.STEP, explainer_schema.CONTROL, explainer_schema.READOUT, explainer_schema.CHART):
        for key, option in table.items():
            assert f"| `{key}` |" in generated
            assert option.doc.split()[0] in generated
    for name in charts.KINDS:
        assert f"#### `{name}`" in generated
        for key in charts.get(name).DATA:
            assert f"| `{key}` |" in generated


def test_update_replaces_only_the_generated_region():
    text = f"before\n{reference.BEGIN}\nstale\n{reference.END}\nafter\n"
    updated = reference.update(text)
    assert updated.startswith(f"before\n{reference.BEGIN}\n") and updated.endswith(f"{reference.END}\nafter\n")
    assert "stale" not in updated and reference.current(updated)
