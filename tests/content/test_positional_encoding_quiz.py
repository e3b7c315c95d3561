"""The positional-encoding page's questions, checked against the toy model: each right
answer recomputed from its encodings and its attention layer, not from what the steps
return, and the numbers the questions and feedback give."""
import numpy as np
import pytest

from .quiz_claims import questions, shown
from .test_positional_encoding_model import model  # noqa: F401 (the toy model, from content/)

SLUG = "positional-encoding"


@pytest.fixture(scope="module")
def quiz(site_states):
    return questions(site_states, SLUG)


def _outputs(model, sentence, positional):  # noqa: F811
    words = sentence.split()
    out = model.attention_outputs(words, positional)
    return {word: out[words.index(word)] for word in words}


def test_only_the_positions_let_the_layer_tell_the_sentences_apart(quiz, model, site_states):  # noqa: F811
    found = quiz["tell-apart"]
    differ = {}
    for positional in (False, True):
        first, second = _outputs(model, model.SENTENCES[0], positional), _outputs(model, model.SENTENCES[1], positional)
        differ[positional] = any(not np.allclose(first[w], second[w], atol=1e-12) for w in model.WORDS)
    assert differ == {False: False, True: True}
    states = site_states[1][SLUG][found.question.step]
    assert {states.by_key(key).choice["positional"] for key in found.keys} == {True}
    assert len(found.keys) == len(model.SENTENCES)  # either sentence shown, with positions


def test_each_pair_is_a_fixed_factor_slower(quiz, model):  # noqa: F811
    found = quiz["wavelength-ratio"]
    ratios = [model.wavelength(i + 1) / model.wavelength(i) for i in range(model.N_PAIRS - 1)]
    assert np.allclose(ratios, 10000 ** (2 / model.D_MODEL))
    assert found.answer == pytest.approx(ratios[0]) and found.answer_text == "3.16"
    assert all(abs(wrong - found.answer) > found.question.tolerance for wrong in (2, 10))
    right = shown(found)["right"]
    assert f"from {model.wavelength(0):.2f} positions" in right and f"about {round(model.wavelength(7)):,}" in right


def test_the_dot_product_depends_on_the_offset_alone(quiz, model):  # noqa: F811
    found = quiz["offset"]
    pe = model.encoding(range(64))
    for offset in model.OFFSETS:
        dots = [pe[p] @ pe[p + offset] for p in range(32)]
        assert np.allclose(dots, dots[0]) and dots[0] == pytest.approx(model.offset_dot(offset))
    assert [found.options[i] for i in found.correct] == ["Only the offset between the two positions"]
    assert f"{pe[10] @ pe[14]:.2f} for an offset of 4" in shown(found)["right"]
    assert not np.isclose(pe[10] @ pe[11], pe[10] @ pe[14]), "the offset matters"


def test_only_the_learned_table_has_parameters(quiz, model):  # noqa: F811
    found = quiz["learned"]
    learned = [scheme for scheme, count in model.PARAMETERS.items() if count]
    assert [found.options[i] for i in found.correct] == learned == ["Learned"]
    assert model.LEARNED.size == model.PARAMETERS["Learned"]
    assert f"{model.LEARNED.size:,} numbers" in shown(found)["right"]
