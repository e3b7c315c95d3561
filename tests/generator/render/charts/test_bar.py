"""render/charts/bar.py: a bar chart's data checked before anything is drawn, each problem one
line that names the key."""
from generator.render.charts import bar


def test_good_bars_have_no_problem():
    assert bar.check({"x": ["a", "b"], "y": [1.0, -2.0]}) == []
    assert bar.check({"x": ["a", "b"], "y": [[1.0, 2.0], [3.0, 4.0]], "series": ["s", "t"]}) == []


def test_labels_and_values_must_agree():
    assert bar.check({"x": ["a"], "y": [1.0, 2.0]})
    assert bar.check({"x": ["a", "b"], "y": [1.0, 2.0], "highlight": 5})
