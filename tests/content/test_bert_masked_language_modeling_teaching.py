"""What the BERT page teaches, checked against the data.

Each test recomputes from the toy model what a sentence of the page claims,
without going through the values the step functions return where it can, and
checks that the rendered text says so."""
import re

import numpy as np
import pytest

from .test_bert_masked_language_modeling_figures import SLUG, computed  # noqa: F401  (the fixture)
from .test_bert_masked_language_modeling_model import model  # noqa: F401  (the toy, from content/)
from .reader import normalise as _text  # the text a reader sees of some HTML
from .reader import check_references, reference_entries


@pytest.fixture(scope="module")
def page(computed):  # noqa: F811
    site, steps, prose = computed
    explainer = next(e for e in site.pages if e.slug == SLUG)
    return explainer, steps, prose


def _states(page, number):
    _, steps, prose = page
    return [(s, _text(prose[number - 1].states[s.key][0])) for s in steps[number - 1].states]


def _part(page, number, part):
    return _text(getattr(page[2][number - 1], part))


def _everything(page):
    explainer, steps, prose = page
    parts = [explainer.intro, explainer.key_ideas, explainer.questions]
    for texts in prose:
        parts += [_text(html) for html, _ in texts.states.values()] + [_text(texts.hint), _text(texts.deeper)]
        parts += [_text(texts.practitioners)]
        parts += [s for summaries in texts.summaries.values() for s in summaries]
    return " ".join(" ".join(parts).split())


def _top(model, hidden, context):  # noqa: F811
    p = model.fill_in(hidden, context)
    return model.VOCAB[int(np.argmax(p))]


# --- The toy is said to be a toy ---------------------------------------------------------------

def test_the_page_says_which_model_makes_the_guesses(page, model):  # noqa: F811
    explainer = page[0]
    assert "counting toy" in _text(explainer.intro) and "not from BERT itself" in _text(explainer.intro)
    for state, prose in _states(page, 1):
        assert "These guesses come from a toy, not from BERT" in prose
        assert f"from {len(model.CORPUS)} short sentences written by hand" in prose
        assert f"with {len(set(w for s in model.CORPUS for w in s.split()))} different words" in prose
        assert '"The cat sat on the mat" itself is not among them' in prose
    # Each said once, where the reader meets it: the weights where the chart draws them, the random
    # word where it is shown, the pairs where they are read.
    assert all("The chart's weights are set by hand, not learned" in prose for _, prose in _states(page, 2))
    random_word = [prose for state, prose in _states(page, 3) if state.choice["rule"] == "Random word"]
    assert len(random_word) == 1 and "drawn with a fixed seed from the toy's vocabulary" in random_word[0]
    assert all("Both pairs are written by hand" in prose for _, prose in _states(page, 4))


# --- Step 1 ---------------------------------------------------------------------------------------

def test_step1_says_whether_the_guess_is_right(page, model):  # noqa: F811
    for state, prose in _states(page, 1):
        hidden = model.TOKENS.index(state.choice["word"])
        target = model.TOKENS[hidden].lower()
        top = _top(model, hidden, "Both sides")
        assert f"Its best guess for the gap is “{top}”" in prose
        assert ("which is the hidden word" in prose) == (top == target)
        assert ("(the toy ignores capitals)" in prose) == (model.TOKENS[hidden] != target and top == target)
        masked = " ".join("[MASK]" if i == hidden else t for i, t in enumerate(model.TOKENS))
        assert masked in prose
        second = model.VOCAB[int(np.argsort(-model.fill_in(hidden, "Both sides"))[1])]
        if top == target:
            assert f"The next best, “{second}”" in prose


def test_step1_hint_counts_the_words_guessed_right(page, model):  # noqa: F811
    right = [i for i in model.POSITIONS if _top(model, i, "Both sides") == model.TOKENS[i].lower()]
    hint = _part(page, 1, "hint")
    if len(right) == len(model.TOKENS):
        assert f"every one of the {len(model.TOKENS)} words" in hint
    else:
        assert f"{len(right)} of the {len(model.TOKENS)} words" in hint
    # "a word like “on” is pinned down by its neighbours, a noun much less so"
    p_on = model.fill_in(model.TOKENS.index("on"))[model.VOCAB.index("on")]
    for noun in ("cat", "mat"):
        p_noun = model.fill_in(model.TOKENS.index(noun))[model.VOCAB.index(noun)]
        assert p_on > p_noun + 0.15, noun
    assert "a word like “on” is pinned down" in hint


# --- Step 2 ---------------------------------------------------------------------------------------

def test_step2_prose_follows_the_context(page, model):  # noqa: F811
    for state, prose in _states(page, 2):
        hidden, context = model.TOKENS.index(state.choice["word"]), state.choice["context"]
        other = "Left only" if context == "Both sides" else "Both sides"
        target = model.TOKENS[hidden].lower()
        top, other_top = _top(model, hidden, context), _top(model, hidden, other)
        if context == "Both sides":
            assert f"reads all {len(model.TOKENS) - 1} other words, {hidden} on its left and " \
                   f"{len(model.TOKENS) - 1 - hidden} on its right." in prose
        elif hidden == 0:
            assert "the first position has nothing to read at all" in prose
        else:
            assert f"reads just the {hidden} word" in prose
        assert f"The toy's best guess is “{top}”" in prose
        assert ("the hidden word" in prose.split("best guess is")[1].split(".")[0]) and \
            (("not the hidden word" in prose) == (top != target))
        if (top == target) != (other_top == target):
            word = "fixes" if other_top == target else "breaks"
            assert f"Switching the context {word} this guess: the other setting gives “{other_top}”." in prose
        else:
            assert f"The other setting guesses “{other_top}”." in prose


def test_step2_hint_names_the_words_that_need_the_right_side(page, model):  # noqa: F811
    needs = [model.TOKENS[i] for i in model.POSITIONS
             if _top(model, i, "Both sides") == model.TOKENS[i].lower()
             and _top(model, i, "Left only") != model.TOKENS[i].lower()]
    assert needs
    hint = _part(page, 2, "hint")
    assert f"Hide “{needs[0]}”" in hint
    assert f"the toy guesses “{_top(model, model.TOKENS.index(needs[0]), 'Left only')}”" in hint
    verb = "is" if len(needs) == 1 else "are"
    assert f"words, {len(needs)} {verb} guessed right from both sides" in hint
    assert all(f"“{w}”" in hint.split("left alone:")[1] for w in needs)


def test_step2_summary_names_the_strongest_visible_word(page, model):  # noqa: F811
    _, steps, prose = page
    for state in steps[1].states:
        row = model.attention_row(model.TOKENS.index(state.choice["word"]), state.choice["context"])
        summary = prose[1].summaries[state.key][0]
        if row.sum():
            strongest = model.TOKENS[int(np.argmax(row))]
            assert f"“{strongest}” most ({round(row.max() * 100)}%)" in summary
        readable = int((row > 0).sum())
        if readable:
            assert f"{readable} {'word' if readable == 1 else 'words'} can be read" in summary
        else:
            assert "no other word can be read" in summary


def _words(n):
    return f"{n} {'word' if n == 1 else 'words'}"


def test_step2_counts_agree_with_their_words_in_every_state(page, model):  # noqa: F811
    """Issue 35: "the 1 after it are hidden", "the 0 after it are hidden", "1 words can be read"."""
    _, steps, prose = page
    for state, text in _states(page, 2):
        hidden, context = model.TOKENS.index(state.choice["word"]), state.choice["context"]
        after = len(model.TOKENS) - 1 - hidden
        summary = prose[1].summaries[state.key][0]
        for shown in (text, summary):
            assert not re.search(r"\b1 words\b|\bthe [01] after it\b", shown), shown
        if context == "Left only" and after:
            verb = "is" if after == 1 else "are"
            assert f"the {_words(after)} after it {verb} hidden" in summary
            assert f"the {_words(after)} after it {verb} hidden" in text if hidden else "nothing to read at all" in text
        elif context == "Left only":
            assert "nothing comes after it to hide" in text and "are hidden" not in summary
            assert np.allclose(model.attention_row(hidden, "Left only"), model.attention_row(hidden, "Both sides"))
            assert f"reads just the {_words(hidden)} before it" in text
        else:
            assert "after it" not in summary and "the rest are hidden" not in summary


# --- Step 3 ---------------------------------------------------------------------------------------

def test_step3_hint_adds_up_the_shares(page, model):  # noqa: F811
    hint = _part(page, 3, "hint")
    shares = model.TREATMENT_SHARES
    assert abs(sum(shares.values()) - 1) < 1e-12
    assert "the shares of chosen tokens make 100%" in hint
    assert f"the shares of all tokens make {round(model.CHOSEN_RATE * 100)}%" in hint
    assert f"The other {round((1 - model.CHOSEN_RATE) * 100)}% are context only" in hint
    assert f"about {round(512 * model.CHOSEN_RATE)} positions" in _part(page, 3, "deeper")


def test_step3_names_masked_language_modeling_not_a_game(page):
    """Issue 35: "the ordinary case of the game" (the site has a game: Spotlight)."""
    masked = [prose for state, prose in _states(page, 3) if state.choice["rule"] == "[MASK]"]
    assert len(masked) == 1 and "the ordinary case of masked language modeling" in masked[0]
    assert all("of the game" not in prose for _, prose in _states(page, 3))


def test_step3_target_is_always_the_chosen_word(page, model):  # noqa: F811
    for state, prose in _states(page, 3):
        assert "the target at the chosen position is “sat”" in prose
        if state.choice["rule"] == "Random word":
            assert f"here “{model.RANDOM_WORD}”" in prose


# --- Step 4 ---------------------------------------------------------------------------------------

def test_step4_counts(page, model):  # noqa: F811
    for state, prose in _states(page, 4):
        b = model.SENTENCE_B[state.choice["pair"]]
        assert f"the {len(model.TOKENS)} words of A, [SEP], the {len(b)} words of B" in prose
        assert f"{len(model.TOKENS) + len(b) + 3} tokens, of which 3 are special" in prose
        assert f"({len(model.TOKENS) + 2} tokens); segment B covers B and the last [SEP] ({len(b) + 1})" in prose


def test_step4_hint_says_what_changes_between_the_pairs(page, model):  # noqa: F811
    """Issue 35 (ERROR): "The label changes, and so does the length of B": both B sentences have
    four words, and both states show 13 tokens, "A: 8, B: 5"."""
    lengths = {len(b) for b in model.SENTENCE_B.values()}
    assert len(lengths) == 1
    [words] = lengths
    shown = {(s.readouts[1], s.readouts[2]) for s, _ in _states(page, 4)}
    assert shown == {(str(len(model.TOKENS) + words + 3), f"A: {len(model.TOKENS) + 2}, B: {words + 1}")}
    hint = _part(page, 4, "hint")
    assert "length of B" not in hint
    assert f"both B sentences have {_words(words)}, so the input keeps its {len(model.TOKENS) + words + 3} tokens" \
        in hint


# --- Step 5 ---------------------------------------------------------------------------------------

def test_step5_largest_part_and_growth(page, model):  # noqa: F811
    for state, prose in _states(page, 5):
        parts = model.parameter_parts(state.choice["model"])
        largest = max(parts, key=parts.get)
        assert largest == "Feed-forward"
        assert f"The largest part is the feed-forward blocks, with {round(parts[largest] / sum(parts.values()) * 100)}%" \
            in prose
    base, large = model.parameter_parts("BERT-base"), model.parameter_parts("BERT-large")
    hint = _part(page, 5, "hint")
    # "Twice the layers and a third more width give 3.1 times the weights"
    assert model.SHAPES["BERT-large"]["layers"] == 2 * model.SHAPES["BERT-base"]["layers"]
    assert model.SHAPES["BERT-large"]["hidden"] * 3 == model.SHAPES["BERT-base"]["hidden"] * 4
    assert f"{sum(large.values()) / sum(base.values()):.1f} times the weights" in hint
    # "almost all of the growth in the layers"
    layers = ("Attention", "Feed-forward", "Layer norms")
    growth = sum(large.values()) - sum(base.values())
    assert sum(large[p] - base[p] for p in layers) / growth > 0.9
    # "the token embeddings grow only with the width"
    assert large["Token embeddings"] * 768 == base["Token embeddings"] * 1024


# --- References -------------------------------------------------------------------------------------

def test_every_cited_work_is_referenced(page):
    check_references(page[0], _everything(page))


def test_no_hyphen_for_a_minus_sign(page):
    assert not re.search(r"(?<![\w)])-\d", _everything(page))


# --- Issue 22 ---------------------------------------------------------------------------------------

def _guess_from_weights(model, hidden, weights):  # noqa: F811
    """The toy's fill-in recomputed from the corpus and a row of attention weights."""
    words = [t.lower() for t in model.TOKENS]
    sentences = [s.split() for s in model.CORPUS]
    vocab = sorted({w for s in sentences for w in s})
    total = sum(len(s) for s in sentences)
    scores = []
    for candidate in vocab:
        score = np.log(sum(s.count(candidate) for s in sentences) / total)
        for j, weight in enumerate(weights):
            if weight == 0:
                continue
            d = j - hidden
            seen = [s[i] for s in sentences for i in range(len(s)) if 0 <= i + d < len(s) and s[i + d] == words[j]]
            score += weight * np.log((seen.count(candidate) + model.SMOOTHING)
                                     / (len(seen) + model.SMOOTHING * len(vocab)))
        scores.append(score)
    p = np.exp(np.array(scores) - max(scores))
    return vocab, p / p.sum()


def test_step2_the_guesses_use_the_weights_the_chart_draws(page, model):  # noqa: F811
    """The chart's row (normalised, hand-set) is what the toy weighs the evidence by, in
    every state: the guess read off the drawn weights is the guess shown."""
    _, steps, _ = page
    for state, prose in _states(page, 2):
        hidden = model.TOKENS.index(state.choice["word"])
        row = np.array(state.chart["z"][0], dtype=float)
        visible = [j for j in model.POSITIONS if not state.chart["mask"][0][j]]
        assert np.allclose(row.sum(), 1 if visible else 0)
        k = np.array([abs(j - hidden) for j in visible])
        assert np.allclose(row[visible], np.exp(-model.DECAY * (k - 1)) / np.exp(-model.DECAY * (k - 1)).sum())
        vocab, p = _guess_from_weights(model, hidden, row)
        top = vocab[int(np.argmax(p))]
        assert state.values["top_guess"] == top and state.values["probability"] == pytest.approx(p.max())
        assert f"best guess is “{top}” ({round(100 * p.max())}%)" in prose.replace(" %", "%")
    # What normalising changes (issue 22): "mat" is now guessed wrong, "sat" at 44%.
    assert _top(model, model.TOKENS.index("mat"), "Both sides") == "cat"
    assert round(100 * model.fill_in(model.TOKENS.index("sat"))[model.VOCAB.index("sat")]) == 44
    assert "scaled weights, the ones the chart shows, are what each word's evidence is multiplied by" \
        in _part(page, 2, "practitioners")


def test_step2_two_points_of_bert_kept_apart(page):
    """Devlin et al. 2019: joining LTR and RTL models as ELMo does is "strictly less
    powerful than a deep bidirectional model" (Section 5.1); bidirectional conditioning
    would let each word "see itself" (Section 3.1)."""
    explainer = page[0]
    deeper = _part(page, 2, "deeper")
    assert "as ELMo does (Peters et al., 2018), leaks nothing" in deeper
    assert "strictly less powerful than a deep bidirectional model" in deeper and "(Section 5.1)" in deeper
    assert "reach itself indirectly" in deeper and "(Section 3.1)" in deeper
    assert any(r.title == "Deep Contextualized Word Representations" for r in reference_entries(explainer))


def test_the_loss_is_counted_at_every_chosen_position(page, model):  # noqa: F811
    deeper = _part(page, 1, "deeper")
    assert "counted only at the chosen positions" in deeper and "hidden positions" not in deeper
    assert sum(model.TREATMENT_SHARES.values()) == 1   # [MASK], random and unchanged: all chosen
    assert "only chosen positions count in the loss" in " ".join(p for _, p in _states(page, 3))


def test_no_peeking_says_what_the_unchanged_tenth_shows(page, model):  # noqa: F811
    ideas = _text(page[0].key_ideas)
    assert model.TREATMENT_SHARES["Unchanged"] == 0.1
    assert "the other 10% stay in plain view" in ideas and "nothing in the input gives the answer away" not in ideas


# The pre-training heads of google-research/bert's run_pretraining.py:
# cls/predictions/transform/dense [H, H] + [H], its LayerNorm 2·H, output_bias [vocab]
# (the output weights are the token embeddings); cls/seq_relationship [2, H] + [2].
# Devlin et al. 2019, Section 3: BERT-base "Total Parameters=110M", BERT-large "340M".
PAPER_TOTALS = {"BERT-base": "110M", "BERT-large": "340M"}


@pytest.mark.parametrize("name", ["BERT-base", "BERT-large"])
def test_step5_the_count_says_what_it_leaves_out(page, model, name):  # noqa: F811
    h, vocab = model.SHAPES[name]["hidden"], 30_522
    heads = (h * h + h + 2 * h + vocab) + (2 * h + 2)
    total = sum(model.parameter_parts(name).values())
    prose = next(p for s, p in _states(page, 5) if s.choice["model"] == name)
    assert "of the encoder, its embeddings and the pooler" in prose and "Counting every weight and bias gives" not in prose
    assert f"they add {heads:,} more" in prose
    assert model.two_figures(total) == model.two_figures(total + heads) == PAPER_TOTALS[name]
    assert f"still rounds to {PAPER_TOTALS[name]}" in prose


def test_step2_the_gaps_own_cell_is_drawn_hidden_and_nearer_words_count_more(page, model):  # noqa: F811
    """Step 2's prose: the chart's weights fall with the distance from the gap, and the gap's own
    cell is hatched as hidden, in every state."""
    for state, prose in _states(page, 2):
        hidden = model.TOKENS.index(state.choice["word"])
        assert state.chart["mask"][0][hidden]
        row = np.array(state.chart["z"][0], dtype=float)
        visible = [j for j in model.POSITIONS if not state.chart["mask"][0][j]]
        for a in visible:
            for b in visible:
                if abs(a - hidden) < abs(b - hidden):
                    assert row[a] > row[b]
        assert "nearer words count more, and the gap's own cell is hatched as hidden" in prose
