import numpy as np
import pytest

from generator.compute import formats


@pytest.mark.parametrize("value, text", [(0.2213, "22%"), (0.345, "35%"), (0.125, "13%"), (1.0, "100%"),
                                         (np.float64(0.885), "89%")])
def test_percent_rounds_half_up(value, text):
    assert formats.percent(value) == text


@pytest.mark.parametrize("value, digits, text", [(2.5371, 2, "2.54"), (0.125, 2, "0.13"), (2.0, 2, "2.00"),
                                                 (0.4749, 2, "0.47"), (3.14159, 1, "3.1")])
def test_fixed(value, digits, text):
    assert formats.fixed(value, digits) == text


@pytest.mark.parametrize("value, digits, text", [
    (2136.4, 3, "2,136"), (0.01108, 3, "0.0111"), (1.99e-6, 3, "1.99×10⁻⁶"), (9.996, 3, "10.0"),
    (0.0009996, 3, "0.00100"), (0.000999, 3, "9.99×10⁻⁴"), (-0.5, 3, "−0.500"), (0, 3, "0"),
    (12.345, 2, "12"), (1e-20, 1, "1×10⁻²⁰"), (-3.2e-7, 2, "−3.2×10⁻⁷"), (0.125, 2, "0.13")])
def test_significant_digits_for_values_that_span_orders_of_magnitude(value, digits, text):
    assert formats.significant(value, digits) == text
    assert formats.formatter(f"significant:{digits}")(value) == text


def test_count_and_shape():
    assert formats.count(16384) == "16,384"
    assert formats.count(np.int64(4096)) == "4,096"
    assert formats.shape((64, 64)) == "64×64"
    assert formats.shape((512, 2048)) == "512×2,048" == formats.formatter("shape")([512, 2048])


def test_formatter_specs():
    assert formats.formatter("fixed:3")(1) == "1.000"
    assert formats.formatter("percent")(0.5) == "50%"
    assert formats.formatter("nope") is None


def test_nan_cannot_be_formatted():
    with pytest.raises(ValueError):
        formats.fixed(float("nan"))


def test_plain_converts_numpy():
    assert formats.plain(np.array([[1.5, 2]])) == [[1.5, 2.0]]
    assert type(formats.plain(np.int32(3))) is int
    assert formats.plain((np.int64(64), 64)) == (64, 64)


def test_equal_arrays_become_one_shared_list():
    import numpy as np

    from generator.compute.formats import is_shared, plain
    from generator.compute.precision import written

    weights = np.linspace(0, 1, 36).reshape(6, 6)
    arrays: dict = {}  # the build cache's memo table
    first, second = plain(weights, arrays), plain(weights.copy(), arrays)
    assert first is second and is_shared(first) and is_shared(first[0])
    assert first == [[written(v) for v in row] for row in weights.tolist()]  # at the written precision


def test_a_reused_array_buffer_gives_each_state_its_own_values():
    import numpy as np

    from generator.compute.formats import plain

    buffer = np.zeros(32)
    before = plain(buffer)
    buffer[3] = 0.5
    after = plain(buffer)
    assert before[3] == 0.0 and after[3] == 0.5


def test_small_and_non_numeric_arrays_are_not_shared():
    import numpy as np

    from generator.compute.formats import is_shared, plain
    from generator.compute.precision import written

    assert not is_shared(plain(np.arange(4)))
    assert not is_shared(plain(np.array(["a"] * 20)))
    assert not is_shared(plain([1.0] * 20))


def test_remembered_rounding_keeps_the_sign():
    from generator.compute.formats import fixed

    assert fixed(0.125) == "0.13" and fixed(-0.125) == "\u22120.13" and fixed(0.125) == "0.13"
    # A value that rounds to zero has no sign to show, whichever side it came from.
    assert fixed(0.0) == "0.00" and fixed(-0.0) == "0.00" and fixed(-0.001) == "0.00"


@pytest.mark.parametrize("function, value, text", [
    ("fixed", -2.5371, "\u22122.54"), ("percent", -0.2213, "\u221222%"), ("count", -16384, "\u221216,384"),
    ("text", -3, "\u22123"), ("text", -0.5, "\u22120.5"), ("text", "-x", "-x"), ("percent", -0.001, "0%"),
])
def test_negative_numbers_use_the_minus_sign(function, value, text):
    from generator.compute import formats

    shown = getattr(formats, function)(value)
    assert shown == text and "-" not in shown.replace("-x", "")


def test_data_table_cells_use_the_minus_sign():
    from generator.render.charts.common import number_cell

    assert number_cell(-3) == "\u22123" and number_cell(-0.25) == "\u22120.25"
    assert number_cell(-0.25, ".0%") == "\u221225%" and number_cell(7) == "7"


def test_what_is_worked_out_from_a_shared_list_is_kept_on_it():
    """The charts round a shared array and write its table cells once, and keep the
    result on the list itself (which the build cache owns), not in a table keyed by id()."""
    import numpy as np

    from generator.compute.formats import plain
    from generator.render.charts.common import number_cells, rounded

    shared = plain(np.linspace(-1, 1, 32).reshape(2, 16), {})
    assert rounded(shared) is rounded(shared) and rounded(shared) == [[round(v, 4) + 0.0 for v in row]
                                                                     for row in shared]
    assert number_cells(shared[0]) is number_cells(shared[0]) and number_cells(shared[0])[0] == "−1.00"
    assert number_cells(shared[0], ".0%") is not number_cells(shared[0])  # one entry per format
    assert rounded(list(shared[0])) is not rounded(list(shared[0]))       # a plain list: nothing kept


def test_no_module_keeps_a_table_keyed_by_id():
    """Memo tables keyed by id() belong to the BuildCache (or to one object), never to a module."""
    import ast
    from pathlib import Path

    import generator

    found = []
    for path in Path(generator.__file__).parent.rglob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        module_names = {target.id for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
                        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
                        if isinstance(target, ast.Name)}
        for node in ast.walk(tree):
            table = node.value if isinstance(node, ast.Subscript) else \
                node.func.value if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) else None
            if isinstance(table, ast.Name) and table.id in module_names and any(
                    isinstance(call, ast.Call) and getattr(call.func, "id", None) == "id"
                    for call in ast.walk(node.slice if isinstance(node, ast.Subscript) else node)):
                found.append(f"{path.name}:{node.lineno} {table.id}")
    assert not found, found


# Numbers that agree with their sentence: bounds rounded the safe way, nouns that agree with counts.

@pytest.mark.parametrize("value, digits, low, high", [
    (0.9952, 2, "0.99", "1.00"), (0.99995, 2, "0.99", "1.00"), (0.00032, 3, "0.000", "0.001"),
    (-0.123, 2, "\u22120.13", "\u22120.12"), (0.4749, 2, "0.47", "0.48"), (2.5, 1, "2.4", "2.6"),
    (-0.001, 2, "\u22120.01", "0.00"), (np.float64(0.8231), 2, "0.82", "0.83")])
def test_a_bound_is_rounded_away_from_the_value_it_bounds(value, digits, low, high):
    assert formats.lower_bound(value, digits) == low and formats.upper_bound(value, digits) == high
    # The shown bound holds strictly: 'stays above', 'at least', 'at most' are all true as written.
    assert float(low.replace("\u2212", "-")) < value < float(high.replace("\u2212", "-"))


def test_fixed_may_round_a_bound_past_its_value_where_the_bound_filters_do_not():
    minimum = 0.9952  # "the cosine stays above 1.00" was what fixed wrote
    assert formats.fixed(minimum) == "1.00" and formats.lower_bound(minimum) == "0.99"
    assert formats.fixed(0.00032, 3) == "0.000" and formats.upper_bound(0.00032, 3) == "0.001"


@pytest.mark.parametrize("bound, value, limit", [("lower_bound", -0.9996, -1), ("upper_bound", 0.9996, 1),
                                                 ("lower_bound", 0.004, 0)])
def test_a_bound_that_rounds_to_its_limit_is_an_error_that_says_why(bound, value, limit):
    with pytest.raises(ValueError, match="says nothing here: write this state another way"):
        getattr(formats, bound)(value, 2, limit=limit)
    assert getattr(formats, bound)(value, 4, limit=limit)  # with more digits it says something


@pytest.mark.parametrize("n, noun, plural, text", [
    (1, "word", None, "1 word"), (2, "word", None, "2 words"), (0, "word", None, "0 words"),
    (16384, "token", None, "16,384 tokens"), (np.int64(1), "query", None, "1 query"),
    (3, "query", None, "3 queries"), (2, "box", None, "2 boxes"), (2, "day", None, "2 days"),
    (2, "child", "children", "2 children"), (-1, "step", None, "\u22121 step")])
def test_count_with_a_noun_makes_the_noun_agree(n, noun, plural, text):
    assert formats.count(n, noun, plural) == text


def test_plural_gives_the_word_alone_for_verbs_and_nouns():
    assert [formats.plural(n, "is", "are") for n in (0, 1, 2)] == ["are", "is", "are"]
    assert formats.plural(1.0, "word") == "word" and formats.plural(5, "word") == "words"
