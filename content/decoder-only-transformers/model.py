"""Toy model for "Decoder-Only Transformers".

Every number on the page comes from this file. The build imports it and calls
the step function named in each step's front matter with the reader's control
values.

The next-token probabilities come from a real, if tiny, trained transformer:
the architecture of the project's tinyformer (content/_lib/tinyformer: one
causal attention layer, no MLP, no layer norm), with its own forward and
backward pass, trained here on a toy corpus of sentences like "the cat sat on
the mat ." (CORPUS below: every combination of the slots, each weighted by
hand-chosen frequencies). The Spotlight game's trained tinyformer cannot serve
this page: its 74 tokens (70 words, two punctuation marks and two markers)
do not include "sat", "on" or "mat".

The build never trains. ``python content/decoder-only-transformers/model.py``
trains (seeded, full batch, a fixed number of Adam steps) and writes
weights.json beside this file; the build only reads it, and
tests/content/test_decoder_only_transformers_model.py retrains and checks that
the committed weights are what the training gives.

Step 5's figures are the sizes of real models: GPT-1's and GPT-2's parameter
counts worked out from their released configurations (gpt_parameters), GPT-3's
quoted from its paper's table, each with its source.
"""
from __future__ import annotations

import functools
import itertools
import json
import math
import sys
from pathlib import Path

import numpy as np

if __name__ == "__main__":   # run by hand: the build puts content/_lib on the path itself
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "_lib"))

from tinyformer import model as tf  # noqa: E402

HERE = Path(__file__).resolve().parent
WEIGHTS_FILE = HERE / "weights.json"

# ---------------------------------------------------------------------------
# The running example, the vocabulary and the toy corpus
# ---------------------------------------------------------------------------

TOKENS = ["The", "cat", "sat", "on", "the", "mat"]     # as the page shows them
WORDS = [t.lower() for t in TOKENS]                      # as the model reads them
END = "."
VOCAB = ["the", "a", "cat", "dog", "bird", "sat", "lay", "slept", "on", "under", "by",
         "mat", "rug", "sofa", "floor", END]
IDS = {word: i for i, word in enumerate(VOCAB)}
LENGTH = len(TOKENS) + 1                                 # six words and the full stop

# Hand-chosen frequencies of the corpus. A sentence's weight is the product of
# its choices: det animal verb prep det place "."; the verb and the place
# depend on the animal, so the model has a reason to look back at it.
FIRST_DET = {"the": 0.7, "a": 0.3}
ANIMALS = {"cat": 0.5, "dog": 0.3, "bird": 0.2}
VERBS = {"cat": {"sat": 0.6, "lay": 0.3, "slept": 0.1},
         "dog": {"sat": 0.25, "lay": 0.55, "slept": 0.2},
         "bird": {"sat": 0.5, "lay": 0.1, "slept": 0.4}}
PREPOSITIONS = {"on": 0.6, "under": 0.25, "by": 0.15}
SECOND_DET = {"the": 0.7, "a": 0.3}
PLACES = {"cat": {"mat": 0.45, "rug": 0.25, "sofa": 0.18, "floor": 0.12},
          "dog": {"mat": 0.15, "rug": 0.4, "sofa": 0.1, "floor": 0.35},
          "bird": {"mat": 0.1, "rug": 0.05, "sofa": 0.35, "floor": 0.5}}


def corpus() -> tuple[list[list[str]], np.ndarray]:
    """Every sentence of the toy language and its weight (the weights sum to one)."""
    sentences, weights = [], []
    for d1, animal, verb, prep, d2, place in itertools.product(
            FIRST_DET, ANIMALS, VERBS["cat"], PREPOSITIONS, SECOND_DET, PLACES["cat"]):
        sentences.append([d1, animal, verb, prep, d2, place, END])
        weights.append(FIRST_DET[d1] * ANIMALS[animal] * VERBS[animal][verb] * PREPOSITIONS[prep]
                       * SECOND_DET[d2] * PLACES[animal][place])
    weights = np.array(weights)
    return sentences, weights / weights.sum()


CORPUS, CORPUS_WEIGHTS = corpus()


def corpus_next(prefix: list[str]) -> dict[str, float]:
    """The corpus's own probability of each next word after a prefix (lower case)."""
    counts: dict[str, float] = {}
    for sentence, weight in zip(CORPUS, CORPUS_WEIGHTS):
        if sentence[:len(prefix)] == prefix:
            word = sentence[len(prefix)]
            counts[word] = counts.get(word, 0.0) + weight
    total = sum(counts.values())
    return {w: c / total for w, c in counts.items()}


# ---------------------------------------------------------------------------
# Training (run by hand, never by the build)
# ---------------------------------------------------------------------------

D_MODEL = 8
HEADS = 1
SEED = 2
STEPS = 150
LEARNING_RATE = 0.1
WEIGHT_DECAY = 0.1       # decoupled (AdamW-style); keeps the attention scores moderate
BETAS = (0.9, 0.999)
TOLERANCE = 1e-6         # a retrain on another machine may differ in the last bits


def train() -> dict[str, np.ndarray]:
    """Train the toy with teacher forcing: one causal pass over each sentence
    trains the prediction at every position, each given the true prefix."""
    rng = np.random.default_rng(SEED)
    params = tf.init_params(rng, len(VOCAB), LENGTH, D_MODEL, HEADS)
    tokens = np.array([[IDS[w] for w in s] for s in CORPUS])
    inputs, targets = tokens[:, :-1], tokens[:, 1:]
    weights = np.repeat(CORPUS_WEIGHTS[:, None], inputs.shape[1], axis=1) / inputs.shape[1]
    first = {k: np.zeros_like(v) for k, v in params.items()}
    second = {k: np.zeros_like(v) for k, v in params.items()}
    b1, b2 = BETAS
    for step in range(1, STEPS + 1):
        logits, cache = tf.forward(params, inputs, True, pad_id=-1)
        _, d_logits = tf.cross_entropy(logits, targets, weights)
        grads = tf.backward(params, cache, d_logits)
        for name in params:
            first[name] = b1 * first[name] + (1 - b1) * grads[name]
            second[name] = b2 * second[name] + (1 - b2) * grads[name] ** 2
            params[name] -= LEARNING_RATE * WEIGHT_DECAY * params[name]
            params[name] -= LEARNING_RATE * (first[name] / (1 - b1 ** step)) / (
                np.sqrt(second[name] / (1 - b2 ** step)) + 1e-8)
    return params


def save(params: dict[str, np.ndarray], path: Path = WEIGHTS_FILE) -> None:
    data = {"settings": {"seed": SEED, "steps": STEPS, "d_model": D_MODEL, "heads": HEADS,
                         "learning_rate": LEARNING_RATE, "weight_decay": WEIGHT_DECAY,
                         "vocab": VOCAB, "length": LENGTH},
            "params": {k: np.round(v, 12).tolist() for k, v in params.items()}}
    path.write_text(json.dumps(data, indent=None, separators=(",", ":")) + "\n", encoding="utf-8")


@functools.lru_cache(maxsize=1)
def params() -> dict[str, np.ndarray]:
    data = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
    settings = data["settings"]
    expected = {"seed": SEED, "steps": STEPS, "d_model": D_MODEL, "heads": HEADS, "vocab": VOCAB,
                "length": LENGTH}
    for key, value in expected.items():
        if settings.get(key) != value:
            raise ValueError(f"{WEIGHTS_FILE}: {key} is {settings.get(key)!r}, the model expects {value!r}; "
                             f"retrain with python {Path(__file__).name}")
    return {k: np.array(v, dtype=float) for k, v in data["params"].items()}


def run(words: list[str], causal: bool = True) -> tuple[np.ndarray, dict]:
    """Next-word probabilities (T, vocab) and the forward cache for a list of words."""
    tokens = np.array([[IDS[w] for w in words]])
    logits, cache = tf.forward(params(), tokens, causal, pad_id=-1)
    return logits[0], cache


def keys_values(words: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """The single head's keys and values (T, d_head) for the words, in one pass."""
    _, cache = run(words)
    return cache["k"][0, 0], cache["v"][0, 0]


def cached_keys_values(words: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Generate with a KV cache: one new row of keys and values per token, and the
    newest token's attention over the cache. Returns (keys, values, last attention row)."""
    p = params()
    keys, values, row = [], [], None
    scale = 1 / math.sqrt(D_MODEL // HEADS)
    for t, word in enumerate(words):
        x = p["E"][IDS[word]] + p["P"][t]
        q = x @ p["W_Q"][0]
        keys.append(x @ p["W_K"][0])
        values.append(x @ p["W_V"][0])
        row = softmax(np.array(keys) @ q * scale)
    return np.array(keys), np.array(values), row


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

def softmax(scores, temperature: float = 1.0) -> np.ndarray:
    scores = np.asarray(scores, dtype=float) / temperature
    shifted = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)


def entropy_bits(p) -> float:
    p = np.asarray(p, dtype=float)
    p = p[p > 0]
    return float(abs(-(p * np.log2(p)).sum()))


def word_name(word: str) -> str:
    """How the prose names a token: the full stop by name, since "." alone reads as punctuation."""
    return "the full stop (.)" if word == END else word


def context_text(length: int) -> str:
    return " ".join(TOKENS[:length])


# ---------------------------------------------------------------------------
# Step 1: the causal mask
# ---------------------------------------------------------------------------

def attention_weights(causal: bool) -> np.ndarray:
    _, cache = run(WORDS, causal)
    return cache["attention"][0, 0]


def causal_mask(query: str, causal: bool):
    qi = TOKENS.index(query)
    weights = attention_weights(causal)
    row = weights[qi]
    n = len(TOKENS)
    later = np.triu(np.ones((n, n), bool), 1)
    future = float(row[qi + 1:].sum())
    top = int(np.argmax(row))
    unmasked = attention_weights(False)
    # A mask in both states (nothing masked without the causal mask): the matrix keeps
    # the key's room, and stays put as the toggle turns the mask on and off.
    chart = {"z": weights.tolist(), "x": TOKENS, "y": TOKENS, "highlight_row": qi,
             "mask": (later if causal else np.zeros_like(later)).tolist()}
    return {
        "values": {
            "query": query, "causal": causal, "position": qi + 1, "visible": qi + 1 if causal else n,
            "future_weight": future, "top_key": TOKENS[top], "top_weight": float(row[top]),
            "hidden": n - qi - 1 if causal else 0,
            "unmasked_future": float(unmasked[qi, qi + 1:].sum()),
            "masked_cells": int(later.sum()), "n_tokens": n,
            # The sentence with its full stop, as the toy is trained: every token but the
            # first is a target, so one pass makes one prediction fewer than the tokens.
            "sentence_tokens": LENGTH, "predictions_per_pass": LENGTH - 1,
        },
        "chart": chart,
    }


# ---------------------------------------------------------------------------
# Step 2: predicting the next token
# ---------------------------------------------------------------------------

CONTEXTS = list(range(1, len(TOKENS) + 1))
CONTEXT_LABELS = [context_text(n) for n in CONTEXTS]
TOP_N = 5


def next_distribution(length: int) -> np.ndarray:
    logits, _ = run(WORDS[:length])
    return softmax(logits[-1])


def next_token(context: int):
    p = next_distribution(context)
    order = np.argsort(-p, kind="stable")[:TOP_N]
    top = int(order[0])
    true_next = (WORDS + [END])[context]
    truth = corpus_next(WORDS[:context])
    return {
        "values": {
            "context": context_text(context), "length": context, "top_token": VOCAB[top],
            "probability": float(p[top]), "true_next": true_next, "true_probability": float(p[IDS[true_next]]),
            "loss": float(-math.log(p[IDS[true_next]])),
            "corpus_probability": truth.get(VOCAB[top], 0.0),
            "vocab_size": len(VOCAB), "top_n": TOP_N,
            "top_is_true": VOCAB[top] == true_next,
            "top_name": word_name(VOCAB[top]), "true_name": word_name(true_next),
        },
        "chart": {"x": [VOCAB[i] for i in order], "y": p[order].tolist(), "highlight": 0},
    }


# ---------------------------------------------------------------------------
# Step 3: temperature and top-k
# ---------------------------------------------------------------------------

SAMPLING_CONTEXT = 5                     # "The cat sat on the"
TEMPERATURES = [0.5, 1.0, 2.0]
TEMPERATURE_LABELS = ["0.5", "1", "2"]
TOP_K = [1, 3, len(VOCAB)]
TOP_K_LABELS = ["1", "3", "All"]


def sample_distribution(temperature: float, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(renormalised probabilities, kept mask, order by the model's logits), over the vocabulary."""
    logits, _ = run(WORDS[:SAMPLING_CONTEXT])
    logits = logits[-1]
    order = np.argsort(-logits, kind="stable")
    p = softmax(logits, temperature)
    kept = np.zeros(len(VOCAB), bool)
    kept[order[:k]] = True
    renormalised = np.where(kept, p, 0.0)
    return renormalised / renormalised.sum(), kept, order


def sampling(temperature: float, k: int):
    p, kept, order = sample_distribution(temperature, k)
    top = int(order[0])
    plain = softmax(run(WORDS[:SAMPLING_CONTEXT])[0][-1])
    coldest = sample_distribution(min(TEMPERATURES), len(VOCAB))[0]
    return {
        "values": {
            "temperature": TEMPERATURE_LABELS[TEMPERATURES.index(temperature)], "k": k,
            "k_label": TOP_K_LABELS[TOP_K.index(k)], "top_token": VOCAB[top],
            "top_probability": float(p[top]), "kept": int(kept.sum()), "entropy": entropy_bits(p),
            "total": float(p.sum()), "vocab_size": len(VOCAB),
            "context": context_text(SAMPLING_CONTEXT), "plain_top": float(plain[top]),
            "second_token": VOCAB[int(order[1])], "second_probability": float(p[order[1]]),
            # The same in every state: what the coldest temperature does to the runner-up.
            "runner_up": VOCAB[int(order[1])], "runner_up_plain": float(plain[order[1]]),
            "runner_up_cold": float(coldest[order[1]]), "coldest": TEMPERATURE_LABELS[0],
            "runner_up_change": "drops" if coldest[order[1]] < plain[order[1]] else "rises",
        },
        "chart": {"x": [VOCAB[i] for i in order], "y": p[order].tolist(),
                  "faded": (~kept[order]).tolist(), "highlight": 0},
    }


# ---------------------------------------------------------------------------
# Step 4: one token at a time, with a cache
# ---------------------------------------------------------------------------

STEPS_GENERATED = list(range(1, len(TOKENS) + 1))


def kv_cache(step: int):
    keys, values, row = cached_keys_values(WORDS[:step])
    n = len(TOKENS)
    pad = np.zeros((n - step, keys.shape[1]))
    mask = [[r >= step] * keys.shape[1] for r in range(n)]
    dims = [f"{i + 1}" for i in range(keys.shape[1])]
    top = int(np.argmax(row))
    memory_per_token = 1 * 2 * D_MODEL      # layers × 2 (keys and values) × d_model
    return {
        "values": {
            "step": step, "token": TOKENS[step - 1], "cached": step - 1, "new": 1, "with_cache": step,
            "without_cache": step * (step + 1) // 2, "top_key": TOKENS[top], "top_weight": float(row[top]),
            "memory": memory_per_token * step, "d_model": D_MODEL, "layers": 1,
            "full_without": n * (n + 1) // 2, "full_with": n,
            # Over the whole generation, steps 1 to n added up.
            "total_without": sum(t * (t + 1) // 2 for t in STEPS_GENERATED),
            "total_with": sum(STEPS_GENERATED),
        },
        "charts": [
            {"z": np.vstack([keys, pad]).tolist(), "x": dims, "y": TOKENS, "mask": mask,
             "mask_label": "not computed yet", "highlight_row": step - 1},
            {"z": np.vstack([values, pad]).tolist(), "x": dims, "y": TOKENS, "mask": mask,
             "mask_label": "not computed yet", "highlight_row": step - 1},
        ],
    }


# ---------------------------------------------------------------------------
# Step 5: scale (published sizes, not the toy)
# ---------------------------------------------------------------------------

# GPT-1: Radford et al. 2018, section 4.1 (12 layers, 768-wide states, 12 heads,
# sequences of 512 tokens). The paper gives no parameter count, and the "117M"
# often quoted for it is the GPT-2 paper's Table 2 row, whose counts OpenAI's
# gpt-2 README later called wrong; so the count here is worked out from the
# released configuration (a vocabulary of 40,478 tokens, 512 positions).
# GPT-2 (largest): Radford et al. 2019, section 2.3 (a context of 1,024 tokens,
# a vocabulary of 50,257) and the released configuration (48 layers, d_model
# 1,600, 25 heads), counted the same way: 1,557,611,200, OpenAI's "1558M". Its
# Table 2 figure (1,542M) is one of the retracted counts and is not used.
# GPT-3: Brown et al. 2020, Table 2.1 (175B: 96 layers, d_model 12,288, 96 heads)
# and its context of 2,048 tokens (section 2.1); no configuration was released,
# so its count is the table's.
MODELS = {
    "GPT-1": {"layers": 12, "d_model": 768, "heads": 12, "context": 512, "vocab": 40478,
              "final_norm": False, "year": 2018},
    "GPT-2": {"layers": 48, "d_model": 1600, "heads": 25, "context": 1024, "vocab": 50257,
              "final_norm": True, "year": 2019},
    "GPT-3": {"layers": 96, "d_model": 12288, "heads": 96, "context": 2048, "parameters": 175e9,
              "year": 2020},
}


def gpt_parameters(vocab: int, context: int, layers: int, d_model: int, final_norm: bool) -> int:
    """Every weight and bias of a GPT of this configuration: token and position
    embeddings; per block, attention (Q, K, V and the output projection, 4·d² + 4·d),
    an MLP four times wider (8·d² + 5·d) and two layer norms (4·d); GPT-2's final
    layer norm (2·d). The output projection reuses the token embeddings (Radford
    et al. 2018, equation 2), so it adds nothing."""
    d = d_model
    block = (4 * d * d + 4 * d) + (8 * d * d + 5 * d) + 4 * d
    return (vocab + context) * d + layers * block + (2 * d if final_norm else 0)


for _m in MODELS.values():
    if "parameters" not in _m:
        _m["parameters"] = gpt_parameters(_m["vocab"], _m["context"], _m["layers"], _m["d_model"],
                                          _m["final_norm"])


def short_count(n: float) -> str:
    """A parameter count to three significant figures: 116,534,784 -> "117M",
    1,557,611,200 -> "1.56B", 175e9 -> "175B"."""
    value, unit = (n / 1e9, "B") if n >= 1e9 else (n / 1e6, "M")
    digits = max(0, 2 - int(math.floor(math.log10(value))))
    return f"{value:.{digits}f}{unit}"


MODEL_NAMES = list(MODELS)
BYTES_PER_NUMBER = 2    # 16-bit floats


def block_parameters(layers: int, d_model: int) -> float:
    """12·layers·d_model²: attention (4·d²) and an MLP 4× wider (8·d²) per block,
    without biases, layer norms or embeddings."""
    return 12 * layers * d_model ** 2


def scale(model: str):
    m = MODELS[model]
    estimate = block_parameters(m["layers"], m["d_model"])
    cache_numbers = m["layers"] * 2 * m["context"] * m["d_model"]
    first, last = MODELS[MODEL_NAMES[0]], MODELS[MODEL_NAMES[-1]]
    return {
        "values": {
            "model": model, "layers": m["layers"], "d_model": m["d_model"], "heads": m["heads"],
            "context": m["context"], "parameters": short_count(m["parameters"]),
            "parameter_count": m["parameters"], "exact_count": int(m["parameters"]),
            "vocab": m.get("vocab", 0),
            "d_head": m["d_model"] // m["heads"] if m["d_model"] % m["heads"] == 0 else m["d_model"] / m["heads"],
            "block_estimate": estimate, "block_share": estimate / m["parameters"],
            "cache_numbers": cache_numbers, "cache_gb": cache_numbers * BYTES_PER_NUMBER / 1e9,
            "block_millions": round(estimate / 1e6),
            "growth": round(last["parameters"] / first["parameters"]),
            "deeper": round(last["layers"] / first["layers"]), "wider": round(last["d_model"] / first["d_model"]),
            "block_growth": round(block_parameters(last["layers"], last["d_model"])
                                  / block_parameters(first["layers"], first["d_model"])),
        },
        "chart": {"x": MODEL_NAMES, "y": [math.log10(MODELS[n]["parameters"]) for n in MODEL_NAMES],
                  "text": [short_count(MODELS[n]["parameters"]) for n in MODEL_NAMES],
                  "highlight": MODEL_NAMES.index(model)},
    }


if __name__ == "__main__":
    save(train())
    print(f"wrote {WEIGHTS_FILE}")
