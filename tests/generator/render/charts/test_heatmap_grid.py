"""render/charts/heatmap_grid.py: several matrices of one shape side by side, checked."""
from generator.render.charts import heatmap_grid


def test_a_good_grid_has_no_problem():
    z = [[[0.1, 0.2], [0.3, 0.4]], [[0.5, 0.6], [0.7, 0.8]]]
    assert heatmap_grid.check({"z": z, "x": ["a", "b"], "y": ["c", "d"], "titles": ["one", "two"]}) == []


def test_every_matrix_has_a_title_and_the_labels_fit():
    z = [[[0.1, 0.2], [0.3, 0.4]]]
    assert heatmap_grid.check({"z": z, "x": ["a", "b"], "y": ["c", "d"], "titles": []})
    assert heatmap_grid.check({"z": z, "x": ["a"], "y": ["c", "d"], "titles": ["one"]})
