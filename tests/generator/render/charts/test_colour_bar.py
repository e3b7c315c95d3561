"""render/charts/colour_bar.py: a picture chart's colour bar, drawn into the layout; its ticks
as Plotly chooses a colour bar's, written with a true minus sign."""
from generator.render.charts.colour_bar import tick_text, ticks


def test_ticks_are_round_multiples_about_one_per_40_px():
    assert ticks(0.0, 1.0, 200) == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert ticks(-1.0, 1.0, 80) == [-1.0, 0.0, 1.0]
    assert ticks(0.0, 100.0, 400) == [0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 100.0]
    assert ticks(3.0, 3.0, 100) == [3.0], "a scale of one value has one tick"


def test_tick_text():
    assert tick_text(-0.5) == "\u22120.5" and tick_text(0.25) == "0.25" and tick_text(2.0) == "2"
