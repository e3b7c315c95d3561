"""render/charts/line.py: a line chart's data checked before anything is drawn."""
from generator.render.charts import line


def test_good_lines_have_no_problem():
    assert line.check({"x": [0, 1, 2], "y": [0.0, 1.0, 4.0]}) == []
    assert line.check({"x": ["a", "b"], "y": [[1.0, 2.0], [2.0, 1.0]], "series": ["s", "t"]}) == []


def test_one_y_per_x():
    assert line.check({"x": [0, 1, 2], "y": [0.0, 1.0]})
