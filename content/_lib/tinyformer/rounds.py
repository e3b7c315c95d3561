"""The four rounds of the Spotlight game, and the property each must have.

The sentences and heads were found by ``search.py`` with the committed weights;
``check`` recomputes each round's property, and ``smallest_spotlight`` the
spotlight that earns the most stars, from the model every time.
"""
from __future__ import annotations

import numpy as np

from . import grammar
from .spotlight import Round, play_round, smallest_spotlight

MAX_STATES = 4096

ROUNDS: tuple[Round, ...] = ()


def _other_form(word: str) -> str:
    """The verb form of the other number: is ↔ are, barks ↔ bark."""
    pairs = [("is", "are")] + [tuple(animal[2:]) for animal in grammar.ANIMALS]
    for singular, plural in pairs:
        if word in (singular, plural):
            return plural if word == singular else singular
    raise ValueError(f"{word!r} is not a verb of the grammar")


def check(model, round_: Round, kind: str) -> dict:
    """Whether ``round_`` has the property its kind ("1" … "4") needs, with a margin
    (the smallest confidence the property rests on, for ranking candidates)."""
    outcome = play_round(model, round_)
    answers, confidence = outcome.answers, outcome.confidence
    heads, roles = round_.heads, round_.roles
    smallest = smallest_spotlight(outcome, round_.target)
    result = {"outcome": outcome, "smallest": smallest, "ok": False, "margin": 0.0}
    # A round the reader solves with an empty spotlight teaches nothing.
    if len(answers) > MAX_STATES or smallest is None or answers[round_.state({})] == round_.target:
        return result
    if kind == "1":
        subject = round_.state({heads[0]: [roles["subject"]]})
        attractor = round_.state({heads[0]: [roles["attractor"]]})
        result["ok"] = (answers[subject] == round_.target
                        and answers[attractor] == _other_form(round_.target))
        result["margin"] = float(min(confidence[subject], confidence[attractor]))
    elif kind == "2":
        referent = round_.state({heads[0]: [roles["referent"]]})
        result["ok"] = answers[referent] == round_.target
        result["margin"] = float(confidence[referent])
    else:
        # No head alone reaches the target, whatever its word (the others' spotlights empty)...
        alone = [round_.state({head: [position]}) for head in heads for position in round_.candidates]
        target = grammar.IDS[round_.target]
        best_alone = float(outcome.probabilities[alone, target].max())
        result["ok"] = all(answers[s] != round_.target for s in alone)
        if kind == "3":
            # ... and one word per head, both heads, does.
            pairs = np.flatnonzero((outcome.spotlights.sum(axis=2) == 1).all(axis=1)
                                   & (np.array(answers) == round_.target))
            result["ok"] = result["ok"] and len(pairs) > 0
            result["margin"] = float(confidence[pairs].max()) - best_alone if len(pairs) else 0.0
        else:
            result["margin"] = float(confidence[smallest]) - best_alone
    return result
