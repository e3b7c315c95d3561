"""The Spotlight game's numbers: every spotlight of every round, through the
tiny transformer's own forward pass with the reader's attention at the blank
in place of its own (content/_lib/tinyformer, trained by `make retrain`).

The rounds themselves (sentences, heads, the words on offer, the words each
lesson says carry the answer) are tinyformer.ROUNDS, chosen with the committed
weights; this file only hands them to the game in the shape game.md's kind
reads. Reveal shows every head of the layer, the ones the reader does not
control too: a lesson may say what those heads read."""
import numpy as np

import tinyformer
from tinyformer import feedback

MODEL = tinyformer.load()


def facts():
    """What the page says about the model, from its card, and one answer that shows
    a spotlight is attention the model was never trained with."""
    card = MODEL.card
    markers = [tinyformer.PAD, tinyformer.MASK]
    return {
        "accuracy": card["accuracy_held_out"]["fill_in"]["overall"],
        "held_out": sum(card["corpus"]["held_out"].values()),
        "parameters": card["parameters"],
        "words": card["vocab_size"] - len(markers),
        "markers": len(markers),
        "d_model": card["d_model"],
        "heads": card["heads"],
        "odd_word": ODD_WORD,
        "odd_answer": odd_answer(),
    }


# Round 1's word that, alone in the spotlight, gives an answer no sentence of the
# grammar has at the blank (tests/content/test_spotlight_lessons.py checks it).
ODD_WORD = "to"


def odd_answer() -> str:
    round_ = tinyformer.ROUNDS[0]
    outcome = tinyformer.play_round(MODEL, round_)
    return outcome.answers[round_.state({round_.heads[0]: [round_.words.index(ODD_WORD)]})]


TOP = 3   # answers shown as bars after each try


def _round(number):
    round_ = tinyformer.ROUNDS[number - 1]
    outcome = tinyformer.play_round(MODEL, round_)
    candidates = np.array(round_.candidates)
    # The model's three likeliest answers in every state, likeliest first.
    top = np.argsort(-outcome.probabilities, axis=1, kind="stable")[:, :TOP]
    top_p = np.take_along_axis(outcome.probabilities, top, axis=1).tolist()
    kinds = {a: feedback.kind(round_.words, round_.target, a) for a in set(outcome.answers)}
    # Plain lists: thousands of states, each read word by word.
    states = [{"spotlight": [candidates[head].tolist() for head in spotlight], "answer": answer,
               "confidence": confidence, "feedback": kinds[answer],
               "top": [[tinyformer.VOCAB[i], p] for i, p in zip(ids, ps)]}
              for spotlight, answer, confidence, ids, ps in zip(outcome.spotlights, outcome.answers,
                                                                outcome.confidence.tolist(), top.tolist(), top_p)]
    return {
        "words": list(round_.words), "blank": round_.blank, "target": round_.target,
        "heads": [_name(head) for head in round_.heads], "candidates": list(round_.candidates),
        "one_word_per_head": round_.one_word_per_head, "states": states,
        "key_words": [round_.roles[role] for role in round_.key],
        "own_heads": [_name(head) for head in range(MODEL.heads)],
        "own_attention": outcome.own_attention, "own_answer": outcome.own_answer,
        "own_confidence": outcome.own_confidence,
    }


def _name(head: int) -> str:
    return f"Head {head + 1}"


def agreement():
    return _round(1)


def reference():
    return _round(2)


def two_heads():
    return _round(3)


def three_heads():
    return _round(4)
