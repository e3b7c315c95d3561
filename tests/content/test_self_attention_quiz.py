"""The self-attention page's questions, checked against the toy model: each right
answer recomputed from the model's weights (not from what the steps return), every
other option shown wrong, and the numbers the questions and feedback give."""
import itertools
import math

import numpy as np
import pytest

from .quiz_claims import questions, shown
from .test_self_attention_model import model  # noqa: F401 (the toy model, from content/)

SLUG = "self-attention"


@pytest.fixture(scope="module")
def quiz(site_states):
    return questions(site_states, SLUG)


def test_only_peaked_queries_at_a_large_enough_factor_reach_an_entropy_below_one_bit(quiz, model,  # noqa: F811
                                                                                      site_states):
    found = quiz["sharpest"]
    states = site_states[1][SLUG][found.question.step]
    entropy = {(q, f): model.entropy_bits(model.softmax(model.SCORES[model.TOKENS.index(q)], f))
               for q, f in itertools.product(model.TOKENS, model.FACTORS)}
    reaching = {(s.choice["query"], s.choice["factor"]) for s in states.states if s.key in found.keys}
    assert reaching == {pair for pair, bits in entropy.items() if bits < 1} != set()
    # As the feedback says: The and the never get there; a larger factor lowers every entropy.
    assert not {q for q, _ in reaching} & {"The", "the"}
    for query in model.TOKENS:
        assert [entropy[query, f] for f in sorted(model.FACTORS)] == sorted((entropy[query, f] for f in model.FACTORS),
                                                                            reverse=True)
    assert "The and the, split between cat and mat, never get there" in " ".join(shown(found)["right"].split())


def test_a_words_query_and_key_differ_so_its_scores_are_not_symmetric(quiz, model):  # noqa: F811
    found = quiz["query-is-not-key"]
    q, k, _ = model.project(model.X)
    cat, sat = model.TOKENS.index("cat"), model.TOKENS.index("sat")
    text = shown(found)["question"]
    assert f"scores {q[sat] @ k[cat]:.2f} against the key of cat" in text
    assert f"scores {q[cat] @ k[sat]:.2f} against the key of sat" in text
    assert not np.isclose(q[cat] @ k[sat], q[sat] @ k[cat])
    assert [found.options[i] for i in found.correct] == ["A word's query and its key are different vectors"]
    # "sat looks for an animal, while cat looks for a verb": each query's positive dimensions.
    assert "sat looks for an animal, while cat looks for a verb" in " ".join(shown(found)["right"].split())
    assert q[sat][model.QK_DIMS.index("animal")] > 0 and q[cat][model.QK_DIMS.index("verb")] > 0
    # The wrong options are wrong: raw scores, before softmax, computed from the hand-set weights.
    assert np.allclose(model.SCORES, (model.X @ model.W_Q) @ (model.X @ model.W_K).T)


def test_shuffling_the_words_moves_each_output_with_its_word(quiz, model):  # noqa: F811
    found = quiz["shuffle"]
    _, weights, outputs = model.attention(model.X)
    _, shuffled_weights, shuffled = model.attention(model.X[model.SHUFFLE])
    for new, old in enumerate(model.SHUFFLE):  # the word at `old` now stands at `new`
        assert np.allclose(shuffled[new], outputs[old], atol=1e-12)
        assert np.isclose(shuffled_weights[new].max(), weights[old].max())
    right = {found.options[i] for i in found.correct}
    assert right == {"Each word's output stays the same", "Each output moves with its word to the word's new place"}
    assert " ".join(model.TOKENS[i] for i in model.SHUFFLE) in shown(found)["question"]


def test_the_score_matrix_grows_with_the_square_of_the_length(quiz, model):  # noqa: F811
    found = quiz["matrix-size"]
    _, scores, _, _ = model.long_attention(24)
    assert found.answer == math.prod(scores.shape) == 24 * 24
    assert "24 × 24 = 576" in shown(found)["right"]
    assert math.prod(model.long_attention(48)[1].shape) == 4 * found.answer
