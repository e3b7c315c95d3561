"""render/charts/blocks.py: a vector cut into labelled blocks, optionally a heat strip; its data
checked, a value outside the strip's colour range named."""
from generator.render.charts import blocks
from generator.render.charts.common import COLORBAR_MARGIN, PHONE_CHART, widest


def test_good_data_has_no_problem():
    assert blocks.check({"sizes": [2, 3], "labels": ["a", "b"]}) == []


def test_a_value_outside_the_colour_range_is_named():
    [issue] = blocks.check({"sizes": [1, 1], "labels": ["a", "b"], "values": [0.5, 2.0], "range": [0, 1]})
    assert "values[1]" in str(issue) and "outside the colour range" in str(issue)


def test_blocks_and_labels_must_agree():
    assert blocks.check({"sizes": [2, 3], "labels": ["a"]})


def _chart(**fields):
    from generator.kinds.explainer.content import Chart
    from generator.kinds.explainer.schema import CHART
    return Chart(**{**{key: option.default for key, option in CHART.items()}, "kind": "blocks", "height": 260,
                    **fields})


def _several(chart):
    object.__setattr__(chart, "step_facts", {"several": True})
    return chart


def _labels(figure):
    return [s["label"] for s in figure["layout"]["shapes"] if s.get("label", {}).get("text") is not None
            and s.get("xref") == "x"]


def test_a_block_of_one_position_is_labelled_with_that_position_alone():
    """Not "The / 0–0" (BERT's input, a block a token): a span of one is its position."""
    figure = blocks.figure(_chart(), {"sizes": [1, 1, 2], "labels": ["The", "cat", "sat"]})
    assert [label["text"] for label in _labels(figure)] == ["The<br>0", "cat<br>1", "sat<br>2–3"]
    assert blocks.table(_chart(x_title="Position"), {"sizes": [1, 2], "labels": ["a", "b"]},
                        {"data_item": "Item", "data_value": "Value"})["rows"] == [["a", "0"], ["b", "1–2"]]


def _fits(label, room_across, room_up):
    """Whether a label's lines fit a block `room_across` px wide and `room_up` px tall."""
    size = label["font"]["size"]
    lines = label["text"].split("<br>")
    wide, tall = widest(lines, size), 1.3 * size * len(lines)
    if label.get("textangle") == -90:
        wide, tall = tall, wide
    return wide <= room_across and tall <= room_up


def test_labels_fit_their_blocks_where_the_chart_is_narrowest_turning_when_they_must():
    """Eight heads of 64 columns, in one of three charts side by side (16rem each): upright
    names over spans ran into each other ("Head 8" over "Head 7"); turned, each fits its block."""
    data = {"sizes": [8] * 8, "labels": [f"Head {i}" for i in range(1, 9)]}
    for chart, plot in ((_several(_chart()), blocks.SEVERAL_CHART - 80), (_chart(), PHONE_CHART - 80)):
        labels = _labels(blocks.figure(chart, data))
        room_up = 0.6 * (chart.height - 72)
        assert len(labels) == 8 and all(_fits(label, plot / 8, room_up) for label in labels)
        assert all("Head" in label["text"] for label in labels)
    assert {label.get("textangle") for label in _labels(blocks.figure(_several(_chart()), data))} == {-90}
    # Four heads have the room upright; one form for every block, so they read alike.
    four = _labels(blocks.figure(_several(_chart()), {"sizes": [16] * 4, "labels": [f"Head {i}" for i in range(4)]}))
    assert {label.get("textangle") for label in four} == {None} and len({label["font"]["size"] for label in four}) == 1
    assert all(_fits(label, (blocks.SEVERAL_CHART - 80) / 4, 0.6 * 188) for label in four)


def test_a_strips_labels_turn_into_a_taller_band_where_they_cannot_stand_upright():
    """Concatenation of eight heads on a phone: the names over the bands overlapped."""
    data = {"sizes": [8] * 8, "labels": [f"Head {i}" for i in range(1, 9)], "values": [0.1] * 64, "range": [-1, 1]}
    chart = _chart(height=360)
    figure = blocks.figure(chart, data)
    labels = _labels(figure)
    across = (PHONE_CHART - 64 - COLORBAR_MARGIN) / 64 * 8
    assert len(labels) == 8 and all(label.get("textangle") == -90 and _fits(label, across, 0.85 / 2 * 288)
                                    for label in labels)
    bands = [s for s in figure["layout"]["shapes"] if s.get("label", {}).get("text")]
    assert all(band["y1"] == 1.45 for band in bands)
    # A highlighted block's outline takes in its grown band.
    outline = blocks.figure(chart, {**data, "highlight": 2})["layout"]["shapes"][-1]
    assert outline["y1"] >= 1.45
    # Two heads: upright over a thin band, as before.
    two = _labels(blocks.figure(chart, {**data, "sizes": [32, 32], "labels": ["Head 1", "Head 2"]}))
    assert [label.get("textangle") for label in two] == [None, None]
