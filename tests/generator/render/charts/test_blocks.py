"""render/charts/blocks.py: a vector cut into labelled blocks, optionally a heat strip; its data
checked, a value outside the strip's colour range named."""
from generator.render.charts import blocks


def test_good_data_has_no_problem():
    assert blocks.check({"sizes": [2, 3], "labels": ["a", "b"]}) == []


def test_a_value_outside_the_colour_range_is_named():
    [issue] = blocks.check({"sizes": [1, 1], "labels": ["a", "b"], "values": [0.5, 2.0], "range": [0, 1]})
    assert "values[1]" in str(issue) and "outside the colour range" in str(issue)


def test_blocks_and_labels_must_agree():
    assert blocks.check({"sizes": [2, 3], "labels": ["a"]})
