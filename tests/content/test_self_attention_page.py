"""The self-attention explainer, state by state: every state the reader can reach
is enumerated, and each claim its prose (and its charts' captions) makes is
recomputed from the toy model's weights, not from the values the steps return.
At the end, the built page opened from disk (file://) with the network cut, read
as a reader would. Every step's title, counter, default state and every control's
states are checked for every explainer by tests/test_every_explainer.py."""
import math
import re

import numpy as np
import pytest

from .reader import open_explainer, readouts
from .test_self_attention_figures import computed, fixed  # noqa: F401  (the computed page)
from .test_self_attention_model import model  # noqa: F401  (the toy model, imported from content/)
from .test_self_attention_teaching import text_of

SLUG = "self-attention"
TOKENS = ["The", "cat", "sat", "on", "the", "mat"]


def states_of(computed, number):  # noqa: F811
    """Every state of a step, with its prose and captions as a reader reads them."""
    _, steps, prose = computed
    texts = prose[number - 1]
    for state in steps[number - 1].states:
        yield state, text_of(texts.states[state.key][0]), " ".join(texts.summaries[state.key])


def v2(x):
    return model_vector(x, 2)


def model_vector(numbers, digits):
    return "(" + ", ".join(fixed(x, digits) for x in numbers) + ")"


def ties(row, i):
    return [TOKENS[j] for j in range(len(row)) if j != i and row[j] == row[i]]


def test_step1_every_state(computed, model):  # noqa: F811
    x = model.embed(TOKENS)
    q, k = x @ model.W_Q, x @ model.W_K
    scores = q @ k.T
    for state, text, captions in states_of(computed, 1):
        i = TOKENS.index(state.choice["query"])
        row = scores[i]
        top = int(np.argmax(row))
        features = [model.FEATURES[j] for j in np.flatnonzero(x[i])]
        wanted = [("an " if d[0] in "aeiou" else "a ") + d for d, value in zip(model.QK_DIMS, q[i]) if value > 0]
        plural = "s" if len(features) > 1 else ""
        assert f"has the feature{plural} {' and '.join(features)}, " \
               f"so its query looks for {' and '.join(wanted)}" in text
        assert f"q = {model_vector(q[i], 1)}" in text and f"k = {model_vector(k[top], 1)}" in text
        assert f"Its top key is {TOKENS[top]}" in text
        assert (", tied with" in text) == bool(ties(row, top))
        if ties(row, top):
            assert f"tied with {' and '.join(ties(row, top))}" in text
        products = q[i] * k[top]
        assert f"add up to {fixed(products.sum(), 2)}" in text and products.sum() == row[top]
        assert f"They add up to {fixed(row.sum(), 2)}, not 1" in text and not math.isclose(row.sum(), 1)
        negative = [TOKENS[j] for j in range(6) if row[j] < 0]
        assert ("below zero" in text) == bool(negative)
        if negative:
            assert f"{' and '.join(negative)} score below zero, down to {fixed(row.min(), 2)}" in text
            # "a noun's query points away from other nouns": a noun's query, and only nouns below zero.
            assert "noun" in features and all(x[TOKENS.index(t)][model.FEATURES.index("noun")] for t in negative)
        assert f"which add up to {fixed(row[top], 2)}" in captions


def test_step2_every_state(computed, model):  # noqa: F811
    for state, text, captions in states_of(computed, 2):
        i, factor = TOKENS.index(state.choice["query"]), state.choice["factor"]
        raw = model.SCORES[i]
        w = np.exp(raw * factor) / np.exp(raw * factor).sum()
        top = int(np.argmax(w))
        assert (w > 0).all() and "Every weight is positive" in text and "they sum to 1.00" in text
        assert list(np.argsort(-w, kind="stable")) == list(np.argsort(-raw, kind="stable"))
        assert "the weights rank the keys as the scores do" in text
        if ties(w, top):
            assert f"{TOKENS[top]} and {' and '.join(ties(w, top))}, with the highest score, get the most, " \
                   f"{fixed(w[top], 2)} each" in text
        else:
            assert f"{TOKENS[top]}, with the highest score, gets the most, {fixed(w[top], 2)}" in text
        entropies = [-(p * np.log2(p)).sum() for p in (np.exp(raw * f) / np.exp(raw * f).sum() for f in (0.5, 1, 2))]
        assert entropies[0] > entropies[1] > entropies[2]
        assert f"it falls from {fixed(entropies[0], 2)} bits at × 0.5 to {fixed(entropies[2], 2)} at × 2" in text
        entropy = -(w * np.log2(w)).sum()
        assert f"The entropy, {fixed(entropy, 2)} bits" in text and f"{fixed(math.log2(6), 2)} if all 6" in text
        assert ("what if they were smaller?" in text) == (factor < 1)
        assert ("what if they were larger?" in text) == (factor > 1)
        assert f"the entropy is {fixed(entropy, 2)} bits" in captions


def test_step3_every_state(computed, model):  # noqa: F811
    rng = np.random.default_rng(model.SCALING_SEED)
    q, k = rng.standard_normal((6, 256))[1], rng.standard_normal((6, 256))
    for state, text, _ in states_of(computed, 3):
        d, scaled = state.choice["d_k"], state.choice["scaled"]
        raw = k[:, :d] @ q[:d]
        s = raw / math.sqrt(d) if scaled else raw
        w = np.exp(s - s.max()) / np.exp(s - s.max()).sum()
        top = f"k{int(np.argmax(w)) + 1}"
        assert "not the toy's words but random numbers" in text and "with mean 0 and variance 1" in text
        assert "Score spread is the standard deviation of the scores" in text
        assert f"roughly √d_k = {math.isqrt(d)}" in text and 0.5 < np.std(raw) / math.sqrt(d) < 1.5
        assert f"the spread is {fixed(np.std(s), 2)}" in text or f"with a spread of {fixed(np.std(s), 2)}" in text
        saturated = not scaled and w.max() >= 0.90
        assert ("Softmax is saturated" in text) == saturated
        if saturated:
            assert f"{top} takes {fixed(w.max(), 2)} of the weight, and the other 5 keys share " \
                   f"{fixed(1 - w.max(), 2)}" in text
        else:
            assert f"{top} gets the largest weight, {fixed(w.max(), 2)}" in text
        if scaled:      # "the other keys keep a real share"
            assert "the other keys keep a real share" in text and 1 - w.max() > 0.4
        # The toy's weights are step 2's Scores × 0.5: dividing by √4 = 2.
        assert "dividing its scores by √4 = 2 is step 2's Scores × 0.5" in text
    assert np.allclose(model.WEIGHTS, np.exp(model.SCORES / 2) / np.exp(model.SCORES / 2).sum(axis=1, keepdims=True))
    _, steps, _ = computed
    for state in steps[3].states:   # step 4's bars are step 2's at × 0.5
        twin = next(s for s in steps[1].states if s.choice == {"query": state.choice["query"], "factor": 0.5})
        assert state.charts[0]["y"] == twin.charts[1]["y"]


def test_step4_every_state(computed, model):  # noqa: F811
    x = model.embed(TOKENS)
    k, v = x @ model.W_K, x @ model.W_V
    cat = TOKENS.index("cat")
    assert [model.QK_DIMS[j] for j in np.flatnonzero(k[cat])] == ["noun", "animal"]
    assert [model.V_DIMS[j] for j in np.flatnonzero(v[cat])] == ["animal"]
    average = v.mean(axis=0)
    for state, text, captions in states_of(computed, 4):
        i = TOKENS.index(state.choice["query"])
        s = model.SCORES[i] / 2
        w = np.exp(s) / np.exp(s).sum()
        output = w @ v
        top = int(np.argmax(w))
        assert f"output = Σ wᵢvᵢ = {v2(output)}, 4 numbers" in text
        assert f"{TOKENS[top]} has the largest weight, {fixed(w[top], 2)}" in text
        near_top = np.linalg.norm(output - v[top]) < np.linalg.norm(output - average)
        if near_top:
            assert f"closer to the value of {TOKENS[top]} than to the plain average of the 6 values, " \
                   f"{v2(average)}" in text
            assert f"its largest number is in the {model.V_DIMS[int(np.argmax(output))]} column, as in " \
                   f"{TOKENS[top]}'s value" in text and np.argmax(output) == np.argmax(v[top])
        else:
            assert f"Yet the other 5 words hold {fixed(1 - w[top], 2)} of the weight, and the output is closer " \
                   f"to the plain average of the 6 values, {v2(average)}, than to the value of {TOKENS[top]}" in text
        assert ((output >= v.min(axis=0)) & (output <= v.max(axis=0))).all()
        assert "lies between the smallest and the largest number of its column" in text
        assert f"the output of {TOKENS[i]}, {v2(output)}, and the plain average of the 6 values, " \
               f"{v2(average)}" in captions


def test_step5_every_state(computed, model):  # noqa: F811
    for state, text, captions in states_of(computed, 5):
        length, view = state.choice["length"], state.choice["view"]
        words = model.LONG_TEXT[:length]
        x = model.embed(words)
        s = (x @ model.W_Q) @ (x @ model.W_K).T / 2
        z = np.array(state.chart["z"])
        if view == "Scores":
            sums = s.sum(axis=1)
            assert f"from {fixed(sums.min(), 2)} to {fixed(sums.max(), 2)} here" in text
        else:
            assert "every row sums to 1.00" in text
        assert f"{length * length:,} entries for {length} words" in text
        assert "row 2, cat's, is outlined" in text and words[1] == "cat"
        assert state.chart["regions"][0]["rows"] == 1 and "row 2, cat's, outlined" in captions
        # "A word that comes back gets the same vector each time, so its row is a copy."
        for word in set(words):
            rows = [z[j] for j, w in enumerate(words) if w == word]
            assert all(np.array_equal(rows[0], r) for r in rows[1:])
        if length == 6:
            assert "The and the have the same vector, and the same row" in text
            assert np.array_equal(x[0], x[4]) and np.array_equal(z[0], z[4])


def test_step6_every_state(computed, model):  # noqa: F811
    _, _, shuffled = model.attention(model.X[model.SHUFFLE])
    assert model.SCORES[0, 1] == model.SCORES[0, 5]   # "The, in step 1, gave cat and mat equal scores"
    for state, text, _ in states_of(computed, 6):
        i = TOKENS.index(state.choice["query"])
        w = model.WEIGHTS[i]
        top = int(np.argmax(w))
        if ties(w, top):
            assert f"Its largest weight goes to {TOKENS[top]} and {' and '.join(ties(w, top))}, " \
                   f"{fixed(w[top], 2)} each, in either order" in text
        else:
            assert f"Its largest weight goes to {TOKENS[top]}, {fixed(w[top], 2)}, in either order" in text
        assert np.abs(model.OUTPUTS[i] - shuffled[model.SHUFFLE.index(i)]).max() < 1e-12
        assert f"Its output, {v2(model.OUTPUTS[i])}, is the same in both orders" in text
        assert "cat and mat equal scores" in text and "permutation-equivariant" in text
        assert 'href="page:positional-encoding"' in _html(computed, 6, state)
        assert 'href="page:decoder-only-transformers#step-1"' in _html(computed, 6, state)


def _html(computed, number, state):  # noqa: F811
    _, _, prose = computed
    return prose[number - 1].states[state.key][0]


def test_every_state_says_nothing_the_model_does_not_compute(computed):  # noqa: F811
    """No leftover of the random toy: chance, seeds, temperature, in any state."""
    for number in range(1, 7):
        for state, text, captions in states_of(computed, number):
            assert not re.search(r"\bchance\b|temperature|seed", text + captions, re.I) or number == 3
            assert "temperature" not in (text + captions).lower()


# The built page, as a reader sees it -----------------------------------------------------------

@pytest.fixture
def page(built_site, offline_page):
    return open_explainer(offline_page, built_site[0], SLUG)


def test_the_brief_figures_as_the_reader_sees_them(page):
    p = page.page
    three = p.get_by_role("region", name="Scaling by √d_k", exact=True)
    three.scroll_into_view_if_needed()
    assert dict(zip(*readouts(three)))["Scale"] == "0.125"
    three.get_by_role("button", name="Scale by √d_k", exact=True).click()
    three.get_by_role("group", name="d_k", exact=True).get_by_role("button", name="256", exact=True).click()
    shown = dict(zip(*readouts(three)))
    assert shown["Scale"] == "1.000" and float(shown["Top weight"]) >= 0.90
    two = p.get_by_role("region", name="Softmax", exact=True)
    two.scroll_into_view_if_needed()
    two.get_by_role("group", name="Scores ×", exact=True).get_by_role("button", name="2", exact=True).click()
    assert dict(zip(*readouts(two)))["Sum of weights"] == "1.00"
    five = p.get_by_role("region", name="All Queries at Once", exact=True)
    five.scroll_into_view_if_needed()
    five.get_by_role("group", name="Length", exact=True).get_by_role("button", name="48", exact=True).click()
    assert dict(zip(*readouts(five))) == {"Matrix shape": "48×48", "Score entries": "2,304", "Row sums": "1.00"}
    five.get_by_role("group", name="View", exact=True).get_by_role("button", name="Scores", exact=True).click()
    assert dict(zip(*readouts(five)))["Row sums"] == "varies"
    one = p.get_by_role("region", name="Queries and Keys", exact=True)
    # The default row's negative scores are drawn below the axis, with the minus sign in the table.
    one.scroll_into_view_if_needed()
    scores = one.locator("[data-chart]").nth(1)
    scores.locator(".main-svg").first.wait_for()
    bars = scores.evaluate("el => el.layout.shapes.filter(s => s.layer === 'between')")
    assert min(bar["y1"] for bar in bars) < 0 == min(bar["y0"] for bar in bars)
    one.get_by_text("Show data", exact=True).nth(1).click()
    table = one.get_by_role("table").inner_text()
    assert "\u2212" in table and "-" not in table
    assert page.blocked == [] and page.errors == []
