"""The Spotlight game (content/spotlight; the game kind itself: tests/generator/kinds/game/): the
computed rounds have the brief's properties and come from the model's own forward pass; broken
weights fail with one clear line; and in Chromium, from file:// with the
network cut, a reader plays every round, by mouse and by keyboard, through a
deep link and a reload, with storage allowed or blocked, in the page, its
embed and its single-file copy."""
from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from generator.compute.formats import percent

from tests.conftest import CONTENT, ROOT, PageWatch, wait_until_stored

SLUG = "spotlight"
LIB = CONTENT / "_lib"
if str(LIB) not in sys.path:
    sys.path.insert(0, str(LIB))   # as the build does while a model runs

import tinyformer  # noqa: E402
from tinyformer.model import spotlight as override_of  # noqa: E402  (tinyformer.spotlight is the submodule)


@pytest.fixture(scope="module")
def game(built_site):
    """(the game's source, its rounds' states, the build folder)."""
    out, result = built_site
    source = next(page for page in result.site.pages if page.slug == SLUG)
    rounds = result.computed[SLUG].rounds
    return source, rounds, out


@pytest.fixture(scope="module")
def trained():
    return tinyformer.load()


def state_with(states, chosen: dict[int, list[int]]):
    """The state whose spotlight is `chosen` ({head index: word positions}; heads left out are empty)."""
    wanted = {head: sorted(chosen.get(h, [])) for h, head in enumerate(states.heads)}
    return next(s for s in states.states if s.choice == wanted)


# ---- The computed rounds ------------------------------------------------------------------------


def test_four_rounds_each_within_the_games_limit(game):
    source, rounds, _ = game
    assert [r.round.title for r in rounds] == ["Agreement", "Reference", "Two heads", "Three heads"]
    assert [len(r.states) for r in rounds] == [2 ** 5, 2 ** 8, 6 ** 2, 9 ** 3]
    assert all(len(r.states) <= source.max_states == 4096 for r in rounds)
    assert [len(r.heads) for r in rounds] == [1, 1, 2, 3]
    assert all(1 <= len(r.candidates) <= 8 for r in rounds)


def test_every_state_leads_where_its_controls_say(game):
    """The state graph: value v of control c leads to the state that differs only in c."""
    _, rounds, _ = game
    for states in rounds:
        keys = {s.key for s in states.states}
        assert len(keys) == len(states.states)
        for state in states.states:
            assert len(state.to) == len(states.controls)
            for c, leads in enumerate(state.to):
                for v, key in enumerate(leads):
                    assert key in keys
                    reached = states.by_key(key).values["at"]
                    assert reached == state.values["at"][:c] + [v] + state.values["at"][c + 1:]


def test_every_answer_is_the_models_forward_pass_with_the_readers_attention(game, trained):
    """Each state's answer and confidence, recomputed by the full forward pass with the
    blank's attention rows replaced (tinyformer.model.spotlight), heads the round keeps on the blank."""
    _, rounds, _ = game
    for number, states in enumerate(rounds):
        round_ = tinyformer.ROUNDS[number]
        tokens = trained.encode(states.words)
        sample = states.states[:: max(1, len(states.states) // 40)]
        chosen = [{h: s.choice[name] for h, name in zip(round_.heads, states.heads)} for s in sample]
        kept = [h for h in range(trained.heads) if h not in round_.heads]
        override = override_of(len(sample), trained.heads, len(states.words), states.blank,
                                        [{**c, **{h: [] for h in kept}} for c in chosen])
        logits, _ = trained.forward(np.repeat(tokens, len(sample), axis=0), override=override)
        probabilities = np.exp(logits[:, states.blank] - logits[:, states.blank].max(axis=1, keepdims=True))
        probabilities /= probabilities.sum(axis=1, keepdims=True)
        for state, row in zip(sample, probabilities):
            assert state.values["answer"] == trained.vocab[int(row.argmax())]
            assert state.values["confidence"] == pytest.approx(float(row.max()), abs=1e-9)
            assert state.readouts[1] == percent(row.max())


def test_stars_reward_the_smallest_spotlight_that_holds_the_lessons_words(game, trained):
    """Full stars for the fewest words that reach the target holding every key word the
    lesson names; one star less per extra word, and one less for a spotlight without them."""
    source, rounds, _ = game
    from tinyformer.rounds import key_columns
    for number, states in enumerate(rounds):
        round_ = tinyformer.ROUNDS[number]
        outcome = tinyformer.play_round(trained, round_)
        smallest = tinyformer.smallest_spotlight(outcome, states.target, key_columns(round_))
        assert states.smallest == int(outcome.sizes[smallest])
        key = {round_.roles[role] for role in round_.key}
        assert set(states.key_words) == key and key
        best = states.by_key(states.best_key)
        assert best.values["stars"] == source.stars == 3 and best.values["answer"] == states.target
        for state in states.states:
            solved = state.values["answer"] == states.target
            holds = key <= {p for words in state.choice.values() for p in words}
            extra = max(0, state.values["size"] - states.smallest)
            expected = max(1, 3 - extra - (0 if holds else 1)) if solved else 0
            assert state.values["stars"] == expected
        assert states.by_key(states.default_key).values["stars"] == 0, "the empty spotlight solves nothing"


def test_round_1_the_attractor_alone_gives_the_wrong_number(game):
    _, rounds, _ = game
    agreement = rounds[0]
    words = agreement.words
    assert words[agreement.blank] == "<mask>" and agreement.target == "is"
    assert state_with(agreement, {0: [words.index("key")]}).values["answer"] == "is"
    assert state_with(agreement, {0: [words.index("cabinets")]}).values["answer"] == "are"
    assert agreement.by_key(agreement.default_key).values["answer"] not in ("is", "are")


def test_round_2_the_answer_is_the_referent(game):
    _, rounds, _ = game
    reference = rounds[1]
    assert reference.target == "boy"
    assert state_with(reference, {0: [reference.words.index("boy")]}).values["answer"] == "boy"
    assert state_with(reference, {0: [reference.words.index("queen")]}).values["answer"] != "boy"


@pytest.mark.parametrize("number", [2, 3])
def test_rounds_3_and_4_one_head_alone_cannot_solve_them(game, number):
    _, rounds, _ = game
    states = rounds[number]
    for h in range(len(states.heads)):
        for position in states.candidates:
            assert state_with(states, {h: [position]}).values["answer"] != states.target
    # ...and one word in each of two heads does.
    pairs = [s for s in states.states if sum(1 for words in s.choice.values() if len(words) == 1) == 2
             and s.values["size"] == 2 and s.values["answer"] == states.target]
    assert pairs
    if number == 2:  # the lesson's claim: the words swapped between the two heads give another answer
        best = states.by_key(states.best_key)
        swapped = dict(zip(states.heads, reversed([best.choice[head] for head in states.heads])))
        assert next(s for s in states.states if s.choice == swapped).values["answer"] != states.target
    else:  # ...and that the smallest spotlight leaves a head with nothing to do
        assert states.smallest < len(states.heads)
        assert any(not words for words in states.by_key(states.best_key).choice.values())


def test_the_page_says_the_model_is_tiny_with_its_accuracy(game, trained):
    _, _, out = game
    html = (out / SLUG / "index.html").read_text()
    note = html.split('id="model-note-title"', 1)[1]
    accuracy = percent(trained.card["accuracy_held_out"]["fill_in"]["overall"])
    assert "tiny" in note and "toy grammar" in note and f"{accuracy} of the time" in note
    assert f"{sum(trained.card['corpus']['held_out'].values()):,} sentences" in note


def test_each_lesson_deep_links_into_an_explainer_step_that_exists(game):
    _, rounds, out = game
    html = (out / SLUG / "index.html").read_text()
    lessons = re.findall(r'<section class="lesson".*?</section>', html, re.S)
    assert len(lessons) == len(rounds)
    for lesson in lessons:
        links = re.findall(r'href="([^"]+)"', lesson)
        assert links, "a lesson links to the step that teaches it"
        for link in links:
            if link.startswith("#ref-"):  # a citation, of the page's own references
                assert f'id="{link[1:]}"' in html, link
                continue
            path, anchor = link.split("#")
            target = (out / SLUG / path).resolve()
            assert target.is_file() and f'id="{anchor}"' in target.read_text(), link
    # In the embed, one folder deeper, the same links still arrive.
    embed = (out / "embed" / SLUG / "index.html").read_text()
    for link in re.findall(r'<section class="lesson".*?href="([^"#][^"]*)"', embed, re.S):
        assert (out / "embed" / SLUG / link.split("#")[0]).resolve().is_file(), link


def test_explainers_end_with_a_play_box_and_the_index_lists_the_game(game):
    source, _, out = game
    page = (out / "multi-head-attention" / "index.html").read_text()
    box = re.search(r'<aside class="play-box".*?</aside>', page, re.S).group(0)
    assert "Play with this concept" in box and source.title in box and source.description in html.unescape(box)
    assert 'href="../spotlight/index.html"' in box and "Play" in box
    assert 'href="spotlight/index.html"' in (out / "index.html").read_text()


def test_page_data_holds_no_model_and_fits_the_budget(game):
    _, _, out = game
    import gzip

    html = (out / SLUG / "index.html").read_bytes()
    own = sum(len(gzip.compress(b, 9)) for b in (html, (out / "assets" / "game.js").read_bytes(),
                                                 (out / "assets" / "style.css").read_bytes(),
                                                 (out / "assets" / "game.css").read_bytes()))
    assert own <= 60 * 1024, f"the game's own bytes are {own / 1024:.1f} KB gzipped"
    data = json.loads(re.search(rb'id="game-data">(.*?)</script>', html, re.S).group(1))
    assert [len(r["states"]) for r in data["rounds"]] == [32, 256, 36, 729]


# ---- Broken weights are one line (bad game content in general: tests/generator/kinds/game/test_game.py;
# the series checking clean: tests/content/test_site_checks.py) ---------------------------------------


def _check(content: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", "check", "--content", str(content)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def game_site(tmp_path):
    """A copy of the bundled content: the game and the explainer its lessons link to."""
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content, ignore=shutil.ignore_patterns("__pycache__"))
    return content


def test_broken_weights_are_one_line_naming_the_file(game_site):
    (game_site / "_lib" / "tinyformer" / "weights.npz").write_bytes(b"not a zip")
    run = _check(game_site)
    assert run.returncode == 1
    lines = [line for line in run.stderr.splitlines() if "weights.npz" in line]
    assert len(lines) == 1, run.stderr
    assert "failed to run: WeightsError: " in lines[0]
    assert f"{game_site / '_lib' / 'tinyformer' / 'weights.npz'}: not a readable .npz file" in lines[0]


# ---- In Chromium, from file://, with the network cut ----------------------------------------------


def open_game(watch: PageWatch, url: str):
    page = watch.page
    page.goto(url)
    page.wait_for_function("window.lensa?.game")
    return page


def readout(region, label):
    return region.locator(f"xpath=.//dl/div[dt[normalize-space()='{label}']]/dd").inner_text()


def word_button(region, states, head: int, position: int):
    names = [f"{w} (word {i + 1})" if [x for j, x in enumerate(states.words) if j != states.blank].count(w) > 1
             else w for i, w in enumerate(states.words)]
    label = "Spotlight" if len(states.heads) == 1 else f"{states.heads[head]} spotlight"
    return region.get_by_role("group", name=label, exact=True).get_by_role("button", name=names[position], exact=True)


def play(region, states, chosen: dict):
    """Press the words of `chosen` ({head name: positions}) into the spotlight."""
    for h, head in enumerate(states.heads):
        for position in chosen[head]:
            word_button(region, states, h, position).click()


def test_every_round_played_from_file_with_the_network_cut(game, offline_page):
    _, rounds, out = game
    page = open_game(offline_page, (out / SLUG / "index.html").as_uri())
    score = 0
    for number, states in enumerate(rounds, start=1):
        region = page.get_by_role("region", name=states.round.title, exact=True)
        assert region.is_visible()
        assert readout(region, "Round") == f"{number} of 4" and readout(region, "Target") == states.target
        assert readout(region, "Score") == f"{score} of 12 stars"
        best = states.by_key(states.best_key)
        play(region, states, best.choice)
        assert readout(region, "Answer") == states.target
        assert readout(region, "Confidence") == best.readouts[1]
        assert readout(region, "Words in the spotlight") == str(states.smallest)
        score += 3
        assert readout(region, "Score") == f"{score} of 12 stars", "the score rises"
        assert region.get_by_role("status").inner_text().startswith(
            f"The model answers {states.target} ({best.readouts[1]}). Solved: 3 of 3 stars. ")
        lesson = region.get_by_role("region", name="What this round shows")
        assert lesson.is_visible() and lesson.get_by_role("link").count() >= 1
        for h, head in enumerate(states.heads):
            for position in states.candidates:
                pressed = word_button(region, states, h, position).get_attribute("aria-pressed")
                assert pressed == ("true" if position in best.choice[head] else "false")
        if number < len(rounds):
            region.get_by_role("button", name="Next round").click()
            assert not region.is_visible()
    assert offline_page.blocked == [] and offline_page.errors == []


def test_round_1_the_attractor_alone_is_wrong_in_the_page(game, offline_page):
    _, rounds, out = game
    agreement = rounds[0]
    page = open_game(offline_page, (out / SLUG / "index.html").as_uri())
    region = page.get_by_role("region", name="Agreement", exact=True)
    cabinets = agreement.words.index("cabinets")
    assert readout(region, "Answer") not in ("is", "are"), "the empty spotlight gives neither number"
    word_button(region, agreement, 0, cabinets).click()
    assert readout(region, "Answer") == "are" != readout(region, "Target")
    assert readout(region, "Score") == "0 of 12 stars"
    assert not region.get_by_role("region", name="What this round shows").is_visible()
    assert offline_page.errors == []


def test_round_3_one_head_alone_cannot_solve_it_in_the_page(game, offline_page):
    _, rounds, out = game
    states = rounds[2]
    page = open_game(offline_page, (out / SLUG / "index.html").as_uri() + "#round-3")
    region = page.get_by_role("region", name="Two heads", exact=True)
    for h in range(len(states.heads)):
        for position in states.candidates:
            button = word_button(region, states, h, position)
            button.click()
            assert button.get_attribute("aria-pressed") == "true"
            assert readout(region, "Answer") != states.target
            assert readout(region, "Words in the spotlight") == "1"
            button.click()  # out again: the spotlight is empty
            assert readout(region, "Words in the spotlight") == "0"
    # One head takes one word: pressing a second word moves its spotlight.
    first, second = states.candidates[:2]
    word_button(region, states, 0, first).click()
    word_button(region, states, 0, second).click()
    assert word_button(region, states, 0, first).get_attribute("aria-pressed") == "false"
    assert readout(region, "Score") == "0 of 12 stars"
    assert offline_page.blocked == [] and offline_page.errors == []


def test_reveal_shows_the_models_own_attention_and_the_table_the_spotlight(game, offline_page):
    _, rounds, out = game
    agreement = rounds[0]
    page = open_game(offline_page, (out / SLUG / "index.html").as_uri())
    region = page.get_by_role("region", name="Agreement", exact=True)
    own = region.get_by_role("table", name="The trained model's own attention at the blank")
    assert not own.is_visible()
    reveal = region.get_by_role("button", name="Reveal")
    reveal.click()
    assert reveal.get_attribute("aria-expanded") == "true" and own.is_visible()
    # Every head of the layer, the ones the reader does not control too.
    assert own.locator("thead th").all_inner_texts() == ["Word", "Head 1", "Head 2", "Head 3", "Head 4"]
    cells = own.locator("tbody td").all_inner_texts()
    assert cells == [percent(row[i]) for i in range(len(agreement.words)) for row in agreement.own_attention]
    assert f"answers {agreement.own_answer}" in region.inner_text()
    word_button(region, agreement, 0, 1).click()
    word_button(region, agreement, 0, 4).click()
    region.get_by_text("Show data", exact=True).click()
    table = region.get_by_role("table", name="The blank's attention in this spotlight")
    shares = table.locator("tbody td").all_inner_texts()
    assert shares == ["0%", "50%", "0%", "0%", "50%", "0%"]
    state = state_with(agreement, {0: [1, 4]})
    assert table.locator("tfoot td").all_inner_texts() == state.readouts[:2]
    assert offline_page.errors == []


def test_keyboard_only_play(game, offline_page):
    _, rounds, out = game
    agreement = rounds[0]
    page = open_game(offline_page, (out / SLUG / "index.html").as_uri())
    region = page.get_by_role("region", name="Agreement", exact=True)
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.closest('[role=group]')?.getAttribute('aria-label')") == "Spotlight":
            break
    else:
        pytest.fail("Tab never reached the word buttons")
    assert page.evaluate("document.activeElement.textContent") == "the (word 1)"
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none", "focus is visible"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.textContent") == "key"
    page.keyboard.press("Space")
    assert readout(region, "Answer") == "is" and readout(region, "Score") == "3 of 12 stars"
    assert region.get_by_role("status").inner_text().startswith("The model answers is")
    # Tab leaves the group at once (one tab stop); Shift+Tab returns to the pressed word.
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('[role=group]')") is None
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.textContent") == "key"
    for _ in range(20):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent").startswith("Next round"):
            break
    else:
        pytest.fail("Tab never reached Next round")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.textContent") == rounds[1].round.title
    assert page.get_by_role("region", name="Reference", exact=True).is_visible()
    assert offline_page.errors == []


def test_a_deep_link_to_a_round_and_its_spotlight_survives_reload(game, offline_page):
    _, rounds, out = game
    states = rounds[3]
    best = states.by_key(states.best_key)
    url = (out / SLUG / "index.html").as_uri()
    page = open_game(offline_page, f"{url}#round-4&spotlight={best.key}")
    region = page.get_by_role("region", name="Three heads", exact=True)
    assert region.is_visible() and readout(region, "Answer") == states.target
    assert not page.get_by_role("region", name="Agreement", exact=True).is_visible()
    # Playing moves the address along; a reload lands in the same state.
    word_button(region, states, 2, states.candidates[-1]).click()
    moved = states.by_key(best.to[2][len(states.candidates)])
    page.wait_for_function("hash => location.hash === hash", arg=f"#round-4&spotlight={moved.key}")
    page.reload()
    page.wait_for_function("window.lensa?.game")
    region = page.get_by_role("region", name="Three heads", exact=True)
    assert region.is_visible() and readout(region, "Answer") == moved.readouts[0]
    assert word_button(region, states, 2, states.candidates[-1]).get_attribute("aria-pressed") == "true"
    # A stale or unknown spotlight falls back to the round's empty one.
    page.goto(f"{url}#round-2&spotlight=nonsense")
    region = page.get_by_role("region", name="Reference", exact=True)
    region.wait_for(state="visible")  # a same-document jump: its hashchange runs after goto returns
    assert readout(region, "Words in the spotlight") == "0"
    assert offline_page.blocked == [] and offline_page.errors == []


def test_a_pending_address_write_never_undoes_an_address_the_reader_changed(game, offline_page):
    _, rounds, out = game
    states = rounds[3]
    url = (out / SLUG / "index.html").as_uri()
    page = open_game(offline_page, f"{url}#round-4")
    region = page.get_by_role("region", name="Three heads", exact=True)
    page.clock.install()  # the page's timers on a clock the test runs: no wait tied to the write's pause
    word_button(region, states, 2, states.candidates[-1]).click()  # schedules a write of round 4
    # The address changes before that write runs and before its hashchange arrives.
    page.evaluate("history.replaceState(null, '', '#round-2')")
    page.clock.run_for(1000)  # the pending write has run, whatever its pause
    assert page.evaluate("location.hash") == "#round-2"
    page.evaluate("window.dispatchEvent(new HashChangeEvent('hashchange'))")
    page.get_by_role("region", name="Reference", exact=True).wait_for(state="visible")
    assert offline_page.errors == []


BLOCK_STORAGE = """
Object.defineProperty(window, "localStorage", {
  get() { throw new DOMException("The operation is insecure.", "SecurityError"); }
});
"""


def test_the_score_is_remembered_where_storage_is_allowed(game, browser, tmp_path):
    _, rounds, out = game
    # Chromium gives file:// pages storage; a context of its own keeps it to this test.
    context = browser.new_context()
    watch = PageWatch(context.new_page())
    page = open_game(watch, (out / SLUG / "index.html").as_uri())
    region = page.get_by_role("region", name="Agreement", exact=True)
    word_button(region, rounds[0], 0, 1).click()
    assert readout(region, "Score") == "3 of 12 stars"
    wait_until_stored(page, "() => Object.keys(localStorage).some(k => k.startsWith('lensa-game:') "
                            "&& JSON.parse(localStorage.getItem(k))[0] > 0)")
    page.reload()
    page.wait_for_function("window.lensa?.game")
    region = page.get_by_role("region", name="Agreement", exact=True)
    assert readout(region, "Score") == "3 of 12 stars"
    assert region.get_by_role("region", name="What this round shows").is_visible()
    assert watch.errors == []
    context.close()


def test_the_game_works_where_storage_is_blocked(game, browser):
    _, rounds, out = game
    context = browser.new_context()
    context.add_init_script(BLOCK_STORAGE)
    watch = PageWatch(context.new_page())
    page = open_game(watch, (out / SLUG / "index.html").as_uri())
    assert page.evaluate("(() => { try { localStorage; return false; } catch (e) { return true; } })()")
    region = page.get_by_role("region", name="Agreement", exact=True)
    word_button(region, rounds[0], 0, 1).click()
    assert readout(region, "Score") == "3 of 12 stars"
    region.get_by_role("button", name="Next round").click()
    region = page.get_by_role("region", name="Reference", exact=True)
    play(region, rounds[1], rounds[1].by_key(rounds[1].best_key).choice)
    assert readout(region, "Score") == "6 of 12 stars"
    assert watch.errors == [] and watch.blocked == []
    context.close()


def test_the_single_file_copy_plays_alone_in_an_empty_folder(game, offline_page, tmp_path):
    _, rounds, out = game
    alone = tmp_path / "elsewhere" / "spotlight.html"
    alone.parent.mkdir()
    shutil.copyfile(out / "offline" / f"{SLUG}.html", alone)
    html = alone.read_text()
    markup = re.sub(r"<(script|style)\b[^>]*>.*?</\1>", "", html, flags=re.S)
    assert not re.search(r'\b(src|href)="(?!#|https?:|data:)[^"]*"', markup)
    assert "data-embed-code" not in markup
    page = open_game(offline_page, alone.as_uri() + "#round-3")
    states = rounds[2]
    region = page.get_by_role("region", name="Two heads", exact=True)
    play(region, states, states.by_key(states.best_key).choice)
    assert readout(region, "Answer") == states.target
    assert offline_page.blocked == [] and offline_page.errors == []


def test_the_embed_plays_and_the_embed_button_carries_the_state(game, offline_page):
    _, rounds, out = game
    page = open_game(offline_page, (out / SLUG / "index.html").as_uri())
    page.get_by_text("Embed the game", exact=True).click()
    box = page.get_by_role("textbox", name="Embed code (HTML)")
    assert box.input_value().startswith('<iframe src="../embed/spotlight/index.html" title="Spotlight"')
    region = page.get_by_role("region", name="Agreement", exact=True)
    word_button(region, rounds[0], 0, 1).click()
    assert 'src="../embed/spotlight/index.html#round-1&amp;spotlight=01000"' in box.input_value()
    embed = open_game(offline_page, (out / "embed" / SLUG / "index.html").as_uri() + "#round-1&spotlight=01000")
    region = embed.get_by_role("region", name="Agreement", exact=True)
    assert readout(region, "Answer") == "is"
    assert embed.get_by_role("link", name="All explainers").count() == 0, "an embed has no site navigation"
    link = embed.get_by_role("link", name=re.compile("Open the full game"))
    assert link.get_attribute("href").endswith("spotlight/index.html#round-1&spotlight=01000")
    assert offline_page.blocked == [] and offline_page.errors == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_solved_and_revealed_round_has_no_serious_accessibility_violation(game, browser, scheme):
    """What the page-wide axe run does not see: a round's lesson, stars, the model's own
    attention and the data table, shown once the reader solves the round and presses Reveal."""
    from tests.browser.test_accessibility import AXE, AXE_TAGS

    _, rounds, out = game
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    page = context.new_page()
    errors = []  # page errors only: axe reads the stylesheets itself, which file:// refuses on the console
    page.on("pageerror", lambda e: errors.append(str(e)))
    report = []
    for number in (1, 4):
        states = rounds[number - 1]
        page.goto(f"{(out / SLUG / 'index.html').as_uri()}#round-{number}&spotlight={states.best_key}")
        page.reload()  # a new document at the deep link, not a same-document jump
        page.wait_for_function("window.lensa?.game")
        region = page.get_by_role("region", name=states.round.title, exact=True)
        region.get_by_role("button", name="Reveal").click()
        region.get_by_text("Show data", exact=True).click()
        assert region.get_by_role("region", name="What this round shows").is_visible()
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags}, "
                               "resultTypes: ['violations']})", AXE_TAGS)
        report += [f"round {number}: {v['id']} ({v['impact']}): {v['help']} at "
                   f"{[n['target'] for n in v['nodes'][:3]]}"
                   for v in result["violations"] if v["impact"] in ("serious", "critical")]
    assert report == [] and errors == [], "\n".join(report + errors)
    context.close()
