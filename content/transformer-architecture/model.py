"""Toy model and parameter counts for "The Transformer Architecture".

Every number on the page comes from this file. Two kinds of numbers live here:

* the sizes of the paper's base and big models (Vaswani et al. 2017, Table 3,
  Sections 3.4 and 5.1) and the parameter counts worked out from them with the
  formulas below: these are about the real architecture;
* small toys, drawn at random from fixed seeds, that show what one piece does:
  a random stack of 24 sublayers (residual connections, step 2), vectors of
  width 16 before and after layer norm (step 3), and a feed-forward network of
  width 16 with 64 hidden units (step 4). They are untrained, and the page says
  so where the reader meets them.

Counts, rankings and shares the prose states are returned as values computed
here; tests/content/test_transformer_architecture_*.py recompute them.
"""

import math

import numpy as np

# ---------------------------------------------------------------------------
# The paper's sizes (not part of the toy)
# ---------------------------------------------------------------------------

# Vaswani et al. 2017, Table 3. The vocabulary is the shared source-target BPE
# vocabulary of about 37,000 tokens of Section 5.1 (English-German); the big
# model of Table 3 is trained on the same data.
BASE = {"name": "Base", "layers": 6, "d_model": 512, "d_ff": 2048, "heads": 8, "dropout": 0.1, "paper_millions": 65}
BIG = {"name": "Big", "layers": 6, "d_model": 1024, "d_ff": 4096, "heads": 16, "dropout": 0.3, "paper_millions": 213}
SIZES = {"Base": BASE, "Big": BIG}
VOCAB = 37000


def attention_params(d_model):
    """One multi-head attention sublayer: W_Q, W_K, W_V and W_O, each
    d_model x d_model when the heads' widths add up to d_model, with a bias
    vector each: 4·d_model² + 4·d_model."""
    return 4 * d_model * d_model + 4 * d_model


def feed_forward_params(d_model, d_ff):
    """W_1 (d_model x d_ff) with its bias, W_2 (d_ff x d_model) with its bias."""
    return 2 * d_model * d_ff + d_ff + d_model


def norm_params(d_model):
    """A layer norm: a gain and a bias per dimension."""
    return 2 * d_model


def embedding_params(d_model, vocab=VOCAB):
    """One vocabulary x d_model matrix, shared by both embeddings and the output
    projection (Section 3.4)."""
    return vocab * d_model


def encoder_layer(size):
    """{part: parameters} of one encoder layer: self-attention, feed-forward, two norms."""
    d = size["d_model"]
    return {"attention": attention_params(d), "feed-forward": feed_forward_params(d, size["d_ff"]),
            "norms": 2 * norm_params(d)}


def decoder_layer(size):
    """{part: parameters} of one decoder layer: masked self-attention and
    cross-attention, feed-forward, three norms."""
    d = size["d_model"]
    return {"attention": 2 * attention_params(d), "feed-forward": feed_forward_params(d, size["d_ff"]),
            "norms": 3 * norm_params(d)}


def _shape(*dims):
    # ("n", 512) -> "n×512", with thousands separators in the numbers.
    return "×".join(f"{d:,}" if isinstance(d, int) else d for d in dims)


# ---------------------------------------------------------------------------
# Step 1: The Whole Picture
# ---------------------------------------------------------------------------

# The diagram of Figure 1 of the paper, one box per sublayer: the encoder in
# column 0, the decoder in column 1, row 0 on top. The encoder's last box sits
# in the row of the decoder's cross-attention, so the arrow that carries the
# encoder's output runs straight across.
BOXES = [
    "Input embedding", "Positional encoding", "Self-attention", "Add & Norm", "Feed-forward", "Add & Norm",
    "Output embedding", "Positional encoding", "Masked self-attention", "Add & Norm", "Cross-attention",
    "Add & Norm", "Feed-forward", "Add & Norm", "Linear + softmax",
]
AT = [
    [0, 9], [0, 8], [0, 7], [0, 6], [0, 5], [0, 4],
    [1, 8], [1, 7], [1, 6], [1, 5], [1, 4], [1, 3], [1, 2], [1, 1], [1, 0],
]
ENCODER_BOXES = list(range(0, 6))
DECODER_BOXES = list(range(6, 15))
ARROWS = [[i, i + 1] for i in range(0, 5)] + [[i, i + 1] for i in range(6, 14)] + [[5, 10]]
CROSS_BOX = BOXES.index("Cross-attention")
MASKED_BOX = BOXES.index("Masked self-attention")

PARTS = ["Embedding", "Positional encoding", "Self-attention", "Cross-attention", "Feed-forward", "Add & Norm",
         "Output"]
# The boxes each part stands for, bottom to top.
PART_BOXES = {
    "Embedding": [0, 6],
    "Positional encoding": [1, 7],
    "Self-attention": [2, 8],
    "Cross-attention": [CROSS_BOX],
    "Feed-forward": [4, 12],
    "Add & Norm": [3, 5, 9, 11, 13],
    "Output": [14],
}


def _part_shapes(part, d):
    n, m = "n", "m"
    return {
        "Embedding": (f"{n} token ids", _shape(n, d)),
        "Positional encoding": (_shape(n, d), _shape(n, d)),
        "Self-attention": (_shape(n, d), _shape(n, d)),
        "Cross-attention": (f"{_shape(n, d)} and {_shape(m, d)}", _shape(n, d)),
        "Feed-forward": (_shape(n, d), _shape(n, d)),
        "Add & Norm": (f"{_shape(n, d)} + {_shape(n, d)}", _shape(n, d)),
        "Output": (_shape(n, d), _shape(n, VOCAB)),
    }[part]


def part_params(part, size=BASE):
    """Parameters of one instance of a part (0 for the sinusoidal encoding and
    for the output projection, which reuses the embedding matrix)."""
    d = size["d_model"]
    return {
        "Embedding": embedding_params(d),
        "Positional encoding": 0,
        "Self-attention": attention_params(d),
        "Cross-attention": attention_params(d),
        "Feed-forward": feed_forward_params(d, size["d_ff"]),
        "Add & Norm": norm_params(d),
        "Output": 0,
    }[part]


def part_copies(part, size=BASE):
    """(copies in the encoder, copies in the decoder) of a part in the whole model."""
    n = size["layers"]
    return {
        "Embedding": (1, 1),
        "Positional encoding": (1, 1),
        "Self-attention": (n, n),
        "Cross-attention": (0, n),
        "Feed-forward": (n, n),
        "Add & Norm": (2 * n, 3 * n),
        "Output": (0, 1),
    }[part]


def whole_picture(part="Self-attention"):
    d = BASE["d_model"]
    shape_in, shape_out = _part_shapes(part, d)
    in_encoder, in_decoder = part_copies(part)
    # The two embeddings are one matrix: its weights are counted once.
    shared = part == "Embedding"
    total = part_params(part) * (1 if shared else in_encoder + in_decoder)
    return {
        "values": {
            "part": part,
            "input_shape": shape_in,
            "output_shape": shape_out,
            "params": part_params(part),
            "in_encoder": in_encoder,
            "in_decoder": in_decoder,
            "total_params": total,
            "layers": BASE["layers"],
            "d_model": d,
            "d_ff": BASE["d_ff"],
            "heads": BASE["heads"],
            "d_k": d // BASE["heads"],
            "vocab": VOCAB,
            "dropout": BASE["dropout"],
            "embed_scale": math.sqrt(d),
            "part_count": len(PARTS),
        },
        "chart": {"boxes": BOXES, "at": AT, "arrows": ARROWS, "highlight": PART_BOXES[part]},
    }


# ---------------------------------------------------------------------------
# Step 2: Residual Connections
# ---------------------------------------------------------------------------

RESIDUAL_WIDTH = 64
STACK_DEPTHS = [1, 6, 24]
# Each toy sublayer is F(x) = W_2 ReLU(W_1 x), drawn at random once per layer;
# the stack of 6 is the first 6 layers of the stack of 24. W_1 is drawn with
# the He scale sqrt(2 / width); W_2 is scaled down by SUBLAYER_GAIN (set by
# hand) so that each sublayer adds a small change, as at the start of training.
RESIDUAL_SEED = 20171
SUBLAYER_GAIN = 0.25

_res_rng = np.random.default_rng(RESIDUAL_SEED)
RESIDUAL_INPUT = _res_rng.standard_normal(RESIDUAL_WIDTH)
SUBLAYERS = [
    (_res_rng.standard_normal((RESIDUAL_WIDTH, RESIDUAL_WIDTH)) * math.sqrt(2 / RESIDUAL_WIDTH),
     _res_rng.standard_normal((RESIDUAL_WIDTH, RESIDUAL_WIDTH)) * SUBLAYER_GAIN / math.sqrt(RESIDUAL_WIDTH))
    for _ in range(max(STACK_DEPTHS))
]


# A rotation of the same width (an orthogonal matrix from a seeded QR), to show what a
# cosine cannot see: the rotated input points elsewhere, yet turning back recovers it.
ROTATION_SEED = 20172
ROTATION = np.linalg.qr(np.random.default_rng(ROTATION_SEED).standard_normal((RESIDUAL_WIDTH, RESIDUAL_WIDTH)))[0]


def cosine(a, b):
    """Cosine similarity: 1 for the same direction, 0 for perpendicular vectors."""
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def sublayer(x, layer):
    w1, w2 = SUBLAYERS[layer]
    return w2 @ np.maximum(w1 @ x, 0.0)


def run_stack(layers, residual):
    """The vector after 0, 1, ..., layers sublayers, with or without x + F(x)."""
    x = RESIDUAL_INPUT
    out = [x]
    for layer in range(layers):
        x = x + sublayer(x, layer) if residual else sublayer(x, layer)
        out.append(x)
    return out


def signal_kept(layers, residual):
    """Cosine similarity of the input with the vector after each layer (0 = the input)."""
    return [cosine(RESIDUAL_INPUT, x) for x in run_stack(layers, residual)]


def residual_connections(residual=True, layers=6):
    kept = signal_kept(layers, residual)
    other = signal_kept(layers, not residual)
    deepest_on, deepest_off = signal_kept(max(STACK_DEPTHS), True), signal_kept(max(STACK_DEPTHS), False)
    return {
        "values": {
            "residual": residual,
            "layers": layers,
            "kept": kept[-1],
            "kept_other": other[-1],
            "kept_first": kept[1],
            "lowest": min(kept),
            "width": RESIDUAL_WIDTH,
            "gain": SUBLAYER_GAIN,
            # The same in every state: for the hint and the deeper paragraph.
            "deepest": max(STACK_DEPTHS),
            "deepest_on": deepest_on[-1],
            "deepest_off": deepest_off[-1],
            "one_layer_off": deepest_off[1],
            "rotation_cosine": cosine(RESIDUAL_INPUT, ROTATION @ RESIDUAL_INPUT),
            "rotation_error": float(np.abs(ROTATION.T @ (ROTATION @ RESIDUAL_INPUT) - RESIDUAL_INPUT).max()),
        },
        "chart": {"x": list(range(layers + 1)), "y": [round(k, 4) for k in kept]},
    }


# ---------------------------------------------------------------------------
# Step 3: Layer Normalization
# ---------------------------------------------------------------------------

TOKENS = ["The", "cat", "sat", "on", "the", "mat"]
TOY_WIDTH = 16
# ε inside the square root keeps a constant vector from dividing by zero.
EPS = 1e-5
NORM_SEED = 3000

_norm_rng = np.random.default_rng(NORM_SEED)
# Each token's vector has its own level (mean) and spread, both drawn at random,
# the way the vectors arriving at a norm differ from token to token.
_LEVELS = _norm_rng.uniform(-1.5, 1.5, len(TOKENS))
_SPREADS = _norm_rng.uniform(0.5, 3.0, len(TOKENS))
TOKEN_VECTORS = _LEVELS[:, None] + _SPREADS[:, None] * _norm_rng.standard_normal((len(TOKENS), TOY_WIDTH))


def layer_norm(x, gain=None, bias=None, eps=EPS):
    """(x − mean) / sqrt(variance + ε) · gain + bias, over the last axis, with
    the population variance (divided by d, not d − 1)."""
    x = np.asarray(x, dtype=float)
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    y = (x - mean) / np.sqrt(var + eps)
    gain = np.ones(x.shape[-1]) if gain is None else gain
    bias = np.zeros(x.shape[-1]) if bias is None else bias
    return y * gain + bias


def _clean(value):
    # A mean of 1e−17 is zero that floating point missed: shown as 0.00, not −0.00.
    return 0.0 if abs(value) < 1e-12 else float(value)


def _power_of_ten(value):
    """1e-05 -> "10⁻⁵", for prose (the exponent with the minus sign)."""
    exponent = round(math.log10(value))
    assert math.isclose(value, 10.0 ** exponent), value
    digits = str(exponent).replace("-", "⁻")
    return "10" + digits.translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))


def layer_normalization(token="cat"):
    x = TOKEN_VECTORS[TOKENS.index(token)]
    y = layer_norm(x)
    means = TOKEN_VECTORS.mean(axis=1)
    stds = TOKEN_VECTORS.std(axis=1)
    return {
        "values": {
            "token": token,
            "mean_before": float(x.mean()),
            "std_before": float(x.std()),
            "mean_after": _clean(y.mean()),
            "std_after": float(y.std()),
            "largest_before": float(np.abs(x).max()),
            "largest_after": float(np.abs(y).max()),
            "width": TOY_WIDTH,
            "eps": EPS,
            "eps_text": _power_of_ten(EPS),
            # The same in every state: for the hint.
            "lowest_mean": float(means.min()),
            "highest_mean": float(means.max()),
            "lowest_std": float(stds.min()),
            "highest_std": float(stds.max()),
            "widest_token": TOKENS[int(np.argmax(stds))],
            "narrowest_token": TOKENS[int(np.argmin(stds))],
        },
        "chart": {"x": [str(i + 1) for i in range(TOY_WIDTH)], "y": [np.round(x, 4).tolist(), np.round(y, 4).tolist()],
                  "series": ["Before", "After"]},
    }


# ---------------------------------------------------------------------------
# Step 4: The Feed-Forward Network
# ---------------------------------------------------------------------------

TOY_FF = 4 * TOY_WIDTH
FF_GRID = 8   # step 4 draws the hidden units in rows of 8
FF_SEED = 4096

_ff_rng = np.random.default_rng(FF_SEED)
# Drawn at the usual initial scales: W_1 with sqrt(2 / width), small biases.
FF_W1 = _ff_rng.standard_normal((TOY_WIDTH, TOY_FF)) * math.sqrt(2 / TOY_WIDTH)
FF_B1 = _ff_rng.standard_normal(TOY_FF) * 0.1
FF_W2 = _ff_rng.standard_normal((TOY_FF, TOY_WIDTH)) / math.sqrt(TOY_FF)
FF_B2 = _ff_rng.standard_normal(TOY_WIDTH) * 0.1


def feed_forward(x):
    """FFN(x) = max(0, x W_1 + b_1) W_2 + b_2 for one position (or a row per position)."""
    return np.maximum(0.0, x @ FF_W1 + FF_B1) @ FF_W2 + FF_B2


def hidden_units(token):
    """The toy's hidden activations for one token: ReLU of its normalised vector times W_1, plus b_1."""
    x = layer_norm(TOKEN_VECTORS[TOKENS.index(token)])
    return np.maximum(0.0, x @ FF_W1 + FF_B1)


def layer_shares(size=BASE):
    """Share of the feed-forward network in an encoder layer and in a decoder layer,
    and the two attentions' share of a decoder layer."""
    enc, dec = encoder_layer(size), decoder_layer(size)
    return {"ff_encoder": enc["feed-forward"] / sum(enc.values()),
            "ff_decoder": dec["feed-forward"] / sum(dec.values()),
            "attention_decoder": dec["attention"] / sum(dec.values())}


def feed_forward_network(token="cat"):
    h = hidden_units(token)
    active = int(np.sum(h > 0))
    all_active = [int(np.sum(hidden_units(t) > 0)) for t in TOKENS]
    d, d_ff = BASE["d_model"], BASE["d_ff"]
    shares = layer_shares()
    return {
        "values": {
            "token": token,
            "d_ff": d_ff,
            "d_model": d,
            "ratio": d_ff // d,
            "active": active,
            "zeroed": TOY_FF - active,
            "toy_ff": TOY_FF,
            "grid": FF_GRID,
            "toy_width": TOY_WIDTH,
            "active_share": active / TOY_FF,
            "largest": float(h.max()),
            "largest_unit": int(np.argmax(h)) + 1,
            "params": feed_forward_params(d, d_ff),
            "w1_shape": (d, d_ff),
            "w2_shape": (d_ff, d),
            "attention": attention_params(d),
            "encoder_layer": sum(encoder_layer(BASE).values()),
            "decoder_layer": sum(decoder_layer(BASE).values()),
            "ff_encoder_share": shares["ff_encoder"],
            "ff_decoder_share": shares["ff_decoder"],
            "attention_decoder_share": shares["attention_decoder"],
            "two_attentions": 2 * attention_params(d),
            # The same in every state: for the hint.
            "fewest_active": min(all_active),
            "most_active": max(all_active),
            "fewest_token": TOKENS[int(np.argmin(all_active))],
            "most_token": TOKENS[int(np.argmax(all_active))],
        },
        # The 64 units as an 8 × 8 grid, 8 to a row, each cell printed with its value:
        # a zeroed unit reads 0. (64 bars would need 64 axis labels, too close on a phone.)
        "chart": {"z": np.round(h.reshape(-1, FF_GRID), 4).tolist(),
                  "x": [str(i + 1) for i in range(FF_GRID)],
                  "y": [f"{r * FF_GRID + 1}–{(r + 1) * FF_GRID}" for r in range(TOY_FF // FF_GRID)]},
    }


# ---------------------------------------------------------------------------
# Step 5: Stacking the Layers
# ---------------------------------------------------------------------------

MODELS = ["Base", "Big"]
LAYER_COUNTS = [1, 2, 3, 4, 5, 6]
STACK_PARTS = ["attention", "feed-forward", "norms", "embeddings"]


def model_params(size, layers):
    """{"encoder", "decoder", "embeddings", "total"} parameters with `layers` per stack."""
    enc, dec = sum(encoder_layer(size).values()) * layers, sum(decoder_layer(size).values()) * layers
    emb = embedding_params(size["d_model"])
    return {"encoder": enc, "decoder": dec, "embeddings": emb, "total": enc + dec + emb}


def stacking_layers(model="Base", layers=6):
    size = SIZES[model]
    counts = model_params(size, layers)
    full = model_params(size, size["layers"])
    enc, dec = encoder_layer(size), decoder_layer(size)
    emb = embedding_params(size["d_model"])
    # Stacked bars: one bar per place, one series per kind of weight, in millions.
    bars = {
        "attention": [enc["attention"] * layers, dec["attention"] * layers, 0],
        "feed-forward": [enc["feed-forward"] * layers, dec["feed-forward"] * layers, 0],
        "norms": [enc["norms"] * layers, dec["norms"] * layers, 0],
        "embeddings": [0, 0, emb],
    }
    kinds = {k: bars[k][0] + bars[k][1] + bars[k][2] for k in STACK_PARTS}
    largest = max(kinds, key=kinds.get)
    base_full, big_full = model_params(BASE, BASE["layers"]), model_params(BIG, BIG["layers"])
    return {
        "values": {
            "model": model,
            "layers": layers,
            "d_model": size["d_model"],
            "heads": size["heads"],
            "d_ff": size["d_ff"],
            "d_k": size["d_model"] // size["heads"],
            "encoder": counts["encoder"],
            "decoder": counts["decoder"],
            "embeddings": counts["embeddings"],
            "total": counts["total"],
            "total_millions": counts["total"] / 1e6,
            "paper_layers": size["layers"],
            "paper_millions": size["paper_millions"],
            "full_millions": full["total"] / 1e6,
            "embedding_share": counts["embeddings"] / counts["total"],
            "largest_kind": largest,
            "largest_share": kinds[largest] / counts["total"],
            "encoder_layer": sum(enc.values()),
            "decoder_layer": sum(dec.values()),
            "vocab": VOCAB,
            # The same in every state: for the hint and the deeper paragraph.
            "base_millions": base_full["total"] / 1e6,
            "big_millions": big_full["total"] / 1e6,
            "base_paper": BASE["paper_millions"],
            "big_paper": BIG["paper_millions"],
            "big_ratio": big_full["total"] / base_full["total"],
            "base_gap": abs(base_full["total"] / 1e6 - BASE["paper_millions"]),
            "base_below": base_full["total"] / 1e6 < BASE["paper_millions"],
            "big_gap": abs(big_full["total"] / 1e6 - BIG["paper_millions"]),
            "big_below": big_full["total"] / 1e6 < BIG["paper_millions"],
        },
        "chart": {"x": ["Encoder", "Decoder", "Embeddings"],
                  "y": [[round(v / 1e6, 4) for v in bars[k]] for k in STACK_PARTS],
                  "series": STACK_PARTS},
    }


# ---------------------------------------------------------------------------
# Step 6: Three Families
# ---------------------------------------------------------------------------

FAMILIES = ["Encoder–decoder", "Encoder-only", "Decoder-only"]
FAMILY_FACTS = {
    "Encoder–decoder": {
        "example": "T5, the original Transformer",
        "masks": "Decoder self-attention",
        "use": "Translation",
        "faded": [],
        "causal": [MASKED_BOX],
    },
    "Encoder-only": {
        "example": "BERT",
        "masks": "None",
        "use": "Classifying",
        "faded": DECODER_BOXES,
        "causal": [],
    },
    "Decoder-only": {
        "example": "GPT",
        "masks": "All self-attention",
        "use": "Generation",
        # No encoder, so no cross-attention either (and no Add & Norm after it).
        "faded": ENCODER_BOXES + [CROSS_BOX, CROSS_BOX + 1],
        "causal": [MASKED_BOX],
    },
}


def three_families(family="Encoder–decoder"):
    facts = FAMILY_FACTS[family]
    used = [i for i in range(len(BOXES)) if i not in facts["faded"]]
    return {
        "values": {
            "family": family,
            "example": facts["example"],
            "masks": facts["masks"],
            "use": facts["use"],
            "boxes_used": len(used),
            "boxes_faded": len(facts["faded"]),
            "has_cross": CROSS_BOX in used,
            "has_causal": bool(facts["causal"]),
            "family_count": len(FAMILIES),
        },
        "chart": {"boxes": BOXES, "at": AT, "arrows": ARROWS, "highlight": facts["causal"], "faded": facts["faded"]},
    }
