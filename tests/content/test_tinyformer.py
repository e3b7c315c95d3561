"""The tiny transformer of content/_lib/tinyformer: its gradients, the attention
override, the loader's errors, the committed weights' accuracy, the four game
rounds, and a full retrain (the slow test, about 20 s)."""
import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

from ..conftest import CONTENT

LIB = CONTENT / "_lib"
if str(LIB) not in sys.path:
    sys.path.insert(0, str(LIB))   # as the build does for every explainer's model.py

import tinyformer  # noqa: E402
from tinyformer import grammar, model as tm, rounds, weights  # noqa: E402


@pytest.fixture(scope="module")
def trained():
    return tinyformer.load()


def words(sentence):
    return sentence.split()


# ---------------------------------------------------------------------------
# Forward and backward
# ---------------------------------------------------------------------------

def _small_case(seed=3):
    rng = np.random.default_rng(seed)
    params = tm.init_params(rng, vocab=9, max_len=6, d_model=8, heads=2)
    tokens = rng.integers(1, 9, (3, 6))
    tokens[0, 4:] = 0                      # padding in the first sentence
    targets = rng.integers(0, 9, (3, 6))
    loss_weights = rng.random((3, 6))
    loss_weights[0, 4:] = 0
    return params, tokens, targets, loss_weights / loss_weights.sum()


@pytest.mark.parametrize("causal", [False, True, np.array([True, False, True])])
@pytest.mark.parametrize("with_override", [False, True])
def test_backward_matches_finite_differences(causal, with_override):
    params, tokens, targets, loss_weights = _small_case()
    override = tm.spotlight(3, 2, 6, query=3, chosen={0: [1, 2]}) if with_override else None

    def loss(p):
        logits, _ = tm.forward(p, tokens, causal, override)
        return tm.cross_entropy(logits, targets, loss_weights)[0]

    logits, cache = tm.forward(params, tokens, causal, override)
    grads = tm.backward(params, cache, tm.cross_entropy(logits, targets, loss_weights)[1])
    step = 1e-6
    for name, value in params.items():
        numeric = np.zeros_like(value)
        for index in np.ndindex(value.shape):
            kept = value[index]
            value[index] = kept + step
            up = loss(params)
            value[index] = kept - step
            down = loss(params)
            value[index] = kept
            numeric[index] = (up - down) / (2 * step)
        assert grads[name].shape == value.shape
        assert np.allclose(grads[name], numeric, rtol=1e-5, atol=1e-8), name
    assert np.abs(grads["W_Q"]).max() > 1e-4   # the check above is not vacuous


def test_causal_attention_never_looks_ahead_and_skips_padding():
    params, tokens, _, _ = _small_case()
    _, cache = tm.forward(params, tokens, causal=True)
    attention = cache["attention"]
    assert np.allclose(attention.sum(axis=-1), 1)
    assert np.all(np.triu(attention, 1) == 0)
    assert np.all(attention[0, :, :4, 4:] == 0)            # no real word attends to padding
    # A later word cannot change an earlier position's logits.
    changed = tokens.copy()
    changed[1, 5] = (changed[1, 5] % 8) + 1
    before, _ = tm.forward(params, tokens, causal=True)
    after, _ = tm.forward(params, changed, causal=True)
    assert np.allclose(before[1, :5], after[1, :5]) and not np.allclose(before[1, 5], after[1, 5])


# ---------------------------------------------------------------------------
# The attention override (the game's spotlight)
# ---------------------------------------------------------------------------

def test_a_uniform_spotlight_gives_exactly_those_weights():
    params, tokens, _, _ = _small_case()
    own = tm.forward(params, tokens)[1]["attention"]
    override = tm.spotlight(3, 2, 6, query=3, chosen={1: [0, 2, 5]})
    attention = tm.forward(params, tokens, override=override)[1]["attention"]
    expected = np.zeros(6)
    expected[[0, 2, 5]] = 1 / 3
    assert np.array_equal(attention[:, 1, 3], np.tile(expected, (3, 1)))
    # Every other row, and every row of the other head, is the model's own.
    untouched = np.ones(attention.shape[:3], bool)
    untouched[:, 1, 3] = False
    assert np.array_equal(attention[untouched], own[untouched])


def test_an_empty_spotlight_means_the_query_attends_to_itself_only():
    params, tokens, _, _ = _small_case()
    override = tm.spotlight(3, 2, 6, query=2, chosen={0: [], 1: []})
    attention = tm.forward(params, tokens, override=override)[1]["attention"]
    assert np.array_equal(attention[:, :, 2], np.broadcast_to(np.eye(6)[2], (3, 2, 6)))


def test_the_game_helper_agrees_with_the_full_forward_pass(trained):
    for round_ in tinyformer.ROUNDS:
        outcome = tinyformer.play_round(trained, round_)
        tokens = np.array([grammar.encode(round_.words)])
        for state in np.random.default_rng(0).choice(len(outcome.answers), 12):
            chosen = {head: [] for head in range(trained.heads)}   # kept heads: the blank only
            for i, head in enumerate(round_.heads):
                chosen[head] = [round_.candidates[j] for j in np.flatnonzero(outcome.spotlights[state, i])]
            override = tm.spotlight(1, trained.heads, len(round_.words), round_.blank, chosen)
            logits, _ = trained.forward(tokens, override=override)
            probabilities = tm.softmax(logits[0, round_.blank])
            assert np.allclose(probabilities, outcome.probabilities[state], atol=1e-9)
            assert outcome.answers[state] == grammar.VOCAB[probabilities.argmax()]


def test_reveal_is_the_models_own_attention(trained):
    round_ = tinyformer.ROUNDS[0]
    outcome = tinyformer.play_round(trained, round_)
    probabilities, attention = trained.fill_in(list(round_.words))
    # Every head, the ones the round keeps too: a lesson may say what they read.
    assert outcome.own_attention.shape == (trained.heads, len(round_.words))
    assert np.allclose(outcome.own_attention, attention[:, round_.blank])
    assert np.allclose(outcome.own_attention.sum(axis=-1), 1)
    assert outcome.own_answer == grammar.VOCAB[probabilities[0].argmax()] == round_.target


# ---------------------------------------------------------------------------
# Loading and checking the weights
# ---------------------------------------------------------------------------

@pytest.fixture
def copies(tmp_path):
    shutil.copy(weights.WEIGHTS_FILE, tmp_path / "weights.npz")
    shutil.copy(weights.CARD_FILE, tmp_path / "card.json")
    return tmp_path / "weights.npz", tmp_path / "card.json"


def _error(weights_file, card_file):
    with pytest.raises(tinyformer.WeightsError) as caught:
        tinyformer.load(weights_file, card_file)
    message = str(caught.value)
    assert "\n" not in message
    return message


def _arrays(path):
    with np.load(path) as archive:
        return {name: archive[name] for name in archive.files}


def test_missing_weights_name_the_file(copies):
    weights_file, card_file = copies
    weights_file.unlink()
    message = _error(weights_file, card_file)
    assert message.startswith(str(weights_file)) and "not found" in message


def test_missing_card_names_the_file(copies):
    weights_file, card_file = copies
    card_file.unlink()
    assert _error(weights_file, card_file).startswith(str(card_file))


def test_weights_of_the_wrong_shape_name_the_file_and_the_array(copies):
    weights_file, card_file = copies
    arrays = _arrays(weights_file)
    arrays["W_Q"] = arrays["W_Q"][:, :, :4]
    np.savez(weights_file, **arrays)
    message = _error(weights_file, card_file)
    assert message.startswith(str(weights_file))
    assert "W_Q has shape (4, 32, 4), expected (4, 32, 8)" in message


def test_weights_that_do_not_match_the_card_name_the_file(copies):
    weights_file, card_file = copies
    arrays = _arrays(weights_file)
    arrays["W_U"][0, 0] += np.float32(1e-3)
    np.savez(weights_file, **arrays)
    message = _error(weights_file, card_file)
    assert message.startswith(str(weights_file)) and "do not match card.json" in message


def test_an_unreadable_weights_file_names_the_file(copies):
    weights_file, card_file = copies
    weights_file.write_bytes(b"not a zip archive")
    assert _error(weights_file, card_file).startswith(str(weights_file))


def test_the_committed_files_are_small_and_match(trained):
    assert weights.WEIGHTS_FILE.stat().st_size < 64_000
    assert trained.card["weights_sha256"] == weights.digest(_arrays(weights.WEIGHTS_FILE))
    assert trained.card["parameters"] == sum(p.size for p in trained.params.values())


# ---------------------------------------------------------------------------
# The committed weights on held-out sentences
# ---------------------------------------------------------------------------

def test_held_out_sentences_are_never_seen_in_training(trained):
    config = weights_config(trained)
    corpus = grammar.corpus(config["seed"], config["train_per_task"], config["held_out_per_task"])
    held_out = {tuple(w) for _, w, _ in corpus["held_out"]}
    assert len(held_out) == len(corpus["held_out"]) == 3 * config["held_out_per_task"]
    assert not held_out & {tuple(w) for _, w, _ in corpus["train"]}


def weights_config(trained):
    return dict(trained.card["training"], seed=trained.card["seed"])


def test_committed_weights_reach_the_cards_accuracy(trained):
    config = weights_config(trained)
    corpus = grammar.corpus(config["seed"], config["train_per_task"], config["held_out_per_task"])
    accuracy = weights.held_out_accuracy(trained.params, corpus["held_out"])
    assert accuracy == trained.card["accuracy_held_out"]
    for mode in ("fill_in", "next_token"):
        assert all(accuracy[mode][task] >= 0.95 for task in grammar.TASKS), accuracy


def test_fill_in_and_next_token_for_other_pages(trained):
    probabilities, attention = trained.fill_in(words("the key to the cabinets <mask>"))
    assert grammar.VOCAB[probabilities[0].argmax()] == "is"
    assert attention.shape == (4, 6, 6) and np.allclose(attention.sum(axis=-1), 1)
    probabilities, attention = trained.next_token(words("the keys to the cabinet"))
    assert probabilities[-1, grammar.IDS["are"]] > probabilities[-1, grammar.IDS["is"]]
    assert np.all(np.triu(attention, 1) == 0)


# ---------------------------------------------------------------------------
# The four rounds of the game, with the committed weights
# ---------------------------------------------------------------------------

def _round(number):
    return tinyformer.ROUNDS[number - 1]


def _answer(trained, round_, chosen):
    outcome = tinyformer.play_round(trained, round_)
    return outcome.answers[round_.state(chosen)]


def test_every_round_has_its_property(trained):
    assert [r.kind for r in tinyformer.ROUNDS] == list(rounds.KINDS)
    for round_ in tinyformer.ROUNDS:
        assert rounds.check(trained, round_)["ok"], round_.title


def test_round_1_attractor_alone_is_wrong_subject_alone_is_right(trained):
    """The way people's attraction slips run: a singular head, a plural attractor; and the
    empty spotlight gives neither verb, so that the attractor visibly moves the answer."""
    round_ = _round(1)
    (head,) = round_.heads
    assert round_.words[round_.roles["subject"]] == "key"
    assert round_.words[round_.roles["attractor"]] == "cabinets"
    assert _answer(trained, round_, {head: [round_.roles["subject"]]}) == round_.target == "is"
    assert _answer(trained, round_, {head: [round_.roles["attractor"]]}) == "are"
    assert _answer(trained, round_, {}) not in ("is", "are")


def test_the_empty_spotlight_depends_only_on_the_blanks_place(trained):
    """With every head on the blank, nothing of the sentence reaches the answer."""
    first = tinyformer.play(trained, words("the key to the cabinets <mask>"), (2,), (0, 1))
    second = tinyformer.play(trained, words("these sheep near the dog <mask>"), (2,), (0, 1))
    assert np.allclose(first.probabilities[0], second.probabilities[0])


def test_round_2_the_referent_works(trained):
    round_ = _round(2)
    (head,) = round_.heads
    assert round_.words[round_.roles["referent"]] == round_.target == "boy"
    assert _answer(trained, round_, {head: [round_.roles["referent"]]}) == "boy"
    assert _answer(trained, round_, {head: [round_.roles["other"]]}) != "boy"
    assert _answer(trained, round_, {head: [round_.roles["pronoun"]]}) != "boy"
    assert _answer(trained, round_, {}) != "boy"


@pytest.mark.parametrize("number", [3, 4])
def test_rounds_3_and_4_no_single_head_alone_reaches_the_target(trained, number):
    round_ = _round(number)
    for head in round_.heads:
        for position in round_.candidates:
            assert _answer(trained, round_, {head: [position]}) != round_.target, (head, position)


def test_round_3_one_word_in_each_of_two_heads_does(trained):
    round_ = _round(3)
    first, second = round_.heads
    assert len(tinyformer.play_round(trained, round_).answers) == (len(round_.candidates) + 1) ** 2
    determiner, subject = round_.roles["determiner"], round_.roles["subject"]
    assert _answer(trained, round_, {first: [determiner], second: [subject]}) == round_.target


def test_round_4_is_solvable_within_its_state_limit(trained):
    round_ = _round(4)
    outcome = tinyformer.play_round(trained, round_)
    assert len(round_.heads) == 3 and len(round_.candidates) == 8
    assert len(outcome.answers) == 9 ** 3 <= rounds.MAX_STATES
    assert round_.target in outcome.answers


def test_the_smallest_working_spotlight_is_computed(trained):
    for round_ in tinyformer.ROUNDS:
        outcome = tinyformer.play_round(trained, round_)
        key = rounds.key_columns(round_)
        best = tinyformer.smallest_spotlight(outcome, round_.target, key)
        hits = np.array(outcome.answers) == round_.target
        held = outcome.spotlights.any(axis=1)[:, key].all(axis=1)
        assert hits[best] and held[best] and outcome.sizes[best] == outcome.sizes[hits & held].min() >= 1
        assert len(outcome.answers) <= (256 if len(round_.heads) == 1 else rounds.MAX_STATES)
    # Round 1: "key" alone; round 3: the determiner in one head, the noun in the other.
    one = _round(1)
    outcome = tinyformer.play_round(trained, one)
    assert tinyformer.describe(one, outcome, tinyformer.smallest_spotlight(outcome, one.target)) == {2: ["key"]}
    three = _round(3)
    outcome = tinyformer.play_round(trained, three)
    assert tinyformer.describe(three, outcome, tinyformer.smallest_spotlight(outcome, three.target)) == {
        1: ["this"], 3: ["sheep"]}


def test_without_key_words_a_smaller_spotlight_may_win(trained):
    """Round 4: a pair without the number word reaches the target too, so the key words
    decide which pair earns full stars."""
    four = _round(4)
    outcome = tinyformer.play_round(trained, four)
    with_key = tinyformer.smallest_spotlight(outcome, four.target, rounds.key_columns(four))
    assert tinyformer.describe(four, outcome, with_key)[1] == ["this"]
    hits = np.flatnonzero(np.array(outcome.answers) == four.target)
    pairs = [tinyformer.describe(four, outcome, s) for s in hits if outcome.sizes[s] == 2]
    assert any(pair[1] != ["this"] for pair in pairs)


def test_the_summary_lists_what_the_page_needs(trained):
    rows = rounds.summary(trained)
    assert [row["title"] for row in rows] == [r.title for r in tinyformer.ROUNDS]
    assert [row["states"] for row in rows] == [2 ** 5, 2 ** 8, 6 ** 2, 9 ** 3]
    assert [row["smallest_size"] for row in rows] == [1, 1, 2, 2]
    first = rows[0]
    assert first["words"][first["blank"]] == "<mask>" and first["candidates"] == words("the key to the cabinets")
    assert [row["key_words"] for row in rows] == [["key"], ["boy"], ["this", "sheep"], ["this", "deer"]]
    assert rows[1]["smallest"] == {2: ["boy"]}
    assert all(0.5 < row["smallest_confidence"] <= 1 for row in rows)


# ---------------------------------------------------------------------------
# Retraining (slow: a full training run, about 20 s)
# ---------------------------------------------------------------------------

def test_retrain_reproduces_the_committed_weights_slow(tmp_path, trained):
    """SLOW (~20 s): `make retrain`'s command, into a temporary folder, must give the
    committed weights within weights.TOLERANCE and the card's accuracy."""
    env = dict(os.environ, PYTHONPATH=str(LIB))
    subprocess.run([sys.executable, "-m", "tinyformer.train", "--weights", str(tmp_path / "w.npz"),
                    "--card", str(tmp_path / "card.json")], check=True, env=env,
                   capture_output=True, timeout=1800)  # a guard against a hang, not a time limit: shared machines are slow
    fresh = tinyformer.load(tmp_path / "w.npz", tmp_path / "card.json")
    card = json.loads((tmp_path / "card.json").read_text())
    assert card["seed"] == trained.card["seed"] and card["steps"] == trained.card["steps"]
    for name, value in trained.params.items():
        assert np.abs(fresh.params[name] - value).max() <= weights.TOLERANCE["weights_abs"], name
    for mode, per_task in trained.card["accuracy_held_out"].items():
        for task, accuracy in per_task.items():
            assert abs(card["accuracy_held_out"][mode][task] - accuracy) <= weights.TOLERANCE["accuracy_abs"]
    # The time is recorded, not asserted: these machines are shared (make bench measures speed).
    assert card["training_seconds"] > 0
