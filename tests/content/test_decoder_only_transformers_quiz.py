"""The decoder-only page's questions, checked against the trained toy model and the
published configurations: each right answer recomputed from the model, not from what
the steps return, and the numbers the questions and feedback give."""
import numpy as np
import pytest

from .quiz_claims import questions, shown
from .test_decoder_only_transformers_model import model  # noqa: F401 (the toy model, from content/)

SLUG = "decoder-only-transformers"


@pytest.fixture(scope="module")
def quiz(site_states):
    return questions(site_states, SLUG)


def test_only_the_last_word_sees_every_word_under_the_mask(quiz, model, site_states):  # noqa: F811
    found = quiz["sees-all"]
    weights = model.attention_weights(causal=True)
    n = len(model.TOKENS)
    sees_all = [model.TOKENS[i] for i in range(n) if (weights[i] > 0).sum() == n]
    states = site_states[1][SLUG][found.question.step]
    assert [states.by_key(key).choice for key in found.keys] == [{"query": "mat", "causal": True}]
    assert sees_all == ["mat"]
    assert all((weights[i] > 0).sum() == i + 1 for i in range(n)), "each word sees the words up to itself"
    assert f"it sees all {n} words" in shown(found)["right"]


def test_the_cache_leaves_one_row_of_scores_per_token(quiz, model):  # noqa: F811
    found = quiz["cache"]
    keys, _ = model.keys_values(model.WORDS)
    cached, _, _ = model.cached_keys_values(model.WORDS)
    assert np.allclose(cached, keys), "the keys of earlier tokens never change, so they can be kept"
    step = 6
    assert found.answer == step  # the new query against the step - 1 cached keys and its own
    without = step * (step + 1) // 2  # every query of the first `step` positions against the keys before it
    assert f"all {without} scores of the first {step} positions" in shown(found)["right"]
    assert found.answer not in (without,)


def test_a_colder_temperature_and_a_top_k_cut_raise_the_top_probability(quiz, model):  # noqa: F811
    found = quiz["top-probability"]
    top = {(t, k): model.sample_distribution(t, k)[0].max() for t in model.TEMPERATURES for k in model.TOP_K}
    everything = len(model.VOCAB)
    raises = {"Lowering the temperature to 0.5": top[0.5, everything] > top[1.0, everything],
              "Raising the temperature to 2": top[2.0, everything] > top[1.0, everything],
              "Keeping only the top 3 tokens (top-k = 3)": top[1.0, 3] > top[1.0, everything]}
    assert {found.options[i] for i in found.correct} == {option for option, up in raises.items() if up}
    assert set(found.options) == set(raises) and found.question.multiple
    assert f"has a probability of {top[1.0, everything]:.2f}" in shown(found)["question"]


def test_the_blocks_hold_most_of_gpt_2(quiz, model):  # noqa: F811
    found = quiz["blocks"]
    gpt2 = model.MODELS["GPT-2"]
    share = 12 * gpt2["layers"] * gpt2["d_model"] ** 2 / gpt2["parameters"]
    assert round(100 * share) == 95 and [found.options[i] for i in found.correct] == ["About 95%"]
    assert f"About {round(100 * share)}%" in shown(found)["right"]
    assert f"about {round(12 * gpt2['layers'] * gpt2['d_model'] ** 2 / 1e6):,}M" in shown(found)["right"]
