"""The Spotlight game's numbers: every spotlight of every round, through the
tiny transformer's own forward pass with the reader's attention at the blank
in place of its own (content/_lib/tinyformer, trained by `make retrain`).

The rounds themselves (sentences, heads, the words on offer) are
tinyformer.ROUNDS, chosen with the committed weights; this file only hands
them to the game in the shape game.md's kind reads."""
import numpy as np

import tinyformer

MODEL = tinyformer.load()


def facts():
    """What the page says about the model, from its card."""
    card = MODEL.card
    return {
        "accuracy": card["accuracy_held_out"]["fill_in"]["overall"],
        "held_out": sum(card["corpus"]["held_out"].values()),
        "parameters": card["parameters"],
        "vocabulary": card["vocab_size"],
        "d_model": card["d_model"],
        "heads": card["heads"],
    }


def _round(number):
    round_ = tinyformer.ROUNDS[number - 1]
    outcome = tinyformer.play_round(MODEL, round_)
    candidates = np.array(round_.candidates)
    # Plain lists: thousands of states, each read word by word.
    states = [{"spotlight": [candidates[head].tolist() for head in spotlight], "answer": answer,
               "confidence": confidence}
              for spotlight, answer, confidence in zip(outcome.spotlights, outcome.answers,
                                                       outcome.confidence.tolist())]
    return {
        "words": list(round_.words), "blank": round_.blank, "target": round_.target,
        "heads": [f"Head {head + 1}" for head in round_.heads], "candidates": list(round_.candidates),
        "one_word_per_head": round_.one_word_per_head, "states": states,
        "own_attention": outcome.own_attention, "own_answer": outcome.own_answer,
        "own_confidence": outcome.own_confidence,
    }


def agreement():
    return _round(1)


def reference():
    return _round(2)


def two_heads():
    return _round(3)


def three_heads():
    return _round(4)
