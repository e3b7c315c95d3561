"""The drawing of where a round's attention goes: the sentence on one line, and
an arc from the blank to each word a head reads, one arc per head and word,
laid out at build time. The page shows the arcs of the current spotlight
(game.js), each as thick as the share of its head's attention it carries; an
empty spotlight is a loop on the blank. Words are drawn in a monospaced font,
centred in slots sized by their letters, so the layout needs no measuring."""
from __future__ import annotations

from dataclasses import dataclass

from .compute import RoundStates

_FONT = 16          # px: the words' size in the drawing
_LETTER = 0.62      # a monospaced letter's advance, in ems (most such fonts: 0.6)
_GAP = 14           # px between words
_HEAD_GAP = 5       # px between the ends of different heads' arcs at one word
_LOOP = 14          # px: the height of an empty spotlight's loop
_MARGIN = 8


@dataclass
class Arc:
    head: int           # index among the round's heads
    word: int | None    # the word's position; None: the blank's own loop
    path: str           # SVG path data


@dataclass
class Drawing:
    width: int
    height: int
    baseline: int
    words: list[tuple[float, str, bool]]    # (centre x, text, is the blank)
    arcs: list[Arc]
    heads: list[str]                        # their names, for the legend of a round with several


def attention_drawing(states: RoundStates, blank_text: str) -> Drawing:
    texts = [blank_text if i == states.blank else w for i, w in enumerate(states.words)]
    widths = [len(t) * _FONT * _LETTER for t in texts]
    centres, x = [], _MARGIN
    for width in widths:
        centres.append(x + width / 2)
        x += width + _GAP
    width = x - _GAP + _MARGIN
    heads = len(states.heads)
    span = max(abs(centres[p] - centres[states.blank]) for p in states.candidates)
    top = _rise(span, heads - 1) + _MARGIN     # room for the tallest arc
    baseline = round(top + _FONT + 4)
    y = baseline - _FONT - 2                   # where the arcs meet the words
    arcs = []
    for h in range(heads):
        shift = (h - (heads - 1) / 2) * _HEAD_GAP
        start = centres[states.blank] + shift
        for p in states.candidates:
            end = centres[p] + shift
            rise = _rise(abs(end - start), h)
            arcs.append(Arc(h, p, f"M{start:.1f} {y}C{start:.1f} {y - rise:.1f} {end:.1f} {y - rise:.1f} "
                                  f"{end:.1f} {y}"))
        # Each head's loop a size larger than the last, so that loops on the blank nest.
        loop, half, centre = _LOOP + 8 * h, 5 + 5 * h, centres[states.blank]
        arcs.append(Arc(h, None, f"M{centre - half:.1f} {y}C{centre - 2 * half:.1f} {y - loop} "
                                 f"{centre + 2 * half:.1f} {y - loop} {centre + half:.1f} {y}"))
    return Drawing(round(width), baseline + 6, baseline, [(c, t, i == states.blank)
                                                         for i, (c, t) in enumerate(zip(centres, texts))],
                   arcs, list(states.heads))


def _rise(distance: float, head: int) -> float:
    """How high an arc over `distance` px climbs: with the distance, up to a cap, and a little more for each
    later head, so that two heads' arcs to one word stay apart."""
    return min(0.3 * distance, 90) + 7 * head + 8


def stroke(words: int) -> float:
    """An arc's width for a head whose attention `words` words share (0: the blank's own loop,
    which has it all): the whole attention is 6 px wide, a share that much of it, at least 1.5 px."""
    return round(max(1.5, 6 / max(words, 1)), 2)
