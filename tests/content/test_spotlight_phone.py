"""Spotlight on a 360 px phone: a reader plays every round to its best spotlight, opens the rest of
its lesson, presses Reveal and opens its data, and in none of them does the page scroll sideways or
any of the round hide past the screen's edge or in a box that scrolls. Round 2's drawing (13 words,
346 px at its least scale in a 320 px column) once opened scrolled to the blank, its first words cut
off, and the model's own attention (a column of at least 6rem a head) scrolled in every round."""
from __future__ import annotations

from tests.browser.test_responsive import CUT_OFF, PHONE, screen_problems
from tests.conftest import PageWatch
from tests.content.test_spotlight_game import SLUG, play, readout


def test_every_round_fits_a_360px_phone_played_and_revealed(built_site, browser):
    out, result = built_site
    rounds = result.computed[SLUG].rounds
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    watch = PageWatch(context.new_page())
    page = watch.page
    page.goto((out / SLUG / "index.html").as_uri())
    page.wait_for_function("window.lensa?.game")
    problems = []
    for number, states in enumerate(rounds, start=1):
        region = page.get_by_role("region", name=states.round.title, exact=True)
        region.wait_for(state="visible")
        best = states.by_key(states.best_key)
        play(region, states, best.choice)
        assert readout(region, "Answer") == states.target
        lesson = region.get_by_role("region", name="What this round shows")
        assert lesson.is_visible()
        lesson.get_by_text("More on this round", exact=True).click()
        region.get_by_role("button", name="Reveal", exact=True).click()
        region.get_by_text("Show data", exact=True).click()
        for table in ("The trained model's own attention at the blank", "The blank's attention in this spotlight"):
            assert region.get_by_role("table", name=table).is_visible()
        # Every word of the sentence is drawn, the first and the blank too, inside the screen (CUT_OFF below).
        assert region.locator("figure svg").first.locator("text").count() == len(states.words)
        problems += [f"round {number}: {p}" for p in screen_problems(page) + region.evaluate(CUT_OFF)]
        if number < len(rounds):
            region.get_by_role("button", name="Next round").click()
    assert problems == [], "\n".join(problems)
    assert watch.blocked == [] and watch.errors == []
    context.close()
