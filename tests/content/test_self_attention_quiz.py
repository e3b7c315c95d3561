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


def test_only_the_sharpest_states_reach_an_entropy_below_one_bit(quiz, model, site_states):  # noqa: F811
    found = quiz["sharpest"]
    states = site_states[1][SLUG][found.question.step]
    entropy = {(q, t): model.entropy_bits(model.temperature_weights(q, t))
               for q, t in itertools.product(model.TOKENS, model.TEMPERATURES)}
    reaching = {(s.choice["query"], s.choice["temperature"]) for s in states.states if s.key in found.keys}
    assert reaching == {pair for pair, bits in entropy.items() if bits < 1}
    # As the feedback says: only at the lowest temperature, and where one key takes most of the weight.
    for query, temperature in reaching:
        assert temperature == min(model.TEMPERATURES)
        assert model.temperature_weights(query, temperature).max() > 0.5
    # And lowering the temperature lowers every query's entropy, as the hint on a wrong answer says.
    for query in model.TOKENS:
        assert [entropy[query, t] for t in sorted(model.TEMPERATURES)] == sorted(entropy[query, t]
                                                                                  for t in model.TEMPERATURES)


def test_a_words_query_and_key_differ_so_its_scores_are_not_symmetric(quiz, model):  # noqa: F811
    found = quiz["query-is-not-key"]
    q, k, _ = model.project(model.X)
    cat, sat = model.TOKENS.index("cat"), model.TOKENS.index("sat")
    text = shown(found)["question"]
    assert f"scores {q[cat] @ k[sat]:.2f} against the key of sat" in text.replace("−", "-")
    assert f"scores {q[sat] @ k[cat]:.2f} against the key of cat" in text.replace("−", "-")
    assert not np.allclose(model.W_Q, model.W_K) and not np.isclose(q[cat] @ k[sat], q[sat] @ k[cat])
    assert [found.options[i] for i in found.correct] == ["A word's query and its key are different vectors"]


def test_shuffling_the_words_moves_each_output_with_its_word(quiz, model):  # noqa: F811
    found = quiz["shuffle"]
    _, weights, outputs = model.attention(model.X)
    _, shuffled_weights, shuffled = model.attention(model.X[model.SHUFFLE])
    for new, old in enumerate(model.SHUFFLE):  # the word at `old` now stands at `new`
        assert np.allclose(shuffled[new], outputs[old], atol=1e-12)
        assert model.SHUFFLE[int(np.argmax(shuffled_weights[new]))] == int(np.argmax(weights[old]))
    right = {found.options[i] for i in found.correct}
    assert right == {"Each word's output stays the same", "Each output moves with its word to the word's new place"}
    assert " ".join(model.TOKENS[i] for i in model.SHUFFLE) in shown(found)["question"]


def test_the_score_matrix_grows_with_the_square_of_the_length(quiz, model):  # noqa: F811
    found = quiz["matrix-size"]
    _, scores, _, _ = model.long_attention(24)  # the scores of the first 24 tokens of the long text
    assert found.answer == math.prod(scores.shape) == 24 * 24
    assert "24 × 24 = 576" in shown(found)["right"]
    # Twice the length, four times the scores: the likely wrong answers are wrong.
    assert math.prod(model.long_attention(48)[1].shape) == 4 * found.answer
    assert not {24, 48} & {found.answer}
