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
_GAP = 8            # px between words: with each slot's spare (fonts advance about 0.6 em), about a space
# The least the drawing is scaled to before it scrolls: its words stay 16 × 0.62, about 10 px, and the
# longest sentence of the series (Spotlight's round 2, 13 words: 346 px) fits a 390 px phone's 350 px column,
# and a 360 px phone's with the page's side padding, which the theme lets a drawing take (game.css .arc-scroll).
MIN_SCALE = 0.62
_HEAD_GAP = 5       # px between the ends of different heads' arcs at one word
_LOOP = 14          # px: the height of an empty spotlight's loop
_MARGIN = 8


@dataclass
class Arc:
    head: int           # index among the drawing's heads
    word: int | None    # the word's position; None: the blank's own loop
    path: str           # SVG path data
    width: float = 0.0  # its stroke, when the drawing fixes it (the model's own attention)


@dataclass
class Drawing:
    width: int
    height: int
    baseline: int
    words: list[tuple[float, str, bool]]    # (centre x, text, is the blank)
    arcs: list[Arc]
    heads: list[str]                        # their names, for the legend of a round with several
    colours: list[int]                      # each head's number in the layer (0-based): its colour and dashes

    @property
    def min_width(self) -> int:
        """The narrowest it is drawn, in px; on a narrower column it scrolls."""
        return round(self.width * MIN_SCALE)


def attention_drawing(states: RoundStates, blank_text: str) -> Drawing:
    """Every arc the reader's spotlights can draw: each controlled head to each candidate, and its loop."""
    return _drawing(states, blank_text, states.heads, {h: {p: 0.0 for p in [*states.candidates, None]}
                                                        for h in range(len(states.heads))})


def own_drawing(states: RoundStates, blank_text: str, least: float = 0.05) -> Drawing:
    """The trained model's own attention at the blank, every head: an arc to each word that gets at least
    `least` of a head's attention (its loop, for the blank itself), as wide as its share."""
    weights = {h: {(None if p == states.blank else p): w for p, w in enumerate(row) if w >= least}
               for h, row in enumerate(states.own_attention)}
    return _drawing(states, blank_text, states.own_heads, weights)


def _drawing(states: RoundStates, blank_text: str, heads: list[str], weights: dict) -> Drawing:
    texts = [blank_text if i == states.blank else w for i, w in enumerate(states.words)]
    centres, x = [], _MARGIN
    for text in texts:
        width = len(text) * _FONT * _LETTER
        centres.append(x + width / 2)
        x += width + _GAP
    count = len(heads)
    span = max(abs(centres[p] - centres[states.blank]) for row in weights.values() for p in row if p is not None)
    top = _rise(span, count - 1) + _MARGIN     # room for the tallest arc
    baseline = round(top + _FONT + 4)
    y = baseline - _FONT - 2                   # where the arcs meet the words
    arcs = []
    for h, row in weights.items():
        shift = (h - (count - 1) / 2) * _HEAD_GAP
        start = centres[states.blank] + shift
        for p, weight in row.items():
            width = stroke_of(weight) if weight else 0.0
            if p is None:
                # Each head's loop a size larger than the last, so that loops on the blank nest.
                loop, half, centre = _LOOP + 8 * h, 5 + 5 * h, centres[states.blank]
                arcs.append(Arc(h, None, f"M{centre - half:.1f} {y}C{centre - 2 * half:.1f} {y - loop} "
                                         f"{centre + 2 * half:.1f} {y - loop} {centre + half:.1f} {y}", width))
                continue
            end = centres[p] + shift
            rise = _rise(abs(end - start), h)
            arcs.append(Arc(h, p, f"M{start:.1f} {y}C{start:.1f} {y - rise:.1f} {end:.1f} {y - rise:.1f} "
                                  f"{end:.1f} {y}", width))
    return Drawing(round(x - _GAP + _MARGIN), baseline + 6, baseline,
                   [(c, t, i == states.blank) for i, (c, t) in enumerate(zip(centres, texts))],
                   arcs, list(heads), [states.own_heads.index(h) if h in states.own_heads else i
                                       for i, h in enumerate(heads)])


def _rise(distance: float, head: int) -> float:
    """How high an arc over `distance` px climbs: with the distance, up to a cap, and a little more for each
    later head, so that two heads' arcs to one word stay apart."""
    return min(0.3 * distance, 90) + 10 * head + 8


def stroke(words: int) -> float:
    """An arc's width for a head whose attention `words` words share (0: the blank's own loop,
    which has it all)."""
    return stroke_of(1 / max(words, 1))


def stroke_of(share: float) -> float:
    """An arc's width for a share of its head's attention: the whole is 6 px wide, a share that much of it,
    at least 1.5 px."""
    return round(max(1.5, 6 * share), 2)
