"""Toy model for "How Multi-Head Attention Works".

Every number on the page comes from this file. The build imports it, calls the
step function named in each step's front matter with the reader's control
values, and gets back a dict of values (for readouts and prose) and the data
for the chart.

The model is deliberately tiny: the six tokens of "The cat sat on the mat",
a width of 64, and attention patterns that are small enough to read by eye.
Two kinds of data live here:

* random weights (embeddings, W_Q, W_K, W_V, W_O) from a fixed seed, so the
  single head of step 1 behaves like an untrained, near-random head;
* eight hand-set attention patterns, written as simple rules, that illustrate
  head types people have found in trained models. They were not learned.
"""

import math

import numpy as np

# ---------------------------------------------------------------------------
# Sentence, sizes and the lists the step files use for their buttons
# ---------------------------------------------------------------------------

TOKENS = ["The", "cat", "sat", "on", "the", "mat"]
D_MODEL = 64

HEAD_COUNTS = [1, 2, 4, 8]          # step 2 and step 4: how many heads share d_model
HEADS = [1, 2, 3, 4, 5, 6, 7, 8]    # step 3: the eight hand-set heads
FOUR_HEADS = [1, 2, 3, 4]           # steps 5 and 6: the four-head layer

PATTERN_NAMES = [
    "Positional",
    "Previous token",
    "Next token",
    "Subject ↔ verb",
    "Determiner ↔ noun",
    "Broad / uniform",
    "Content word",
    "First-token sink",
]

# The layer of steps 5 and 6 has four heads of width D_MODEL / 4.
LAYER_HEADS = 4

# Reference models quoted in step 2 (published sizes, not part of the toy).
ORIGINAL_TRANSFORMER = {"d_model": 512, "heads": 8}   # Vaswani et al. 2017
GPT3 = {"d_model": 12288, "heads": 96}                # GPT-3 175B

# ---------------------------------------------------------------------------
# Random weights
# ---------------------------------------------------------------------------

# The seed and scale were picked by a small search so that the untrained head
# of step 1 is blurred in the way the page describes: for "cat" it leans a
# little towards itself (about 22 %) and every query's entropy stays close to
# the maximum of log2(6) bits. A smaller INIT_SCALE would make it even flatter.
SEED = 38281
INIT_SCALE = 0.5

_rng = np.random.default_rng(SEED)
# Drawn in this order; changing the order changes every random number below.
EMBEDDINGS = _rng.standard_normal((len(TOKENS), D_MODEL))
# Dividing by sqrt(D_MODEL) keeps projected vectors at the scale of the inputs.
W_Q = _rng.standard_normal((D_MODEL, D_MODEL)) * INIT_SCALE / math.sqrt(D_MODEL)
W_K = _rng.standard_normal((D_MODEL, D_MODEL)) * INIT_SCALE / math.sqrt(D_MODEL)
W_V = _rng.standard_normal((D_MODEL, D_MODEL)) / math.sqrt(D_MODEL)
_W_O_RAW = _rng.standard_normal((D_MODEL, D_MODEL)) / math.sqrt(D_MODEL)

# A trained W_O does not weigh its heads equally. To show that in step 5, each
# block of W_O rows (the rows that read one head of the four-head layer) gets a
# gain: head 1's rows (the positional head) are doubled, head 4's are trimmed a
# little, heads 2 and 3 are left as drawn. With plain random rows the positional
# head, which averages several neighbours, would have the smallest share; with
# these gains it has the largest, about a third of the output.
HEAD_GAINS = [2.0, 1.0, 1.0, 0.9]
W_O = _W_O_RAW * np.repeat(HEAD_GAINS, D_MODEL // LAYER_HEADS)[:, None]

# ---------------------------------------------------------------------------
# Small pure helpers (tested on their own)
# ---------------------------------------------------------------------------


def softmax_rows(logits):
    """Softmax along the last axis: each row becomes weights that sum to 1."""
    z = np.asarray(logits, dtype=float)
    # Subtracting the row maximum avoids overflow and does not change the result.
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def entropy_bits(weights):
    """Shannon entropy in bits: 0 if all weight is on one key, log2(n) if even."""
    p = np.asarray(weights, dtype=float)
    # 0 * log 0 counts as 0, so zero weights are simply left out.
    nz = p[p > 0]
    return float(-(nz * np.log2(nz)).sum())


def attention_weights(q, k):
    """Scaled dot-product attention weights softmax(Q K^T / sqrt(d_k))."""
    d_k = q.shape[-1]
    return softmax_rows(q @ k.T / math.sqrt(d_k))


def head_blocks(width, heads):
    """(start, end) column ranges, end exclusive, of each head's slice."""
    d_k = width // heads
    return [(i * d_k, (i + 1) * d_k) for i in range(heads)]


def frobenius_shares(contributions):
    """Each matrix's Frobenius norm as a fraction of the sum of all the norms."""
    norms = np.array([np.linalg.norm(c) for c in contributions])
    return norms / norms.sum()


def window_share(row, index):
    """Weight on position `index` and its immediate neighbours (one each side)."""
    lo, hi = max(index - 1, 0), min(index + 2, len(row))
    return float(np.sum(row[lo:hi]))


def _join_words(words):
    # "The and cat", "The, cat and sat": for prose about the attention window.
    words = list(words)
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]


# ---------------------------------------------------------------------------
# The eight hand-set heads
# ---------------------------------------------------------------------------

# Positional head: a logit for each distance between query and key
# (0 = the token itself, 1 = a neighbour, ...). Hand-set so that "cat" keeps
# about half its weight on itself and most of the rest on its two neighbours.
POSITIONAL_LOGITS = [0.0, -0.83, -2.20, -2.50, -2.80, -3.10]

# How strongly a rule-based head prefers its chosen key: with a logit of 3
# against five zeros, the chosen key gets about 80 % of the weight.
STRONG = 3.0

# Step 3's prose calls a row "sharp" below this entropy and "wide" above it.
# The hand-set rows fall either at or below 2.2 bits or at or above 2.4 bits.
FOCUSED_BELOW_BITS = 2.3

SUBJECT, VERB = 1, 2                               # "cat" and "sat"
DETERMINER_NOUN = {0: 1, 1: 0, 4: 5, 5: 4}         # The <-> cat, the <-> mat
# Made-up "rarity" scores: function words are common, content words rare.
CONTENT_SCORES = [0.0, 1.6, 1.4, 0.3, 0.0, 2.0]


def _pattern_logits():
    n = len(TOKENS)
    pos = np.arange(n)
    dist = np.abs(pos[:, None] - pos[None, :])
    logits = np.zeros((len(PATTERN_NAMES), n, n))

    logits[0] = np.array(POSITIONAL_LOGITS)[dist]
    for i in range(n):
        logits[1, i, max(i - 1, 0)] = STRONG        # previous token (first: itself)
        logits[2, i, min(i + 1, n - 1)] = STRONG    # next token (last: itself)
        logits[3, i, SUBJECT if i == VERB else VERB] = STRONG
        # Words outside a determiner-noun pair get only a mild pull to themselves.
        if i in DETERMINER_NOUN:
            logits[4, i, DETERMINER_NOUN[i]] = STRONG
        else:
            logits[4, i, i] = 1.0
    logits[5] = -0.15 * dist                        # almost even, faint locality
    logits[6] = np.array(CONTENT_SCORES)[None, :]   # every query looks at rare words
    logits[7, :, 0] = STRONG                        # everything parks on token 0
    return logits


# PATTERNS[h] is head h+1's 6x6 attention matrix (row = query, column = key).
PATTERNS = softmax_rows(_pattern_logits())


def _multi_head_concat(heads):
    """Concatenated head outputs (6 x D_MODEL) when the first `heads` patterns
    each read their own slice of V."""
    v = EMBEDDINGS @ W_V
    outs = [PATTERNS[h] @ v[:, a:b] for h, (a, b) in enumerate(head_blocks(D_MODEL, heads))]
    return np.hstack(outs)


# Step 4 shades the vector of "cat" on one scale for every head count, so a
# colour stands for the same value whichever count is chosen.
_CAT_LARGEST = max(float(np.abs(_multi_head_concat(h)[TOKENS.index("cat")]).max()) for h in HEAD_COUNTS)
CONCAT_RANGE = [-float(np.ceil(_CAT_LARGEST * 10) / 10), float(np.ceil(_CAT_LARGEST * 10) / 10)]


def _layer_contributions():
    """Each head's contribution to the output of the four-head layer:
    (A_h V_h) times the rows of W_O that read head h. They sum to concat @ W_O."""
    concat = _multi_head_concat(LAYER_HEADS)
    return [concat[:, a:b] @ W_O[a:b, :] for a, b in head_blocks(D_MODEL, LAYER_HEADS)]


def _top(row):
    i = int(np.argmax(row))
    return TOKENS[i], float(row[i])


def _heatmap(matrix, row):
    return {"z": np.round(matrix, 4).tolist(), "x": TOKENS, "y": TOKENS, "highlight_row": row}


# ---------------------------------------------------------------------------
# Step 1: One Head's Limit
# ---------------------------------------------------------------------------


def single_head_weights():
    """The one untrained head over the full width: d_k = D_MODEL."""
    return attention_weights(EMBEDDINGS @ W_Q, EMBEDDINGS @ W_K)


def one_heads_limit(query="cat"):
    a = single_head_weights()
    qi = TOKENS.index(query)
    row = a[qi]
    top_key, top_weight = _top(row)
    rest = np.delete(row, int(np.argmax(row)))
    all_h = [entropy_bits(r) for r in a]
    return {
        "values": {
            "query": query,
            "top_key": top_key,
            "top_weight": top_weight,
            "entropy": entropy_bits(row),
            "max_entropy": math.log2(len(TOKENS)),
            "min_entropy_all": min(all_h),
            "max_entropy_all": max(all_h),
            "rest_min": float(rest.min()),
            "rest_max": float(rest.max()),
            "n_tokens": len(TOKENS),
            "uniform_weight": 1 / len(TOKENS),
            "d_model": D_MODEL,
        },
        "chart": _heatmap(a, qi),
    }


# ---------------------------------------------------------------------------
# Step 2: Multiple Heads
# ---------------------------------------------------------------------------


def multiple_heads(heads=4):
    d_k = D_MODEL // heads
    return {
        "values": {
            "d_model": D_MODEL,
            "heads": heads,
            "d_k": d_k,
            # W_Q, W_K, W_V and W_O are d_model x d_model whatever the head count.
            "params": 4 * D_MODEL * D_MODEL,
            # One head's share: its columns of W_Q, W_K, W_V and its rows of W_O.
            "head_params": 4 * D_MODEL * d_k,
            "q_shape": (len(TOKENS), D_MODEL),
            "split_shape": (heads, len(TOKENS), d_k),
            "seq_len": len(TOKENS),
            "orig_d_model": ORIGINAL_TRANSFORMER["d_model"],
            "orig_heads": ORIGINAL_TRANSFORMER["heads"],
            "orig_d_k": ORIGINAL_TRANSFORMER["d_model"] // ORIGINAL_TRANSFORMER["heads"],
            "gpt3_d_model": GPT3["d_model"],
            "gpt3_heads": GPT3["heads"],
            "gpt3_d_k": GPT3["d_model"] // GPT3["heads"],
        },
        "chart": {"sizes": [d_k] * heads, "labels": [f"Head {i + 1}" for i in range(heads)]},
    }


# ---------------------------------------------------------------------------
# Step 3: Different Patterns
# ---------------------------------------------------------------------------


def different_patterns(head=1, query="cat"):
    a = PATTERNS[head - 1]
    qi = TOKENS.index(query)
    row = a[qi]
    top_key, top_weight = _top(row)
    lo, hi = max(qi - 1, 0), min(qi + 2, len(TOKENS))
    return {
        "values": {
            "head": head,
            "head_name": f"Head {head}",
            "pattern": PATTERN_NAMES[head - 1],
            "query": query,
            "top_key": top_key,
            "top_weight": top_weight,
            "self_weight": float(row[qi]),
            "entropy": entropy_bits(row),
            "max_entropy": math.log2(len(TOKENS)),
            "window_share": window_share(row, qi),
            "window_words": _join_words(TOKENS[lo:hi]),
            "neighbour_count": hi - lo - 1,
            "focus": "sharp" if entropy_bits(row) < FOCUSED_BELOW_BITS else "wide",
            "head_count": len(PATTERN_NAMES),
        },
        "chart": _heatmap(a, qi),
    }


# ---------------------------------------------------------------------------
# Step 4: Concatenation
# ---------------------------------------------------------------------------


def concatenation(heads=4):
    d_k = D_MODEL // heads
    concat = _multi_head_concat(heads)
    ex_heads = 4   # the worked example in the deeper paragraph
    ex_k = D_MODEL // ex_heads
    return {
        "values": {
            "heads": heads,
            "per_head": d_k,
            "concat": concat.shape[1],
            "output": (concat @ W_O).shape[1],
            "d_model": D_MODEL,
            "first_start": 0,
            "first_end": d_k - 1,
            "second_start": d_k,
            "second_end": 2 * d_k - 1,
            "last_start": D_MODEL - d_k,
            "last_end": D_MODEL - 1,
            "ex_heads": ex_heads,
            "ex_first_end": ex_k - 1,
            "ex_second_start": ex_k,
            "ex_second_end": 2 * ex_k - 1,
        },
        "chart": {
            "sizes": [d_k] * heads,
            "labels": [f"Head {i + 1}" for i in range(heads)],
            # The concatenated vector of the query "cat".
            "values": np.round(concat[TOKENS.index("cat")], 4).tolist(),
            "range": CONCAT_RANGE,
        },
    }


# ---------------------------------------------------------------------------
# Step 5: Output Projection
# ---------------------------------------------------------------------------


def head_shares():
    """Simplified share of each head in the layer output, over the whole sentence."""
    return frobenius_shares(_layer_contributions())


def output_projection(head=1):
    shares = head_shares()
    d_k = D_MODEL // LAYER_HEADS
    a, b = head_blocks(D_MODEL, LAYER_HEADS)[head - 1]
    return {
        "values": {
            "head": head,
            "head_name": f"Head {head}",
            "pattern": PATTERN_NAMES[head - 1],
            "heads": LAYER_HEADS,
            "d_k": d_k,
            "concat": D_MODEL,
            "wo_shape": W_O.shape,
            "output": W_O.shape[1],
            "share": float(shares[head - 1]),
            "rank": int(np.sum(shares > shares[head - 1])) + 1,
            "rows_start": a,
            "rows_end": b - 1,
            "block_shape": (b - a, W_O.shape[1]),
            "even_share": 1 / LAYER_HEADS,
            "total_share": float(shares.sum()),
            "share_1": float(shares[0]),
            "share_2": float(shares[1]),
            "share_3": float(shares[2]),
            "share_4": float(shares[3]),
            "wo_params": W_O.size,
            "layer_params": 4 * W_O.size,
            "d_model": D_MODEL,
        },
        "chart": {
            "x": [f"Head {i + 1}" for i in range(LAYER_HEADS)],
            "y": [float(s) for s in shares],
            "highlight": head - 1,
            "text": [f"{round(100 * s)}%" for s in shares],
        },
    }


# ---------------------------------------------------------------------------
# Step 6: Multi-Head in Action
# ---------------------------------------------------------------------------


def multi_head_in_action(head=1, query="cat"):
    qi = TOKENS.index(query)
    top_key, weight = _top(PATTERNS[head - 1][qi])
    values = {
        "head": head,
        "head_name": f"Head {head}",
        "pattern": PATTERN_NAMES[head - 1],
        "query": query,
        "top_key": top_key,
        "weight": weight,
        "heads": LAYER_HEADS,
    }
    # Where each head of the layer sends this query, for the side-by-side prose.
    for h in range(LAYER_HEADS):
        values[f"top_key_{h + 1}"] = _top(PATTERNS[h][qi])[0]
    return {
        "values": values,
        "chart": {
            "z": [np.round(PATTERNS[h], 4).tolist() for h in range(LAYER_HEADS)],
            "titles": [f"Head {h + 1} · {PATTERN_NAMES[h]}" for h in range(LAYER_HEADS)],
            "x": TOKENS,
            "y": TOKENS,
            "highlight": head - 1,
            "highlight_row": qi,
        },
    }
