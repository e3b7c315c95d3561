"""Every figure of the brief (../shared/briefs/bert-masked-language-modeling.md)
in the computed data, in the readouts and in the rendered prose; every
combination of control values present."""
import math

import pytest

from ..conftest import page_states
from .reader import normalise as _text  # the text a reader sees of some HTML

SLUG = "bert-masked-language-modeling"
TOKENS = ["The", "cat", "sat", "on", "the", "mat"]


@pytest.fixture(scope="session")
def computed(site_states):
    return page_states(site_states, SLUG)


def readouts_of(steps, number, state):
    return dict(zip([r.label for r in steps[number - 1].step.readouts], state.readouts))


def find(computed, number, **choice):
    _, steps, prose = computed
    states = steps[number - 1]
    found = [s for s in states.states if all(s.choice[k] == v for k, v in choice.items())]
    assert len(found) == 1, choice
    state = found[0]
    return state, readouts_of(steps, number, state), _text(prose[number - 1].states[state.key][0])


def test_five_steps_with_the_brief_titles(computed):
    _, steps, _ = computed
    assert [s.step.title for s in steps] == ["Mask a Word", "Both Sides at Once", "The 80/10/10 Rule",
                                             "Two Sentences and [CLS]", "Sizes and Fine-tuning"]


def test_controls_and_readout_labels_as_the_brief_gives_them(computed):
    _, steps, _ = computed
    labels = [[r.label for r in s.step.readouts] for s in steps]
    assert labels == [["Masked word", "Top guess", "Probability"],
                      ["Masked word", "Top guess", "Probability", "Visible words"],
                      ["Share of chosen tokens", "Share of all tokens", "Example input"],
                      ["Label", "Tokens", "Segments"],
                      ["Layers", "Hidden size", "Heads", "Parameters"]]
    tokens = ["The", "cat", "sat", "on", "the", "mat"]
    one, two = steps[0].step.controls, steps[1].step.controls
    assert list(one[0].values) == tokens and one[0].default == "sat"
    assert list(two[0].values) == tokens and two[1].label == "Context"
    assert list(two[1].values) == ["Both sides", "Left only"]
    assert [(c.label, list(c.values)) for c in steps[2].step.controls] == [
        ("Treatment", ["[MASK]", "Random word", "Unchanged"])]
    assert [(c.label, list(c.values)) for c in steps[3].step.controls] == [("Pair", ["IsNext", "NotNext"])]
    assert [(c.label, list(c.values)) for c in steps[4].step.controls] == [
        ("Model", ["BERT-base", "BERT-large"])]
    assert [[c.kind for c in s.step.charts] for s in steps] == [["bar"], ["heatmap"], ["blocks"], ["diagram"],
                                                                ["bar"]]


def test_step1_default_guesses_the_hidden_word(computed):
    _, steps, _ = computed
    states = steps[0]
    state = states.by_key(states.default_key)
    readouts = readouts_of(steps, 1, state)
    assert state.choice == {"word": "sat"}
    assert readouts["Masked word"] == "sat" and readouts["Top guess"] == "sat"
    assert readouts["Probability"] == f"{round(state.values['probability'] * 100)}%"
    # Bars of the five best guesses, best first, the hidden word highlighted.
    chart = state.chart
    assert len(chart["x"]) == 5 and chart["x"][0] == "sat" and chart["highlight"] == 0
    assert list(chart["y"]) == sorted(chart["y"], reverse=True)
    assert chart["y"][0] == state.values["probability"]


def test_step1_every_state_shows_its_own_top_guess(computed):
    _, steps, _ = computed
    for state in steps[0].states:
        assert state.chart["x"][0] == state.values["top_guess"]
        assert state.values["masked_word"] == state.choice["word"]


def test_step2_both_sides_guesses_a_word_that_left_only_misses(computed):
    found = []
    for hidden in range(6):
        both, rb, _ = find(computed, 2, word=TOKENS[hidden], context="Both sides")
        left, rl, _ = find(computed, 2, word=TOKENS[hidden], context="Left only")
        if rb["Top guess"] == rb["Masked word"].lower() and rl["Top guess"] != rl["Masked word"].lower():
            found.append(rb["Masked word"])
        assert rb["Visible words"] == "5"
        assert rl["Visible words"] == str(hidden)
        # The masked-out words are shown as masked: the hidden word always, the right side with Left only.
        assert both.chart["mask"] == [[j == hidden for j in range(6)]]
        assert left.chart["mask"] == [[j >= hidden for j in range(6)]]
        assert all(v == 0 for v, m in zip(left.chart["z"][0], left.chart["mask"][0]) if m)
    assert found, "no hidden word that both sides guess and the left side alone does not"
    state, readouts, prose = find(computed, 2, word="sat", context="Left only")
    assert readouts["Top guess"] != "sat" and "not the hidden word “sat”" in prose


def test_step3_shares(computed):
    expected = {"[MASK]": ("80%", "12%", "The cat [MASK] on the mat"),
                "Random word": ("10%", "1.5%", None),
                "Unchanged": ("10%", "1.5%", "The cat sat on the mat")}
    for rule, (chosen, everything, example) in expected.items():
        state, readouts, prose = find(computed, 3, rule=rule)
        assert readouts["Share of chosen tokens"] == chosen
        assert readouts["Share of all tokens"] == everything
        # 15% of the tokens are chosen: each share of all tokens is 0.15 times the share of the chosen ones.
        assert math.isclose(float(everything[:-1]), 15 * float(chosen[:-1]) / 100)
        if example:
            assert readouts["Example input"] == example
        else:
            words = readouts["Example input"].split()
            assert words[:2] + words[3:] == ["The", "cat", "on", "the", "mat"]
            assert words[2] not in ("sat", "[MASK]")
        assert state.chart["labels"] == readouts["Example input"].split() and state.chart["highlight"] == 2
        assert readouts["Example input"] in prose


def test_step4_tokens_and_segments(computed):
    for pair in ("IsNext", "NotNext"):
        state, readouts, prose = find(computed, 4, pair=pair)
        boxes = state.chart["boxes"]
        n = int(readouts["Tokens"])
        tokens = boxes[3:3 + n]
        assert readouts["Label"] == pair
        assert tokens[0] == "[CLS]" and tokens.count("[SEP]") == 2 and tokens[-1] == "[SEP]"
        assert tokens[1:7] == ["the", "cat", "sat", "on", "the", "mat"] and tokens[7] == "[SEP]"
        a, b = tokens.index("[SEP]") + 1, n - tokens.index("[SEP]") - 1
        assert readouts["Segments"] == f"A: {a}, B: {b}"
        # One segment box across A's tokens, one across B's; a position box per token.
        segments = state.chart["at"][3 + n:3 + n + 2]
        assert [s[2] for s in segments] == [a, b]
        assert boxes[3 + n + 2:] == [str(i) for i in range(n)]
        assert f"{n} tokens" in prose


def test_step5_published_sizes(computed):
    expected = {"BERT-base": ("12", "768", "12", "110M"), "BERT-large": ("24", "1,024", "16", "340M")}
    for name, (layers, hidden, heads, params) in expected.items():
        state, readouts, prose = find(computed, 5, model=name)
        assert (readouts["Layers"], readouts["Hidden size"], readouts["Heads"], readouts["Parameters"]) == (
            layers, hidden, heads, params)
        # The bars add up to the counted total, which rounds to the published figure.
        assert math.isclose(sum(state.chart["y"]) * 1e6, state.values["total"])
        assert f"{state.values['total']:,}" in prose and "the figure Devlin et al. (2019) give" in prose
