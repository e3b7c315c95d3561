"""The BERT page's questions, checked against the toy model and the rule it follows:
each right answer recomputed from the model (its guesses, its 80/10/10 shares, its
packing of a pair), not from what the steps return, and what the feedback says."""
import numpy as np
import pytest

from .quiz_claims import questions, shown
from .test_bert_masked_language_modeling_model import model  # noqa: F401 (the toy model, from content/)

SLUG = "bert-masked-language-modeling"


@pytest.fixture(scope="module")
def quiz(site_states):
    return questions(site_states, SLUG)


def _top(model, hidden, context):  # noqa: F811
    return model.VOCAB[int(np.argmax(model.fill_in(hidden, context)))]


def test_only_sat_needs_the_words_on_its_right(quiz, model, site_states):  # noqa: F811
    found = quiz["needs-the-right"]
    words = [t.lower() for t in model.TOKENS]
    needs_right = [model.TOKENS[h] for h in model.POSITIONS
                   if _top(model, h, "Both sides") == words[h] != _top(model, h, "Left only")]
    states = site_states[1][SLUG][found.question.step]
    assert [states.by_key(key).choice for key in found.keys] == [{"word": w, "context": "Left only"}
                                                                 for w in needs_right] == [
        {"word": "sat", "context": "Left only"}]
    hidden = model.TOKENS.index("sat")
    right = shown(found)["right"]
    assert f"the toy guesses “{_top(model, hidden, 'Left only')}” for sat" in right and "it gets “sat”" in right


def test_four_in_five_chosen_tokens_become_mask(quiz, model):  # noqa: F811
    found = quiz["mask-share"]
    shares = model.TREATMENT_SHARES
    assert sum(shares.values()) == pytest.approx(1) and shares["Random word"] == shares["Unchanged"]
    assert [found.options[i] for i in found.correct] == [f"{round(100 * shares['[MASK]'])}%"] == ["80%"]
    right = shown(found)["right"]
    assert "half become a random word and half are left as they are" in right
    assert f"Only {round(100 * model.CHOSEN_RATE)}% of all tokens are chosen" in right


def test_a_pair_is_packed_with_cls_and_two_seps(quiz, model):  # noqa: F811
    found = quiz["token-count"]
    for pair in model.PAIRS:
        tokens, segments = model.pair_tokens(pair)
        assert len(tokens) == found.answer == len(model.SENTENCE_A) + len(model.SENTENCE_B[pair]) + 3
        assert tokens[0] == "[CLS]" and tokens.count("[SEP]") == 2 and len(segments) == len(tokens)
    words_a, words_b = len(model.SENTENCE_A), len(model.SENTENCE_B["IsNext"])
    assert f"{words_a} + {words_b}, plus [CLS] at the start and a [SEP] after each sentence: {found.answer}" \
        in shown(found)["right"]
    assert not {words_a + words_b, words_a + words_b + 2} & {found.answer}


def test_a_hidden_word_is_not_in_the_input(quiz, model):  # noqa: F811
    found = quiz["no-peeking"]
    for hidden in model.POSITIONS:  # the hidden position reads every word but itself
        assert hidden not in model.visible_positions(hidden, "Both sides")
        assert model.attention_row(hidden, "Both sides")[hidden] == 0
    assert f"“{model._masked_sentence(model.TOKENS.index('sat'))}”" in shown(found)["right"]
    assert model.TREATMENT_SHARES["Unchanged"] == pytest.approx(0.1) and "one chosen word in ten" in \
        shown(found)["right"]
    assert [found.options[i] for i in found.correct] == [
        "Most chosen words are taken out of the input, so there is nothing to copy"]
