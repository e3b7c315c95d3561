"""Toy model for "How Self-Attention Works".

Every number on the page comes from this file. The build imports it, calls the
step function named in each step's front matter with the reader's control
values, and gets back the values (for readouts and prose) and the data of the
step's charts.

The toy is one attention head over the six tokens of "The cat sat on the mat":
each token is a random vector of D_MODEL numbers (its embedding: "The" and
"the", or "cat" and "mat", have unrelated vectors), and W_Q, W_K and W_V are
random matrices that map it to a query, a key and a value of D_K
(= D_V) numbers. Nothing here is trained: the weights come from a fixed seed,
and the page says so. Which key a query prefers is therefore chance, not
grammar; what the page teaches is the arithmetic, which is the same in a
trained model.

Step 2 does not use these weights: it draws a fresh random query and six keys
with unit-variance components (SCALING_SEED), named q and k1 to k6 on the page, the setting of the argument in
Vaswani et al. (2017, Section 3.2.1) for dividing by sqrt(d_k).

Both seeds were picked by a small search so that the figures of the brief hold
(the default query's scores include a negative one; at d_k 256 the unscaled
top weight is at least 0.90, the scaled one stays below 0.60 at every d_k);
tests/content/test_self_attention_*.py recompute each of them.
"""

import math

import numpy as np

# ---------------------------------------------------------------------------
# Sentence, sizes and the lists the step files use for their controls
# ---------------------------------------------------------------------------

TOKENS = ["The", "cat", "sat", "on", "the", "mat"]
DEFAULT_QUERY = "cat"
D_MODEL = 8
D_K = 4      # width of queries and keys
D_V = 4      # width of values, and so of each output vector

D_KS = [4, 16, 64, 256]                 # step 2
TEMPERATURES = [0.5, 1.0, 2.0]          # step 3
TEMPERATURE_LABELS = ["0.5", "1", "2"]  # the buttons read 1, not 1.0
VIEWS = ["Scores", "Weights"]           # step 5
LENGTHS = [6, 12, 24, 48]               # step 5
ORDERS = ["Original", "Shuffled"]       # step 6

# Vaswani et al. 2017, Section 3.2.2: d_k = d_v = d_model / h = 64 (quoted, not part of the toy).
PAPER_D_K = 64

# Step 5's longer inputs: the first n tokens of this text, which starts with
# the running sentence. A word that comes back gets the same embedding again.
LONG_TEXT = ("The cat sat on the mat . The dog lay by the door and watched the cat . Rain fell on the "
             "roof , so the cat and the dog stayed in the warm house . At night the rain stopped and "
             "the two old friends slept .").split()

# Step 6's fixed shuffle: position i of the shuffled sentence holds token SHUFFLE[i].
# No token keeps its place.
SHUFFLE = [3, 5, 0, 4, 1, 2]

# ---------------------------------------------------------------------------
# Random weights
# ---------------------------------------------------------------------------

SEED = 105
SCALING_SEED = 100105

_rng = np.random.default_rng(SEED)
# Drawn in this order; changing the order changes every number below.
EMBEDDINGS = _rng.standard_normal((len(TOKENS), D_MODEL))
# Dividing by sqrt(D_MODEL) gives the queries, keys and values components of
# about unit variance, like the embeddings.
W_Q = _rng.standard_normal((D_MODEL, D_K)) / math.sqrt(D_MODEL)
W_K = _rng.standard_normal((D_MODEL, D_K)) / math.sqrt(D_MODEL)
W_V = _rng.standard_normal((D_MODEL, D_V)) / math.sqrt(D_MODEL)
# The words of LONG_TEXT that are not in the running sentence, in order of first use.
_NEW_WORDS = list(dict.fromkeys(w for w in LONG_TEXT if w not in TOKENS))
VOCABULARY = {**{w: EMBEDDINGS[i] for i, w in enumerate(TOKENS)},
              **dict(zip(_NEW_WORDS, _rng.standard_normal((len(_NEW_WORDS), D_MODEL))))}

# Step 2: one query and six keys per d_k, unit-variance components; a smaller
# d_k uses the first d_k components of the largest.
_scaling_rng = np.random.default_rng(SCALING_SEED)
SCALING_Q = _scaling_rng.standard_normal((len(TOKENS), max(D_KS)))
SCALING_K = _scaling_rng.standard_normal((len(TOKENS), max(D_KS)))

# How typical the chosen seeds are: SURVEY_DRAWS other draws of the same
# quantities, from their own seed. Steps 1 and 2 report these beside the
# chosen seeds' figures.
SURVEY_DRAWS = 500
SURVEY_SEED = 2017


def _softmax_last(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _survey():
    qi = TOKENS.index(DEFAULT_QUERY)
    n, rng = len(TOKENS), np.random.default_rng(SURVEY_SEED)
    x = rng.standard_normal((SURVEY_DRAWS, n, D_MODEL))
    w_q = rng.standard_normal((SURVEY_DRAWS, D_MODEL, D_K)) / math.sqrt(D_MODEL)
    w_k = rng.standard_normal((SURVEY_DRAWS, D_MODEL, D_K)) / math.sqrt(D_MODEL)
    rows = np.einsum("sd,snd->sn", (x @ w_q)[:, qi], x @ w_k)            # the default query's scores
    q = rng.standard_normal((SURVEY_DRAWS, max(D_KS)))
    k = rng.standard_normal((SURVEY_DRAWS, n, max(D_KS)))
    unscaled = _softmax_last(np.einsum("sd,snd->sn", q, k)).max(axis=-1)
    scaled = np.max([_softmax_last(np.einsum("sd,snd->sn", q[:, :d], k[:, :, :d]) / math.sqrt(d)).max(axis=-1)
                     for d in D_KS], axis=0)                              # the largest over every d_k
    # The spread of the unscaled scores against √d_k, two ways: one row's standard
    # deviation (six values, as step 2 shows) averaged over the draws, and the standard
    # deviation of every draw's scores pooled together. The first runs low (six values
    # about their own mean, and |q| a little under √d_k); the second is √d_k.
    spreads = [np.einsum("sd,snd->sn", q[:, :d], k[:, :, :d]) / math.sqrt(d) for d in D_KS]
    row_ratio = [float(np.std(r, axis=1).mean()) for r in spreads]
    pooled_ratio = [float(np.std(r)) for r in spreads]
    return {
        "draws": SURVEY_DRAWS,
        "negative_share": float(np.mean((rows < 0).any(axis=1))),
        "unscaled_median": float(np.median(unscaled)),
        "unscaled_saturated_share": float(np.mean(unscaled >= 0.90)),
        "scaled_median": float(np.median(scaled)),
        "scaled_below_share": float(np.mean(scaled < 0.60)),
        "row_ratio_low": min(row_ratio), "row_ratio_high": max(row_ratio),
        "pooled_ratio_low": min(pooled_ratio), "pooled_ratio_high": max(pooled_ratio),
    }


SURVEY = _survey()

# ---------------------------------------------------------------------------
# Small pure helpers (tested on their own)
# ---------------------------------------------------------------------------


def softmax(scores, temperature=1.0):
    """Softmax along the last axis: positive weights that sum to 1."""
    z = np.asarray(scores, dtype=float) / temperature
    # Subtracting the largest score avoids overflow and does not change the result.
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def entropy_bits(weights):
    """Shannon entropy in bits: 0 if one key has all the weight, log2(n) if even."""
    p = np.asarray(weights, dtype=float)
    nz = p[p > 0]   # 0 · log 0 counts as 0
    return float(-(nz * np.log2(nz)).sum())


def project(x):
    """Queries, keys and values of the rows of x: x·W_Q, x·W_K, x·W_V."""
    return x @ W_Q, x @ W_K, x @ W_V


def attention(x):
    """One head of self-attention over the rows of x:
    (raw scores QKᵀ, weights softmax(QKᵀ/√d_k), outputs weights·V)."""
    q, k, v = project(x)
    scores = q @ k.T
    weights = softmax(scores / math.sqrt(D_K))
    return scores, weights, weights @ v


def embed(words):
    return np.array([VOCABULARY[w] for w in words])


def vector_text(numbers, digits=2):
    """(0.12, −0.53, 1.00): a vector as the page writes it, with minus signs."""
    return "(" + ", ".join(f"{x:.{digits}f}".replace("-", "−") for x in numbers) + ")"


_SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def power_text(x):
    """7e-18 as '7×10⁻¹⁸' (one significant digit), 0 as '0'."""
    if x == 0:
        return "0"
    mantissa, exponent = f"{x:.0e}".split("e")
    return f"{mantissa}×10{str(int(exponent)).translate(_SUPERSCRIPTS)}"


def _join(words):
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _ranked(row):
    """Indices of a row from its largest value to its smallest."""
    return [int(i) for i in np.argsort(-np.asarray(row), kind="stable")]


X = EMBEDDINGS
Q, K, V = project(X)
SCORES, WEIGHTS, OUTPUTS = attention(X)


def _bars(values, highlight):
    return {"x": TOKENS, "y": np.round(values, 4).tolist(), "highlight": int(highlight)}


# ---------------------------------------------------------------------------
# Step 1: Queries and Keys
# ---------------------------------------------------------------------------


def _example_pair():
    """The default query and its top key: the worked example of step 1's deeper part."""
    qi = TOKENS.index(DEFAULT_QUERY)
    ki = int(np.argmax(SCORES[qi]))
    return qi, ki


def queries_and_keys(query=DEFAULT_QUERY):
    qi = TOKENS.index(query)
    row = SCORES[qi]
    order = _ranked(row)
    top, low = order[0], order[-1]
    negative = [TOKENS[i] for i in range(len(TOKENS)) if row[i] < 0]
    # The pair of query and key the reader can check by hand: the top one.
    q, k = Q[qi], K[top]
    return {
        "values": {
            "query": query,
            "top_key": TOKENS[top],
            "top_score": float(row[top]),
            "low_key": TOKENS[low],
            "low_score": float(row[low]),
            "self_score": float(row[qi]),
            "self_rank": order.index(qi) + 1,
            "negative_count": len(negative),
            "negative_keys": _join(negative) if negative else "none",
            "score_sum": float(row.sum()),
            "n_tokens": len(TOKENS),
            "d_model": D_MODEL,
            "d_k": D_K,
            # The top score as the sum of D_K products, for the deeper part.
            "q_vector": q.tolist(),
            "k_vector": k.tolist(),
            "products": (q * k).tolist(),
            # The same in every state.
            "min_score_all": float(SCORES.min()),
            "max_score_all": float(SCORES.max()),
            "negative_rows": int((SCORES < 0).any(axis=1).sum()),
            **_example_values(),
            "survey_draws": SURVEY["draws"],
            "survey_negative_share": SURVEY["negative_share"],
        },
        "chart": _bars(row, top),
    }


def _example_values():
    qi, ki = _example_pair()
    q, k = Q[qi], K[ki]
    return {
        "ex_query": TOKENS[qi],
        "ex_key": TOKENS[ki],
        "ex_q": vector_text(q),
        "ex_k": vector_text(k),
        "ex_products": _join(vector_text([p])[1:-1] for p in q * k),
        "ex_score": float(q @ k),
        "ex_reverse": float(SCORES[ki, qi]),
    }


# ---------------------------------------------------------------------------
# Step 2: Scaling by √d_k
# ---------------------------------------------------------------------------


def scaling_scores(d_k, scaled):
    """The query's scores against the six keys of step 2, divided by √d_k or not."""
    qi = TOKENS.index(DEFAULT_QUERY)
    raw = SCALING_K[:, :d_k] @ SCALING_Q[qi, :d_k]
    return raw / math.sqrt(d_k) if scaled else raw


def spread(scores):
    """Standard deviation of a row of scores (over its six values, ddof 0)."""
    return float(np.std(scores))


# Step 2's query and keys are fresh random vectors, not the sentence's words: named so.
SCALING_KEYS = [f"k{i + 1}" for i in range(len(TOKENS))]


def scaling(d_k=64, scaled=True):
    scores = scaling_scores(d_k, scaled)
    weights = softmax(scores)
    top = int(np.argmax(weights))
    unscaled_256 = softmax(scaling_scores(max(D_KS), False)).max()
    scaled_tops = [softmax(scaling_scores(d, True)).max() for d in D_KS]
    return {
        "values": {
            "d_k": d_k,
            "scaled": scaled,
            "scale": 1 / math.sqrt(d_k) if scaled else 1.0,
            "sqrt_d_k": math.isqrt(d_k),   # every d_k offered is a square
            "spread": spread(scores),
            "raw_spread": spread(scaling_scores(d_k, False)),
            "scaled_spread": spread(scaling_scores(d_k, True)),
            "top_key": SCALING_KEYS[top],
            "first_key": SCALING_KEYS[0], "last_key": SCALING_KEYS[-1],
            "top_weight": float(weights[top]),
            "top_score": float(scores[top]),
            "even_weight": 1 / len(TOKENS),
            "n_tokens": len(TOKENS),
            # The same in every state: for the hint and the deeper part.
            "largest_d_k": max(D_KS),
            "smallest_d_k": min(D_KS),
            "unscaled_top_256": float(unscaled_256),
            "scaled_top_max": float(max(scaled_tops)),
            "toy_d_k": D_K,
            "saturation_level": 0.90,   # the brief's "at least 0.90"
            "scaled_ceiling": 0.60,     # the brief's "below 0.60"
            "survey_draws": SURVEY["draws"],
            "survey_saturated_share": SURVEY["unscaled_saturated_share"],
            "survey_unscaled_median": SURVEY["unscaled_median"],
            "survey_below_share": SURVEY["scaled_below_share"],
            "survey_scaled_median": SURVEY["scaled_median"],
            "row_ratio_low": SURVEY["row_ratio_low"], "row_ratio_high": SURVEY["row_ratio_high"],
            "pooled_ratio_low": SURVEY["pooled_ratio_low"], "pooled_ratio_high": SURVEY["pooled_ratio_high"],
            "paper_d_k": PAPER_D_K,
            "paper_scale": 1 / math.sqrt(PAPER_D_K),
        },
        "chart": {"x": SCALING_KEYS, "y": np.round(weights, 4).tolist(), "highlight": top},
    }


# ---------------------------------------------------------------------------
# Step 3: Softmax
# ---------------------------------------------------------------------------


def temperature_weights(query, temperature):
    return softmax(SCORES[TOKENS.index(query)] / math.sqrt(D_K), temperature)


def softmax_step(query=DEFAULT_QUERY, temperature=1.0):
    qi = TOKENS.index(query)
    scaled = SCORES[qi] / math.sqrt(D_K)
    weights = temperature_weights(query, temperature)
    order = _ranked(weights)
    top, low = order[0], order[-1]
    entropies = {t: entropy_bits(temperature_weights(query, t)) for t in TEMPERATURES}
    return {
        "values": {
            "query": query,
            "temperature": temperature,
            "temperature_text": TEMPERATURE_LABELS[TEMPERATURES.index(temperature)],
            "top_key": TOKENS[top],
            "top_weight": float(weights[top]),
            "top_scaled_score": float(scaled[top]),
            "low_key": TOKENS[low],
            "low_weight": float(weights[low]),
            "low_scaled_score": float(scaled[low]),
            "weight_sum": float(weights.sum()),
            "entropy": entropies[temperature],
            "entropy_sharp": entropies[min(TEMPERATURES)],
            "entropy_flat": entropies[max(TEMPERATURES)],
            "max_entropy": math.log2(len(TOKENS)),
            "same_order": _ranked(weights) == _ranked(scaled),
            "two_decimals_floor": 0.01,   # a weight below 0.005 would read 0.00
            "n_tokens": len(TOKENS),
            # The same in every state.
            "sharpest": TEMPERATURE_LABELS[0],
            "flattest": TEMPERATURE_LABELS[-1],
        },
        "chart": _bars(weights, top),
    }


# ---------------------------------------------------------------------------
# Step 4: Mixing the Values
# ---------------------------------------------------------------------------


OUTPUT_ROW = "Output"


def closer_to(qi):
    """'top' if the output of query qi is nearer its top key's value than the
    mean of all values, else 'mean'."""
    top = int(np.argmax(WEIGHTS[qi]))
    to_top = np.linalg.norm(OUTPUTS[qi] - V[top])
    to_mean = np.linalg.norm(OUTPUTS[qi] - V.mean(axis=0))
    return "top" if to_top < to_mean else "mean"


def mixing(query=DEFAULT_QUERY):
    qi = TOKENS.index(query)
    weights = WEIGHTS[qi]
    weighted = weights[:, None] * V          # row i: w_i · v_i
    output = weighted.sum(axis=0)
    top = int(np.argmax(weights))
    largest = int(np.argmax(np.linalg.norm(weighted, axis=1)))
    tops = WEIGHTS.max(axis=1)
    peaked, even = int(np.argmax(tops)), int(np.argmin(tops))
    return {
        "values": {
            "query": query,
            "top_key": TOKENS[top],
            "top_weight": float(weights[top]),
            "output_width": int(output.shape[0]),
            "d_v": D_V,
            "d_k": D_K,
            "output": output.tolist(),
            "output_first": float(output[0]),
            "top_first": float(weighted[top, 0]),
            "n_tokens": len(TOKENS),
            "closer_to": closer_to(qi),
            "weight_sum": float(weights.sum()),
            "output_text": vector_text(output),
            "largest_term": TOKENS[largest],
            "largest_term_weight": float(weights[largest]),
            # The same in every state: for the hint.
            "peaked_query": TOKENS[peaked],
            "peaked_weight": float(tops[peaked]),
            "peaked_key": TOKENS[int(np.argmax(WEIGHTS[peaked]))],
            "peaked_closer_to": closer_to(peaked),
            "even_query": TOKENS[even],
            "even_weight": float(tops[even]),
            "even_closer_to": closer_to(even),
        },
        "charts": [
            _bars(weights, top),
            {
                "z": np.round(np.vstack([weighted, output]), 4).tolist(),
                "x": [f"v{i + 1}" for i in range(D_V)],
                "y": [f"{t}" for t in TOKENS] + [OUTPUT_ROW],
                "highlight_row": len(TOKENS),
            },
        ],
    }


# ---------------------------------------------------------------------------
# Step 5: All Queries at Once
# ---------------------------------------------------------------------------


def long_attention(length):
    words = LONG_TEXT[:length]
    scores, weights, outputs = attention(embed(words))
    return words, scores / math.sqrt(D_K), weights, outputs


# Scores share one diverging range over every length, so a colour keeps its meaning.
_SCORE_LIMIT = max(float(np.abs(long_attention(n)[1]).max()) for n in LENGTHS)
SCORE_RANGE = [-math.ceil(_SCORE_LIMIT * 10) / 10, math.ceil(_SCORE_LIMIT * 10) / 10]


def all_queries(view="Weights", length=6):
    words, scaled, weights, _ = long_attention(length)
    matrix = scaled if view == "Scores" else weights
    sums = matrix.sum(axis=1)
    if view == "Weights":
        assert np.allclose(sums, 1)
        row_sums = f"{float(sums.mean()):.2f}"
    else:
        row_sums = "varies"
    repeats = sorted({w for w in words if words.count(w) > 1}, key=words.index)
    chart = {"z": np.round(matrix, 3).tolist(), "x": words, "y": words,
             "highlight_row": TOKENS.index(DEFAULT_QUERY)}
    if view == "Scores":
        chart.update(scale="diverging", range=SCORE_RANGE)
    else:
        chart.update(scale="sequential", range=[0, 1])
    return {
        "values": {
            "view": view,
            "length": length,
            "shape": matrix.shape,
            "entries": int(matrix.size),
            "row_sums": row_sums,
            "row_sum_min": float(sums.min()),
            "row_sum_max": float(sums.max()),
            "distinct_words": len(set(words)),
            "repeated_words": _join(f"“{w}”" for w in repeats) if repeats else "",
            "repeat_count": len(repeats),
            "d_k": D_K,
            "d_v": D_V,
            "q_shape": (length, D_K),
            "v_shape": (length, D_V),
            "out_shape": (length, D_V),
            # The same in every state.
            "short_entries": min(LENGTHS) ** 2,
            "long_entries": max(LENGTHS) ** 2,
            "growth": max(LENGTHS) ** 2 // min(LENGTHS) ** 2,
            "length_growth": max(LENGTHS) // min(LENGTHS),
            "thousand_tokens": 1000,
            "thousand_entries": 1000 ** 2,
        },
        "chart": chart,
    }


# ---------------------------------------------------------------------------
# Step 6: Order Blindness
# ---------------------------------------------------------------------------


def shuffled_attention():
    """Self-attention over the shuffled sentence: (scores, weights, outputs)."""
    return attention(X[SHUFFLE])


def _same_everywhere():
    _, _, shuffled = shuffled_attention()
    same = np.allclose(OUTPUTS[SHUFFLE], shuffled, rtol=0, atol=1e-12)
    return "Yes" if same else "No"


def order_blindness(order="Original", query=DEFAULT_QUERY):
    qi = TOKENS.index(query)
    positions = list(range(len(TOKENS))) if order == "Original" else SHUFFLE
    words = [TOKENS[i] for i in positions]
    _, weights, outputs = attention(X[positions])
    at = positions.index(qi)                   # where the query sits in this order
    row = weights[at]
    top = int(np.argmax(row))
    _, _, shuffled = shuffled_attention()
    here, there = OUTPUTS[qi], shuffled[SHUFFLE.index(qi)]
    same = bool(np.allclose(here, there, rtol=0, atol=1e-12))
    return {
        "values": {
            "order": order,
            "query": query,
            "top_key": words[top],
            "top_weight": float(row[top]),
            "same_output": "Yes" if same else "No",
            "position": at + 1,
            "original_position": qi + 1,
            "shuffled_position": SHUFFLE.index(qi) + 1,
            "sentence": " ".join(words),
            "shuffled_sentence": " ".join(TOKENS[i] for i in SHUFFLE),
            "output": here.tolist(),
            "output_text": vector_text(here),
            "largest_difference": float(np.abs(here - there).max()),
            "largest_difference_text": power_text(float(np.abs(here - there).max())),
            # The same in every state.
            "original_sentence": " ".join(TOKENS),
            "same_output_all": _same_everywhere(),
            "n_tokens": len(TOKENS),
        },
        "chart": {"x": words, "y": np.round(row, 4).tolist(), "highlight": top},
    }
