"""The Transformer architecture page's questions, checked against the model: each
right answer recomputed from its parts, its random sublayers and its layer norm, not
from what the steps return, and the numbers the questions and feedback give."""
import numpy as np
import pytest

from .quiz_claims import questions, shown
from .test_transformer_architecture_model import model  # noqa: F401 (the model, from content/)

SLUG = "transformer-architecture"


@pytest.fixture(scope="module")
def quiz(site_states):
    return questions(site_states, SLUG)


def test_every_part_between_embedding_and_output_keeps_d_model(quiz, model):  # noqa: F811
    found = quiz["width"]
    d = model.BASE["d_model"]
    inner = model.PARTS[1:-1]
    assert all(model._part_shapes(part, d)[1] == f"n×{d}" for part in inner)
    assert found.answer == d == 512 and not {model.BASE["d_ff"], model.VOCAB} & {found.answer}
    assert "d_model = 512, in and out of every part" in shown(found)["right"]


def test_only_residual_connections_keep_the_signal_through_24_layers(quiz, model, site_states):  # noqa: F811
    found = quiz["keep-the-signal"]
    kept = {residual: model.signal_kept(24, residual)[-1] for residual in (False, True)}
    states = site_states[1][SLUG][found.question.step]
    assert [states.by_key(key).choice for key in found.keys] == [{"residual": True, "layers": 24}]
    assert kept[True] > 0.3 > kept[False]
    right = shown(found)["right"].replace("−", "-")
    assert f"similarity of {kept[True]:.2f} to the input; without them it is {kept[False]:.2f}" in right


def test_layer_norm_gives_every_token_mean_0_and_deviation_1(quiz, model):  # noqa: F811
    found = quiz["layer-norm"]
    normed = model.layer_norm(model.TOKEN_VECTORS)
    assert np.allclose(normed.mean(axis=1), 0) and np.allclose(normed.std(axis=1), 1, atol=1e-4)
    assert not np.allclose(model.TOKEN_VECTORS.std(axis=1), 1), "the tokens did not start that way"
    assert [found.options[i] for i in found.correct] == ["Mean 0 and standard deviation 1"]
    mat = model.TOKEN_VECTORS[model.TOKENS.index("mat")]
    right = shown(found)["right"].replace("−", "-")
    assert f"mean 0.00 and standard deviation 1.00" in right
    assert f"had {mat.mean():.2f} and {mat.std():.2f}" in right


def test_the_feed_forward_network_holds_most_of_an_encoder_layer(quiz, model):  # noqa: F811
    found = quiz["largest-part"]
    layer = model.encoder_layer(model.BASE)
    parts = {"The feed-forward network": layer["feed-forward"], "Self-attention": layer["attention"],
             "Layer normalization": layer["norms"]}
    assert [found.options[i] for i in found.correct] == [max(parts, key=parts.get)]
    share = layer["feed-forward"] / sum(layer.values())
    assert f"{layer['feed-forward']:,} weights against {layer['attention']:,}" in shown(found)["right"]
    assert f"{round(100 * share)}% of the layer" in shown(found)["right"]
