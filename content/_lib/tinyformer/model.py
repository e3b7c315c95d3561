"""The tiny transformer: one attention layer, written in numpy, forward and backward.

    x      = E[tokens] + P[positions]                    (batch, T, d_model)
    q, k, v = x W_Q[h], x W_K[h], x W_V[h]               for each head h (width d_model / heads)
    a      = softmax(q kᵀ / √d_head + mask)              (batch, heads, T, T)
    out    = x + Σ_h (a v) W_O[h]
    logits = out W_U + b_U

There is no MLP and no layer norm: with one layer, what a position predicts is
its own embedding plus what each head reads, so an attention override (the
game's spotlight) decides exactly what information reaches the prediction.
``causal=True`` hides later positions (next-token prediction); ``causal=False``
lets every position see the whole sentence (fill in a ``<mask>``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

NAMES = ("E", "P", "W_Q", "W_K", "W_V", "W_O", "W_U", "b_U")


def shapes(vocab: int, max_len: int, d_model: int, heads: int) -> dict[str, tuple[int, ...]]:
    """The shape of every parameter, by name."""
    if d_model % heads:
        raise ValueError(f"d_model {d_model} is not a multiple of heads {heads}")
    d_head = d_model // heads
    return {"E": (vocab, d_model), "P": (max_len, d_model),
            "W_Q": (heads, d_model, d_head), "W_K": (heads, d_model, d_head),
            "W_V": (heads, d_model, d_head), "W_O": (heads, d_head, d_model),
            "W_U": (d_model, vocab), "b_U": (vocab,)}


def init_params(rng, vocab: int, max_len: int, d_model: int, heads: int,
                dtype=np.float64) -> dict[str, np.ndarray]:
    """Random starting weights, drawn in the order of NAMES."""
    params = {}
    for name, shape in shapes(vocab, max_len, d_model, heads).items():
        if name == "b_U":
            params[name] = np.zeros(shape, dtype)
            continue
        fan_in = shape[-2] if name != "E" and name != "P" else d_model
        params[name] = (rng.standard_normal(shape) / np.sqrt(fan_in)).astype(dtype)
    return params


@dataclass
class Override:
    """Attention rows to impose instead of the softmax.

    ``rows`` (batch, heads, T) marks the (head, query) rows to replace and
    ``weights`` (batch, heads, T, T) holds the replacement rows; other rows of
    ``weights`` are ignored. Build one with ``spotlight``.
    """
    rows: np.ndarray
    weights: np.ndarray


def spotlight(batch: int, heads: int, length: int, query: int,
              chosen: dict[int, list[int]] | list[dict[int, list[int]]]) -> Override:
    """Override query ``query``'s attention in the heads named in ``chosen``.

    ``chosen[h]`` lists the positions that share head h's attention equally; an
    empty list means the query attends to itself only. Pass one dict for every
    sentence of the batch, or a list with one dict per sentence.
    """
    per_sentence = chosen if isinstance(chosen, list) else [chosen] * batch
    rows = np.zeros((batch, heads, length), bool)
    weights = np.zeros((batch, heads, length, length))
    for b, choice in enumerate(per_sentence):
        for head, positions in choice.items():
            positions = list(positions) or [query]
            rows[b, head, query] = True
            weights[b, head, query, positions] = 1 / len(positions)
    return Override(rows, weights)


def attention_mask(tokens: np.ndarray, causal: bool | np.ndarray, pad_id: int = 0,
                   dtype=np.float64) -> np.ndarray:
    """Additive mask (batch, 1, T, T): -inf on padding keys and, if causal, on later keys.

    ``causal`` may be one bool for the batch or one bool per sentence.
    """
    batch, length = tokens.shape
    blocked = np.broadcast_to((tokens == pad_id)[:, None, None, :], (batch, 1, length, length))
    later = np.triu(np.ones((length, length), bool), 1)
    causal = np.broadcast_to(np.asarray(causal, bool), (batch,))
    blocked = blocked | (causal[:, None, None, None] & later)
    # A padding query sees nothing else; let it see itself so its row stays finite.
    blocked = blocked & ~np.eye(length, dtype=bool)
    return np.where(blocked, -np.inf, 0.0).astype(dtype)


def forward(params: dict, tokens: np.ndarray, causal: bool | np.ndarray = False,
            override: Override | None = None, pad_id: int = 0) -> tuple[np.ndarray, dict]:
    """Logits (batch, T, vocab) and a cache for ``backward`` (it holds ``attention``)."""
    tokens = np.asarray(tokens)
    length = tokens.shape[1]
    x = params["E"][tokens] + params["P"][:length]
    heads = params["W_Q"].shape[0]
    q, k, v = (_split(x @ _joined(params[name]), heads) for name in ("W_Q", "W_K", "W_V"))
    scale = 1 / np.sqrt(q.shape[-1])
    scores = q @ k.transpose(0, 1, 3, 2) * scale + attention_mask(tokens, causal, pad_id, x.dtype)
    scores -= scores.max(axis=-1, keepdims=True)
    attention = np.exp(scores)
    attention /= attention.sum(axis=-1, keepdims=True)
    own = attention
    if override is not None:
        attention = np.where(override.rows[..., None], override.weights, attention)
    z = attention @ v
    out = x + _merge(z) @ params["W_O"].reshape(-1, x.shape[-1])
    logits = out @ params["W_U"] + params["b_U"]
    cache = dict(tokens=tokens, x=x, q=q, k=k, v=v, scale=scale, attention=attention, own=own,
                 z=z, out=out, override=override)
    return logits, cache


def backward(params: dict, cache: dict, d_logits: np.ndarray) -> dict[str, np.ndarray]:
    """Gradients of a loss with respect to every parameter, given d loss / d logits."""
    grads = {}
    out, z, x, attention = cache["out"], cache["z"], cache["x"], cache["attention"]
    grads["W_U"] = np.einsum("btd,btv->dv", out, d_logits)
    grads["b_U"] = d_logits.sum(axis=(0, 1))
    d_out = d_logits @ params["W_U"].T
    flat_out = d_out.reshape(-1, d_out.shape[-1])
    grads["W_O"] = (_merge(z).reshape(flat_out.shape[0], -1).T @ flat_out).reshape(params["W_O"].shape)
    d_z = _split(d_out @ params["W_O"].reshape(-1, d_out.shape[-1]).T, z.shape[1])
    d_attention = d_z @ cache["v"].transpose(0, 1, 3, 2)
    d_v = attention.transpose(0, 1, 3, 2) @ d_z
    if cache["override"] is not None:
        # Imposed rows are constants: nothing flows back through their softmax.
        d_attention = np.where(cache["override"].rows[..., None], 0.0, d_attention)
    d_scores = attention * (d_attention - (d_attention * attention).sum(axis=-1, keepdims=True))
    d_scores *= cache["scale"]
    d_q = d_scores @ cache["k"]
    d_k = d_scores.transpose(0, 1, 3, 2) @ cache["q"]
    d_x = d_out.copy()
    flat_x = x.reshape(-1, x.shape[-1])
    for name, d in (("W_Q", d_q), ("W_K", d_k), ("W_V", d_v)):
        joined = _merge(d)
        heads, d_model, d_head = params[name].shape
        grads[name] = (flat_x.T @ joined.reshape(flat_x.shape[0], -1)).reshape(
            d_model, heads, d_head).transpose(1, 0, 2)
        d_x += joined @ _joined(params[name]).T
    grads["P"] = np.zeros_like(params["P"])
    grads["P"][:x.shape[1]] = d_x.sum(axis=0)
    grads["E"] = np.zeros_like(params["E"])
    np.add.at(grads["E"], cache["tokens"], d_x)
    return grads


def _joined(weight: np.ndarray) -> np.ndarray:
    """(heads, d_model, d_head) -> (d_model, heads * d_head): all heads in one matmul."""
    heads, d_model, d_head = weight.shape
    return weight.transpose(1, 0, 2).reshape(d_model, heads * d_head)


def _split(joined: np.ndarray, heads: int) -> np.ndarray:
    """(batch, T, heads * d_head) -> (batch, heads, T, d_head)."""
    batch, length, width = joined.shape
    return joined.reshape(batch, length, heads, width // heads).transpose(0, 2, 1, 3)


def _merge(per_head: np.ndarray) -> np.ndarray:
    """(batch, heads, T, d_head) -> (batch, T, heads * d_head)."""
    batch, heads, length, d_head = per_head.shape
    return per_head.transpose(0, 2, 1, 3).reshape(batch, length, heads * d_head)


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def cross_entropy(logits: np.ndarray, targets: np.ndarray, weights: np.ndarray) -> tuple[float, np.ndarray]:
    """Weighted mean cross-entropy over (batch, T) positions, and its gradient.

    ``targets`` (batch, T) are token ids; ``weights`` (batch, T) say how much each
    position counts (0 for positions with nothing to predict); they sum to one.
    """
    probs = softmax(logits)
    picked = np.take_along_axis(probs, targets[..., None], axis=-1)[..., 0]
    loss = -(weights * np.log(np.maximum(picked, 1e-30))).sum()
    d_logits = probs
    np.put_along_axis(d_logits, targets[..., None],
                      np.take_along_axis(d_logits, targets[..., None], axis=-1) - 1, axis=-1)
    return float(loss), d_logits * weights[..., None]
