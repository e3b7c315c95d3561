"""Find sentences for the four rounds that have the game's properties with the
committed weights, and print the best of each kind (a tool for after a retrain).

    PYTHONPATH=content/_lib python -m tinyformer.search

The chosen rounds are written by hand into rounds.py; tests/content/test_tinyformer.py
checks their properties, and the smallest working spotlight is always computed.
"""
from __future__ import annotations

import random

from . import grammar
from .rounds import check
from .spotlight import Round
from .weights import load


def _masked(words: list[str]) -> tuple[str, ...]:
    return tuple(words[:-1] + [grammar.MASK])


def round_one(rng) -> Round | None:
    words, _ = grammar.agreement(rng)
    singular = dict(grammar.THINGS)
    if len(words) != 6 or words[1] not in singular or words[4] not in singular.values():
        return None  # one attractor: a singular subject, a plural thing after it
    return Round("", "agreement", _masked(words), words[-1], (rng.randrange(4),), (0, 1, 2, 3, 4), False,
                 {"subject": 1, "attractor": 4}, ("subject",))


def round_two(rng) -> Round:
    words, _ = grammar.reference(rng)
    referent = 1 if words[1] == words[-1] else 4
    return Round("", "reference", _masked(words), words[-1], (rng.randrange(4),),
                 (1, 2, 4, 5, 6, 7, 9, 11), False,
                 {"referent": referent, "other": 5 - referent, "pronoun": 6}, ("referent",))


def round_three(rng, attractors: int = 1, heads: int = 2) -> Round | None:
    words, _ = grammar.species(rng)
    if words[1] not in grammar.INVARIANT or len(words) != 3 + 3 * attractors:
        return None
    chosen = tuple(sorted(rng.sample(range(4), heads)))
    kind = "two heads" if heads == 2 else "mix"
    return Round("", kind, _masked(words), words[-1], chosen, tuple(range(len(words) - 1)), True,
                 {"determiner": 0, "subject": 1}, ("determiner", "subject"))


def main(tries: int = 400) -> None:
    model = load()
    rng = random.Random(1)
    makers = {1: round_one, 2: round_two, 3: round_three,
              4: lambda r: round_three(r, attractors=2, heads=3)}
    for number, make in makers.items():
        found = {}
        for _ in range(tries):
            round_ = make(rng)
            if round_ is None or (round_.words, round_.heads) in found:
                continue
            result = check(model, round_)
            if result["ok"]:
                found[(round_.words, round_.heads)] = (result["margin"], round_)
        best = sorted(found.values(), key=lambda pair: -pair[0])[:5]
        print(f"round {number}: {len(found)} of {tries} tries work; the best:")
        for margin, round_ in best:
            print(f"  {margin:.3f}  {' '.join(round_.words)} -> {round_.target}  heads {round_.heads}")


if __name__ == "__main__":
    main()
