"""The four rounds of the Spotlight game, and the property each must have.

The sentences and heads were found by ``search.py`` with the committed weights;
``check`` recomputes each round's property, and ``smallest_spotlight`` the
spotlight that earns the most stars, from the model every time.
"""
from __future__ import annotations

import numpy as np

from . import grammar
from .spotlight import Round, describe, play_round, smallest_spotlight

MAX_STATES = 4096

KINDS = ("agreement", "reference", "two heads", "mix")


def _words(sentence: str) -> tuple[str, ...]:
    return tuple(sentence.split())


ROUNDS: tuple[Round, ...] = (
    # Bock and Miller's attraction errors: the verb agrees with "keys", not "cabinet".
    Round("Agreement", "agreement", _words("the keys to the cabinet <mask>"), "are",
          heads=(2,), candidates=(0, 1, 2, 3, 4), one_word_per_head=False,
          roles={"subject": 1, "attractor": 4}),
    # "she" fits the queen only; the queen is the first noun, not the nearest.
    Round("Reference", "reference",
          _words("the queen thanked the king and she laughed . who laughed ? <mask>"), "queen",
          heads=(3,), candidates=(1, 2, 4, 5, 6, 7, 9, 11), one_word_per_head=False,
          roles={"referent": 1, "other": 4, "pronoun": 6}),
    # "deer" is the same word for one and many: "this" gives the number, "deer" the verb.
    Round("Two heads", "two heads", _words("this deer under the cat <mask>"), "grazes",
          heads=(0, 2), candidates=(0, 1, 2, 3, 4), one_word_per_head=True,
          roles={"determiner": 0, "subject": 1}),
    # The same with three heads, eight words and two attractors, one an invariant animal.
    Round("Three heads", "mix", _words("these deer under this fish behind the bird <mask>"), "graze",
          heads=(1, 2, 3), candidates=(0, 1, 2, 3, 4, 5, 6, 7), one_word_per_head=True,
          roles={"determiner": 0, "subject": 1}),
)


def _other_form(word: str) -> str:
    """The verb form of the other number: is ↔ are, barks ↔ bark."""
    pairs = [("is", "are")] + [tuple(animal[2:]) for animal in grammar.ANIMALS]
    for singular, plural in pairs:
        if word in (singular, plural):
            return plural if word == singular else singular
    raise ValueError(f"{word!r} is not a verb of the grammar")


def check(model, round_: Round) -> dict:
    """Whether ``round_`` has the property its kind needs, with a margin (how much
    confidence the property rests on, for ranking candidates).

    * agreement: the subject alone in the spotlight gives the target, the
      attractor alone the verb form of the other number;
    * reference: the referent alone gives the target;
    * two heads: no controlled head alone (the others' spotlights empty) reaches
      the target with any one word, and one word in each of two heads does;
    * mix: no head alone reaches the target with any one word, and some spotlight does.

    In every kind the empty spotlight must miss the target and the round must
    have at most MAX_STATES spotlights. Returns {"ok", "margin", "outcome",
    "smallest"} (the index of the smallest working spotlight, or None).
    """
    kind = round_.kind
    outcome = play_round(model, round_)
    answers, confidence = outcome.answers, outcome.confidence
    heads, roles = round_.heads, round_.roles
    smallest = smallest_spotlight(outcome, round_.target)
    result = {"outcome": outcome, "smallest": smallest, "ok": False, "margin": 0.0}
    # A round the reader solves with an empty spotlight teaches nothing.
    if len(answers) > MAX_STATES or smallest is None or answers[round_.state({})] == round_.target:
        return result
    if kind == "agreement":
        subject = round_.state({heads[0]: [roles["subject"]]})
        attractor = round_.state({heads[0]: [roles["attractor"]]})
        result["ok"] = (answers[subject] == round_.target
                        and answers[attractor] == _other_form(round_.target))
        result["margin"] = float(min(confidence[subject], confidence[attractor]))
    elif kind == "reference":
        referent = round_.state({heads[0]: [roles["referent"]]})
        result["ok"] = answers[referent] == round_.target
        result["margin"] = float(confidence[referent])
    elif kind in ("two heads", "mix"):
        # No head alone reaches the target, whatever its word (the others' spotlights empty)...
        alone = [round_.state({head: [position]}) for head in heads for position in round_.candidates]
        target = grammar.IDS[round_.target]
        best_alone = float(outcome.probabilities[alone, target].max())
        result["ok"] = all(answers[s] != round_.target for s in alone)
        if kind == "two heads":
            # ... and one word per head, both heads, does.
            pairs = np.flatnonzero((outcome.spotlights.sum(axis=2) == 1).all(axis=1)
                                   & (np.array(answers) == round_.target))
            result["ok"] = result["ok"] and len(pairs) > 0
            result["margin"] = float(confidence[pairs].max()) - best_alone if len(pairs) else 0.0
        else:
            result["margin"] = float(confidence[smallest]) - best_alone
    else:
        raise ValueError(f"unknown round kind {kind!r}; expected one of {', '.join(KINDS)}")
    return result


def summary(model) -> list[dict]:
    """Each round as the game page needs it, with its smallest working spotlight
    computed from the model: words, blank, target, heads, candidate words,
    number of states, and the smallest spotlight ({head: [words]}), its size
    and confidence."""
    rows = []
    for round_ in ROUNDS:
        outcome = play_round(model, round_)
        best = smallest_spotlight(outcome, round_.target)
        rows.append({
            "title": round_.title, "words": list(round_.words), "blank": round_.blank,
            "target": round_.target, "heads": list(round_.heads),
            "candidates": [round_.words[p] for p in round_.candidates],
            "states": len(outcome.answers),
            "smallest": describe(round_, outcome, best),
            "smallest_size": int(outcome.sizes[best]),
            "smallest_confidence": float(outcome.confidence[best]),
        })
    return rows
