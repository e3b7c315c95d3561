"""Compute every spotlight of every round: each round's function in model.py
returns the sentence, the target, the heads handed to the reader and the
model's answer for every spotlight; this module checks all of it and makes
the round's state graph (where each word button leads from each state).

A round's function returns a dict:

    words              the sentence, one string per word (the blank's own text is not shown)
    blank              the blank's position in words (0-based)
    target             the answer to reach
    heads              the name of each head the reader controls, e.g. ["Head 1", "Head 3"]
    candidates         positions of the words the reader can put in the spotlight
    one_word_per_head  true: each head's spotlight is one word or none; false: any set of words
    states             every spotlight: [{"spotlight": [[positions] per head], "answer", "confidence"}], each of
                       which may add "top" (the likeliest answers, [[answer, probability], ...], likeliest first,
                       the answer first) and "feedback" (for a wrong answer, the kind of wrong answer it is:
                       game.md's feedback table gives the line shown for each kind)
    own_attention      the model's own attention at the blank: one row of len(words) weights per head
    own_answer, own_confidence   what the model answers with its own attention

and may add:

    own_heads          the name of each row of own_attention, when Reveal shows more heads than the
                       reader controls (every head of the layer, say); by default the heads above
    key_words          positions of the words the lesson says carry the answer: a spotlight that reaches
                       the target earns full stars only if it holds every one of them (in any head), and
                       the smallest such spotlight is the one that sets the stars
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from types import ModuleType

from ...compute.formats import count, percent, plain
from ...compute.states import State
from ...errors import ContentError, Interrupted, Problem
from ...load.models import ModelStopped, guarded, line_in, model_failure
from .content import Game, Round

_KEYS = ("words", "blank", "target", "heads", "candidates", "one_word_per_head", "states", "own_attention",
         "own_answer", "own_confidence")
_OPTIONAL_KEYS = ("own_heads", "key_words")


@dataclass
class RoundStates:
    round: Round
    number: int
    words: list[str]
    blank: int
    target: str
    heads: list[str]
    candidates: list[int]
    one_word_per_head: bool
    states: list[State]           # in the model's order; State.choice is {head name: [positions]}
    default_key: str              # the empty spotlight
    smallest: int                 # fewest words that reach the target holding every key word
    best_key: str                 # a spotlight with that many words (the most confident)
    own_attention: list[list[float]]
    own_answer: str
    own_confidence: float
    own_heads: list[str]          # the heads of own_attention's rows, for Reveal
    key_words: list[int]          # positions a spotlight must hold for full stars (none: any)

    def by_key(self, key: str) -> State:
        return self._index[key]

    def __post_init__(self):
        self._index = {s.key: s for s in self.states}

    @property
    def values_per_control(self) -> int:
        """Each control's number of values: no word then each candidate, or out and in."""
        return len(self.candidates) + 1 if self.one_word_per_head else 2

    @property
    def controls(self) -> list[tuple[int, int | None]]:
        """The controls of State.to, as (head index, candidate index or None). With one
        word per head, a control is a head, whose values are no word then each candidate
        in turn; otherwise a control is one word of one head, whose values are out and in."""
        if self.one_word_per_head:
            return [(h, None) for h in range(len(self.heads))]
        return [(h, j) for h in range(len(self.heads)) for j in range(len(self.candidates))]


@dataclass(frozen=True)
class GameStates:
    """What computing a game gives: every round's states, and the values of model.py's
    facts function (for the '::: model' part)."""
    rounds: list[RoundStates]
    facts: dict


def compute_game(game: Game, model: ModuleType, time_limit: float | None = None) -> GameStates:
    """Every round's states and the facts; each function of the model may run for
    `time_limit` seconds."""
    errors: list[Problem] = []
    facts = {}
    if game.facts:
        facts = _call(game, model, game.facts, "facts", errors, game.line(key="facts"), time_limit)
        if facts is not None and not isinstance(facts, dict):
            errors.append(Problem(game.model_path, f"{game.facts}() must return a dict of values, found "
                                  f"{type(facts).__name__}", field="facts"))
        facts = {str(k): plain(v) for k, v in facts.items()} if isinstance(facts, dict) else {}
    rounds = []
    for index, round_ in enumerate(game.rounds):
        output = _call(game, model, round_.compute, f"rounds[{index}].compute", errors,
                       game.line(index, "compute"), time_limit)
        if output is None:
            continue
        try:
            rounds.append(_round_states(game, index, round_, output))
        except ContentError as err:
            errors += err.problems
    if errors:
        raise ContentError(errors)
    return GameStates(rounds, facts)


def adopt(computed: GameStates, game: Game) -> GameStates:
    """Rounds computed by an earlier build, attached to this build's rounds: their goals
    and lessons (Markdown in game.md, not part of what the states are computed from) may be new."""
    return replace(computed, rounds=[replace(states, round=round_)
                                     for states, round_ in zip(computed.rounds, game.rounds)])


def _call(game: Game, model, name: str, field: str, errors: list, line: int | None,
          time_limit: float | None = None):
    function = getattr(model, name, None)
    if not callable(function):
        errors.append(Problem(game.main_path, f"model.py defines no function {name!r}", line, field))
        return None
    try:
        return guarded(function, (), time_limit)
    except KeyboardInterrupt:
        raise Interrupted(f"while computing {game.slug}, {name}()") from None
    except Exception as err:  # author code: name the function and its line
        errors.append(Problem(game.model_path, f"{game.slug}, {name}()"
                              f"{'' if isinstance(err, ModelStopped) else ' failed'}: {model_failure(err)}",
                              line_in(game.model_path, err)))
        return None


def _round_states(game: Game, index: int, round_: Round, output) -> RoundStates:
    number = index + 1
    where = f"{game.slug}, round {number} ({round_.compute})"

    def fail(message: str):
        return ContentError.one(game.model_path, f"{where}: {message}")

    if not isinstance(output, dict):
        raise fail(f"must return a dict, found {type(output).__name__}")
    missing = [key for key in _KEYS if key not in output]
    if missing:
        raise fail(f"returned no {', '.join(missing)} (a round needs: {', '.join(_KEYS)}; it may add: "
                   f"{', '.join(_OPTIONAL_KEYS)})")
    words, blank, heads, candidates = (plain(output[k]) for k in ("words", "blank", "heads", "candidates"))
    target, one_word = output["target"], output["one_word_per_head"]
    if not isinstance(words, list) or not words or not all(isinstance(w, str) and w for w in words):
        raise fail("words must be a list of words (non-empty strings)")
    if not isinstance(blank, int) or not 0 <= blank < len(words):
        raise fail(f"blank must be a position in words (0 to {len(words) - 1}), found {blank!r}")
    if not isinstance(heads, list) or not heads or not all(isinstance(h, str) and h for h in heads) \
            or len(set(heads)) != len(heads):
        raise fail("heads must list the names of the heads the reader controls, each once")
    if not isinstance(candidates, list) or not candidates or len(set(candidates)) != len(candidates) \
            or not all(isinstance(p, int) and 0 <= p < len(words) and p != blank for p in candidates):
        raise fail("candidates must list positions of words (not the blank), each once")
    if not isinstance(target, str) or not isinstance(output["own_answer"], str):
        raise fail("target and own_answer must be words (strings)")
    if not isinstance(one_word, bool):
        raise fail(f"one_word_per_head must be true or false, found {one_word!r}")
    size = (len(candidates) + 1) ** len(heads) if one_word else 2 ** (len(candidates) * len(heads))
    if size > game.max_states:
        raise ContentError.one(game.main_path, f"{where}: has {size:,} spotlights, more than the game's "
                               f"max_states = {game.max_states:,} (offer fewer words or heads)",
                               game.line(index, "compute"), f"rounds[{index}]")
    own_heads = plain(output.get("own_heads", heads))
    if not isinstance(own_heads, list) or not own_heads or not all(isinstance(h, str) and h for h in own_heads) \
            or len(set(own_heads)) != len(own_heads):
        raise fail("own_heads must list the names of the heads of own_attention, each once")
    own = plain(output["own_attention"])
    if not (isinstance(own, list) and len(own) == len(own_heads)
            and all(isinstance(row, list) and len(row) == len(words) for row in own)
            and all(isinstance(v, (int, float)) and math.isfinite(v) for row in own for v in row)):
        raise fail(f"own_attention must hold {len(own_heads)} row(s) of {len(words)} finite weights, one per "
                   f"head of {'own_heads' if 'own_heads' in output else 'heads'}")
    key_words = plain(output.get("key_words", []))
    if not isinstance(key_words, list) or len(set(key_words)) != len(key_words) \
            or not all(isinstance(p, int) and p in candidates for p in key_words):
        raise fail(f"key_words must list positions among the candidates ({', '.join(map(str, candidates))}), "
                   f"each once, found {key_words!r}")
    own_confidence = plain(output["own_confidence"])
    if not _probability(own_confidence):
        raise fail(f"own_confidence must be a probability (0 to 1), found {own_confidence!r}")
    states = _states(output["states"], heads, candidates, one_word, size, fail, game.answer_names)
    solving = [s for s in states if s.values["answer"] == target]
    if not solving:
        raise fail(f"no spotlight makes the model answer the target {target!r}")
    default = next(s for s in states if s.values["size"] == 0)
    if default.values["answer"] == target:
        raise fail(f"the empty spotlight already answers the target {target!r}: the round is solved before "
                   "it is played")
    carrying = [s for s in solving if _holds(s, key_words)]
    if not carrying:
        named = ", ".join(words[p] for p in key_words)
        raise fail(f"no spotlight that holds every key word ({named}) makes the model answer the target {target!r}")
    smallest = min(s.values["size"] for s in carrying)
    best = max((s for s in carrying if s.values["size"] == smallest), key=lambda s: s.values["confidence"])
    for state in states:
        state.values["stars"] = _stars(game.stars, state, target, smallest, key_words)
    return RoundStates(round_, number, words, blank, target, heads, candidates, one_word, states, default.key,
                       smallest, best.key, [[float(v) for v in row] for row in own], output["own_answer"],
                       float(own_confidence), own_heads, key_words)


def _holds(state: State, key_words: list[int]) -> bool:
    """Whether the state's spotlights, all heads together, hold every key word."""
    chosen = {p for positions in state.choice.values() for p in positions}
    return chosen.issuperset(key_words)


def _stars(stars: int, state: State, target: str, smallest: int, key_words: list[int]) -> int:
    """A state's stars: none unless it reaches the target; then one fewer for each word
    beyond the smallest spotlight that carries the lesson, and one fewer again if it
    misses a key word (a spotlight that works for reasons the lesson calls irrelevant
    never earns full stars); at least one."""
    if state.values["answer"] != target:
        return 0
    extra = max(0, state.values["size"] - smallest)
    missing = 0 if _holds(state, key_words) else 1
    return max(1, stars - extra - missing)


def _probability(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) \
        and 0 <= value <= 1


def _states(rows, heads: list[str], candidates: list[int], one_word: bool, size: int, fail,
            names: dict | None = None) -> list[State]:
    """Every spotlight as a State, with `to` (see RoundStates.controls) and, in
    values["at"], the value each control has in it. The answer is kept as the model
    gives it; its readout, which the page shows and announces, is its name in `names`."""
    if not isinstance(rows, list) or len(rows) != size:
        found = len(rows) if isinstance(rows, list) else type(rows).__name__
        raise fail(f"states must list every spotlight: {size:,} for {len(heads)} head(s) over "
                   f"{len(candidates)} words, found {found}")
    by_values: dict[tuple, State] = {}
    states = []
    offered = set(candidates)
    place = {p: j for j, p in enumerate(candidates)}
    for number, row in enumerate(rows):
        if not isinstance(row, dict) or not {"spotlight", "answer", "confidence"} <= set(row):
            raise fail(f"states[{number}] must be a dict with spotlight, answer and confidence")
        spot = row["spotlight"]
        spot = [h if type(h) is list else plain(h) for h in (spot if type(spot) is list else plain(spot))]
        if not (len(spot) == len(heads) and all(type(h) is list and offered.issuperset(h) and len(set(h)) == len(h)
                                                for h in spot)):
            raise fail(f"states[{number}]: spotlight must hold one list of candidate positions per head, "
                       f"found {spot!r}")
        if one_word and any(len(h) > 1 for h in spot):
            raise fail(f"states[{number}]: a head takes one word at most in this round, found {spot!r}")
        confidence = row["confidence"]
        confidence = confidence if type(confidence) is float else plain(confidence)
        if not isinstance(row["answer"], str) or not _probability(confidence):
            raise fail(f"states[{number}]: answer must be a word and confidence a probability (0 to 1)")
        top = _top(row.get("top"), row["answer"], fail, number)
        feedback = row.get("feedback")
        if feedback is not None and not (isinstance(feedback, str) and feedback):
            raise fail(f"states[{number}]: feedback must name a kind of wrong answer (a string), found {feedback!r}")
        if one_word:
            at = tuple(place[h[0]] + 1 if h else 0 for h in spot)
        else:
            at = tuple(int(p in h) for h in spot for p in candidates)
        if at in by_values:
            raise fail(f"states[{number}]: spotlight {spot!r} is listed twice")
        words = sum(len(h) for h in spot)
        state = State(_key(at, len(heads), one_word), {head: sorted(h) for head, h in zip(heads, spot)},
                      {"answer": row["answer"], "confidence": float(confidence), "size": words, "at": list(at),
                       "top": top, "feedback": feedback},
                      None, [answer_name(row["answer"], names), percent(confidence), count(words)])
        by_values[at] = state
        states.append(state)
    # Every spotlight is listed once, so every value of every control leads to a state.
    values = len(candidates) + 1 if one_word else 2
    for at, state in by_values.items():
        state.to = [[by_values[at[:c] + (v,) + at[c + 1:]].key for v in range(values)] for c in range(len(at))]
    return states


def _top(top, answer: str, fail, number: int) -> list[tuple[str, float]]:
    """A state's likeliest answers, checked: [(answer, probability)], the answer first, none likelier than the one
    before (empty when the model gives none)."""
    if top is None:
        return []
    top = plain(top) if type(top) is not list else top
    if not (isinstance(top, list) and top and all(isinstance(t, (list, tuple)) and len(t) == 2 and isinstance(t[0], str)
                                                  and _probability(plain(t[1])) for t in top)):
        raise fail(f"states[{number}]: top must list [answer, probability] pairs, found {top!r}")
    pairs = [(t[0], float(plain(t[1]))) for t in top]
    if pairs[0][0] != answer or any(b[1] > a[1] for a, b in zip(pairs, pairs[1:])) \
            or len({a for a, _ in pairs}) != len(pairs):
        raise fail(f"states[{number}]: top must start with the answer ({answer!r}), each answer once, likeliest first")
    return pairs


def answer_name(answer: str, names: dict | None) -> str:
    """An answer as the page names it: game.md's answer_names, or the model's own token."""
    return (names or {}).get(answer, answer)


def _key(at: tuple, heads: int, one_word: bool) -> str:
    """A state's key, from its controls' values: with one word per head, each head's
    word (0 for none, else its place among the candidates) joined by '.' ("1.2.0");
    otherwise each head's words as a string of 0s and 1s ("01001")."""
    if one_word:
        return ".".join(map(str, at))
    width = len(at) // heads
    return ".".join("".join(map(str, at[h * width:(h + 1) * width])) for h in range(heads))
