"""The toy model and the parameter formulas of "The Transformer Architecture",
against cases worked by hand and the figures of the brief
(../shared/briefs/transformer-architecture.md)."""
import importlib.util

import numpy as np
import pytest

from ..conftest import CONTENT


@pytest.fixture(scope="module")
def model():
    path = CONTENT / "transformer-architecture" / "model.py"
    spec = importlib.util.spec_from_file_location("ta_model_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_brief_formulas_at_the_base_size(model):
    assert model.attention_params(512) == 4 * 512 ** 2 + 4 * 512 == 1_050_624
    assert model.feed_forward_params(512, 2048) == 2 * 512 * 2048 + 2048 + 512 == 2_099_712
    assert model.norm_params(512) == 1_024
    assert model.embedding_params(512) == 37_000 * 512


def test_layers_are_what_the_brief_says(model):
    enc, dec = model.encoder_layer(model.BASE), model.decoder_layer(model.BASE)
    assert enc == {"attention": 1_050_624, "feed-forward": 2_099_712, "norms": 2 * 1_024}
    assert dec == {"attention": 2 * 1_050_624, "feed-forward": 2_099_712, "norms": 3 * 1_024}


def test_the_paper_sizes(model):
    assert (model.BASE["layers"], model.BASE["d_model"], model.BASE["d_ff"], model.BASE["heads"]) == (6, 512, 2048, 8)
    assert model.BASE["d_model"] // model.BASE["heads"] == 64
    assert model.BASE["dropout"] == 0.1 and model.VOCAB == 37_000
    assert (model.BIG["d_model"], model.BIG["d_ff"], model.BIG["heads"]) == (1024, 4096, 16)
    assert (model.BASE["paper_millions"], model.BIG["paper_millions"]) == (65, 213)


def test_counts_come_close_to_the_paper(model):
    for size in (model.BASE, model.BIG):
        total = model.model_params(size, 6)["total"] / 1e6
        # Within 3% of the paper's rounded total.
        assert abs(total - size["paper_millions"]) / size["paper_millions"] < 0.03, (size["name"], total)
    base = model.model_params(model.BASE, 6)
    assert base == {"encoder": 6 * 3_152_384, "decoder": 6 * 4_204_032, "embeddings": 18_944_000,
                    "total": 6 * 3_152_384 + 6 * 4_204_032 + 18_944_000}


def test_cosine(model):
    assert model.cosine(np.array([1.0, 0.0]), np.array([2.0, 0.0])) == pytest.approx(1)
    assert model.cosine(np.array([1.0, 0.0]), np.array([0.0, 3.0])) == pytest.approx(0)
    assert model.cosine(np.array([1.0, 1.0]), np.array([-1.0, -1.0])) == pytest.approx(-1)


def test_stack_by_hand(model):
    """Two layers of x + F(x) and of F(x), worked out with the weights directly."""
    x = model.RESIDUAL_INPUT
    (a1, b1), (a2, b2) = model.SUBLAYERS[:2]
    f = lambda w1, w2, v: w2 @ np.maximum(w1 @ v, 0)  # noqa: E731
    on = x + f(a1, b1, x)
    on = on + f(a2, b2, on)
    off = f(a2, b2, f(a1, b1, x))
    assert np.allclose(model.run_stack(2, True)[-1], on)
    assert np.allclose(model.run_stack(2, False)[-1], off)
    # The shorter stacks are the first layers of the deepest one.
    assert model.signal_kept(6, True) == model.signal_kept(24, True)[:7]


def test_layer_norm_by_hand(model):
    x = np.array([1.0, 2.0, 3.0, 6.0])   # mean 3, population variance (4 + 1 + 0 + 9) / 4 = 3.5
    y = model.layer_norm(x, eps=0.0)
    assert np.allclose(y, (x - 3) / np.sqrt(3.5))
    assert np.allclose(model.layer_norm(x, gain=np.full(4, 2.0), bias=np.ones(4), eps=0.0), 2 * y + 1)
    # Population, not sample: with d − 1 the standard deviation after would not be 1.
    assert np.std(y) == pytest.approx(1) and np.std(y, ddof=1) != pytest.approx(1)


def test_feed_forward_by_hand(model):
    x = model.layer_norm(model.TOKEN_VECTORS[1])
    hidden = np.array([max(0.0, float(x @ model.FF_W1[:, j] + model.FF_B1[j])) for j in range(model.TOY_FF)])
    assert np.allclose(model.hidden_units(model.TOKENS[1]), hidden)
    assert np.allclose(model.feed_forward(x), hidden @ model.FF_W2 + model.FF_B2)
    # Position-wise: a batch of positions gives each position's own result.
    rows = model.layer_norm(model.TOKEN_VECTORS)
    assert np.allclose(model.feed_forward(rows)[1], model.feed_forward(x))
    assert model.TOY_FF == 4 * model.TOY_WIDTH


def test_diagram_is_figure_one(model):
    """Each stack's arrows run bottom to top through its boxes in order, and the
    encoder's last box feeds the decoder's cross-attention."""
    boxes, at = model.BOXES, model.AT
    for a, b in model.ARROWS:
        if [a, b] != [5, model.CROSS_BOX]:
            assert at[a][0] == at[b][0] and at[b][1] == at[a][1] - 1, (boxes[a], boxes[b])
    assert [boxes[i] for i in model.ENCODER_BOXES] == ["Input embedding", "Positional encoding", "Self-attention",
                                                      "Add & Norm", "Feed-forward", "Add & Norm"]
    assert [boxes[i] for i in model.DECODER_BOXES] == [
        "Output embedding", "Positional encoding", "Masked self-attention", "Add & Norm", "Cross-attention",
        "Add & Norm", "Feed-forward", "Add & Norm", "Linear + softmax"]
    assert at[5][1] == at[model.CROSS_BOX][1]  # the arrow across is straight
    for part, indices in model.PART_BOXES.items():
        for i in indices:
            label = boxes[i].lower()
            expected = {"Embedding": "embedding", "Output": "softmax"}.get(part, part.lower())
            assert expected in label, (part, boxes[i])
