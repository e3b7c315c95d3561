"""compute/states.py: the grid of every combination of controls and where each control leads,
floating-point warnings of a model kept as the build's own, finiteness checked once per shared array."""
import numpy as np

from generator.compute.states import finite, grid, run_model


def test_the_grid_leads_each_control_to_its_neighbours():
    cells = grid([2, 3])
    assert [key for _, key, _ in cells] == ["0.0", "0.1", "0.2", "1.0", "1.1", "1.2"]
    indices, key, to = cells[1]
    assert indices == (0, 1) and to == [["0.1", "1.1"], ["0.0", "0.1", "0.2"]]
    assert all(key in to[c] for _, key, to in cells for c in range(2)), "each control's own value leads home"


def test_a_models_numeric_warning_is_kept_not_printed():
    def divide(x):
        return np.float64(1.0) / x

    output, warned = run_model(divide, {"x": np.float64(0.0)})
    assert output == np.inf and len(warned) == 1 and "divide by zero" in warned[0].message
    assert warned[0].file.name == "test_states.py"


def test_finite():
    assert finite([1.0, [2.0, 3]]) and not finite([1.0, float("nan")]) and not finite((float("inf"),))
