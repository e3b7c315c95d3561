"""The Spotlight game's helper: every spotlight of a round through the model at once.

In a round the reader chooses, for each head handed to them, which words the
blank attends to: the chosen words share that head's attention equally and
the others get none; an empty spotlight leaves the blank attending to itself.
Heads the round keeps attend to the blank itself only, so that they cannot
pass the answer on. With one attention layer the blank's prediction depends
only on its own attention row, so one matrix product per head gives the
answer for every spotlight.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from . import grammar
from .model import softmax


@dataclass(frozen=True)
class Round:
    """A round of the game, as found by ``search.py`` with the committed weights."""
    title: str
    kind: str                       # the property it must have: see rounds.check
    words: tuple[str, ...]          # the sentence, with "<mask>" at the blank
    target: str
    heads: tuple[int, ...]          # the heads the reader controls (0-based)
    candidates: tuple[int, ...]     # positions of the words the reader can toggle
    one_word_per_head: bool         # each head's spotlight: one word or none (else any subset)
    roles: dict[str, int] = field(default_factory=dict)   # e.g. {"subject": 1}: positions by name
    key: tuple[str, ...] = ()       # the roles whose words the lesson says carry the answer

    @property
    def blank(self) -> int:
        return self.words.index(grammar.MASK)

    def state(self, chosen: dict[int, list[int]]) -> int:
        """The index of the state whose spotlights are ``chosen`` ({head: positions});
        heads left out have an empty spotlight."""
        index = 0
        for head in self.heads:
            picks = [self.candidates.index(p) for p in chosen.get(head, [])]
            if self.one_word_per_head:
                if len(picks) > 1:
                    raise ValueError(f"head {head} takes one word at most in this round")
                option = picks[0] + 1 if picks else 0
                radix = len(self.candidates) + 1
            else:
                option = sum(1 << j for j in picks)
                radix = 2 ** len(self.candidates)
            index = index * radix + option
        return index


@dataclass
class Outcome:
    """Every spotlight of a round and what the model answers for each.

    ``spotlights[s, i, j]`` says whether candidate ``j`` is in the spotlight of
    controlled head ``i`` in state ``s``; states run over the heads' options
    with the first head slowest (``options`` lists each head's options).
    """
    spotlights: np.ndarray      # (states, controlled heads, candidates) bool
    answers: list[str]          # (states,)
    confidence: np.ndarray      # (states,) probability of the answer
    probabilities: np.ndarray   # (states, vocab)
    own_attention: np.ndarray   # (heads, T): the model's own attention at the blank, every head
    own_answer: str             # what the model answers with its own attention
    own_confidence: float

    @property
    def sizes(self) -> np.ndarray:
        """Words in each state's spotlights, all heads together."""
        return self.spotlights.sum(axis=(1, 2))


def options(count: int, one_word: bool) -> np.ndarray:
    """A head's possible spotlights over ``count`` candidates, (options, count) bool:
    with ``one_word``, none then each word alone; otherwise every subset, as the
    bits of 0 … 2**count - 1 (bit j is candidate j)."""
    if one_word:
        return np.vstack([np.zeros(count, bool), np.eye(count, dtype=bool)])
    return (np.arange(2 ** count)[:, None] >> np.arange(count)) & 1 == 1


def play(model, words, heads, candidates, one_word_per_head: bool = False) -> Outcome:
    """Answer and confidence for every spotlight of the controlled ``heads`` over the
    ``candidates`` positions of ``words`` (which holds one ``<mask>``, the blank)."""
    words, heads, candidates = list(words), list(heads), list(candidates)
    blank = words.index(grammar.MASK)
    if blank in candidates:
        raise ValueError("the blank cannot be one of its own candidate words")
    params = model.params
    x = params["E"][grammar.encode(words)] + params["P"][:len(words)]
    # What each position would add to the blank's output through each head: (heads, T, d).
    through = np.einsum("td,hde,hef->htf", x, params["W_V"], params["W_O"])
    per_head = options(len(candidates), one_word_per_head)
    grid = np.array(list(itertools.product(range(len(per_head)), repeat=len(heads))), np.int64)
    spotlights = per_head[grid]                                   # (states, heads, candidates)
    out = x[blank] + sum(through[h, blank] for h in range(len(through)) if h not in heads)
    for i, head in enumerate(heads):
        chosen = spotlights[:, i].astype(float)
        count = chosen.sum(axis=1, keepdims=True)
        mixed = (chosen / np.maximum(count, 1)) @ through[head, candidates]
        out = out + np.where(count > 0, mixed, through[head, blank])
    probabilities = softmax(out @ params["W_U"] + params["b_U"])
    best = probabilities.argmax(axis=1)
    logits, cache = model.forward(np.array([grammar.encode(words)]), causal=False)
    own = softmax(logits[0, blank])
    return Outcome(spotlights, [grammar.VOCAB[i] for i in best],
                   probabilities[np.arange(len(best)), best], probabilities,
                   cache["attention"][0, :, blank], grammar.VOCAB[own.argmax()], float(own.max()))


def play_round(model, round_: Round) -> Outcome:
    return play(model, round_.words, round_.heads, round_.candidates, round_.one_word_per_head)


def smallest_spotlight(outcome: Outcome, target: str, key: list[int] = ()) -> int | None:
    """The state that reaches ``target`` with the fewest words (then the most
    confidence), among those whose spotlights (all heads together) hold the
    candidates ``key`` (columns of ``spotlights``); None when none does."""
    held = outcome.spotlights.any(axis=1)[:, list(key)].all(axis=1)
    hits = np.flatnonzero((np.array(outcome.answers) == target) & held)
    if not len(hits):
        return None
    return int(min(hits, key=lambda s: (outcome.sizes[s], -outcome.confidence[s])))


def describe(round_: Round, outcome: Outcome, state: int) -> dict[int, list[str]]:
    """The words in each controlled head's spotlight in ``state``: {head: [words]}."""
    return {head: [round_.words[round_.candidates[j]]
                   for j in np.flatnonzero(outcome.spotlights[state, i])]
            for i, head in enumerate(round_.heads)}
