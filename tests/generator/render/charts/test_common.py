"""render/charts/common.py: what every chart kind shares: the colour scales (viridis ends, the
diverging scale's white middle), rounding for the page data, ink that reads on a colour, a
matrix's shape checked."""
from generator.render.charts import common


def test_the_colour_scales():
    assert common.sequential_colour(0.0) == "#440154" and common.sequential_colour(1.0) == "#fde725"
    assert common.diverging_colour(0.5) == "#f7f7f7"
    assert common.see_through("#D55E00", 0.3) == "rgba(213, 94, 0, 0.3)"


def test_ink_reads_on_its_colour():
    assert common.ink_on("#000000") == "#ffffff" and common.ink_on("#ffffff") == "#000000"


def test_rounded_for_the_page_data():
    assert common.rounded([1.234567, 2.0]) == [1.2346, 2.0]


def test_a_matrix_must_be_rectangular():
    assert common.matrix_problem([[1.0, 2.0], [3.0, 4.0]]) is None
    assert "different lengths" in common.matrix_problem([[1.0, 2.0], [3.0]])
