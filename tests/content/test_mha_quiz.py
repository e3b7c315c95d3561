"""The multi-head page's questions, checked against the toy model: each right answer
recomputed from its weights and hand-set patterns, not from what the steps return,
and the numbers the questions and feedback give."""
import numpy as np
import pytest

from .quiz_claims import questions, shown
from .test_mha_model import model  # noqa: F401 (the toy model, from content/)

SLUG = "multi-head-attention"


@pytest.fixture(scope="module")
def quiz(site_states):
    return questions(site_states, SLUG)


def test_eight_heads_share_d_model_in_slices_of_d_k(quiz, model):  # noqa: F811
    found = quiz["head-width"]
    assert found.answer == model.D_MODEL // 8 == 8
    assert "64 numbers wide (d_model) is split across 8 heads" in shown(found)["question"]
    assert "d_k = 64 / 8 = 8" in shown(found)["right"]
    # Each head's query is one slice of the full-width one: 8 slices of 8 make the 64 columns.
    q = model.EMBEDDINGS @ model.W_Q
    assert model.split_heads(q, 8).shape == (8, len(model.TOKENS), 8)


def test_more_heads_keep_the_same_weights(quiz, model):  # noqa: F811
    found = quiz["same-weights"]
    counts = {h: model.attention_params(model.D_MODEL, h, model.D_MODEL // h) for h in model.HEAD_COUNTS}
    assert counts[4] == counts[8] == 4 * model.D_MODEL ** 2 == 16384
    assert [found.options[i] for i in found.correct] == ["It stays the same"]
    assert "It stays at 16,384" in shown(found)["right"]


def test_head_3_sends_cat_to_sat(quiz, model):  # noqa: F811
    found = quiz["which-key"]
    row = model.PATTERNS[2][model.TOKENS.index("cat")]  # head 3, query "cat"
    assert [found.options[i] for i in found.correct] == [model.TOKENS[int(np.argmax(row))]] == ["sat"]
    assert f"sends {round(100 * row.max())}% of cat's attention to sat" in shown(found)["right"]
    assert model.PATTERN_NAMES[2] == "Subject ↔ verb" and "subject and its verb" in shown(found)["right"]


def test_only_head_1_has_the_largest_share_and_only_by_hand(quiz, model, site_states):  # noqa: F811
    found = quiz["largest-share"]
    shares = model.frobenius_shares(model._layer_contributions())
    states = site_states[1][SLUG][found.question.step]
    assert [states.by_key(key).choice["head"] for key in found.keys] == [int(np.argmax(shares)) + 1] == [1]
    assert f"at {round(100 * shares.max())}%" in shown(found)["right"]
    # Without the hand-set factor on its rows of W_O, head 1 would not lead: the lead is set by hand.
    raw = model.frobenius_shares(model._layer_contributions(model._W_O_RAW))
    assert int(np.argmax(raw)) != 0 and "sets by hand" in shown(found)["right"]
