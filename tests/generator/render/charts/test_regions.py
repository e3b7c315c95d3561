"""render/charts/regions.py: a heatmap's regions (rectangles of cells), checked against its shape,
drawn as shapes and named in the table."""
from generator.render.charts import regions


def test_a_region_inside_the_matrix():
    found = [{"rows": [0, 1], "columns": 2, "label": "corner"}]
    assert regions.problem(found, 3, 3) is None and regions.problem(None, 3, 3) is None
    assert regions.normalised(found) and len(regions.shapes(found)) >= 1
    assert regions.labels_by_cell(found)[(1, 2)] == ["corner"]


def test_a_region_outside_or_misnamed_is_one_line():
    assert "rows" in regions.problem([{"rows": [0, 5], "columns": 0}], 3, 3)
    assert "unknown key 'colour'" in regions.problem([{"rows": 0, "columns": 0, "colour": "red"}], 3, 3)
    assert "style" in regions.problem([{"rows": 0, "columns": 0, "style": "zigzag"}], 3, 3)
