"""kinds/game/drawing.py: where a round's attention goes, laid out at build time: an arc per head and
word the reader can choose, and the loop on the blank; Reveal's arcs from the model's own attention."""
from generator.kinds.game.drawing import attention_drawing, own_drawing, stroke, stroke_of


def test_every_arc_the_reader_can_draw_and_the_models_own(tiny_game):
    _, result = tiny_game
    [states] = result.computed["blanks"].rounds
    drawing = attention_drawing(states, "___")
    assert {(a.head, a.word) for a in drawing.arcs} == {(0, 0), (0, 1), (0, None)}
    assert [text for _, text, _ in drawing.words] == ["the", "cat", "___", "."]
    centres = [x for x, _, _ in drawing.words]
    assert centres == sorted(centres) and 0 < centres[0] and centres[-1] < drawing.width
    # Reveal: the words with 5% or more of the head's attention, the blank's loop among them.
    own = own_drawing(states, "___")
    assert {(a.head, a.word): a.width for a in own.arcs} == {(0, 0): stroke_of(0.1), (0, 1): stroke_of(0.8),
                                                            (0, None): stroke_of(0.05), (0, 3): stroke_of(0.05)}
    assert own_drawing(states, "___", least=0.5).arcs[0].word == 1 and len(own_drawing(states, "___", 0.5).arcs) == 1


def test_an_arc_is_as_wide_as_its_share():
    assert stroke(0) == stroke(1) == 6.0 and stroke(2) == 3.0 and stroke(8) == 1.5 == stroke_of(0.01)


def test_the_longest_sentence_fits_a_390_px_phone_with_its_words_readable():
    """Spotlight's round 2 (13 words) scrolled at 390 px, its target "boy" and the arc to it off the
    left edge: at its least scale the drawing now fits the 350 px column, and its words stay near 10 px."""
    from types import SimpleNamespace
    from generator.kinds.game.drawing import MIN_SCALE, _FONT
    words = "the boy called the queen and he smiled . who smiled ? ___".split()
    states = SimpleNamespace(words=words, blank=len(words) - 1, candidates=[1, 2, 4, 6],
                             heads=["Head 3"], own_heads=["Head 1", "Head 2", "Head 3", "Head 4"])
    drawing = attention_drawing(states, "___")
    assert drawing.min_width <= 350 and _FONT * MIN_SCALE >= 9.5
    # Neighbouring words keep a gap of at least 8 px at full size, whatever a monospaced font's advance (0.6 em).
    slots = [(x, len(text) * _FONT * 0.6) for x, text, _ in drawing.words]
    assert all((b[0] - b[1] / 2) - (a[0] + a[1] / 2) >= 8 for a, b in zip(slots, slots[1:]))
