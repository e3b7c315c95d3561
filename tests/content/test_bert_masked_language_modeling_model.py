"""The BERT page's toy model, against cases worked by hand and against an
independent re-implementation of its counting rule."""
import importlib.util
import math

import numpy as np
import pytest

from ..conftest import CONTENT


@pytest.fixture(scope="module")
def model():
    path = CONTENT / "bert-masked-language-modeling" / "model.py"
    spec = importlib.util.spec_from_file_location("bert_model_under_test", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_running_example_is_not_in_the_corpus(model):
    assert " ".join(model.TOKENS).lower() not in [s.lower() for s in model.CORPUS]
    assert model.TOKENS == ["The", "cat", "sat", "on", "the", "mat"]
    # Every word of the example is in the vocabulary, so every guess can be right.
    assert {t.lower() for t in model.TOKENS} <= set(model.VOCAB)


def test_counts_by_hand(model):
    # "on" stands right after "sat" in four sentences; "cat" right before it in two.
    cat, sat, on = (model.VOCAB.index(w) for w in ("cat", "sat", "on"))
    hand = sum(1 for s in model.CORPUS for i, w in enumerate(s.split()[:-1])
               if w == "sat" and s.split()[i + 1] == "on")
    assert model.COUNTS[1 + model.MAX_OFFSET, on, sat] == hand == 4
    hand = sum(1 for s in model.CORPUS for i, w in enumerate(s.split()[1:], 1)
               if w == "sat" and s.split()[i - 1] == "cat")
    assert model.COUNTS[-1 + model.MAX_OFFSET, cat, sat] == hand == 2
    assert np.allclose(model.CONDITIONAL.sum(axis=-1), 1)
    assert (model.CONDITIONAL > 0).all()
    assert math.isclose(model.UNIGRAM.sum(), 1)


def _independent_fill_in(model, hidden, left_only):
    """The rule the module docstring states, written again from scratch."""
    words = [t.lower() for t in model.TOKENS]
    vocab = sorted({w for s in model.CORPUS for w in s.split()})
    visible = [j for j in range(len(words)) if j != hidden and not (left_only and j > hidden)]
    # The hand-set attention, normalised over the visible words as step 2 draws it.
    raw = {j: math.exp(-model.DECAY * (abs(j - hidden) - 1)) for j in visible}
    attention = {j: w / sum(raw.values()) for j, w in raw.items()}
    scores = []
    for candidate in vocab:
        total = sum(s.split().count(candidate) for s in model.CORPUS)
        score = math.log(total / sum(len(s.split()) for s in model.CORPUS))
        for j, word in enumerate(words):
            if j == hidden or (left_only and j > hidden):
                continue
            d = j - hidden
            pairs = [(s.split()[i], s.split()[i + d]) for s in model.CORPUS for i in range(len(s.split()))
                     if 0 <= i + d < len(s.split()) and s.split()[i + d] == word]
            row_total = len(pairs) + model.SMOOTHING * len(vocab)
            hits = sum(1 for target, _ in pairs if target == candidate) + model.SMOOTHING
            score += attention[j] * math.log(hits / row_total)
        scores.append(score)
    scores = np.array(scores)
    p = np.exp(scores - scores.max())
    return vocab, p / p.sum()


@pytest.mark.parametrize("hidden", range(6))
@pytest.mark.parametrize("context", ["Both sides", "Left only"])
def test_fill_in_matches_the_stated_rule(model, hidden, context):
    vocab, expected = _independent_fill_in(model, hidden, context == "Left only")
    assert vocab == model.VOCAB
    assert np.allclose(model.fill_in(hidden, context), expected)


def test_guesses_are_never_tied(model):
    """A 'top guess' must be one word: the best beats the second clearly."""
    for hidden in model.POSITIONS:
        for context in model.CONTEXTS:
            p = np.sort(model.fill_in(hidden, context))[::-1]
            assert p[0] - p[1] > 0.01, (hidden, context)


def test_attention_row(model):
    for hidden in model.POSITIONS:
        both = model.attention_row(hidden, "Both sides")
        assert both[hidden] == 0 and math.isclose(both.sum(), 1)
        left = model.attention_row(hidden, "Left only")
        assert (left[hidden:] == 0).all()
        assert math.isclose(left.sum(), 1) if hidden else left.sum() == 0
    # Neighbours weigh the same and most; each further place multiplies by exp(-DECAY).
    row = model.attention_row(2, "Both sides")
    assert row[1] == row[3] == row.max()
    assert math.isclose(row[0] / row[1], math.exp(-model.DECAY))


def test_the_random_word_is_seeded_and_not_the_chosen_word(model):
    rng = np.random.default_rng(model.SEED)
    choices = [w for w in model.VOCAB if w != model.TOKENS[model.CHOSEN].lower()]
    assert model.RANDOM_WORD == choices[int(rng.integers(len(choices)))]
    assert model.RANDOM_WORD != model.TOKENS[model.CHOSEN].lower()


def test_parameter_counts_by_hand(model):
    # BERT-base, worked out by hand from its shapes (H = 768, 12 layers, 3,072-wide FFN).
    embeddings = (30522 + 512 + 2) * 768 + 2 * 768
    layer = 4 * (768 * 768 + 768) + (768 * 3072 + 3072) + (3072 * 768 + 768) + 2 * (2 * 768)
    pooler = 768 * 768 + 768
    assert sum(model.parameter_parts("BERT-base").values()) == embeddings + 12 * layer + pooler == 109_482_240
    assert sum(model.parameter_parts("BERT-large").values()) == 335_141_888


def test_two_figures(model):
    assert model.two_figures(109_482_240) == "110M"
    assert model.two_figures(335_141_888) == "340M"
    assert model.two_figures(66_000_000) == "66M"
    assert model.two_figures(1_460_000_000) == "1500M"


def test_percent_text(model):
    assert model._percent_text(0.12) == "12%"
    assert model._percent_text(0.015) == "1.5%"
    assert model._percent_text(0.8 * 0.15) == "12%"


def test_the_docstring_counts_the_tinyformers_vocabulary_as_it_is(model):
    """Issue 35: the docstring said "Its 74 words"; 74 is the vocabulary's size in tokens, of which
    two are punctuation and two are markers."""
    spec = importlib.util.spec_from_file_location("tinyformer_grammar", CONTENT / "_lib/tinyformer/grammar.py")
    grammar = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(grammar)
    words = [w for w in grammar.VOCAB if w.isalpha()]
    marks = [w for w in grammar.VOCAB if not w.isalpha() and not w.startswith("<")]
    markers = [w for w in grammar.VOCAB if w.startswith("<")]
    assert (len(grammar.VOCAB), len(words), len(marks), len(markers)) == (74, 70, 2, 2)
    assert "74 words" not in " ".join(model.__doc__.split())
    assert "74 tokens (70 words, two punctuation marks and the <mask> and <pad> markers)" in " ".join(
        model.__doc__.split())
    assert not {"sat", "on", "mat"} & set(grammar.VOCAB)
