"""The cross-attention page's questions, checked against the toy model: each right
answer recomputed from its weights, not from what the steps return, and the numbers
the questions and feedback give."""
import numpy as np
import pytest

from .quiz_claims import questions, shown
from .test_cross_attention_model import model  # noqa: F401 (the toy model, from content/)

SLUG = "cross-attention"


@pytest.fixture(scope="module")
def quiz(site_states):
    return questions(site_states, SLUG)


def test_keys_and_values_come_from_the_encoder(quiz, model):  # noqa: F811
    found = quiz["from-encoder"]
    for head in range(model.HEADS):  # computed from the encoder's output (K, V) or the decoder's states (Q)
        assert np.allclose(model.KEYS[head], model.ENCODER_OUTPUT @ model.W_K[head])
        assert np.allclose(model.VALUES[head], model.ENCODER_OUTPUT @ model.W_V[head])
        assert np.allclose(model.QUERIES[head], model.DECODER_STATES @ model.W_Q[head])
    # The diagram's paths agree: K and V start at the source, Q at the target so far.
    starts = {name: model.DIAGRAM_BOXES[path[0]] for name, path in model.DIAGRAM_PATHS.items()}
    assert [name for name, box in starts.items() if box.startswith("Source")] == ["K", "V"]
    assert {found.options[i] for i in found.correct} == {"K", "V"} and found.question.multiple


def test_the_cross_attention_matrix_is_rectangular(quiz, model):  # noqa: F811
    found = quiz["cells"]
    rows, columns = model.CROSS_WEIGHTS.shape[1:]
    assert (rows, columns) == (len(model.TARGET), len(model.SOURCE)) and found.answer == rows * columns == 20
    assert not {len(model.TARGET) ** 2, len(model.SOURCE) ** 2} & {found.answer}
    assert "4 × 5 = 20" in shown(found)["right"]
    assert np.allclose(model.CROSS_WEIGHTS.sum(axis=-1), 1) and (model.CROSS_WEIGHTS > 0).all(), "nothing masked"


def test_the_alignment_crosses_for_chat_and_noir(quiz, model, site_states):  # noqa: F811
    found = quiz["crossing"]
    states = site_states[1][SLUG][found.question.step]
    crossing = set()
    for head in range(model.HEADS):
        tops = [int(np.argmax(row)) for row in model.CROSS_WEIGHTS[head]]
        crossing |= {(head + 1, model.TARGET[i]) for i in range(len(model.TARGET)) if model.crossing(tops, i)}
    reached = {(states.by_key(k).choice["head"], states.by_key(k).choice["target"]) for k in found.keys}
    assert reached == crossing and {word for _, word in crossing} == {"chat", "noir"}
    # As the feedback says: the noun comes before the adjective in French, after it in English.
    assert model.TARGET.index("chat") < model.TARGET.index("noir")
    assert model.SOURCE.index("cat") > model.SOURCE.index("black")


def test_only_cross_attention_sees_every_position(quiz, model):  # noqa: F811
    found = quiz["sees-everything"]
    assert model.SELF_MASK.any() and np.allclose(model.SELF_WEIGHTS[model.SELF_MASK], 0)
    assert (model.CROSS_WEIGHTS > 0).all()
    assert [found.options[i] for i in found.correct] == ["Its cross-attention"]
