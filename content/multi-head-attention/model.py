"""Toy model for "How Multi-Head Attention Works".

Every number on the page comes from this file. The build imports it, calls the
step function named in each step's front matter with the reader's control
values, and gets back a dict of values (for readouts and prose) and the data
for the chart.

The model is deliberately tiny: the six tokens of "The cat sat on the mat",
a width of 64, and attention patterns that are small enough to read by eye.
Two kinds of data live here:

* random weights (embeddings, W_Q, W_K, W_V, W_O) from a fixed seed, so the
  single head of step 1 behaves like an untrained, near-random head; W_O's rows
  for head 1 are then scaled by one hand-set factor (HEAD_GAINS), which step 5
  states on the page;
* eight hand-set attention patterns, written as simple rules, that illustrate
  head types people have found in trained models. They were not learned.

Counts, rankings and worked examples the prose states are returned as values
computed here, and tests/content/test_mha_teaching.py recomputes each claim.
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

# The first four are the layer of steps 4 to 6. They are chosen so that the
# question step 1 asks (EXAMPLE_QUERY wants both EXAMPLE_KEYS) is answered by
# separate heads of that layer; tests/content checks that it stays so.
PATTERN_NAMES = [
    "Positional",
    "Previous token",
    "Subject ↔ verb",
    "Content word",
    "Next token",
    "Determiner ↔ noun",
    "Broad / uniform",
    "First-token sink",
]

# The layer of steps 4 to 6 has four heads of width D_MODEL / 4.
LAYER_HEADS = 4

# Step 1's example of a word that needs two things from two places: the verb
# wants to know who sat and where. Step 6 shows which heads bring each one.
EXAMPLE_QUERY = "sat"
EXAMPLE_KEYS = {"who": "cat", "where": "mat"}

# Published sizes of real models, quoted in the prose (not part of the toy).
ORIGINAL_TRANSFORMER = {"d_model": 512, "heads": 8}          # Vaswani et al. 2017, base model
GPT3 = {"d_model": 12288, "heads": 96}                       # Brown et al. 2020, Table 2.1, GPT-3 175B
# Gemma Team 2024, Table 1 (and the released config): 16 heads of 256 in a
# 3,072-wide model, so the concatenated heads are wider than d_model.
GEMMA_7B = {"d_model": 3072, "heads": 16, "d_head": 256}
# Llama 3 (Grattafiori et al. 2024; the released config of Llama-3-8B):
# grouped-query attention, 32 query heads sharing 8 key/value heads of 128.
LLAMA3_8B = {"d_model": 4096, "heads": 32, "kv_heads": 8, "d_head": 128}

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

# A trained W_O does not weigh its heads equally. To show that in step 5, the
# block of W_O rows that reads head 1 (the positional head) is scaled by hand;
# the other heads keep their rows as drawn. Without this gain head 1 would not
# lead: a head that spreads its weight averages several value vectors, which
# partly cancel, so its output is shorter than that of a head that locks onto
# one word. Step 5 says so on the page, with the shares of the unscaled W_O.
HEAD_GAINS = [1.95, 1.0, 1.0, 1.0]
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


def split_heads(x, heads):
    """(length, d_model) -> (heads, length, d_k): reshape to (length, heads, d_k),
    then swap the first two axes. A plain reshape to (heads, length, d_k) would
    deal the numbers out row by row and mix tokens with heads."""
    length, width = x.shape
    return x.reshape(length, heads, width // heads).transpose(1, 0, 2)


def merge_heads(x):
    """(heads, length, d_k) -> (length, heads * d_k): the inverse of split_heads,
    which is what concatenation is in code."""
    heads, length, d_k = x.shape
    return x.transpose(1, 0, 2).reshape(length, heads * d_k)


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
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _name_heads(numbers):
    # [2] -> "Head 2", [2, 3] -> "Heads 2 and 3": for prose that lists heads.
    numbers = [str(n) for n in numbers]
    if not numbers:
        return "no head"   # tests/content fails on this: the prose would not hold
    return ("Head " if len(numbers) == 1 else "Heads ") + _join_words(numbers)


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

    head = {name: i for i, name in enumerate(PATTERN_NAMES)}
    logits[head["Positional"]] = np.array(POSITIONAL_LOGITS)[dist]
    for i in range(n):
        logits[head["Previous token"], i, max(i - 1, 0)] = STRONG      # first: itself
        logits[head["Next token"], i, min(i + 1, n - 1)] = STRONG      # last: itself
        logits[head["Subject ↔ verb"], i, SUBJECT if i == VERB else VERB] = STRONG
        # Words outside a determiner-noun pair get only a mild pull to themselves.
        if i in DETERMINER_NOUN:
            logits[head["Determiner ↔ noun"], i, DETERMINER_NOUN[i]] = STRONG
        else:
            logits[head["Determiner ↔ noun"], i, i] = 1.0
    logits[head["Broad / uniform"]] = -0.15 * dist                     # almost even, faint locality
    logits[head["Content word"]] = np.array(CONTENT_SCORES)[None, :]   # every query looks at rare words
    logits[head["First-token sink"], :, 0] = STRONG                    # everything parks on token 0
    return logits


# PATTERNS[h] is head h+1's 6x6 attention matrix (row = query, column = key).
PATTERNS = softmax_rows(_pattern_logits())


def _multi_head_concat(heads):
    """Concatenated head outputs (6 x D_MODEL) when the first `heads` patterns
    each read their own slice of V: split, one batched product, merge."""
    v = split_heads(EMBEDDINGS @ W_V, heads)        # (heads, length, d_k)
    return merge_heads(PATTERNS[:heads] @ v)


# Step 4 shades the vector of "cat" on one scale for every head count, so a
# colour stands for the same value whichever count is chosen.
_CAT_LARGEST = max(float(np.abs(_multi_head_concat(h)[TOKENS.index("cat")]).max()) for h in HEAD_COUNTS)
CONCAT_RANGE = [-float(np.ceil(_CAT_LARGEST * 10) / 10), float(np.ceil(_CAT_LARGEST * 10) / 10)]


def _layer_contributions(w_o=None):
    """Each head's contribution to the output of the four-head layer:
    (A_h V_h) times the rows of W_O that read head h. They sum to concat @ W_O."""
    w_o = W_O if w_o is None else w_o
    concat = _multi_head_concat(LAYER_HEADS)
    return [concat[:, a:b] @ w_o[a:b, :] for a, b in head_blocks(D_MODEL, LAYER_HEADS)]


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
            "example_query": EXAMPLE_QUERY,
            "example_who": EXAMPLE_KEYS["who"],
            "example_where": EXAMPLE_KEYS["where"],
        },
        "chart": _heatmap(a, qi),
    }


# ---------------------------------------------------------------------------
# Step 2: Multiple Heads
# ---------------------------------------------------------------------------


def attention_params(d_model, heads, d_head, kv_heads=None, bias=False):
    """Weights of one attention layer: W_Q (d_model x h·d_head), W_K and W_V
    (d_model x kv_heads·d_head; kv_heads = h unless keys and values are shared),
    W_O (h·d_head x d_model), plus one bias vector per matrix if asked."""
    kv_heads = heads if kv_heads is None else kv_heads
    q, kv = heads * d_head, kv_heads * d_head
    weights = d_model * q + 2 * d_model * kv + q * d_model
    return weights + ((q + 2 * kv + d_model) if bias else 0)


# The token whose projection step 2 draws (the page's default query).
PROJECTED_TOKEN = "cat"


def multiple_heads(heads=4):
    d_k = D_MODEL // heads
    length = len(TOKENS)
    q = EMBEDDINGS @ W_Q
    names = [f"Head {i + 1}" for i in range(heads)]
    return {
        "values": {
            "token": PROJECTED_TOKEN,
            "d_model": D_MODEL,
            "heads": heads,
            "d_k": d_k,
            # W_Q, W_K, W_V and W_O are d_model x d_model whatever the head count.
            "params": attention_params(D_MODEL, heads, d_k),
            # One head's share: its columns of W_Q, W_K, W_V and its rows of W_O.
            "head_params": 4 * D_MODEL * d_k,
            "params_with_bias": attention_params(D_MODEL, heads, d_k, bias=True),
            "q_shape": q.shape,
            "reshape_shape": (length, heads, d_k),
            "split_shape": split_heads(q, heads).shape,
            "seq_len": length,
            "llama_d_model": LLAMA3_8B["d_model"],
            "llama_heads": LLAMA3_8B["heads"],
            "llama_kv_heads": LLAMA3_8B["kv_heads"],
            "llama_group": LLAMA3_8B["heads"] // LLAMA3_8B["kv_heads"],
            "llama_params": attention_params(LLAMA3_8B["d_model"], LLAMA3_8B["heads"], LLAMA3_8B["d_head"],
                                             kv_heads=LLAMA3_8B["kv_heads"]),
            "llama_mha_params": 4 * LLAMA3_8B["d_model"] ** 2,
            "orig_d_model": ORIGINAL_TRANSFORMER["d_model"],
            "orig_heads": ORIGINAL_TRANSFORMER["heads"],
            "orig_d_k": ORIGINAL_TRANSFORMER["d_model"] // ORIGINAL_TRANSFORMER["heads"],
            "gpt3_d_model": GPT3["d_model"],
            "gpt3_heads": GPT3["heads"],
            "gpt3_d_k": GPT3["d_model"] // GPT3["heads"],
        },
        # x · W_Q = Q for one token: x whole (every head reads all of it), W_Q's columns
        # and Q's numbers dealt out to the heads in blocks of d_k. Blocks without values:
        # the split is the point, and a strip of 64 values would cost the page kilobytes.
        "charts": [
            {"sizes": [D_MODEL], "labels": ["Every head"]},
            {"sizes": [d_k] * heads, "labels": names},
            {"sizes": [d_k] * heads, "labels": names},
        ],
    }


# ---------------------------------------------------------------------------
# Step 3: Different Patterns
# ---------------------------------------------------------------------------


# The word step 3's hint asks the reader to keep as the query (its default).
HINT_QUERY = "cat"


def _adjacent_heads():
    """Heads whose largest weight, for every query that has a neighbour on
    that side, is on the token just before it, or on every query's token just
    after it: what Voita et al. (2019) call positional heads."""
    n = len(TOKENS)
    found = []
    for h, pattern in enumerate(PATTERNS):
        tops = pattern.argmax(axis=1)
        if all(tops[i] == i - 1 for i in range(1, n)) or all(tops[i] == i + 1 for i in range(n - 1)):
            found.append(h + 1)
    return found


def _heads_by_top_key(query, heads):
    """{key: [head numbers]} for the top key of `query` in heads 1..heads."""
    qi = TOKENS.index(query)
    groups = {}
    for h in range(heads):
        groups.setdefault(_top(PATTERNS[h][qi])[0], []).append(h + 1)
    return groups


def different_patterns(head=1, query="cat"):
    a = PATTERNS[head - 1]
    qi = TOKENS.index(query)
    row = a[qi]
    top_key, top_weight = _top(row)
    lo, hi = max(qi - 1, 0), min(qi + 2, len(TOKENS))
    order = [TOKENS[i] for i in np.argsort(-row, kind="stable")]
    hint_groups = _heads_by_top_key(HINT_QUERY, len(PATTERN_NAMES))
    # The largest group of heads that send the hint's query to the same key.
    shared_key, shared = max(hint_groups.items(), key=lambda item: (len(item[1]), -item[1][0]))
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
            # Keys ranked by weight: the two after the top key, and the last three.
            "runners_up": _join_words(order[1:3]),
            "least_words": _join_words(order[3:]),
            "subject": TOKENS[SUBJECT],
            "verb": TOKENS[VERB],
            "head_count": len(PATTERN_NAMES),
            # For the hint and the deeper paragraph (the same in every state).
            "hint_query": HINT_QUERY,
            "hint_distinct_keys": len(hint_groups),
            "hint_shared_heads": _name_heads(shared),
            "hint_shared_key": shared_key,
            "adjacent_heads": _name_heads(_adjacent_heads()),
            "adjacent_names": _join_words(PATTERN_NAMES[h - 1] for h in _adjacent_heads()),
            "positional_pattern": PATTERN_NAMES[0],
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
            "gemma_d_model": GEMMA_7B["d_model"],
            "gemma_heads": GEMMA_7B["heads"],
            "gemma_d_head": GEMMA_7B["d_head"],
            "gemma_concat": GEMMA_7B["heads"] * GEMMA_7B["d_head"],
            "gemma_wo_shape": (GEMMA_7B["heads"] * GEMMA_7B["d_head"], GEMMA_7B["d_model"]),
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


def head_shares(w_o=None):
    """Simplified share of each head in the layer output, over the whole sentence
    (with the hand-scaled W_O, or with another output matrix such as _W_O_RAW)."""
    return frobenius_shares(_layer_contributions(w_o))


def _rank(shares, index):
    return int(np.sum(shares > shares[index])) + 1


def mean_entropies(heads=LAYER_HEADS):
    """Each head's entropy in bits, averaged over the six queries."""
    return [float(np.mean([entropy_bits(r) for r in PATTERNS[h]])) for h in range(heads)]


def output_projection(head=1):
    shares = head_shares()
    raw = head_shares(_W_O_RAW)
    largest, raw_largest = int(np.argmax(shares)), int(np.argmax(raw))
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
            "rank": _rank(shares, head - 1),
            "raw_share": float(raw[head - 1]),
            "raw_rank": _rank(raw, head - 1),
            "gain": HEAD_GAINS[head - 1],
            # The same in every state: for the hint and the deeper paragraph.
            "gain_1": HEAD_GAINS[0],
            "raw_share_1": float(raw[0]),
            "raw_rank_1": _rank(raw, 0),
            "largest_head": f"Head {largest + 1}",
            "largest_pattern": PATTERN_NAMES[largest].lower(),
            "largest_share": float(shares[largest]),
            "raw_largest_head": f"Head {raw_largest + 1}",
            "raw_largest_pattern": PATTERN_NAMES[raw_largest].lower(),
            "raw_largest_share": float(raw[raw_largest]),
            "raw_smallest_head": f"Head {int(np.argmin(raw)) + 1}",
            "raw_smallest_pattern": PATTERN_NAMES[int(np.argmin(raw))].lower(),
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
            "layer_params": attention_params(D_MODEL, LAYER_HEADS, D_MODEL // LAYER_HEADS),
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


def example_heads():
    """{"who": [heads], "where": [heads]}: the heads of the layer whose top key
    for step 1's EXAMPLE_QUERY is each of the EXAMPLE_KEYS."""
    groups = _heads_by_top_key(EXAMPLE_QUERY, LAYER_HEADS)
    return {role: groups.get(key, []) for role, key in EXAMPLE_KEYS.items()}


def multi_head_in_action(head=1, query="cat"):
    qi = TOKENS.index(query)
    top_key, weight = _top(PATTERNS[head - 1][qi])
    found = example_heads()
    values = {
        "head": head,
        "head_name": f"Head {head}",
        "pattern": PATTERN_NAMES[head - 1],
        "query": query,
        "top_key": top_key,
        "weight": weight,
        "heads": LAYER_HEADS,
        "distinct_top_keys": len(_heads_by_top_key(query, LAYER_HEADS)),
        "example_query": EXAMPLE_QUERY,
        "example_who": EXAMPLE_KEYS["who"],
        "example_where": EXAMPLE_KEYS["where"],
        "example_who_heads": _name_heads(found["who"]),
        "example_where_heads": _name_heads(found["where"]),
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
