"""render/charts/diagram.py: boxes on a grid and the arrows between them, checked."""
from generator.render.charts import diagram


def test_a_good_diagram_has_no_problem():
    assert diagram.check({"boxes": ["a", "b"], "at": [[0, 0], [1, 0]], "arrows": [[0, 1]], "highlight": [0, 1]}) == []


def test_arrows_join_boxes_that_exist():
    assert diagram.check({"boxes": ["a", "b"], "at": [[0, 0], [1, 0]], "arrows": [[0, 2]]})
    assert diagram.check({"boxes": ["a", "b"], "at": [[0, 0]]})
