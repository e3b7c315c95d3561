"""The toy model's numerics, against cases worked by hand."""
import importlib.util
import math

import numpy as np
import pytest

from ..conftest import CONTENT


@pytest.fixture(scope="module")
def model():
    path = CONTENT / "multi-head-attention" / "model.py"
    spec = importlib.util.spec_from_file_location("mha_model_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_softmax_rows_sum_to_one(model):
    weights = model.softmax_rows([[0.0, 0.0], [math.log(3), 0.0], [1000.0, 0.0]])
    assert np.allclose(weights.sum(axis=1), 1)
    assert np.allclose(weights[0], [0.5, 0.5])
    assert np.allclose(weights[1], [0.75, 0.25])  # e^ln3 / (e^ln3 + 1) = 3/4
    assert np.allclose(weights[2], [1.0, 0.0])    # no overflow
    assert np.allclose(model.PATTERNS.sum(axis=-1), 1)
    assert np.allclose(model.single_head_weights().sum(axis=1), 1)


def test_entropy_in_bits(model):
    assert model.entropy_bits([1, 0, 0, 0]) == 0
    assert model.entropy_bits([0.5, 0.5]) == pytest.approx(1)
    assert model.entropy_bits([0.25] * 4) == pytest.approx(2)
    assert model.entropy_bits([1 / 6] * 6) == pytest.approx(math.log2(6))
    # 0.5·1 + 0.25·2 + 0.25·2 = 1.5 bits
    assert model.entropy_bits([0.5, 0.25, 0.25]) == pytest.approx(1.5)


@pytest.mark.parametrize("heads, d_k", [(1, 64), (2, 32), (4, 16), (8, 8)])
def test_d_k_and_parameter_count_for_every_head_count(model, heads, d_k):
    values = model.multiple_heads(heads=heads)["values"]
    assert values["d_k"] == d_k == 64 // heads
    assert values["params"] == 4 * 64 * 64 == 16384
    assert model.head_blocks(64, heads)[-1] == (64 - d_k, 64)
    concat = model.concatenation(heads=heads)["values"]
    assert (concat["per_head"], concat["concat"], concat["output"]) == (d_k, 64, 64)


def test_frobenius_shares_by_hand(model):
    # Norms 3 (a 3-4-... no: [[3]] has norm 3) and 1: shares 3/4 and 1/4.
    shares = model.frobenius_shares([np.array([[3.0]]), np.array([[0.0, 1.0]])])
    assert np.allclose(shares, [0.75, 0.25])
    # A 3-4-5 triangle: the norm of [3, 4] is 5.
    assert np.allclose(model.frobenius_shares([np.array([3.0, 4.0]), np.array([5.0])]), [0.5, 0.5])


def test_head_contributions_add_up_to_the_projection(model):
    contributions = model._layer_contributions()
    concat = model._multi_head_concat(model.LAYER_HEADS)
    assert np.allclose(sum(contributions), concat @ model.W_O)
    shares = model.head_shares()
    assert shares.sum() == pytest.approx(1) and (shares > 0).all()


def test_window_share(model):
    row = np.array([0.1, 0.2, 0.3, 0.4])
    assert model.window_share(row, 0) == pytest.approx(0.3)
    assert model.window_share(row, 2) == pytest.approx(0.9)
