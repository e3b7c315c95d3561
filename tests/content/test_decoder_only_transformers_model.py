"""The decoder-only toy model's numerics, against cases worked by hand, and its
committed weights against a fresh training run."""
import importlib.util
import math
import sys

import numpy as np
import pytest

from ..conftest import CONTENT

FOLDER = CONTENT / "decoder-only-transformers"


@pytest.fixture(scope="module")
def model():
    sys.path.insert(0, str(CONTENT / "_lib"))
    try:
        spec = importlib.util.spec_from_file_location("dot_model_under_test", FOLDER / "model.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        yield module
    finally:
        sys.path.remove(str(CONTENT / "_lib"))


def test_softmax_and_temperature(model):
    assert np.allclose(model.softmax([0.0, 0.0]), [0.5, 0.5])
    assert np.allclose(model.softmax([math.log(3), 0.0]), [0.75, 0.25])
    # Temperature 2 halves the logits: ln 3 / 2 = ln √3, so √3 : 1.
    assert np.allclose(model.softmax([math.log(3), 0.0], 2.0), [math.sqrt(3) / (math.sqrt(3) + 1),
                                                                 1 / (math.sqrt(3) + 1)])
    assert np.allclose(model.softmax([1000.0, 0.0]), [1.0, 0.0])   # no overflow


def test_entropy_in_bits(model):
    assert model.entropy_bits([1.0, 0.0, 0.0]) == 0
    assert model.entropy_bits([0.5, 0.5]) == pytest.approx(1)
    assert model.entropy_bits([0.5, 0.25, 0.25]) == pytest.approx(1.5)
    assert model.entropy_bits([1 / 16] * 16) == pytest.approx(4)


def test_corpus(model):
    assert len(model.VOCAB) >= 12 and len(set(model.VOCAB)) == len(model.VOCAB)
    assert model.CORPUS_WEIGHTS.sum() == pytest.approx(1)
    assert model.WORDS + [model.END] in model.CORPUS       # the running example is a corpus sentence
    assert all(len(s) == model.LENGTH for s in model.CORPUS)
    # The corpus's odds, worked by hand from the slot frequencies.
    assert model.corpus_next(["the"])["cat"] == pytest.approx(model.ANIMALS["cat"])
    assert model.corpus_next(["the", "cat", "sat", "on", "the"])["mat"] == pytest.approx(0.45)
    assert model.corpus_next(model.WORDS) == {".": 1.0}


def test_the_spotlight_model_cannot_read_the_sentence(model):
    """The page says the Spotlight game's model lacks 'sat', 'on' and 'mat'."""
    import tinyformer
    missing = [w for w in model.WORDS if w not in tinyformer.IDS]
    assert missing == ["sat", "on", "mat"]
    with pytest.raises(ValueError):
        tinyformer.encode(model.WORDS)


def test_committed_weights_are_the_training_run(model):
    trained = model.train()
    committed = model.params()
    assert set(trained) == set(committed)
    for name in trained:
        assert trained[name].shape == committed[name].shape
        assert np.abs(trained[name] - committed[name]).max() <= model.TOLERANCE, name


def test_the_mask_gives_exact_zeros_and_rows_that_sum_to_one(model):
    weights = model.attention_weights(True)
    n = len(model.TOKENS)
    assert np.all(weights[np.triu_indices(n, 1)] == 0.0)
    assert np.allclose(weights.sum(axis=1), 1)
    free = model.attention_weights(False)
    assert np.allclose(free.sum(axis=1), 1) and np.all(free > 0)


def test_the_cache_gives_the_full_pass(model):
    """Keys and values computed one token at a time equal those of one causal pass,
    and the newest token's row of weights equals the last row of the causal matrix."""
    keys, values = model.keys_values(model.WORDS)
    for step in range(1, len(model.WORDS) + 1):
        k, v, row = model.cached_keys_values(model.WORDS[:step])
        assert np.allclose(k, keys[:step]) and np.allclose(v, values[:step])
        assert np.allclose(row, model.attention_weights(True)[step - 1, :step])


def test_next_token_probabilities_come_from_the_forward_pass(model):
    import tinyformer.model as tf
    tokens = np.array([[model.IDS[w] for w in model.WORDS[:3]]])
    logits, _ = tf.forward(model.params(), tokens, True, pad_id=-1)
    assert np.allclose(model.next_distribution(3), tf.softmax(logits[0, -1]))
    assert model.next_distribution(3).sum() == pytest.approx(1)


def test_block_parameters(model):
    assert model.block_parameters(1, 10) == 1200
    assert model.block_parameters(96, 12288) == 12 * 96 * 12288 ** 2


def test_the_docstring_counts_the_tinyformers_vocabulary_as_it_is(model):
    """Issue 35: the docstring said "its 74 words"; 74 is the vocabulary's size in tokens."""
    from tinyformer import VOCAB  # content/_lib is on the path while the model fixture is in use

    words = [w for w in VOCAB if w.isalpha()]
    assert (len(VOCAB), len(words)) == (74, 70)
    doc = " ".join(model.__doc__.split())
    assert "74 words" not in doc and "74 tokens (70 words, two punctuation marks and two markers)" in doc
    assert not {"sat", "on", "mat"} & set(VOCAB)
