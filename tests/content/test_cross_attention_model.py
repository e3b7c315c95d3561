"""The cross-attention toy model's numerics, against cases worked by hand."""
import importlib.util
import math

import numpy as np
import pytest

from ..conftest import CONTENT


@pytest.fixture(scope="module")
def model():
    path = CONTENT / "cross-attention" / "model.py"
    spec = importlib.util.spec_from_file_location("cross_attention_model_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_softmax_rows_and_masked_cells(model):
    weights = model.softmax_rows([[0.0, 0.0], [math.log(3), 0.0], [1000.0, 0.0]])
    assert np.allclose(weights, [[0.5, 0.5], [0.75, 0.25], [1.0, 0.0]])
    # A masked score of −∞ gets a weight of exactly 0, and the rest still sum to 1.
    masked = model.attention_weights(np.ones((2, 4)), np.ones((2, 4)), model.causal_mask(2))
    assert masked.tolist() == [[1.0, 0.0], [0.5, 0.5]]


def test_causal_mask_hides_the_future_only(model):
    mask = model.causal_mask(4)
    assert mask.sum() == 6  # 4·3/2 cells above the diagonal
    for i in range(4):
        for j in range(4):
            assert mask[i, j] == (j > i)


def test_the_solved_query_projection_gives_the_hand_set_scores(model):
    for h in range(model.HEADS):
        scores = model.QUERIES[h] @ model.KEYS[h].T / math.sqrt(model.D_K)
        assert np.allclose(scores, model.ALIGNMENT_SCORES[h], atol=1e-9)
        assert np.allclose(model.DECODER_STATES @ model.W_Q[h], model.QUERIES[h])
    # Any other seed would give the same weights: only W_Q depends on it, and it is solved.
    rng = np.random.default_rng(7)
    enc, dec = rng.standard_normal((5, 16)), rng.standard_normal((4, 16))
    w_k = rng.standard_normal((16, 8))
    w_q = model.solve_query_projection(dec, enc @ w_k, model.ALIGNMENT_SCORES[0])
    assert np.allclose(model.attention_weights(dec @ w_q, enc @ w_k), model.CROSS_WEIGHTS[0])


def test_shapes_of_the_layer(model):
    assert model.QUERIES.shape == (2, 4, 8) and model.KEYS.shape == (2, 5, 8) and model.VALUES.shape == (2, 5, 8)
    assert model.CROSS_WEIGHTS.shape == (2, 4, 5)
    assert model.CROSS_OUTPUT.shape == (2, 4, 8)  # one output per target position
    assert np.allclose(model.CROSS_WEIGHTS.sum(axis=-1), 1)
    assert np.allclose(model.SELF_WEIGHTS.sum(axis=-1), 1)
    assert (model.SELF_WEIGHTS[model.SELF_MASK] == 0).all()
    assert model.DECODER_INPUTS == ["[start]", "le", "chat", "noir"]


def test_crossing_by_hand(model):
    # 0 → 0, 1 → 2, 2 → 1, 3 → 3: positions 1 and 2 swap, 0 and 3 do not.
    tops = [0, 2, 1, 3]
    assert [model.crossing(tops, i) for i in range(4)] == [False, True, True, False]
    assert [model.crossing([0, 1, 2, 3], i) for i in range(4)] == [False] * 4
    assert model.crossing([1, 0], 0) and model.crossing([1, 0], 1)


def test_patch_weights_sum_to_one_over_the_grid(model):
    for word in model.CAPTION:
        weights = model.patch_weights(word)
        assert weights.shape == (3, 3)
        assert weights.sum() == pytest.approx(1)
    # A query of zeros would spread its weight evenly over the nine patches.
    assert np.allclose(model.softmax_rows(np.zeros(9)), 1 / 9)
