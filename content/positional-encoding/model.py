"""Toy model for "Positional Encoding".

Every number on the page comes from this file. The build imports it, calls the
step function named in each step's front matter with the reader's control
values, and gets back a dict of values (for readouts and prose) and the data
for the chart.

The setting is the sinusoidal encoding of Vaswani et al. (2017, Section 3.5)
at a toy width: d_model = 16 (eight sine/cosine pairs) over positions 0 to 31.
Pair i is dimensions 2i and 2i + 1, with frequency omega_i = 1 / 10000^(2i/16).

Two kinds of data live here:

* exact formulas: the encoding itself, its norms, dot products and rotations;
* random numbers from fixed seeds, stated on the page: the word embeddings and
  the attention weights of step 1 (an untrained layer), the learned position
  table of step 5 (its values before any training) and the query and key
  vectors that step 5 rotates. None of them is trained.

Counts, rankings and worked examples the prose states are returned as values
computed here, and tests/content/test_positional_encoding_teaching.py recomputes
each claim.
"""

import math

import numpy as np

# ---------------------------------------------------------------------------
# Sizes and the lists the step files use for their controls
# ---------------------------------------------------------------------------

D_MODEL = 16
N_PAIRS = D_MODEL // 2
N_POSITIONS = 32
BASE = 10000.0

POSITIONS = list(range(N_POSITIONS))                 # step 3: the slider
PAIRS = list(range(N_PAIRS))                          # step 2: one button per pair
START_POSITIONS = [0, 5, 10, 20]                      # step 4
OFFSETS = [1, 2, 4, 8]                                # step 4
SCHEMES = ["Sinusoidal", "Learned", "Rotary"]         # step 5

SENTENCES = ["dog bites man", "man bites dog"]        # step 1
WORDS = ["dog", "bites", "man"]                       # one embedding each, rows of step 1's chart

# Published sizes quoted in the prose (not part of the toy).
BERT_POSITIONS = 512      # Devlin et al. 2019: sequences of at most 512 tokens, one learned row each
BERT_BASE_WIDTH = 768     # Devlin et al. 2019: BERT-base, H = 768
GPT2_POSITIONS = 1024     # Radford et al. 2019: context of 1,024 tokens
PAPER_D_MODEL = 512       # Vaswani et al. 2017: the base model's width
LLAMA3_BASE = 500000.0    # Grattafiori et al. 2024: Llama 3's rotary base, raised from 10,000

# Seeds for the random parts (step 1's untrained layer, step 5's tables).
LAYER_SEED = 7
TABLE_SEED = 11
ROTARY_SEED = 23

# ---------------------------------------------------------------------------
# The sinusoidal encoding
# ---------------------------------------------------------------------------


def frequencies(d_model=D_MODEL, base=BASE):
    """omega_i = 1 / base^(2i / d_model), one per pair (base 10,000 in the paper)."""
    return 1.0 / base ** (2 * np.arange(d_model // 2) / d_model)


OMEGA = frequencies()


def encoding(positions, d_model=D_MODEL):
    """PE(pos, 2i) = sin(pos·omega_i), PE(pos, 2i+1) = cos(pos·omega_i): one row per position."""
    positions = np.asarray(positions, dtype=float)
    angles = np.outer(positions, frequencies(d_model))
    pe = np.empty((len(positions), d_model))
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return pe


PE = encoding(POSITIONS)          # 32 × 16, returned as the same array in every state of step 3


def significant(value, digits=4):
    """A positive number to `digits` significant digits, trailing zeros kept: 1.000, 0.3162."""
    return f"{value:#.{digits}g}"


def rotation(angle):
    """The 2 × 2 matrix that turns a pair by `angle` radians."""
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, s], [-s, c]])


def shift_matrix(offset):
    """The block-diagonal map M_k with PE(pos + k) = M_k · PE(pos) for every pos.
    Pair i is (sin, cos); moving by k turns it by k·omega_i, whatever pos is."""
    m = np.zeros((D_MODEL, D_MODEL))
    for i, w in enumerate(OMEGA):
        c, s = math.cos(offset * w), math.sin(offset * w)
        # sin(a + b) = sin a cos b + cos a sin b; cos(a + b) = cos a cos b − sin a sin b
        m[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, s], [-s, c]]
    return m


def yes_no(flag):
    return "Yes" if flag else "No"


# ---------------------------------------------------------------------------
# Step 1: Order Matters. One untrained self-attention layer, with random weights.
# ---------------------------------------------------------------------------

_layer_rng = np.random.default_rng(LAYER_SEED)
EMBEDDINGS = {w: _layer_rng.normal(0.0, 1.0, D_MODEL) for w in WORDS}
W_Q, W_K, W_V = (_layer_rng.normal(0.0, 1.0 / math.sqrt(D_MODEL), (D_MODEL, D_MODEL)) for _ in range(3))


def attention_outputs(words, positional):
    """One self-attention layer (a single head of width d_model) over `words`:
    the input is each word's embedding, plus PE(position) when `positional`."""
    x = np.array([EMBEDDINGS[w] for w in words])
    if positional:
        x = x + encoding(range(len(words)))
    q, k, v = x @ W_Q, x @ W_K, x @ W_V
    scores = q @ k.T / math.sqrt(D_MODEL)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ v


def outputs_by_word(sentence, positional):
    words = sentence.split()
    out = attention_outputs(words, positional)
    return {w: out[words.index(w)] for w in WORDS}, {w: words.index(w) for w in WORDS}


def word_changes(positional):
    """How far each word's output vector moves between the two sentences (Euclidean distance)."""
    first, _ = outputs_by_word(SENTENCES[0], positional)
    second, _ = outputs_by_word(SENTENCES[1], positional)
    return {w: float(np.linalg.norm(first[w] - second[w])) for w in WORDS}


def order_matters(sentence, positional):
    outputs, where = outputs_by_word(sentence, positional)
    changes = word_changes(positional)
    same = all(c < 1e-9 for c in changes.values())
    most = max(WORDS, key=lambda w: changes[w])
    other = SENTENCES[1 - SENTENCES.index(sentence)]
    # The word that keeps its place in both sentences (bites, in the middle).
    fixed_words = [w for w in WORDS if sentence.split().index(w) == other.split().index(w)]
    fixed_word = fixed_words[0]
    norms = [float(np.linalg.norm(outputs[w])) for w in WORDS]
    return {
        "values": {
            "sentence": sentence, "other_sentence": other, "positional": positional,
            "same": yes_no(same), "subject": sentence.split()[0], "object": sentence.split()[-1],
            "most_changed": most, "largest_change": changes[most],
            "fixed_word": fixed_word, "fixed_change": changes[fixed_word],
            "smallest_norm": min(norms), "d_model": D_MODEL,
        },
        # A column a word (its position beside it), a row a dimension.
        "chart": {
            "z": np.array([outputs[w] for w in WORDS]).T,
            "x": [f"{w} ({where[w]})" for w in WORDS],
            "y": [str(d) for d in range(D_MODEL)],
        },
    }


# ---------------------------------------------------------------------------
# Step 2: Waves of Many Frequencies
# ---------------------------------------------------------------------------


def wavelength(pair):
    return 2 * math.pi / OMEGA[pair]


def waves(pair):
    w = float(OMEGA[pair])
    angles = np.array(POSITIONS) * w
    longest = wavelength(N_PAIRS - 1)
    return {
        "values": {
            "d_model": D_MODEL, "pair": pair, "frequency": significant(w), "omega": w,
            "wavelength": wavelength(pair), "wavelength_text": f"{wavelength(pair):,.2f}", "dim_sin": 2 * pair, "dim_cos": 2 * pair + 1,
            "cycles": N_POSITIONS / wavelength(pair),
            # How far the pair gets over the chart's positions (a slow pair: not far).
            "max_sin": float(np.sin(angles).max()), "min_cos": float(np.cos(angles).min()),
            # The same in every state (for the hint and the deeper part):
            "ratio": wavelength(1) / wavelength(0), "shortest": wavelength(0), "longest": longest,
            "limit": 2 * math.pi * BASE, "limit_text": f"{2 * math.pi * BASE:,.2f}", "longest_text": f"{longest:,.2f}", "n_pairs": N_PAIRS, "last_pair": N_PAIRS - 1,
            "n_positions": N_POSITIONS, "last_position": N_POSITIONS - 1,
            "paper_d_model": PAPER_D_MODEL, "paper_pairs": PAPER_D_MODEL // 2,
        },
        "chart": {"x": POSITIONS, "y": [np.sin(angles), np.cos(angles)], "series": ["sin", "cos"]},
    }


# ---------------------------------------------------------------------------
# Step 3: A Fingerprint for Every Position
# ---------------------------------------------------------------------------

_DISTANCES = np.linalg.norm(PE[:, None, :] - PE[None, :, :], axis=2)


def fingerprint(position):
    row = PE[position]
    others = [p for p in POSITIONS if p != position]
    nearest = min(others, key=lambda p: _DISTANCES[position, p])
    # Every row as near as the nearest: the two neighbours of a middle row tie exactly.
    tied = [p for p in others if _DISTANCES[position, p] - _DISTANCES[position, nearest] < 1e-9]
    off_diagonal = _DISTANCES[~np.eye(N_POSITIONS, dtype=bool)]
    return {
        "values": {
            "position": position, "pe0": float(row[0]), "pe1": float(row[1]),
            "norm": float(np.linalg.norm(row)), "nearest": nearest,
            "nearest_count": len(tied), "nearest_text": " and ".join(str(p) for p in tied),
            "nearest_distance": float(_DISTANCES[position, nearest]),
            "last_dims": float(np.abs(row[-2:] - PE[0, -2:]).max()),
            # The same in every state:
            "d_model": D_MODEL, "n_positions": N_POSITIONS, "last_position": N_POSITIONS - 1,
            "min_distance": float(off_diagonal.min()),
            "neighbour_spread": float(np.ptp(np.diagonal(_DISTANCES, 1))),
            "norm_all": float(np.sqrt(D_MODEL / 2)), "pairs": N_PAIRS,
            "distinct": len({tuple(np.round(r, 9)) for r in PE}),
        },
        "chart": {
            "z": PE, "x": [str(d) for d in range(D_MODEL)], "y": [str(p) for p in POSITIONS],
            "highlight_row": position,
        },
    }


# ---------------------------------------------------------------------------
# Step 4: Relative Offsets
# ---------------------------------------------------------------------------


def offset_dot(offset):
    """Σᵢ cos(offset·ωᵢ): the dot product of two encodings `offset` apart."""
    return float(np.cos(offset * OMEGA).sum())


def _first_dip_and_bump():
    """The first local minimum of Σᵢ cos(k·ωᵢ) over k = 1, 2, ..., and the local maximum after it:
    the dot product does not fall steadily with the distance."""
    dots = [offset_dot(k) for k in range(N_POSITIONS)]
    dip = next(k for k in range(1, N_POSITIONS - 1) if dots[k] < dots[k - 1] and dots[k] < dots[k + 1])
    bump = next(k for k in range(dip + 1, N_POSITIONS - 1) if dots[k] > dots[k - 1] and dots[k] > dots[k + 1])
    return dip, bump


DIP, BUMP = _first_dip_and_bump()


def relative_offsets(position, offset):
    dots = PE @ PE[position]
    target = position + offset
    # Every start from which pos + offset is still on the page's 32 positions.
    starts = range(N_POSITIONS - offset)
    spread = max(abs(float(PE[p] @ PE[p + offset]) - offset_dot(offset)) for p in starts)
    m = shift_matrix(offset)
    shift_error = float(np.abs(PE[:N_POSITIONS - offset] @ m.T - PE[offset:]).max())
    behind = position - offset
    return {
        "values": {
            "position": position, "offset": offset, "target": target, "dot": float(dots[target]),
            "formula": offset_dot(offset), "same": yes_no(spread < 1e-9),
            "self_dot": float(dots[position]), "shift_error": shift_error,
            # PE(pos)·PE(pos − offset), where pos − offset is a position at all.
            "has_behind": behind >= 0, "behind": behind, "behind_dot": float(dots[max(behind, 0)]),
            "angle0": offset * float(OMEGA[0]), "angle_last": offset * float(OMEGA[-1]),
            # The same in every state:
            "dot_1": offset_dot(OFFSETS[0]), "dot_8": offset_dot(OFFSETS[-1]),
            "half_d": D_MODEL // 2, "pairs": N_PAIRS,
            "dip": DIP, "dip_dot": offset_dot(DIP), "bump": BUMP, "bump_dot": offset_dot(BUMP),
            "fast_wavelength": wavelength(0),
        },
        "chart": {
            "x": POSITIONS, "y": dots, "rule": target, "rule_label": f"pos + offset = {target}",
        },
    }


# ---------------------------------------------------------------------------
# Step 5: Learned and Rotary Positions
# ---------------------------------------------------------------------------

# A learned table before training: one free row of d_model numbers per position.
LEARNED = np.random.default_rng(TABLE_SEED).normal(0.0, 1.0, (N_POSITIONS, D_MODEL))

# A random query, and a key that is a noisy copy of it (KEY_NOISE times a random vector added), so
# the two match well when they sit at the same position and the pattern over offsets is easy to see.
KEY_NOISE = 0.5
_rotary_rng = np.random.default_rng(ROTARY_SEED)
QUERY = _rotary_rng.normal(0.0, 1.0, D_MODEL)
KEY = QUERY + KEY_NOISE * _rotary_rng.normal(0.0, 1.0, D_MODEL)


def rotate(vector, position):
    """RoPE: turn pair i of `vector` by position·ωᵢ (Su et al. 2021)."""
    out = np.empty(D_MODEL)
    for i, w in enumerate(OMEGA):
        c, s = math.cos(position * w), math.sin(position * w)
        a, b = vector[2 * i], vector[2 * i + 1]
        out[2 * i], out[2 * i + 1] = a * c - b * s, a * s + b * c
    return out


def cosine_matrix(rows_a, rows_b):
    a = rows_a / np.linalg.norm(rows_a, axis=1, keepdims=True)
    b = rows_b / np.linalg.norm(rows_b, axis=1, keepdims=True)
    # A cosine lies in [−1, 1]; the clip only removes rounding (1.0000000000000002).
    return np.clip(a @ b.T, -1.0, 1.0)


def similarity(scheme):
    """Row m, column n: how alike positions m and n look to attention, as a cosine in [−1, 1].
    Sinusoidal and learned: the cosine of the two position vectors. Rotary: the cosine of the
    query rotated to m and the key rotated to n (the same query and key at every position)."""
    if scheme == "Sinusoidal":
        return cosine_matrix(PE, PE)
    if scheme == "Learned":
        return cosine_matrix(LEARNED, LEARNED)
    q = np.array([rotate(QUERY, m) for m in POSITIONS])
    k = np.array([rotate(KEY, n) for n in POSITIONS])
    return cosine_matrix(q, k)


def diagonal_spread(matrix):
    """The largest spread of values along any diagonal: zero when entry (m, n) depends on n − m only."""
    n = len(matrix)
    return max(float(np.ptp(np.diagonal(matrix, k))) for k in range(-(n - 1), n))


def mean_at_distance(matrix, distances):
    n = len(matrix)
    return float(np.mean([matrix[m, p] for m in range(n) for p in range(n) if abs(m - p) in distances]))


def relative_schemes():
    """The schemes whose similarity depends on the offset alone (every diagonal one value)."""
    return [s for s in SCHEMES if diagonal_spread(similarity(s)) < 1e-9]


def projected_similarity(scheme):
    """What attention's projections make of the positions alone, with step 1's random
    W_Q and W_K standing in for a layer's: the cosine of PE(m)·W_Q and PE(n)·W_K for
    added encodings (the cross terms with the words come on top), and, for rotary,
    of the projected query and key each turned to its position."""
    if scheme == "Rotary":
        q, k = QUERY @ W_Q, KEY @ W_K
        return cosine_matrix(np.array([rotate(q, m) for m in POSITIONS]),
                             np.array([rotate(k, n) for n in POSITIONS]))
    return cosine_matrix(PE @ W_Q, PE @ W_K)


def rotary_with_key(key):
    """Step 5's rotary chart with another key in place of the noisy copy of the query."""
    return cosine_matrix(np.array([rotate(QUERY, m) for m in POSITIONS]),
                         np.array([rotate(key, n) for n in POSITIONS]))


PARAMETERS = {"Sinusoidal": 0, "Learned": N_POSITIONS * D_MODEL, "Rotary": 0}
WHERE = {"Sinusoidal": "added to the input", "Learned": "added to the input", "Rotary": "rotates queries and keys"}


RELATIVE = relative_schemes()


def schemes(scheme):
    matrix = similarity(scheme)
    relative = diagonal_spread(matrix) < 1e-9
    far = set(range(N_POSITIONS // 2, N_POSITIONS))
    return {
        "values": {
            "scheme": scheme, "parameters": PARAMETERS[scheme], "where": WHERE[scheme],
            "relative": yes_no(relative), "near": mean_at_distance(matrix, {1}),
            "far": mean_at_distance(matrix, far), "far_from": min(far),
            "diagonal_spread": diagonal_spread(matrix),
            "symmetric": yes_no(float(np.abs(matrix - matrix.T).max()) < 1e-9),
            "ahead": float(matrix[0, 1]), "behind": float(matrix[1, 0]), "self_similarity": float(matrix[0, 0]),
            # The same pattern after random projections, and the rotary chart with key = query.
            "projected_spread": diagonal_spread(projected_similarity("Sinusoidal")),
            "rotary_projected_spread": diagonal_spread(projected_similarity("Rotary")),
            "same_key_asymmetry": float(np.abs(rotary_with_key(QUERY) - rotary_with_key(QUERY).T).max()),
            # The same in every state:
            "n_positions": N_POSITIONS, "d_model": D_MODEL, "table": PARAMETERS["Learned"],
            "bert_positions": BERT_POSITIONS, "gpt2_positions": GPT2_POSITIONS,
            "bert_table": BERT_POSITIONS * BERT_BASE_WIDTH, "bert_width": BERT_BASE_WIDTH,
            "relative_count": len(RELATIVE), "scheme_count": len(SCHEMES), "relative_names": " and ".join(s.lower() for s in RELATIVE),
            "absolute_names": " and ".join(s.lower() for s in SCHEMES if s not in RELATIVE),
        },
        "chart": {
            "z": matrix, "x": [str(p) for p in POSITIONS], "y": [str(p) for p in POSITIONS],
        },
    }
