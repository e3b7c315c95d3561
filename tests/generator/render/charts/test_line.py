"""render/charts/line.py: a line chart's data checked before anything is drawn."""
from generator.render.charts import line


def test_good_lines_have_no_problem():
    assert line.check({"x": [0, 1, 2], "y": [0.0, 1.0, 4.0]}) == []
    assert line.check({"x": ["a", "b"], "y": [[1.0, 2.0], [2.0, 1.0]], "series": ["s", "t"]}) == []


def test_one_y_per_x():
    assert line.check({"x": [0, 1, 2], "y": [0.0, 1.0]})


def _chart(**fields):
    from generator.kinds.explainer.content import Chart
    from generator.kinds.explainer.schema import CHART
    return Chart(**{**{key: option.default for key, option in CHART.items()}, "kind": "line", "height": 300,
                    **fields})


def _rule_label(data):
    [rule] = [s for s in line.figure(_chart(), data)["layout"]["shapes"] if s["type"] == "line"]
    return rule["label"]


def test_a_rules_label_near_the_right_edge_is_written_to_its_left():
    """Positional encoding step 4: "pos + offset = 28" on an axis of 0 to 31 ran past the
    plot's right edge and was cut to "pos +"; on the left of the rule it is whole."""
    data = {"x": list(range(32)), "y": [0.0] * 32, "rule_label": "pos + offset = 28"}
    assert _rule_label({**data, "rule": 28})["xanchor"] == "right"
    assert _rule_label({**data, "rule": 6})["xanchor"] == "left"
    # Whichever side, the label fits between the rule and the plot's edge on a phone.
    from generator.render.charts.common import PHONE_PLOT, text_width
    for at in range(32):
        label = _rule_label({**data, "rule": at})
        room = (31 - at if label["xanchor"] == "left" else at) / 31 * PHONE_PLOT
        assert text_width(label["text"], label["font"]["size"]) + 6 <= room, at
    # Labels along a category axis too.
    names = {"x": ["a", "b", "c", "d"], "y": [1.0, 2.0, 3.0, 4.0], "rule_label": "best"}
    assert _rule_label({**names, "rule": "d"})["xanchor"] == "right"
    assert _rule_label({**names, "rule": "a"})["xanchor"] == "left"


def test_point_markers_are_in_the_layer_a_hidden_shape_clears():
    """A state with fewer shapes reaches the page padded with hidden ones (the runtime's
    relayout), and Plotly clears a shape's old mark only in the layer the new one names:
    markers "between" the grid and traces stayed on screen when residual connections went
    from 6 layers (7 points marked) to 1 or 24 (transformer architecture, step 2)."""
    figure = line.figure(_chart(), {"x": [0, 1, 2], "y": [1.0, 0.5, 0.2]})
    circles = [s for s in figure["layout"]["shapes"] if s["type"] == "circle"]
    assert len(circles) == 3 and all(s.get("layer", "above") == "above" for s in circles)


def test_a_rules_label_moves_to_its_foot_where_the_line_under_it_reaches_the_top():
    """Positional encoding step 4 at position 20, offset 8: "pos + offset = 28", written left of
    its rule at the top, lay over the peak at 20 that the prose points to; the foot was clear."""
    x = list(range(32))
    peak = [8.0 if i == 20 else 1.0 if i == 0 else 4.0 for i in x]   # as the chart's: a low far to the left
    data = {"x": x, "y": peak, "rule": 28, "rule_label": "pos + offset = 28"}
    label = _rule_label(data)
    assert (label["xanchor"], label["textposition"], label["yanchor"]) == ("right", "start", "bottom")
    # Nothing high under it: at the top, as before.
    label = _rule_label({**data, "y": [1.0] + [4.0] * 30 + [8.0]})
    assert (label["textposition"], label["yanchor"]) == ("end", "top")
