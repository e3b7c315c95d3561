"""The self-attention toy model's numerics, against cases worked by hand, and
every figure and formula of the brief (/work/shared/briefs/self-attention.md)
recomputed from the model's weights, without the step functions."""
import importlib.util
import math

import numpy as np
import pytest

from ..conftest import CONTENT


@pytest.fixture(scope="module")
def model():
    path = CONTENT / "self-attention" / "model.py"
    spec = importlib.util.spec_from_file_location("self_attention_model_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Helpers, by hand

def test_softmax_by_hand(model):
    assert np.allclose(model.softmax([0.0, 0.0]), [0.5, 0.5])
    assert np.allclose(model.softmax([math.log(3), 0.0]), [0.75, 0.25])
    assert np.allclose(model.softmax([1000.0, 0.0]), [1.0, 0.0])           # no overflow
    # Temperature 2 halves the scores: ln 9 / 2 = ln 3.
    assert np.allclose(model.softmax([math.log(9), 0.0], 2.0), [0.75, 0.25])


def test_entropy_in_bits(model):
    assert model.entropy_bits([1, 0, 0]) == 0
    assert model.entropy_bits([0.25] * 4) == pytest.approx(2)
    assert model.entropy_bits([0.5, 0.25, 0.25]) == pytest.approx(1.5)


def test_text_helpers(model):
    assert model.vector_text([0.5, -1.234]) == "(0.50, −1.23)"
    assert model.power_text(7e-18) == "7×10⁻¹⁸" and model.power_text(0) == "0"
    assert model._join(["a"]) == "a" and model._join(["a", "b", "c"]) == "a, b and c"


def test_attention_by_hand(model):
    # Two tokens; with W_Q, W_K, W_V the toy's, the head must equal the formula written out.
    x = model.EMBEDDINGS[:2]
    scores, weights, outputs = model.attention(x)
    q, k, v = x @ model.W_Q, x @ model.W_K, x @ model.W_V
    s01 = sum(q[0, j] * k[1, j] for j in range(model.D_K))
    assert scores[0, 1] == pytest.approx(s01)
    a = math.exp(scores[0, 0] / 2), math.exp(scores[0, 1] / 2)     # √d_k = 2
    assert weights[0, 0] == pytest.approx(a[0] / sum(a))
    assert np.allclose(outputs[0], weights[0, 0] * v[0] + weights[0, 1] * v[1])


# The brief's figures

def test_sizes_and_sentence(model):
    assert model.TOKENS == ["The", "cat", "sat", "on", "the", "mat"] and model.DEFAULT_QUERY == "cat"
    assert model.D_MODEL == 8
    assert model.Q.shape == model.K.shape == (6, model.D_K) and model.V.shape == (6, model.D_V)


def test_step1_default_row_has_a_negative_score(model):
    row = (model.X @ model.W_Q)[1] @ (model.X @ model.W_K).T
    assert (row < 0).any()
    assert not np.isclose(row.sum(), 1)
    values = model.queries_and_keys("cat")["values"]
    assert values["top_score"] == pytest.approx(row.max())
    assert values["negative_count"] == int((row < 0).sum())


@pytest.mark.parametrize("d_k", [4, 16, 64, 256])
def test_step2_spread_and_saturation(model, d_k):
    q = model.SCALING_Q[1, :d_k]
    k = model.SCALING_K[:, :d_k]
    raw = k @ q
    # Unscaled the spread is of the order of √d_k, scaled it stays near 1.
    assert 0.5 * math.sqrt(d_k) < np.std(raw) < 1.5 * math.sqrt(d_k)
    assert 0.75 < np.std(raw / math.sqrt(d_k)) < 1.25
    assert model.softmax(raw / math.sqrt(d_k)).max() < 0.60
    scaled = model.scaling(d_k=d_k, scaled=True)["values"]
    unscaled = model.scaling(d_k=d_k, scaled=False)["values"]
    assert scaled["scale"] == pytest.approx(1 / math.sqrt(d_k)) and unscaled["scale"] == 1
    assert unscaled["spread"] == pytest.approx(np.std(raw))


def test_step2_spread_grows_unscaled_and_saturates_at_256(model):
    spreads = [model.scaling(d_k=d, scaled=False)["values"]["spread"] for d in model.D_KS]
    assert spreads == sorted(spreads)
    raw = model.SCALING_K @ model.SCALING_Q[1]
    assert model.softmax(raw).max() >= 0.90
    assert round(model.scaling(d_k=64)["values"]["scale"], 3) == 0.125


def test_step2_spread_on_average_over_many_draws(model):
    # The formula behind the figure: over many unit-variance draws, std(q·k) = √d_k.
    rng = np.random.default_rng(0)
    for d_k in model.D_KS:
        dots = (rng.standard_normal((4000, d_k)) * rng.standard_normal((4000, d_k))).sum(axis=1)
        assert np.std(dots) == pytest.approx(math.sqrt(d_k), rel=0.05)


@pytest.mark.parametrize("query", ["The", "cat", "sat", "on", "the", "mat"])
def test_step3_entropy_falls_with_temperature(model, query):
    entropies = [model.entropy_bits(model.temperature_weights(query, t)) for t in (0.5, 1.0, 2.0)]
    assert entropies[0] < entropies[1] < entropies[2]
    for t in (0.5, 1.0, 2.0):
        w = model.temperature_weights(query, t)
        assert w.sum() == pytest.approx(1) and (w > 0).all()
        scores = model.SCORES[model.TOKENS.index(query)]
        assert list(np.argsort(-w)) == list(np.argsort(-scores))   # softmax keeps the order


@pytest.mark.parametrize("query", ["The", "cat", "sat", "on", "the", "mat"])
def test_step4_output_is_the_weighted_sum_of_values(model, query):
    qi = model.TOKENS.index(query)
    w = model.WEIGHTS[qi]
    output = sum(w[i] * model.V[i] for i in range(6))
    data = model.mixing(query)
    assert np.allclose(data["values"]["output"], output)
    strip = np.array(data["charts"][1]["z"])
    assert strip.shape == (7, model.D_V)
    assert np.allclose(strip[:6], np.round(w[:, None] * model.V, 4))
    assert np.allclose(strip[6], np.round(output, 4))
    # A blend: every output number lies within the values' range in its dimension.
    assert (output >= model.V.min(axis=0) - 1e-12).all() and (output <= model.V.max(axis=0) + 1e-12).all()
    assert (np.array(data["charts"][1]["z"]) < 0).any()          # signed values


@pytest.mark.parametrize("length", [6, 12, 24, 48])
def test_step5_matrix(model, length):
    words = model.LONG_TEXT[:length]
    assert len(words) == length and model.LONG_TEXT[:6] == model.TOKENS
    x = np.array([model.VOCABULARY[w] for w in words])
    scores = (x @ model.W_Q) @ (x @ model.W_K).T / 2
    weights = model.softmax(scores)
    s = model.all_queries(view="Scores", length=length)
    w = model.all_queries(view="Weights", length=length)
    assert np.allclose(s["chart"]["z"], np.round(scores, 3)) and np.allclose(w["chart"]["z"], np.round(weights, 3))
    assert s["values"]["entries"] == length ** 2 and s["values"]["shape"] == (length, length)
    assert w["values"]["row_sums"] == "1.00" and s["values"]["row_sums"] == "varies"
    assert s["chart"]["scale"] == "diverging" and w["chart"]["scale"] == "sequential"
    assert s["chart"]["range"] == model.SCORE_RANGE and w["chart"]["range"] == [0, 1]
    assert -model.SCORE_RANGE[0] == model.SCORE_RANGE[1] >= np.abs(scores).max()


def test_step6_permutation_equivariance(model):
    perm = model.SHUFFLE
    assert sorted(perm) == list(range(6)) and all(perm[i] != i for i in range(6))
    _, _, shuffled = model.attention(model.X[perm])
    assert np.allclose(shuffled, model.OUTPUTS[perm], rtol=0, atol=1e-12)
    for query in model.TOKENS:
        original = model.order_blindness("Original", query)
        moved = model.order_blindness("Shuffled", query)
        assert original["values"]["same_output"] == moved["values"]["same_output"] == "Yes"
        assert original["values"]["top_key"] == moved["values"]["top_key"]
        # The same bars, in the shuffled places.
        assert np.allclose(moved["chart"]["y"], np.array(original["chart"]["y"])[perm])
        assert moved["chart"]["x"] == [model.TOKENS[i] for i in perm]
