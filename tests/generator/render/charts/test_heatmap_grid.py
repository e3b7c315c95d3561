"""render/charts/heatmap_grid.py: several matrices of one shape side by side, checked."""
from generator.render.charts import heatmap_grid


def test_a_good_grid_has_no_problem():
    z = [[[0.1, 0.2], [0.3, 0.4]], [[0.5, 0.6], [0.7, 0.8]]]
    assert heatmap_grid.check({"z": z, "x": ["a", "b"], "y": ["c", "d"], "titles": ["one", "two"]}) == []


def test_every_matrix_has_a_title_and_the_labels_fit():
    z = [[[0.1, 0.2], [0.3, 0.4]]]
    assert heatmap_grid.check({"z": z, "x": ["a", "b"], "y": ["c", "d"], "titles": []})
    assert heatmap_grid.check({"z": z, "x": ["a"], "y": ["c", "d"], "titles": ["one"]})


def test_the_highlighted_row_is_outlined_in_every_matrix_thick_in_the_emphasised_one():
    """Multi-head attention step 6 names each head's top key for the query ("Head 2 lands on cat"):
    the query's row was outlined only in the emphasised map, so the others' had to be found by eye."""
    from generator.kinds.explainer.content import Chart
    from generator.kinds.explainer.schema import CHART
    chart = Chart(**{**{key: option.default for key, option in CHART.items()}, "kind": "heatmap_grid",
                     "height": 400})
    z = [[[0.1, 0.9], [0.6, 0.4]]] * 3
    figure = heatmap_grid.figure(chart, {"z": z, "x": ["a", "b"], "y": ["c", "d"], "titles": ["1", "2", "3"],
                                         "highlight": 1, "highlight_row": 1})
    rows = [s for s in figure["layout"]["shapes"] if s.get("y0") == 0.5 and s.get("y1") == 1.5]
    assert [s["xref"] for s in rows] == ["x", "x2", "x3"]
    assert [s["line"]["width"] for s in rows] == [1.5, 3, 1.5]
