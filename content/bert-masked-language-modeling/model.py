"""Toy model for "BERT & Masked Language Modeling".

Every number on the page comes from this file. The build imports it, calls the
step function named in each step's front matter with the reader's control
values, and gets back the values for readouts and prose and the data for the
chart(s).

Why not the project's trained tinyformer (content/_lib/tinyformer)? Its 74
tokens (70 words, two punctuation marks and the <mask> and <pad> markers) come
from a toy grammar of agreement and reference sentences; "sat",
"on" and "mat" are not among them, so it cannot read the running example,
"The cat sat on the mat". Steps 1 and 2 use instead a small counting model
that this file builds from a hand-written corpus of sixteen short sentences
(CORPUS), which leaves the running example out, so every guess is made from
other sentences:

* for every pair of words and every offset d between them (−5 to 5, not 0),
  it counts how often a word appears d places away from another word;
* to fill in a hidden position it adds, for every visible word, the log of
  the smoothed probability of each candidate at that word's offset, weighted
  by the visible word's attention weight, plus the log of the candidate's
  overall frequency;
* the attention weights are hand-set, not learned: a visible word at distance
  k gets exp(−DECAY·(k − 1)), normalised to sum to one over the visible words
  (attention_row, the row step 2 draws), so nearer words count more, and these
  normalised weights are the ones the evidence is weighted by. The hidden word
  is never visible, and "Left only" hides every word to its right too.

The page says so where the reader meets the guesses. Step 3 draws its random
word with a fixed seed; steps 4 and 5 use no model at all: step 4 lays out a
hand-written sentence pair, step 5 counts the weights of BERT's published
shapes (Devlin et al., 2019).

Counts, rankings and worked examples the prose states are returned as values
computed here, and tests/content/test_bert_masked_language_modeling_*.py
recompute each claim.
"""

import numpy as np

# ---------------------------------------------------------------------------
# The running example and the lists the step files use for their buttons
# ---------------------------------------------------------------------------

TOKENS = ["The", "cat", "sat", "on", "the", "mat"]
POSITIONS = list(range(len(TOKENS)))
DEFAULT_HIDDEN = TOKENS.index("sat")
CONTEXTS = ["Both sides", "Left only"]

# The counting model's corpus: written by hand for this page. The running
# example itself is left out on purpose.
CORPUS = [
    "the cat sat on the rug",
    "the dog sat on the mat",
    "the cat slept on the bed",
    "the dog slept on the rug",
    "the cat ran to the door",
    "the cat ran to the dog",
    "the dog ran to the park",
    "the bird sat on the fence",
    "a cat sat on a box",
    "the cat ate the fish",
    "the dog ate the bone",
    "the cat saw the bird",
    "the bird sat in the tree",
    "the dog lay on the mat",
    "the cat ran to the park",
    "the cat lay on the mat",
]

MAX_OFFSET = 5      # the longest distance the counts look across
SMOOTHING = 0.1     # added to every count, so no word is ever impossible
DECAY = 0.7         # hand-set: how fast the attention weight falls with distance
TOP_GUESSES = 5     # step 1's chart

_SENTENCES = [s.split() for s in CORPUS]
VOCAB = sorted({w for s in _SENTENCES for w in s})
_INDEX = {w: i for i, w in enumerate(VOCAB)}


def _counts():
    # COUNTS[d + MAX_OFFSET, context, target]: how often `context` stands d places
    # from `target` (d < 0: to its left, d > 0: to its right).
    counts = np.zeros((2 * MAX_OFFSET + 1, len(VOCAB), len(VOCAB)))
    for words in _SENTENCES:
        for i, target in enumerate(words):
            for j, context in enumerate(words):
                d = j - i
                if d and abs(d) <= MAX_OFFSET:
                    counts[d + MAX_OFFSET, _INDEX[context], _INDEX[target]] += 1
    return counts


COUNTS = _counts()
# P(target | the word at offset d is `context`), smoothed.
CONDITIONAL = (COUNTS + SMOOTHING) / (COUNTS + SMOOTHING).sum(axis=-1, keepdims=True)
UNIGRAM = np.array([sum(s.count(w) for s in _SENTENCES) for w in VOCAB], dtype=float)
UNIGRAM = UNIGRAM / UNIGRAM.sum()


def softmax(logits):
    z = np.asarray(logits, dtype=float)
    e = np.exp(z - z.max())
    return e / e.sum()


def visible_positions(hidden, context):
    """The positions the hidden word may read: never itself; with "Left only",
    only the words before it."""
    return [j for j in POSITIONS if j != hidden and (context == "Both sides" or j < hidden)]


def raw_weights(hidden, context):
    """exp(−DECAY·(distance − 1)) for each visible position, 0 elsewhere:
    a neighbour counts fully, a word k places away exp(−DECAY·(k − 1))."""
    raw = np.zeros(len(TOKENS))
    for j in visible_positions(hidden, context):
        raw[j] = np.exp(-DECAY * (abs(j - hidden) - 1))
    return raw


def attention_row(hidden, context):
    """The hidden position's (hand-set) attention weights over the six
    positions, normalised to sum to one: zero where a word is not visible."""
    raw = raw_weights(hidden, context)
    return raw / raw.sum() if raw.sum() else raw


def fill_in(hidden, context="Both sides"):
    """Probability of every vocabulary word at the hidden position: the log of its
    overall frequency plus, for each visible word, the log of its conditional
    probability at that word's offset, weighted by the visible word's attention
    weight (attention_row, normalised: the weights step 2 shows), then a softmax."""
    words = [t.lower() for t in TOKENS]
    weights = attention_row(hidden, context)
    logits = np.log(UNIGRAM).copy()
    for j in visible_positions(hidden, context):
        logits += weights[j] * np.log(CONDITIONAL[j - hidden + MAX_OFFSET, _INDEX[words[j]]])
    return softmax(logits)


def _ranked(probs):
    return [int(i) for i in np.argsort(-probs, kind="stable")]


def _guess(hidden, context):
    probs = fill_in(hidden, context)
    order = _ranked(probs)
    target = TOKENS[hidden].lower()
    return {
        "probs": probs,
        "order": order,
        "top": VOCAB[order[0]],
        "top_p": float(probs[order[0]]),
        "target": target,
        "target_p": float(probs[_INDEX[target]]),
        "target_rank": order.index(_INDEX[target]) + 1,
        "correct": VOCAB[order[0]] == target,
    }


def _join(words):
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _quoted(words):
    return _join(f"“{w}”" for w in words)


# ---------------------------------------------------------------------------
# Step 1: Mask a Word
# ---------------------------------------------------------------------------

def _masked_sentence(hidden):
    return " ".join("[MASK]" if i == hidden else t for i, t in enumerate(TOKENS))


def mask_word(word):
    # The buttons pass the word itself ("The" and "the" are different values).
    hidden = TOKENS.index(word)
    g = _guess(hidden, "Both sides")
    top = g["order"][:TOP_GUESSES]
    right = [p for p in POSITIONS if _guess(p, "Both sides")["correct"]]
    wrong = [p for p in POSITIONS if p not in right]
    return {
        "values": {
            "hidden": hidden,
            "masked_word": TOKENS[hidden],
            "masked_sentence": _masked_sentence(hidden),
            "top_guess": g["top"],
            "probability": g["top_p"],
            "correct": g["correct"],
            "target": g["target"],
            "target_p": g["target_p"],
            "target_rank": g["target_rank"],
            "runner_up": VOCAB[g["order"][1]],
            "runner_up_p": float(g["probs"][g["order"][1]]),
            "capital": TOKENS[hidden] != g["target"],
            "n_guesses": TOP_GUESSES,
            # The same in every state (for the hint and the deeper part).
            "vocab_size": len(VOCAB),
            "n_tokens": len(TOKENS),
            "smoothing": SMOOTHING,
            "corpus_size": len(CORPUS),
            "right_count": len(right),
            "wrong_words": _quoted(TOKENS[p] for p in wrong),
            "wrong_count": len(wrong),
        },
        "chart": {
            "x": [VOCAB[i] for i in top],
            "y": [float(g["probs"][i]) for i in top],
            "highlight": top.index(_INDEX[g["target"]]) if _INDEX[g["target"]] in top else None,
        },
    }


# ---------------------------------------------------------------------------
# Step 2: Both Sides at Once
# ---------------------------------------------------------------------------

def _needs_right_side():
    """Positions that both sides guess right and the left side alone does not."""
    return [p for p in POSITIONS
            if _guess(p, "Both sides")["correct"] and not _guess(p, "Left only")["correct"]]


def both_sides(word, context):
    hidden = TOKENS.index(word)
    g = _guess(hidden, context)
    other = _guess(hidden, "Left only" if context == "Both sides" else "Both sides")
    row = attention_row(hidden, context)
    visible = visible_positions(hidden, context)
    hidden_cells = [j not in visible for j in POSITIONS]
    nearest = max(visible, key=lambda j: row[j]) if visible else None
    needs = _needs_right_side()
    return {
        "values": {
            "hidden": hidden,
            "context": context,
            "masked_word": TOKENS[hidden],
            "top_guess": g["top"],
            "probability": g["top_p"],
            "visible_words": len(visible),
            "correct": g["correct"],
            "target": g["target"],
            "target_p": g["target_p"],
            "other_top": other["top"],
            "other_correct": other["correct"],
            "right_of": len(TOKENS) - 1 - hidden,
            "left_of": hidden,
            "strongest": TOKENS[nearest] if nearest is not None else "",
            "strongest_weight": float(row[nearest]) if nearest is not None else 0.0,
            # The same in every state.
            "needs_right": _quoted(TOKENS[p] for p in needs),
            "needs_right_count": len(needs),
            "example_word": TOKENS[needs[0]] if needs else "",
            "example_left_guess": _guess(needs[0], "Left only")["top"] if needs else "",
            "decay": DECAY,
            "n_tokens": len(TOKENS),
        },
        "chart": {
            "z": [[float(v) for v in row]],
            "x": [f"{t} ({i})" for i, t in enumerate(TOKENS)],
            "y": ["[MASK]"],
            "mask": [hidden_cells],
            "mask_label": "hidden",
        },
    }


# ---------------------------------------------------------------------------
# Step 3: The 80/10/10 Rule
# ---------------------------------------------------------------------------

TREATMENTS = ["[MASK]", "Random word", "Unchanged"]
# Devlin et al. (2019), Section 3.1: 15% of the token positions are chosen;
# of those, 80% become [MASK], 10% a random token, 10% stay as they are.
CHOSEN_RATE = 0.15
TREATMENT_SHARES = {"[MASK]": 0.8, "Random word": 0.1, "Unchanged": 0.1}

# In a six-word sentence 15% is less than one word; this page marks one, "sat",
# the word steps 1 and 2 start from (a choice, not a draw).
CHOSEN = DEFAULT_HIDDEN
# The random replacement is drawn with a fixed seed from the toy vocabulary,
# never the chosen word itself (BERT draws from its whole vocabulary).
SEED = 1810
_REPLACEMENTS = [w for w in VOCAB if w != TOKENS[CHOSEN].lower()]
RANDOM_WORD = _REPLACEMENTS[int(np.random.default_rng(SEED).integers(len(_REPLACEMENTS)))]


def _percent_text(share):
    # 0.12 -> "12%", 0.015 -> "1.5%": a readout that keeps the half percent.
    text = f"{share * 100:.1f}".rstrip("0").rstrip(".")
    return f"{text}%"


def treatment(rule):
    shown = {"[MASK]": "[MASK]", "Random word": RANDOM_WORD, "Unchanged": TOKENS[CHOSEN]}[rule]
    words = [shown if i == CHOSEN else t for i, t in enumerate(TOKENS)]
    share = TREATMENT_SHARES[rule]
    return {
        "values": {
            "rule": rule,
            "share_chosen": share,
            "share_chosen_text": _percent_text(share),
            "share_all": _percent_text(share * CHOSEN_RATE),
            "example_input": " ".join(words),
            "shown": shown,
            "chosen_word": TOKENS[CHOSEN],
            # The same in every state.
            "chosen_rate": _percent_text(CHOSEN_RATE),
            "untouched": _percent_text(1 - CHOSEN_RATE),
            "shares_total": _percent_text(sum(TREATMENT_SHARES.values())),
            "n_tokens": len(TOKENS),
            "tokens_512": 512,
            "chosen_512": round(512 * CHOSEN_RATE),
        },
        "chart": {"sizes": [1] * len(words), "labels": words, "highlight": CHOSEN},
    }


# ---------------------------------------------------------------------------
# Step 4: Two Sentences and [CLS]
# ---------------------------------------------------------------------------

PAIRS = ["IsNext", "NotNext"]
SENTENCE_A = [t.lower() for t in TOKENS]
# Hand-written second sentences: one that follows A, one from somewhere else.
SENTENCE_B = {"IsNext": ["then", "it", "fell", "asleep"], "NotNext": ["stock", "prices", "rose", "sharply"]}


def pair_tokens(pair):
    tokens = ["[CLS]"] + SENTENCE_A + ["[SEP]"] + SENTENCE_B[pair] + ["[SEP]"]
    segments = ["A"] * (len(SENTENCE_A) + 2) + ["B"] * (len(SENTENCE_B[pair]) + 1)
    return tokens, segments


# Short enough to fit a box two columns wide without breaking.
ROW_NAMES = ["Token", "Seg.", "Pos."]


def _embedding_diagram(tokens, a, b):
    """Three rows on one grid: each token, its segment (one box across the
    tokens of A, one across B) and its position. The first two columns name the rows."""
    boxes = ROW_NAMES + tokens + ["A", "B"] + [str(i) for i in range(len(tokens))]
    at = [[0, row, 2] for row in range(len(ROW_NAMES))]
    at += [[2 + i, 0] for i in range(len(tokens))]
    at += [[2, 1, a], [2 + a, 1, b]]
    at += [[2 + i, 2] for i in range(len(tokens))]
    return {"boxes": boxes, "at": at, "highlight": [len(ROW_NAMES)]}


def sentence_pair(pair):
    tokens, segments = pair_tokens(pair)
    a, b = segments.count("A"), segments.count("B")
    return {
        "values": {
            "label": pair,
            "tokens": len(tokens),
            "segments": f"A: {a}, B: {b}",
            "a_count": a,
            "b_count": b,
            "words_a": len(SENTENCE_A),
            "words_b": len(SENTENCE_B[pair]),
            "sentence_b": " ".join(SENTENCE_B[pair]),
            "last_position": len(tokens) - 1,
            "specials": tokens.count("[CLS]") + tokens.count("[SEP]"),
        },
        "chart": _embedding_diagram(tokens, a, b),
    }


# ---------------------------------------------------------------------------
# Step 5: Sizes and Fine-tuning
# ---------------------------------------------------------------------------

MODELS = ["BERT-base", "BERT-large"]
# Devlin et al. (2019), Section 3: L layers, hidden size H, A heads; the
# feed-forward layer is 4H wide; sequences of up to 512 tokens; two segments.
SHAPES = {"BERT-base": {"layers": 12, "hidden": 768, "heads": 12, "reported": "110M"},
          "BERT-large": {"layers": 24, "hidden": 1024, "heads": 16, "reported": "340M"}}
# The WordPiece vocabulary of the released English uncased checkpoints
# (vocab_size in their bert_config.json); the paper rounds it to 30,000.
VOCAB_SIZE = 30522
MAX_POSITIONS = 512
SEGMENT_TYPES = 2
PARTS = ["Token embeddings", "Position + segment", "Attention", "Feed-forward",
         "Layer norms", "Pooler"]


# How the prose names each part.
PART_PHRASES = {"Token embeddings": "the token embeddings", "Position + segment": "the position and segment "
                "embeddings", "Attention": "the attention layers", "Feed-forward": "the feed-forward blocks",
                "Layer norms": "the layer norms", "Pooler": "the pooler"}


def parameter_parts(name):
    """Weights and biases of each part of the model, as in the released code."""
    s = SHAPES[name]
    h, layers = s["hidden"], s["layers"]
    ff = 4 * h
    return {
        "Token embeddings": VOCAB_SIZE * h,
        "Position + segment": (MAX_POSITIONS + SEGMENT_TYPES) * h,
        "Attention": layers * 4 * (h * h + h),                  # Q, K, V and output, with biases
        "Feed-forward": layers * (h * ff + ff + ff * h + h),
        "Layer norms": (1 + 2 * layers) * 2 * h,                 # after the embeddings, twice a layer
        "Pooler": h * h + h,                                     # the [CLS] vector's dense layer
    }


def pretraining_heads(name):
    """The weights of the two pre-training heads of the released code (run_pretraining.py),
    which fine-tuning drops: the masked-word predictor (a dense layer, its layer norm and
    an output bias per vocabulary token; its output matrix is the token embeddings) and
    the next sentence classifier (2 × H weights and 2 biases)."""
    h = SHAPES[name]["hidden"]
    return {"Masked LM": h * h + h + 2 * h + VOCAB_SIZE, "Next sentence": 2 * h + 2}


def two_figures(n):
    """A count rounded to two significant figures, in millions: 109,482,240 -> "110M"."""
    millions = n / 1e6
    digits = 2 - int(np.floor(np.log10(millions))) - 1
    return f"{round(millions, digits):.0f}M"


def _short(n):
    # 23,440,896 -> "23.4M"; below a million the count itself: 38,400 -> "38,400".
    return f"{n / 1e6:.1f}M" if n >= 1e6 else f"{n:,}"


def sizes(model):
    s = SHAPES[model]
    parts = parameter_parts(model)
    total = sum(parts.values())
    largest = max(PARTS, key=lambda p: parts[p])
    base, large = (sum(parameter_parts(m).values()) for m in MODELS)
    return {
        "values": {
            "model": model,
            "layers": s["layers"],
            "hidden": s["hidden"],
            "heads": s["heads"],
            "head_size": s["hidden"] // s["heads"],
            "ff": 4 * s["hidden"],
            "parameters": two_figures(total),
            "reported": s["reported"],
            "total": total,
            "largest_part": largest,
            "largest_phrase": PART_PHRASES[largest],
            "largest_share": parts[largest] / total,
            "embedding_share": parts["Token embeddings"] / total,
            "heads_total": sum(pretraining_heads(model).values()),
            "with_heads": two_figures(total + sum(pretraining_heads(model).values())),
            # The same in every state.
            "vocab_size": VOCAB_SIZE,
            "max_positions": MAX_POSITIONS,
            "large_over_base": large / base,
        },
        "chart": {"x": PARTS, "y": [parts[p] / 1e6 for p in PARTS], "highlight": PARTS.index(largest),
                  "text": [_short(parts[p]) for p in PARTS]},
    }
