"""Toy model for "How Self-Attention Works".

Every number on the page comes from this file. The build imports it, calls the
step function named in each step's front matter with the reader's control
values, and gets back the values (for readouts and prose) and the data of the
step's charts.

The toy is one attention head over "The cat sat on the mat", with hand-set
weights whose dimensions a reader can name, so that each query asks a question
a person can read: an embedding says what a word is (determiner, noun, verb,
preposition, animal, place) and what it looks for (a subject, an object); W_Q
turns that into what the word wants (a noun, a verb, an animal, a place), W_K
into what it is, and W_V into what it hands over. The page says once that they
are hand-set, and that a trained head's weights are learned and rarely this tidy.

Step 3 alone uses other numbers: a random query and six keys with unit-variance
components (SCALING_SEED), the setting of the argument in Vaswani et al. (2017,
Section 3.2.1) for dividing by sqrt(d_k). That seed was picked so that the
brief's figures hold (unscaled at d_k 256 the top weight is at least 0.90,
scaled it stays below 0.60 at every d_k); SURVEY says how typical that is.
"""

import math

import numpy as np

# ---------------------------------------------------------------------------
# Sentence, sizes and the lists the step files use for their controls
# ---------------------------------------------------------------------------

TOKENS = ["The", "cat", "sat", "on", "the", "mat"]
DEFAULT_QUERY = "cat"

# What an embedding's numbers mean, what a query (or key) dimension asks (or
# offers), and what a value hands over.
FEATURES = ["determiner", "noun", "verb", "preposition", "animal", "place", "seeks subject", "seeks object"]
QK_DIMS = ["noun", "verb", "animal", "place"]
V_DIMS = ["animal", "place", "action", "grammar"]
D_MODEL = len(FEATURES)
D_K = len(QK_DIMS)   # width of queries and keys
D_V = len(V_DIMS)    # width of values, and so of each output vector

FACTORS = [0.5, 1.0, 2.0]               # step 2: the scores multiplied by
FACTOR_LABELS = ["0.5", "1", "2"]       # the buttons read 1, not 1.0
D_KS = [4, 16, 64, 256]                 # step 3
VIEWS = ["Scores", "Weights"]           # step 5
LENGTHS = [6, 12, 24, 48]               # step 5
ORDERS = ["Original", "Shuffled"]       # step 6

# Vaswani et al. 2017, Section 3.2.2: d_k = d_v = d_model / h = 64 (quoted, not part of the toy).
PAPER_D_K = 64

# Step 6's fixed shuffle: position i of the shuffled sentence holds token SHUFFLE[i].
# No token keeps its place.
SHUFFLE = [3, 5, 0, 4, 1, 2]

# ---------------------------------------------------------------------------
# Hand-set weights
# ---------------------------------------------------------------------------

# Each word's features (1 where it has the feature). "The" and "the" are the same
# determiner: the toy has no feature for a capital letter, nor for a position.
_LEXICON = {
    "determiner": ["The", "the"],
    "noun": ["cat", "mat", "dog", "bird", "mouse", "door", "roof", "fire", "rug", "bed"],
    "animal": ["cat", "dog", "bird", "mouse"],
    "place": ["mat", "door", "roof", "fire", "rug", "bed"],
    "verb": ["sat", "lay", "slept"],
    "seeks subject": ["sat", "lay", "slept"],
    "preposition": ["on", "by", "near", "under"],
    "seeks object": ["on", "by", "near", "under"],
}
VOCABULARY = {}
for _feature, _words in _LEXICON.items():
    for _word in _words:
        VOCABULARY.setdefault(_word, np.zeros(D_MODEL))[FEATURES.index(_feature)] = 1.0


def _matrix(rows: dict, width: int) -> np.ndarray:
    """A D_MODEL × width matrix from {feature: its row}; other rows are zero."""
    m = np.zeros((D_MODEL, width))
    for feature, row in rows.items():
        m[FEATURES.index(feature)] = row
    return m


# What each feature makes a word look for (columns: QK_DIMS): a determiner looks
# for a noun; a noun for a verb (what it does), and away from other nouns; a verb
# that seeks its subject for an animal noun; a preposition for a place noun.
W_Q = _matrix({"determiner": [3, 0, 0, 0], "noun": [-1.5, 3, 0, 0],
               "seeks subject": [3, 0, 3, 0], "seeks object": [3, 0, 0, 3]}, D_K)
# What a word offers to be found by: its class and kind. Determiners and
# prepositions offer nothing this head looks for.
W_K = _matrix({"noun": [1, 0, 0, 0], "verb": [0, 1, 0, 0], "animal": [0, 0, 1, 0], "place": [0, 0, 0, 1]}, D_K)
# What a word hands over once found (columns: V_DIMS).
W_V = _matrix({"animal": [1, 0, 0, 0], "place": [0, 1, 0, 0], "verb": [0, 0, 1, 0],
               "determiner": [0, 0, 0, 1], "preposition": [0, 0, 0, 1]}, D_V)

# Step 5's longer inputs: the first n words of this text, which starts with the
# running sentence. A word that comes back has the same embedding again.
LONG_TEXT = ("The cat sat on the mat The dog lay by the door The bird sat on the roof "
             "The cat slept near the fire The dog sat by the cat The bird lay on the rug "
             "The mouse slept under the bed The dog sat on the mat").split()

# ---------------------------------------------------------------------------
# Step 3's random vectors, and how typical their seed is
# ---------------------------------------------------------------------------

SCALING_SEED = 100105
_scaling_rng = np.random.default_rng(SCALING_SEED)
# One query per row (step 3 uses the second) and six keys; a smaller d_k uses the
# first d_k components of the largest.
SCALING_Q = _scaling_rng.standard_normal((len(TOKENS), max(D_KS)))
SCALING_K = _scaling_rng.standard_normal((len(TOKENS), max(D_KS)))
SCALING_KEYS = [f"k{i + 1}" for i in range(len(TOKENS))]

SURVEY_DRAWS = 500
SURVEY_SEED = 2017


def _softmax_last(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _survey():
    """SURVEY_DRAWS other draws of step 3's query and keys: how often the chosen seed's figures hold."""
    n, rng = len(TOKENS), np.random.default_rng(SURVEY_SEED)
    q = rng.standard_normal((SURVEY_DRAWS, max(D_KS)))
    k = rng.standard_normal((SURVEY_DRAWS, n, max(D_KS)))
    unscaled = _softmax_last(np.einsum("sd,snd->sn", q, k)).max(axis=-1)
    scaled = np.max([_softmax_last(np.einsum("sd,snd->sn", q[:, :d], k[:, :, :d]) / math.sqrt(d)).max(axis=-1)
                     for d in D_KS], axis=0)                              # the largest over every d_k
    return {"draws": SURVEY_DRAWS,
            "unscaled_saturated_share": float(np.mean(unscaled >= 0.90)),
            "scaled_below_share": float(np.mean(scaled < 0.60))}


SURVEY = _survey()

# ---------------------------------------------------------------------------
# Small pure helpers (tested on their own)
# ---------------------------------------------------------------------------


def softmax(scores, factor=1.0):
    """Softmax along the last axis of the scores times `factor`: positive weights that sum to 1."""
    z = np.asarray(scores, dtype=float) * factor
    # Subtracting the largest score avoids overflow and does not change the result.
    e = np.exp(z - z.max(axis=-1, keepdims=True))
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


def number_text(x, digits=2):
    """0.5 as '0.5', 3.0 as '3', −1.5 with the minus sign: a hand-set number as a person writes it."""
    x = round(float(x), digits) + 0.0   # + 0.0: −0 (a product by zero) is written 0
    return f"{x:.{digits}f}".rstrip("0").rstrip(".").replace("-", "−")


def vector_text(numbers, digits=2):
    """(0.12, −0.53, 1.00): a vector as the page writes it, with minus signs."""
    return "(" + ", ".join(f"{x:.{digits}f}".replace("-", "−") for x in numbers) + ")"


def _join(words):
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _top(row):
    """The index of the largest value of a row, the first of a tie."""
    return int(np.argmax(row))


def _ties(row, i):
    return [j for j in range(len(row)) if j != i and math.isclose(row[j], row[i], abs_tol=1e-12)]


X = embed(TOKENS)
Q, K, V = project(X)
SCORES, WEIGHTS, OUTPUTS = attention(X)


def _bars(values, highlight, x=TOKENS):
    return {"x": list(x), "y": np.round(values, 4).tolist(), "highlight": int(highlight)}


def _features(i):
    return _join(FEATURES[j] for j in np.flatnonzero(X[i]))


# ---------------------------------------------------------------------------
# Step 1: Queries and Keys
# ---------------------------------------------------------------------------


def _pipeline(qi, ki):
    """x·W_Q = q, x·W_K = k and q × k, one row each, under the rows of W_Q and W_K that
    the two words' features pick: x holds ones in those features and zeros elsewhere,
    so x·W is the sum of those rows."""
    rows, labels = [], []
    for i, w, name, vector in ((qi, W_Q, "q = x·W_Q", Q[qi]), (ki, W_K, "k = x·W_K", K[ki])):
        for j in np.flatnonzero(X[i]):
            rows.append(w[j])
            labels.append(f"{name[6:]} row: {FEATURES[j]}")
        rows.append(vector)
        labels.append(f"{name[0]} ({TOKENS[i]})")
    rows.append(Q[qi] * K[ki])
    labels.append("q × k")
    return {"z": np.array(rows).tolist(), "x": QK_DIMS, "y": labels, "highlight_row": len(rows) - 1}


def _top_key(word):
    return TOKENS[_top(SCORES[TOKENS.index(word)])]


def _step1_constants():
    the = TOKENS.index("The")
    top = _top(SCORES[the])
    i, j = TOKENS.index("sat"), TOKENS.index("cat")
    return {
        "sat_top": _top_key("sat"), "on_top": _top_key("on"), "cat_top": _top_key("cat"),
        "the_tied": _join(TOKENS[k] for k in [top] + _ties(SCORES[the], top)),
        "the_score": float(SCORES[the, top]),
        "sat_cat": float(SCORES[i, j]), "cat_sat": float(SCORES[j, i]),
        "paper_d_model": 512, "paper_d_k": PAPER_D_K,   # Vaswani et al. 2017, Sections 3.1 and 3.2.2
    }


def queries_and_keys(query=DEFAULT_QUERY):
    qi = TOKENS.index(query)
    row = SCORES[qi]
    top = _top(row)
    tied = [TOKENS[j] for j in _ties(row, top)]
    negative = [TOKENS[j] for j in range(len(TOKENS)) if row[j] < 0]
    q, k = Q[qi], K[top]
    wanted = [("an " if QK_DIMS[j][0] in "aeiou" else "a ") + QK_DIMS[j] for j in np.flatnonzero(q > 0)]
    return {
        "values": {
            "query": query,
            "top_key": TOKENS[top],
            "top_score": float(row[top]),
            "reverse_score": float(SCORES[top, qi]),
            "tied_keys": _join(tied) if tied else "",
            "query_features": _features(qi),
            "query_feature_count": int(X[qi].sum()),
            "key_features": _features(top),
            "wants": _join(wanted),
            "q_text": vector_text(q, 1),
            "k_text": vector_text(k, 1),
            "products": _join(number_text(p) for p in q * k),
            "negative_count": len(negative),
            "negative_keys": _join(negative) if negative else "",
            "lowest_score": float(row.min()),
            "score_sum": float(row.sum()),
            "n_tokens": len(TOKENS),
            "d_model": D_MODEL,
            "d_k": D_K,
            # The same in every state: for the hint and the deeper parts.
            **_step1_constants(),
        },
        "charts": [
            _pipeline(qi, top),
            _bars(row, top),
        ],
    }


# ---------------------------------------------------------------------------
# Step 2: Softmax
# ---------------------------------------------------------------------------


def softmax_step(query=DEFAULT_QUERY, factor=1.0):
    qi = TOKENS.index(query)
    raw = SCORES[qi]
    weights = softmax(raw, factor)
    top = _top(weights)
    tied = [TOKENS[j] for j in _ties(weights, top)]
    entropies = [entropy_bits(softmax(raw, f)) for f in FACTORS]
    return {
        "values": {
            "query": query,
            "factor": factor,
            "factor_text": FACTOR_LABELS[FACTORS.index(factor)],
            "top_key": TOKENS[top],
            "tied_keys": _join(tied) if tied else "",
            "top_weight": float(weights[top]),
            "top_score": float(raw[top] * factor),
            "low_weight": float(weights.min()),
            "weight_sum": float(weights.sum()),
            "entropy": entropy_bits(weights),
            "entropy_low": entropies[-1],
            "entropy_high": entropies[0],
            "max_entropy": math.log2(len(TOKENS)),
            "same_order": bool((np.argsort(-weights, kind="stable") == np.argsort(-raw, kind="stable")).all()),
            "n_tokens": len(TOKENS),
            # The same in every state.
            "smallest_factor": FACTOR_LABELS[0],
            "largest_factor": FACTOR_LABELS[-1],
        },
        "charts": [_bars(raw * factor, top), _bars(weights, top)],
    }


# ---------------------------------------------------------------------------
# Step 3: Scaling by √d_k
# ---------------------------------------------------------------------------


def scaling_scores(d_k, scaled):
    """Step 3's query against its six keys, divided by √d_k or not."""
    raw = SCALING_K[:, :d_k] @ SCALING_Q[1, :d_k]
    return raw / math.sqrt(d_k) if scaled else raw


def spread(scores):
    """Standard deviation of a row of scores (over its six values, ddof 0)."""
    return float(np.std(scores))


def scaling(d_k=64, scaled=True):
    scores = scaling_scores(d_k, scaled)
    weights = softmax(scores)
    top = _top(weights)
    unscaled_tops = [float(softmax(scaling_scores(d, False)).max()) for d in D_KS]
    scaled_tops = [float(softmax(scaling_scores(d, True)).max()) for d in D_KS]
    return {
        "values": {
            "d_k": d_k,
            "scaled": scaled,
            "scale": 1 / math.sqrt(d_k) if scaled else 1.0,
            "sqrt_d_k": math.isqrt(d_k),   # every d_k offered is a square
            "spread": spread(scores),
            "raw_spread": spread(scaling_scores(d_k, False)),
            "top_key": SCALING_KEYS[top],
            "first_key": SCALING_KEYS[0], "last_key": SCALING_KEYS[-1],
            "rest_weight": float(1 - weights[top]),
            "other_keys": len(TOKENS) - 1,
            "top_weight": float(weights[top]),
            "n_tokens": len(TOKENS),
            # The same in every state: for the hint and the deeper parts.
            "largest_d_k": max(D_KS),
            "unscaled_top_largest": unscaled_tops[-1],
            "unscaled_top_64": unscaled_tops[D_KS.index(64)],
            "saturated_from": next(d for d, t in zip(D_KS, unscaled_tops) if t >= 0.90),
            "scaled_top_max": max(scaled_tops),
            "toy_d_k": D_K,
            "toy_sqrt_d_k": math.isqrt(D_K),
            "toy_factor": FACTOR_LABELS[FACTORS.index(1 / math.sqrt(D_K))],
            "saturation_level": 0.90,   # the brief's "at least 0.90"
            "scaled_ceiling": 0.60,     # the brief's "below 0.60"
            "survey_draws": SURVEY["draws"],
            "survey_saturated_share": SURVEY["unscaled_saturated_share"],
            "survey_below_share": SURVEY["scaled_below_share"],
            "paper_d_k": PAPER_D_K,
            "paper_scale": 1 / math.sqrt(PAPER_D_K),
        },
        "chart": _bars(weights, top, SCALING_KEYS),
    }


# ---------------------------------------------------------------------------
# Step 4: Mixing the Values
# ---------------------------------------------------------------------------

OUTPUT_ROW, AVERAGE_ROW = "output", "plain average"


def closer_to(qi):
    """'top' if the output of query qi is nearer its top key's value than the plain
    average of all values, else 'average'."""
    top = _top(WEIGHTS[qi])
    to_top = np.linalg.norm(OUTPUTS[qi] - V[top])
    to_mean = np.linalg.norm(OUTPUTS[qi] - V.mean(axis=0))
    return "top" if to_top < to_mean else "average"


def mixing(query=DEFAULT_QUERY):
    qi = TOKENS.index(query)
    weights = WEIGHTS[qi]
    output = OUTPUTS[qi]
    top = _top(weights)
    tied = [TOKENS[j] for j in _ties(weights, top)]
    tops = WEIGHTS.max(axis=1)
    peaked = _top(tops)
    return {
        "values": {
            "query": query,
            "top_key": TOKENS[top],
            "tied_keys": _join(tied) if tied else "",
            "top_weight": float(weights[top]),
            "top_value_dim": V_DIMS[_top(V[top])],
            "output_width": int(output.shape[0]),
            "output_text": vector_text(output),
            "average_text": vector_text(V.mean(axis=0)),
            "closer_to": closer_to(qi),
            "rest_weight": float(1 - weights[top]),
            "other_words": len(TOKENS) - 1,
            "weight_sum": float(weights.sum()),
            "d_v": D_V,
            "d_k": D_K,
            "n_tokens": len(TOKENS),
            # The same in every state: for the hint.
            "peaked_query": TOKENS[peaked],
            "peaked_key": TOKENS[_top(WEIGHTS[peaked])],
        },
        "charts": [
            _bars(weights, top),
            {"z": np.round(np.vstack([V, output, V.mean(axis=0)]), 4).tolist(), "x": V_DIMS,
             "y": [f"v {t}" for t in TOKENS] + [OUTPUT_ROW, AVERAGE_ROW],
             "highlight_row": len(TOKENS)},
        ],
    }


# ---------------------------------------------------------------------------
# Step 5: All Queries at Once
# ---------------------------------------------------------------------------


def long_attention(length):
    words = LONG_TEXT[:length]
    scores, weights, outputs = attention(embed(words))
    return words, scores / math.sqrt(D_K), weights, outputs


ROW_LABELS = [f"{i + 1} {w}" for i, w in enumerate(LONG_TEXT)]
_SCORE_LIMIT = max(float(np.abs(long_attention(n)[1]).max()) for n in LENGTHS)
# Scores share one diverging range over every length, so a colour keeps its meaning.
SCORE_RANGE = [-math.ceil(_SCORE_LIMIT), math.ceil(_SCORE_LIMIT)]


def all_queries(view="Weights", length=6):
    words, scaled, weights, _ = long_attention(length)
    matrix = scaled if view == "Scores" else weights
    sums = matrix.sum(axis=1)
    qi = TOKENS.index(DEFAULT_QUERY)
    chart = {"z": np.round(matrix, 2).tolist(), "x": ROW_LABELS[:length], "y": ROW_LABELS[:length],
             "regions": [{"rows": qi, "columns": [0, length - 1], "label": f"row {qi + 1}: {DEFAULT_QUERY}'s query"}]}
    if view == "Scores":
        chart.update(scale="diverging", range=SCORE_RANGE)
    else:
        assert np.allclose(sums, 1)
        chart.update(scale="sequential", range=[0, 1])
    repeats = [w for w in dict.fromkeys(words) if words.count(w) > 1]
    return {
        "values": {
            "view": view,
            "length": length,
            "shape": matrix.shape,
            "entries": int(matrix.size),
            "row_sums": f"{float(sums.mean()):.2f}" if view == "Weights" else "varies",
            "row_sum_min": float(sums.min()),
            "row_sum_max": float(sums.max()),
            "repeat_count": len(repeats),
            "query_row": qi + 1,
            "query": DEFAULT_QUERY,
            "v_shape": (length, D_V),
            "q_shape": (length, D_K),
            # The same in every state.
            "short_entries": min(LENGTHS) ** 2,
            "long_entries": max(LENGTHS) ** 2,
            "growth": max(LENGTHS) ** 2 // min(LENGTHS) ** 2,
            "length_growth": max(LENGTHS) // min(LENGTHS),
        },
        "chart": chart,
    }


# ---------------------------------------------------------------------------
# Step 6: Order Blindness
# ---------------------------------------------------------------------------


def order_blindness(order="Original", query=DEFAULT_QUERY):
    qi = TOKENS.index(query)
    positions = list(range(len(TOKENS))) if order == "Original" else SHUFFLE
    words = [TOKENS[i] for i in positions]
    _, weights, _ = attention(X[positions])
    at = positions.index(qi)                   # where the query sits in this order
    row = weights[at]
    # The top key in the sentence's own order, so a tie (The: cat and mat) reads alike in both orders.
    top_token = _top(WEIGHTS[qi])
    tied = [TOKENS[j] for j in _ties(WEIGHTS[qi], top_token)]
    top = positions.index(top_token)
    _, _, shuffled = attention(X[SHUFFLE])
    here, there = OUTPUTS[qi], shuffled[SHUFFLE.index(qi)]
    difference = float(np.abs(here - there).max())
    return {
        "values": {
            "order": order,
            "query": query,
            "top_key": words[top],
            "tied_keys": _join(tied) if tied else "",
            "top_weight": float(row[top]),
            "same_output": "Yes" if difference < 1e-12 else "No",
            "position": at + 1,
            "original_position": qi + 1,
            "sentence": " ".join(words),
            "output_text": vector_text(here),
            # The same in every state.
            "original_sentence": " ".join(TOKENS),
            "shuffled_sentence": " ".join(TOKENS[i] for i in SHUFFLE),
        },
        "charts": [
            _bars(row, top, words),
            {"x": V_DIMS, "y": [np.round(here, 4).tolist(), np.round(there, 4).tolist()],
             "series": ["Original order", "Shuffled order"]},
        ],
    }
