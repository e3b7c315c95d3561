"""The self-attention toy model's numerics, against cases worked by hand, and
every figure of the brief (/work/shared/briefs/self-attention.md) recomputed
from the model's hand-set weights, without the step functions."""
import importlib.util
import math

import numpy as np
import pytest

from ..conftest import CONTENT

TOKENS = ["The", "cat", "sat", "on", "the", "mat"]


@pytest.fixture(scope="module")
def model():
    path = CONTENT / "self-attention" / "model.py"
    spec = importlib.util.spec_from_file_location("self_attention_model_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def scores(model):
    """Every raw score q·k, from the embeddings and projections alone."""
    x = np.array([model.VOCABULARY[t] for t in TOKENS])
    return (x @ model.W_Q) @ (x @ model.W_K).T


# Helpers, by hand

def test_softmax_by_hand(model):
    assert np.allclose(model.softmax([0.0, 0.0]), [0.5, 0.5])
    assert np.allclose(model.softmax([math.log(3), 0.0]), [0.75, 0.25])
    assert np.allclose(model.softmax([1000.0, 0.0]), [1.0, 0.0])           # no overflow
    # A factor of 0.5 halves the scores: ln 9 / 2 = ln 3.
    assert np.allclose(model.softmax([math.log(9), 0.0], 0.5), [0.75, 0.25])


def test_entropy_in_bits(model):
    assert model.entropy_bits([1, 0, 0]) == 0
    assert model.entropy_bits([0.25] * 4) == pytest.approx(2)
    assert model.entropy_bits([0.5, 0.25, 0.25]) == pytest.approx(1.5)


def test_text_helpers(model):
    assert model.vector_text([0.5, -1.234]) == "(0.50, −1.23)"
    assert model.number_text(3.0) == "3" and model.number_text(-1.5) == "−1.5" and model.number_text(-0.0) == "0"
    assert model._join(["a"]) == "a" and model._join(["a", "b", "c"]) == "a, b and c"


def test_attention_by_hand(model):
    x = model.embed(["sat", "cat"])
    s, weights, outputs = model.attention(x)
    q, k, v = x @ model.W_Q, x @ model.W_K, x @ model.W_V
    assert s[0, 1] == pytest.approx(sum(q[0, j] * k[1, j] for j in range(model.D_K)))
    a = math.exp(s[0, 0] / 2), math.exp(s[0, 1] / 2)     # √d_k = 2
    assert weights[0, 0] == pytest.approx(a[0] / sum(a))
    assert np.allclose(outputs[0], weights[0, 0] * v[0] + weights[0, 1] * v[1])


# The brief's toy: hand-set, with dimensions a reader can name

def test_sizes_and_sentence(model):
    assert model.TOKENS == TOKENS and model.DEFAULT_QUERY == "cat"
    assert model.D_MODEL == 8 and model.D_K == model.D_V == 4
    assert model.W_Q.shape == model.W_K.shape == model.W_V.shape == (8, 4)
    assert len(model.FEATURES) == 8 and len(model.QK_DIMS) == 4 and len(model.V_DIMS) == 4


def test_the_weights_are_hand_set_not_drawn(model):
    """Small, round numbers in every matrix and embedding: set by hand, each a multiple of 0.5."""
    for m in (model.W_Q, model.W_K, model.W_V, *model.VOCABULARY.values()):
        assert np.array_equal(np.round(np.asarray(m) * 2), np.asarray(m) * 2)
    # x holds a 1 for each feature a word has: x·W is the sum of the rows its features pick.
    for word, x in model.VOCABULARY.items():
        assert set(np.unique(x)) <= {0.0, 1.0} and x.sum() >= 1, word
        assert np.allclose(x @ model.W_Q, model.W_Q[x == 1].sum(axis=0))


def test_the_queries_mean_something(model):
    s = scores(model)
    top = {t: TOKENS[int(np.argmax(s[i]))] for i, t in enumerate(TOKENS)}
    assert top["sat"] == "cat"    # a verb looks for its subject
    assert top["on"] == "mat"     # a preposition for its object
    assert top["cat"] == "sat"    # a noun for what it does
    for det in ("The", "the"):    # a determiner for a noun, and cannot tell cat from mat
        row = s[TOKENS.index(det)]
        assert row[1] == row[5] == row.max() > 0 and (row[[0, 2, 3, 4]] < row.max()).all()
    assert (s[1] < 0).any()       # the default query has a negative score
    # A top key that is not tied stands out: the rest score less.
    for i in (1, 2, 3):
        assert sorted(s[i])[-1] > sorted(s[i])[-2]


def test_the_only_thing_that_tells_The_from_the_is_nothing(model):
    assert np.array_equal(model.VOCABULARY["The"], model.VOCABULARY["the"])


# Steps 2 to 6

@pytest.mark.parametrize("query", TOKENS)
def test_step2_entropy_falls_as_the_factor_grows(model, query):
    row = scores(model)[TOKENS.index(query)]
    entropies = [model.entropy_bits(model.softmax(row, f)) for f in (0.5, 1.0, 2.0)]
    assert entropies[0] > entropies[1] > entropies[2]
    for f in (0.5, 1.0, 2.0):
        w = model.softmax(row, f)
        assert w.sum() == pytest.approx(1) and (w > 0).all()
        assert list(np.argsort(-w, kind="stable")) == list(np.argsort(-row, kind="stable"))  # order kept


def test_step2_at_a_factor_of_one_over_sqrt_dk_is_the_attention_weights(model):
    assert model.FACTORS[0] == 1 / math.sqrt(model.D_K)
    assert np.allclose(model.softmax(scores(model), model.FACTORS[0]), model.WEIGHTS)


@pytest.mark.parametrize("d_k", [4, 16, 64, 256])
def test_step3_spread_and_saturation(model, d_k):
    rng = np.random.default_rng(model.SCALING_SEED)
    q = rng.standard_normal((6, 256))[1, :d_k]
    k = rng.standard_normal((6, 256))[:, :d_k]
    raw = k @ q
    assert 0.5 * math.sqrt(d_k) < np.std(raw) < 1.5 * math.sqrt(d_k)
    assert 0.75 < np.std(raw / math.sqrt(d_k)) < 1.25
    assert model.softmax(raw / math.sqrt(d_k)).max() < 0.60
    if d_k == 256:
        assert model.softmax(raw).max() >= 0.90
    assert np.allclose(model.scaling_scores(d_k, False), raw)


def test_step3_spread_on_average_over_many_draws(model):
    rng = np.random.default_rng(0)
    for d_k in model.D_KS:
        dots = (rng.standard_normal((4000, d_k)) * rng.standard_normal((4000, d_k))).sum(axis=1)
        assert np.std(dots) == pytest.approx(math.sqrt(d_k), rel=0.05)


@pytest.mark.parametrize("query", TOKENS)
def test_step4_output_is_the_weighted_sum_of_values(model, query):
    qi = TOKENS.index(query)
    w = model.softmax(scores(model)[qi] / 2)
    v = np.array([model.VOCABULARY[t] for t in TOKENS]) @ model.W_V
    output = sum(w[i] * v[i] for i in range(6))
    data = model.mixing(query)
    z = np.array(data["charts"][1]["z"])
    assert z.shape == (8, 4) and np.allclose(z[:6], v)
    assert np.allclose(z[6], np.round(output, 4)) and np.allclose(z[7], np.round(v.mean(axis=0), 4))
    assert (output >= v.min(axis=0) - 1e-12).all() and (output <= v.max(axis=0) + 1e-12).all()


@pytest.mark.parametrize("length", [6, 12, 24, 48])
def test_step5_matrix(model, length):
    words = model.LONG_TEXT[:length]
    assert len(model.LONG_TEXT) == 48 and model.LONG_TEXT[:6] == TOKENS
    x = np.array([model.VOCABULARY[w] for w in words])
    s = (x @ model.W_Q) @ (x @ model.W_K).T / 2
    sv, wv = model.all_queries("Scores", length), model.all_queries("Weights", length)
    assert np.allclose(sv["chart"]["z"], np.round(s, 2))
    assert np.allclose(wv["chart"]["z"], np.round(model.softmax(s), 2))
    assert sv["values"]["entries"] == length ** 2 and sv["values"]["row_sums"] == "varies"
    assert wv["values"]["row_sums"] == "1.00"
    assert -model.SCORE_RANGE[0] == model.SCORE_RANGE[1] >= np.abs(s).max()


def test_step6_permutation_equivariance(model):
    perm = model.SHUFFLE
    assert sorted(perm) == list(range(6)) and all(perm[i] != i for i in range(6))
    _, _, shuffled = model.attention(model.X[perm])
    assert np.allclose(shuffled, model.OUTPUTS[perm], rtol=0, atol=1e-12)
