"""render/charts/scatter.py: a scatter's data checked before anything is drawn."""
from generator.render.charts import scatter


def test_good_points_have_no_problem():
    assert scatter.check({"x": [0.0, 1.0], "y": [1.0, 0.0], "labels": ["start", ""], "path": True}) == []


def test_one_y_and_one_label_per_point():
    assert scatter.check({"x": [0.0, 1.0], "y": [1.0]})
    assert scatter.check({"x": [0.0, 1.0], "y": [1.0, 2.0], "labels": ["only one"]})
