"""Spotlight as a player meets it (issue 42, "play, not only reading"): where
each head's attention goes, drawn and said; the model's top three answers as
bars after each try; one line of feedback for a wrong try
(test_spotlight_feedback.py checks every line against the grammar); and each
round's lesson about 100 words, the rest behind "More on this round". The
browser tests open the built page from file:// with the network cut and read
it by role and visible name."""
from __future__ import annotations

import random
import sys

import numpy as np
import pytest

from generator.compute.formats import percent

from ..conftest import CONTENT
from .reader import normalise

LIB = CONTENT / "_lib"
if str(LIB) not in sys.path:
    sys.path.insert(0, str(LIB))   # as the build does while a model runs

import tinyformer  # noqa: E402

SLUG = "spotlight"
LESSON_WORDS = 100 * 1.05      # "about 100", with tests/content/test_lesson_length.py's slack
SAMPLE = 12                    # states of each round visited in the browser


@pytest.fixture(scope="module")
def game(site_states):
    site, computed, prose = site_states
    source = next(page for page in site.pages if page.slug == SLUG)
    rounds = computed[SLUG].rounds
    return source, rounds, prose[SLUG]


# ---- The computed text and numbers --------------------------------------------------------------


def test_each_lesson_is_about_100_words_with_the_rest_behind_more(game):
    _, rounds, text = game
    for states, texts in zip(rounds, text.rounds):
        count = len(normalise(texts.lesson).split())
        assert count <= LESSON_WORDS, f"round {states.number}'s lesson has {count} words"
        assert texts.more, f"round {states.number} has nothing more to say"


def test_the_top_answers_are_the_models_three_likeliest(game):
    """Every state of every round: the three answers with the most probability, likeliest first, the
    answer first, from the model's own forward pass with the reader's attention (tinyformer.play)."""
    source, rounds, _ = game
    model = tinyformer.load()
    for number, states in enumerate(rounds, start=1):
        outcome = tinyformer.play_round(model, tinyformer.ROUNDS[number - 1])
        by_choice = {}
        for s in range(len(outcome.answers)):
            chosen = {head: sorted(states.candidates[j] for j in np.flatnonzero(outcome.spotlights[s, i]))
                      for i, head in enumerate(states.heads)}
            by_choice[repr(chosen)] = outcome.probabilities[s]
        for state in states.states:
            row = by_choice[repr(state.choice)]
            top = state.values["top"]
            assert len(top) == 3 and top[0][0] == state.values["answer"]
            likeliest = np.argsort(-row, kind="stable")[:3]
            assert [a for a, _ in top] == [tinyformer.VOCAB[i] for i in likeliest]
            assert [p for _, p in top] == pytest.approx(row[likeliest].tolist(), abs=1e-9)


def test_the_announcement_says_where_each_head_looks(game):
    _, rounds, text = game
    four = rounds[3]
    this, deer = four.words.index("this"), four.words.index("deer")
    state = next(s for s in four.states if s.choice == {"Head 2": [this], "Head 3": [deer], "Head 4": []})
    assert text.rounds[3].says[state.key] == (
        f"The model answers grazes ({state.readouts[1]}). Solved: 3 of 3 stars. Head 2 looks at this. "
        "Head 3 looks at deer. Head 4 looks at the blank only.")
    one = rounds[0]
    both = next(s for s in one.states if s.choice == {"Head 3": [1, 4]})
    assert text.rounds[0].says[both.key].endswith(" Head 3 looks at key and cabinets.")


# ---- In Chromium, from file://, with the network cut ----------------------------------------------


def visible_arcs(region) -> list[tuple[str, str]]:
    """The drawing's arcs on show: (head-word, stroke width)."""
    figure = region.get_by_role("figure", name="Where the blank's attention goes")
    return figure.evaluate("f => Array.from(f.querySelectorAll('path[data-arc]:not([display])'))"
                           ".map(p => [p.dataset.arc, p.getAttribute('stroke-width')])")


def expected_arcs(states, choice) -> list[tuple[str, float]]:
    arcs = []
    for h, head in enumerate(states.heads):
        words = choice[head]
        share = 6 / max(len(words), 1)    # drawing.stroke: the whole attention 6 px wide
        arcs += [(f"{h}-{w}", round(max(1.5, share), 2)) for w in (words or ["b"])]
    return sorted(arcs)


def test_every_round_shows_where_attention_goes_the_top_answers_and_feedback(game, built_site, offline_page):
    """A sample of every round's states, reached by deep link: the drawing shows one arc per head and
    word read (a loop on the blank for none), as wide as its share; the list of top answers and the
    status line say what the build computed, feedback and where each head looks included."""
    source, rounds, text = game
    page = offline_page.page
    page.goto((built_site[0] / SLUG / "index.html").as_uri())
    page.wait_for_function("window.lensa?.game")
    rng = random.Random(42)
    for number, states in enumerate(rounds, start=1):
        sample = rng.sample(states.states, min(SAMPLE, len(states.states)))
        sample.append(states.by_key(states.best_key))
        for state in sample:
            page.evaluate("hash => { location.hash = hash; }", f"#round-{number}&spotlight={state.key}")
            region = page.get_by_role("region", name=states.round.title, exact=True)
            status = region.get_by_role("status")
            page.wait_for_function("([el, text]) => el.textContent === text",
                                   arg=[status.element_handle(), text.rounds[number - 1].says[state.key]])
            arcs = [(name, float(width)) for name, width in visible_arcs(region)]
            assert sorted(arcs) == expected_arcs(states, state.choice), (number, state.key)
            top = region.get_by_role("list", name="The model's top answers").get_by_role("listitem")
            names = {".": "a full stop", "?": "a question mark"}
            shown = [" ".join(t.split()) for t in top.all_inner_texts()]
            assert shown == [f"{names.get(a, a)} {percent(p)}" for a, p in state.values["top"]]
            kind = state.values["feedback"]
            assert (source.feedback[kind] in status.inner_text()) if kind else state.values["stars"] > 0
    assert offline_page.blocked == [] and offline_page.errors == []


def test_a_click_moves_the_arcs_bars_and_feedback(game, built_site, offline_page):
    """Round 1 by clicks: cabinets alone draws one arc to cabinets and says the wrong number; key with it
    halves each arc and solves the round; the lesson's rest opens under More on this round."""
    _, rounds, _ = game
    one = rounds[0]
    page = offline_page.page
    page.goto((built_site[0] / SLUG / "index.html").as_uri())
    page.wait_for_function("window.lensa?.game")
    region = page.get_by_role("region", name="Agreement", exact=True)
    assert [(a, float(w)) for a, w in visible_arcs(region)] == [("0-b", 6.0)], "the empty spotlight: a loop"
    words = region.get_by_role("group", name="Spotlight", exact=True)
    words.get_by_role("button", name="cabinets", exact=True).click()
    status = region.get_by_role("status")
    assert status.inner_text().startswith("The model answers are (")
    assert "The right verb, the wrong number: this form is for more than one." in status.inner_text()
    assert status.inner_text().endswith("Head 3 looks at cabinets.")
    assert [a for a, _ in visible_arcs(region)] == [f"0-{one.words.index('cabinets')}"]
    top = region.get_by_role("list", name="The model's top answers").get_by_role("listitem")
    assert top.first.inner_text().split()[0] == "are"
    words.get_by_role("button", name="key", exact=True).click()
    arcs = dict(visible_arcs(region))
    assert set(arcs) == {"0-1", "0-4"} and {float(w) for w in arcs.values()} == {3.0}
    assert "Solved" in status.inner_text() and "wrong" not in status.inner_text()
    lesson = region.get_by_role("region", name="What this round shows")
    more = lesson.get_by_text("More on this round", exact=True)
    assert not lesson.get_by_text("People slip the same way", exact=False).is_visible()
    more.click()
    assert lesson.get_by_text("People slip the same way", exact=False).is_visible()
    assert offline_page.blocked == [] and offline_page.errors == []


def test_reveal_draws_the_models_own_attention(game):
    """Reveal's arcs: one per head to each word with 5% of its attention or more (its loop for the blank),
    as wide as that share, from the model's own forward pass."""
    from generator.kinds.game.drawing import own_drawing, stroke_of

    _, rounds, _ = game
    model = tinyformer.load()
    for states in rounds:
        _, attention = model.fill_in(list(states.words))
        own = attention[:, states.blank]
        drawn = {(arc.head, states.blank if arc.word is None else arc.word): arc.width
                 for arc in own_drawing(states, "___").arcs}
        expected = {(h, p): stroke_of(float(w)) for h, row in enumerate(own) for p, w in enumerate(row) if w >= 0.05}
        assert drawn.keys() == expected.keys()
        assert all(drawn[k] == pytest.approx(expected[k], abs=0.01) for k in drawn)
