"""The four rounds of the Spotlight game, and the property each must have.

The sentences and heads were found by ``search.py`` with the committed weights;
``check`` recomputes each round's property, and ``smallest_spotlight`` the
spotlight that earns the most stars, from the model every time. Each round's
``key`` names the words its lesson says carry the answer: only a spotlight that
holds them all earns full stars.
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
    # Agreement attraction runs this way in people (Bock and Miller 1991): a singular head,
    # a plural noun just before the verb.
    Round("Agreement", "agreement", _words("the key to the cabinets <mask>"), "is",
          heads=(2,), candidates=(0, 1, 2, 3, 4), one_word_per_head=False,
          roles={"subject": 1, "attractor": 4}, key=("subject",)),
    # "he" fits the boy only; the boy is the first noun, not the nearest.
    Round("Reference", "reference",
          _words("the boy called the queen and he smiled . who smiled ? <mask>"), "boy",
          heads=(2,), candidates=(1, 2, 4, 5, 6, 7, 9, 11), one_word_per_head=False,
          roles={"referent": 1, "other": 4, "pronoun": 6}, key=("referent",)),
    # "sheep" is the same word for one and many: "this" gives the number, "sheep" the verb.
    Round("Two heads", "two heads", _words("this sheep near these dogs <mask>"), "bleats",
          heads=(1, 3), candidates=(0, 1, 2, 3, 4), one_word_per_head=True,
          roles={"determiner": 0, "subject": 1, "attractor": 3}, key=("determiner", "subject")),
    # The same with three heads, eight words and two attractors, each with a plural "these".
    Round("Three heads", "mix", _words("this deer near these doors by these sheep <mask>"), "grazes",
          heads=(1, 2, 3), candidates=(0, 1, 2, 3, 4, 5, 6, 7), one_word_per_head=True,
          roles={"determiner": 0, "subject": 1, "attractor": 3, "other attractor": 6},
          key=("determiner", "subject")),
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

    * agreement: a singular subject with a plural attractor (the way people's
      attraction slips run); the subject alone in the spotlight gives the
      target, the attractor alone the verb form of the other number, and the
      empty spotlight neither, so that the attractor visibly moves the answer;
    * reference: the referent alone gives the target, the pronoun alone does
      not, and no spotlight without the referent does;
    * two heads: no controlled head alone (the others' spotlights empty) reaches
      the target with any one word, and one word in each of two heads does;
    * mix: no head alone reaches the target with any one word, and some spotlight does.

    In every kind the empty spotlight must miss the target, some spotlight that
    holds the round's key words must reach it, and the round must have at most
    MAX_STATES spotlights. Returns {"ok", "margin", "outcome", "smallest"} (the
    index of the smallest working spotlight that holds the key words, or None).
    """
    kind = round_.kind
    outcome = play_round(model, round_)
    answers, confidence = outcome.answers, outcome.confidence
    heads, roles = round_.heads, round_.roles
    smallest = smallest_spotlight(outcome, round_.target, key_columns(round_))
    result = {"outcome": outcome, "smallest": smallest, "ok": False, "margin": 0.0}
    # A round the reader solves with an empty spotlight teaches nothing.
    if len(answers) > MAX_STATES or smallest is None or answers[round_.state({})] == round_.target:
        return result
    if kind == "agreement":
        subject = round_.state({heads[0]: [roles["subject"]]})
        attractor = round_.state({heads[0]: [roles["attractor"]]})
        other = _other_form(round_.target)
        singular = dict(grammar.THINGS)
        result["ok"] = (round_.words[roles["subject"]] in singular
                        and round_.words[roles["attractor"]] in singular.values()
                        and answers[subject] == round_.target and answers[attractor] == other
                        and answers[round_.state({})] not in (round_.target, other))
        result["margin"] = float(min(confidence[subject], confidence[attractor]))
    elif kind == "reference":
        referent = round_.state({heads[0]: [roles["referent"]]})
        pronoun = round_.state({heads[0]: [roles["pronoun"]]})
        column = round_.candidates.index(roles["referent"])
        hits = np.flatnonzero(np.array(answers) == round_.target)
        result["ok"] = (answers[referent] == round_.target and answers[pronoun] != round_.target
                        and bool(outcome.spotlights[hits, 0, column].all()))
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


def key_columns(round_: Round) -> list[int]:
    """The key words of ``round_`` as columns of ``Outcome.spotlights`` (places among its candidates)."""
    return [round_.candidates.index(round_.roles[role]) for role in round_.key]


def summary(model) -> list[dict]:
    """Each round as the game page needs it, with its smallest working spotlight
    computed from the model: words, blank, target, heads, candidate words,
    number of states, the key words, and the smallest spotlight that holds them
    ({head: [words]}), its size and confidence."""
    rows = []
    for round_ in ROUNDS:
        outcome = play_round(model, round_)
        best = smallest_spotlight(outcome, round_.target, key_columns(round_))
        rows.append({
            "title": round_.title, "words": list(round_.words), "blank": round_.blank,
            "target": round_.target, "heads": list(round_.heads),
            "candidates": [round_.words[p] for p in round_.candidates],
            "key_words": [round_.words[round_.roles[role]] for role in round_.key],
            "states": len(outcome.answers),
            "smallest": describe(round_, outcome, best),
            "smallest_size": int(outcome.sizes[best]),
            "smallest_confidence": float(outcome.confidence[best]),
        })
    return rows
