"""Toy model for "Cross-Attention".

Every number on the page comes from this file. The build imports it, calls the
step function named in each step's front matter with the reader's control
values, and gets back a dict of values (for readouts and prose) and the data
for the chart.

The running example is a toy English → French translation: the source "the
black cat is sleeping" (5 words) and the target "le chat noir dort" (4 words).
The model is one cross-attention layer with two heads, written out in numpy:

* the encoder's output (one vector per source word) and the decoder's states
  (one vector per target position) are random vectors from a fixed seed, and
  so are the key and value projections W_K and W_V: no encoder or decoder stack
  runs, so the toy is the cross-attention layer of step 2's diagram alone, fed
  stand-ins for what the stacks below it would compute;
* what each head should attend to is set by hand, as a table of scores
  (ALIGNMENT_SCORES); each head's query projection W_Q is then solved so that
  its queries, dotted with its keys and scaled by 1/√d_k, give exactly those
  scores. Nothing here was trained: a real model learns W_Q, W_K and W_V from
  data, and its alignments come out softer and messier than these. Step 1
  states what the hand does: with a W_Q drawn at random (W_Q_RANDOM), the
  same head's weights say nothing about the translation.

Step 3's decoder self-attention reads embeddings of its own (the shifted target)
with random projections and a causal mask; its outputs are not the decoder
states that feed the cross-attention's queries. Step 5's image is a hand-set 3 × 3 grid of
patch features with hand-set queries for four caption words, scored by plain
dot products: no projections and no 1/√d_k scaling.

Counts, rankings and the worked examples the prose states are returned as
values computed here, and tests/content/test_cross_attention_teaching.py
recomputes each claim.
"""

import math

import numpy as np

# ---------------------------------------------------------------------------
# Sentences, sizes and the lists the step files use for their buttons
# ---------------------------------------------------------------------------

SOURCE = ["the", "black", "cat", "is", "sleeping"]
TARGET = ["le", "chat", "noir", "dort"]
# The decoder reads the target shifted one place to the right, behind a start
# token: the position that writes "chat" reads "le" (Vaswani et al. 2017, 3.1).
START = "[start]"
DECODER_INPUTS = [START] + TARGET[:-1]

D_MODEL = 16
HEADS = 2
D_K = D_MODEL // HEADS     # width of each head's queries and keys
D_V = D_MODEL // HEADS     # width of each head's values

MATRICES = ["Q", "K", "V"]                 # step 2
ATTENTION_KINDS = ["Self", "Cross"]        # step 3
HEAD_NUMBERS = [1, 2]                      # step 4
HEAD_NAMES = ["Word", "Phrase"]            # step 4's button details

# The head steps 1 and 3 show (step 4 adds the other one).
MAIN_HEAD = 1

# Which source words each target word translates (what "finds the translation" means).
TRANSLATES = {"le": ("the",), "chat": ("cat",), "noir": ("black",), "dort": ("is", "sleeping")}

# Step 1's worked example: the target word that one source word cannot cover.
SPLIT_WORD = "dort"
SPLIT_SOURCES = ("is", "sleeping")

# The pair of target words whose order the translation swaps (step 4).
SWAPPED = ("chat", "noir")

# ---------------------------------------------------------------------------
# Hand-set alignments: row = target position, column = source word.
# ---------------------------------------------------------------------------

# Head 1 ("Word") picks the source word each French word translates, and for
# dort it splits between the two English words the one French verb covers.
# Head 2 ("Phrase") spreads wider: over the noun phrase for le, chat and noir,
# and over the verb and its subject for dort.
ALIGNMENT_SCORES = np.array([
    # the  black  cat   is  sleeping
    [[3.2, 0.4, 0.9, 0.0, 0.0],      # le
     [0.6, 0.9, 3.4, 0.2, 0.3],      # chat
     [0.3, 3.3, 1.0, 0.1, 0.1],      # noir
     [0.0, 0.1, 0.6, 2.5, 2.7]],     # dort
    [[1.6, 0.5, 1.3, 0.0, 0.0],      # le
     [1.0, 1.1, 1.8, 0.1, 0.0],      # chat
     [0.6, 1.9, 1.3, 0.0, 0.1],      # noir
     [0.0, 0.0, 1.2, 1.3, 1.6]],     # dort
])

# ---------------------------------------------------------------------------
# Random parts, from a fixed seed
# ---------------------------------------------------------------------------

SEED = 1409   # any seed works: W_Q is solved, so the weights do not depend on it
_rng = np.random.default_rng(SEED)
# Drawn in this order; changing the order changes every random number below.
ENCODER_OUTPUT = _rng.standard_normal((len(SOURCE), D_MODEL))
DECODER_STATES = _rng.standard_normal((len(TARGET), D_MODEL))
W_K = _rng.standard_normal((HEADS, D_MODEL, D_K)) / math.sqrt(D_MODEL)
W_V = _rng.standard_normal((HEADS, D_MODEL, D_V)) / math.sqrt(D_MODEL)
# The decoder's own (masked) self-attention, step 3.
W_Q_SELF = _rng.standard_normal((D_MODEL, D_K)) / math.sqrt(D_MODEL)
W_K_SELF = _rng.standard_normal((D_MODEL, D_K)) / math.sqrt(D_MODEL)
# What the decoder's self-attention reads at each position: the embedding of
# its input word (the shifted target), drawn like the rest.
DECODER_INPUT_EMBEDDINGS = _rng.standard_normal((len(DECODER_INPUTS), D_MODEL))
# The counterfactual step 1 states: query projections drawn at random like
# W_K and W_V, in place of the solved ones, as an untrained layer would start.
W_Q_RANDOM = _rng.standard_normal((HEADS, D_MODEL, D_K)) / math.sqrt(D_MODEL)

# ---------------------------------------------------------------------------
# Small pure helpers (tested on their own)
# ---------------------------------------------------------------------------


def softmax_rows(logits):
    """Softmax along the last axis: each row becomes weights that sum to 1.
    Entries of -inf (masked) get a weight of exactly 0."""
    z = np.asarray(logits, dtype=float)
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def attention_weights(q, k, mask=None):
    """softmax(Q Kᵀ / √d_k), with the cells where `mask` is true left out."""
    scores = q @ k.T / math.sqrt(q.shape[-1])
    if mask is not None:
        scores = np.where(mask, -np.inf, scores)
    return softmax_rows(scores)


def causal_mask(length):
    """True above the diagonal: position i may not look at positions after i."""
    return np.triu(np.ones((length, length), dtype=bool), k=1)


def solve_query_projection(states, keys, scores):
    """A W_Q with (states @ W_Q) @ keysᵀ / √d_k == scores.

    keys (n × d_k) has full row rank when n ≤ d_k, so the queries that give the
    scores are scores·√d_k times the pseudo-inverse of keysᵀ; states (m ×
    d_model, full row rank when m ≤ d_model) then reach those queries through
    its own pseudo-inverse."""
    queries = scores * math.sqrt(keys.shape[1]) @ np.linalg.pinv(keys.T)
    return np.linalg.pinv(states) @ queries


def crossing(tops, i):
    """True when target position i's top source position is out of order with
    that of a neighbouring target position (i − 1 or i + 1): the two words are
    translated in the opposite order."""
    for j in (i - 1, i + 1):
        if 0 <= j < len(tops) and (j - i) * (tops[j] - tops[i]) < 0:
            return True
    return False


def _join(words):
    words = list(words)
    if not words:
        return ""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _yes(flag):
    return "Yes" if flag else "No"


# ---------------------------------------------------------------------------
# The cross-attention layer
# ---------------------------------------------------------------------------

KEYS = np.stack([ENCODER_OUTPUT @ W_K[h] for h in range(HEADS)])      # (heads, 5, d_k)
VALUES = np.stack([ENCODER_OUTPUT @ W_V[h] for h in range(HEADS)])    # (heads, 5, d_v)
W_Q = np.stack([solve_query_projection(DECODER_STATES, KEYS[h], ALIGNMENT_SCORES[h]) for h in range(HEADS)])
QUERIES = np.stack([DECODER_STATES @ W_Q[h] for h in range(HEADS)])   # (heads, 4, d_k)

# CROSS_WEIGHTS[h] is head h+1's 4 × 5 matrix (row = target position, column = source word).
CROSS_WEIGHTS = np.stack([attention_weights(QUERIES[h], KEYS[h]) for h in range(HEADS)])
# Each head's output: one d_v-wide vector per target position.
CROSS_OUTPUT = CROSS_WEIGHTS @ VALUES                                   # (heads, 4, d_v)

# The same head with a random W_Q: what the weights look like without the hand-set scores.
RANDOM_WEIGHTS = np.stack([attention_weights(DECODER_STATES @ W_Q_RANDOM[h], KEYS[h]) for h in range(HEADS)])

# W_Q_RANDOM is one draw. What a typical draw does: RANDOM_DRAWS more of them, from
# their own seed, each counted like step 1 counts the one it shows (how many target
# words put their top weight on a word they translate), beside what picking a source
# word blindly would find on average.
RANDOM_DRAWS = 1000
RANDOM_SURVEY_SEED = 2017


def random_head_hits(w_q, head=MAIN_HEAD):
    """How many target words a head with query projection w_q sends to their translation."""
    tops = attention_weights(DECODER_STATES @ w_q, KEYS[head - 1]).argmax(axis=1)
    return sum(SOURCE[int(top)] in TRANSLATES[word] for word, top in zip(TARGET, tops))


_survey_rng = np.random.default_rng(RANDOM_SURVEY_SEED)
RANDOM_SURVEY_HITS = np.array([random_head_hits(_survey_rng.standard_normal((D_MODEL, D_K)) / math.sqrt(D_MODEL))
                               for _ in range(RANDOM_DRAWS)])
BLIND_HITS = sum(len(TRANSLATES[word]) / len(SOURCE) for word in TARGET)

# The decoder's masked self-attention: a 4 × 4 matrix over its own inputs.
SELF_MASK = causal_mask(len(TARGET))
SELF_WEIGHTS = attention_weights(DECODER_INPUT_EMBEDDINGS @ W_Q_SELF, DECODER_INPUT_EMBEDDINGS @ W_K_SELF,
                                 SELF_MASK)

# Published facts the prose quotes (not part of the toy).
ORIGINAL_TRANSFORMER = {"layers": 6, "d_k": 64}      # Vaswani et al. 2017, 3.1 and 3.2.2
SHOW_ATTEND_TELL_GRID = 14                            # Xu et al. 2015, 4.3: 14 × 14 × 512 features


def top_sources(head):
    """Index of the top source word of every target position, for one head."""
    return [int(i) for i in CROSS_WEIGHTS[head - 1].argmax(axis=1)]


def _heatmap(matrix, x, y, row=None, mask=None):
    chart = {"z": np.round(matrix, 4).tolist(), "x": list(x), "y": list(y)}
    if row is not None:
        chart["highlight_row"] = row
    if mask is not None:
        chart["mask"] = np.asarray(mask).tolist()
    return chart


# ---------------------------------------------------------------------------
# Step 1: Looking Across
# ---------------------------------------------------------------------------


def looking_across(target="chat"):
    weights = CROSS_WEIGHTS[MAIN_HEAD - 1]
    ti = TARGET.index(target)
    row = weights[ti]
    order = np.argsort(-row, kind="stable")
    top, second = int(order[0]), int(order[1])
    split = weights[TARGET.index(SPLIT_WORD)]
    a, b = (SOURCE.index(w) for w in SPLIT_SOURCES)
    split_top = a if split[a] >= split[b] else b
    random = RANDOM_WEIGHTS[MAIN_HEAD - 1]
    random_tops = [SOURCE[int(i)] for i in random.argmax(axis=1)]
    return {
        "values": {
            "target": target,
            "top_source": SOURCE[top],
            "weight": float(row[top]),
            "second_source": SOURCE[second],
            "second_weight": float(row[second]),
            "rest_weight": float(1 - row[top] - row[second]),
            # The other bars as their labels show them (two decimals): "the remaining 0.11" must not
            # face three labels that add up to 0.10.
            "rest_labels_sum": round(sum(round(float(w), 2) for i, w in enumerate(row) if i not in (top, second)), 2),
            "n_source": len(SOURCE),
            "n_target": len(TARGET),
            "source_sentence": " ".join(SOURCE),
            "target_sentence": " ".join(TARGET),
            # Step 1's split word, the same in every state (hint and deeper part).
            "split_word": SPLIT_WORD,
            "split_a": SPLIT_SOURCES[0],
            "split_b": SPLIT_SOURCES[1],
            "split_top": SOURCE[split_top],
            "split_top_weight": float(split[split_top]),
            "split_pair_weight": float(split[a] + split[b]),
            "distinct_tops": len(set(top_sources(MAIN_HEAD))),
            # Without the hand-set scores: the same head with a random W_Q.
            "random_top": random_tops[ti],
            "random_weight": float(random[ti].max()),
            "random_hit": random_tops[ti] in TRANSLATES[target],
            "random_hits": sum(top in TRANSLATES[w] for w, top in zip(TARGET, random_tops)),
            "random_draws": RANDOM_DRAWS,
            "random_mean_hits": float(RANDOM_SURVEY_HITS.mean()),
            "random_none_share": float(np.mean(RANDOM_SURVEY_HITS == 0)),
            "blind_hits": float(BLIND_HITS),
        },
        "chart": {"x": SOURCE, "y": [float(w) for w in np.round(row, 4)], "highlight": top,
                  "text": [f"{w:.2f}" for w in row]},
    }


# ---------------------------------------------------------------------------
# Step 2: Where Q, K and V Come From
# ---------------------------------------------------------------------------

# The diagram: the encoder on the left, the decoder on the right, the three
# projections between them, and the cross-attention sublayer on top.
DIAGRAM_BOXES = [
    "Source: the black cat is sleeping",   # 0
    "Encoder stack",                       # 1
    "Encoder output",                      # 2
    "Keys (K)",                            # 3
    "Values (V)",                          # 4
    "Target so far: [start] le chat noir",  # 5
    "Masked self-attention",               # 6
    "Decoder state",                       # 7
    "Queries (Q)",                         # 8
    "Cross-attention",                     # 9
]
# [column, row] or [column, row, width]; row 0 is the top of the diagram.
DIAGRAM_AT = [[0, 4, 2], [0, 3, 2], [0, 2, 2], [0, 1], [1, 1], [2, 4, 2], [2, 3, 2], [2, 2, 2], [2, 1, 2],
              [0, 0, 4]]
DIAGRAM_ARROWS = [[0, 1], [1, 2], [2, 3], [2, 4], [5, 6], [6, 7], [7, 8], [3, 9], [4, 9], [8, 9]]
DIAGRAM_PATHS = {"Q": [5, 6, 7, 8, 9], "K": [0, 1, 2, 3, 9], "V": [0, 1, 2, 4, 9]}


def _projection_shape(matrix):
    return {"Q": QUERIES[0].shape, "K": KEYS[0].shape, "V": VALUES[0].shape}[matrix]


def where_qkv_come_from(matrix="Q"):
    shape = _projection_shape(matrix)
    source = "decoder" if matrix == "Q" else "encoder"
    others = [m for m in MATRICES if m != matrix]
    return {
        "values": {
            "matrix": matrix,
            "comes_from": source,
            "shape": shape,
            "rows": shape[0],
            "width": shape[1],
            "row_words": _join(TARGET if matrix == "Q" else SOURCE),
            "n_rows_source": len(SOURCE),
            "n_rows_target": len(TARGET),
            "d_model": D_MODEL,
            "d_k": D_K,
            "d_v": D_V,
            "heads": HEADS,
            "weights_shape": CROSS_WEIGHTS[0].shape,
            "output_shape": CROSS_OUTPUT[0].shape,
            "others": _join(others),
            "orig_layers": ORIGINAL_TRANSFORMER["layers"],
            "orig_d_k": ORIGINAL_TRANSFORMER["d_k"],
        },
        "chart": {"boxes": DIAGRAM_BOXES, "at": DIAGRAM_AT, "arrows": DIAGRAM_ARROWS,
                  "highlight": DIAGRAM_PATHS[matrix],
                  "faded": [i for i in range(len(DIAGRAM_BOXES)) if i not in DIAGRAM_PATHS[matrix]]},
    }


# ---------------------------------------------------------------------------
# Step 3: Two Kinds of Attention in the Decoder
# ---------------------------------------------------------------------------


def two_kinds(attention="Self"):
    if attention == "Self":
        weights, x, mask = SELF_WEIGHTS, DECODER_INPUTS, SELF_MASK
    else:
        weights, x, mask = CROSS_WEIGHTS[MAIN_HEAD - 1], SOURCE, None
    masked = mask is not None
    last = len(TARGET) - 1
    chart = _heatmap(weights, x, TARGET, mask=mask)
    if masked:
        chart["mask_label"] = "masked (future)"
    return {
        "values": {
            "attention": attention,
            "weights_shape": weights.shape,
            "masked": _yes(masked),
            "masked_cells": int(mask.sum()) if masked else 0,
            "cells": int(weights.size),
            "visible_cells": int(weights.size - (mask.sum() if masked else 0)),
            "n_source": len(SOURCE),
            "n_target": len(TARGET),
            "start": START,
            "first_word": TARGET[0],
            "first_self_weight": float(SELF_WEIGHTS[0, 0]),
            "last_word": TARGET[-1],
            "last_sees": _join(DECODER_INPUTS[:last + 1]),
            "last_input": DECODER_INPUTS[last],
            "self_shape": SELF_WEIGHTS.shape,
            "cross_shape": CROSS_WEIGHTS[0].shape,
            "self_masked_cells": int(SELF_MASK.sum()),
        },
        "chart": chart,
    }


# ---------------------------------------------------------------------------
# Step 4: Alignment
# ---------------------------------------------------------------------------


ALSO_FROM = 0.1   # step 4 names the other source words with at least this weight


def alignment(head=1, target="chat"):
    weights = CROSS_WEIGHTS[head - 1]
    ti = TARGET.index(target)
    tops = top_sources(head)
    crossed = crossing(tops, ti)
    partners = [TARGET[j] for j in (ti - 1, ti + 1) if 0 <= j < len(TARGET)
                and (j - ti) * (tops[j] - tops[ti]) < 0]
    row = weights[ti]
    return {
        "values": {
            "head": head,
            "head_name": f"Head {head}",
            "head_kind": HEAD_NAMES[head - 1],
            "target": target,
            "top_source": SOURCE[tops[ti]],
            "weight": float(row[tops[ti]]),
            "crossing": _yes(crossed),
            "partner": _join(partners) if partners else "",
            "partner_top": SOURCE[tops[TARGET.index(partners[0])]] if partners else "",
            "target_position": ti + 1,
            "source_position": tops[ti] + 1,
            "spread": float(1 - row.max()),
            # The other source words that get a tenth of the weight or more, largest first.
            "also_words": _join(SOURCE[j] for j in np.argsort(-row, kind="stable")[1:] if row[j] >= ALSO_FROM),
            "crossing_words": _join(TARGET[i] for i in range(len(TARGET)) if crossing(tops, i)),
            # The same in every state: both heads' crossings and sharpness.
            "swapped_a": SWAPPED[0],
            "swapped_b": SWAPPED[1],
            "mean_top_1": float(CROSS_WEIGHTS[0].max(axis=1).mean()),
            "mean_top_2": float(CROSS_WEIGHTS[1].max(axis=1).mean()),
            "heads_agree": sum(top_sources(1)[i] == top_sources(2)[i] for i in range(len(TARGET))),
            "n_target": len(TARGET),
            "weights_shape": weights.shape,
        },
        "chart": _heatmap(weights, SOURCE, TARGET, row=ti),
    }


# ---------------------------------------------------------------------------
# Step 5: Beyond Translation
# ---------------------------------------------------------------------------

CAPTION = ["a", "cat", "on", "mat"]
GRID = 3
# Hand-set patch features, row by row from the top of the picture: how much
# of each patch shows the cat, the mat, and the background (wall or floor).
PATCH_FEATURES = np.array([
    # cat  mat  background
    [[0.0, 0.0, 1.0], [0.1, 0.0, 1.0], [0.0, 0.0, 1.0]],    # row 1: wall
    [[0.2, 0.0, 0.8], [1.0, 0.0, 0.2], [0.3, 0.0, 0.7]],    # row 2: the cat
    [[0.0, 0.9, 0.1], [0.6, 0.6, 0.0], [0.0, 1.0, 0.0]],    # row 3: the mat, the cat's paws on it
])
# Hand-set queries of the caption words, in the same three features. "a" asks
# for little in particular; "on" asks for the place where cat and mat meet.
CAPTION_QUERIES = np.array([
    [0.6, 0.3, 0.2],    # a
    [3.0, 0.0, 0.0],    # cat
    [1.8, 1.8, 0.0],    # on
    [0.0, 3.0, 0.0],    # mat
])


def patch_weights(word):
    """The 3 × 3 weights of one caption word over the patches (a softmax over all nine)."""
    keys = PATCH_FEATURES.reshape(GRID * GRID, -1)
    scores = keys @ CAPTION_QUERIES[CAPTION.index(word)]
    return softmax_rows(scores).reshape(GRID, GRID)


def beyond_translation(word="cat"):
    weights = patch_weights(word)
    r, c = divmod(int(weights.argmax()), GRID)
    spread = {w: float(patch_weights(w).max()) for w in CAPTION}
    broadest = min(CAPTION, key=lambda w: spread[w])
    return {
        "values": {
            "word": word,
            "top_patch": f"({r + 1}, {c + 1})",
            "top_row": r + 1,
            "top_column": c + 1,
            "weight": float(weights[r, c]),
            "patches": GRID * GRID,
            "grid": GRID,
            "uniform_weight": 1 / (GRID * GRID),
            "n_words": len(CAPTION),
            "broadest_word": broadest,
            "broadest_weight": spread[broadest],
            "sat_grid": SHOW_ATTEND_TELL_GRID,
            "sat_locations": SHOW_ATTEND_TELL_GRID ** 2,
        },
        "chart": _heatmap(weights, [f"Column {i + 1}" for i in range(GRID)],
                          [f"Row {i + 1}" for i in range(GRID)]),
    }
