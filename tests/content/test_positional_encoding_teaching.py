"""What the positional-encoding page teaches, checked against the data.

Each test recomputes from the toy model what a sentence of the page claims,
without going through the values the step functions return, and checks that
the rendered text says it. A test fails if the toy changes and the prose no
longer holds."""
import itertools
import math
import re

import numpy as np
import pytest

from generator.compute import formats

from .test_positional_encoding_model import model, pe_states  # noqa: F401  (shared fixtures)
from .reader import normalise as _text  # the text a reader sees of some HTML
from .reader import check_references, reference_entries


def _states(pe_states, number):  # noqa: F811
    """[(state, rendered prose text)] of every state of a step."""
    _, steps, prose = pe_states
    states, texts = steps[number - 1], prose[number - 1]
    return [(s, _text(texts.states[s.key][0])) for s in states.states]


def _part(pe_states, number, part):  # noqa: F811
    _, _, prose = pe_states
    return _text(getattr(prose[number - 1], part))


def _f(value, digits=2):
    """As the page writes a number: the minus sign, and no sign on a value that rounds to zero."""
    text = f"{value:.{digits}f}"
    return text.lstrip("-") if float(text) == 0 else text.replace("-", "−")


def _explainer(pe_states):  # noqa: F811
    return pe_states[0].pages[0]


def _everything(pe_states):  # noqa: F811
    explainer = _explainer(pe_states)
    _, steps, prose = pe_states
    parts = [explainer.intro, explainer.key_ideas, explainer.questions]
    for texts in prose:
        parts += [texts.hint or "", texts.deeper or "", texts.practitioners or ""] + [html for html, _ in texts.states.values()]
    return _text(" ".join(parts))


# Step 1: without positions the outputs only move with their words.

def test_step1_claims(pe_states, model):  # noqa: F811
    for state, prose in _states(pe_states, 1):
        sentence, positional = state.choice["sentence"], state.choice["positional"]
        other = next(s for s in model.SENTENCES if s != sentence)
        a = model.attention_outputs(sentence.split(), positional)
        b = model.attention_outputs(other.split(), positional)
        order = [other.split().index(w) for w in sentence.split()]
        changes = {w: float(np.linalg.norm(a[i] - b[order[i]])) for i, w in enumerate(sentence.split())}
        subject, obj = sentence.split()[0], sentence.split()[-1]
        assert f"the {subject} does the biting" in prose and f"it is the {obj}'s turn" in prose
        if not positional:
            assert max(changes.values()) < 1e-12
            assert "exactly the same output vector in both sentences" in prose
        else:
            most = max(changes, key=changes.get)
            assert f"{most} moves furthest" in prose and _f(changes[most]) in prose
            middle = [w for w in model.WORDS if sentence.split().index(w) == other.split().index(w)]
            assert middle == ["bites"] and changes["bites"] > 0.05
            assert f"Even bites , which sits in the middle of both sentences, changes by {_f(changes['bites'])}" in prose
    deeper = _part(pe_states, 1, "deeper")
    assert "random" in deeper and "untrained" in deeper  # the toy layer says what it is
    assert "How Self-Attention Works" in _part(pe_states, 1, "practitioners")


# Step 2: the waves.

def test_step2_claims(pe_states, model):  # noqa: F811
    for state, prose in _states(pe_states, 2):
        i = state.choice["pair"]
        cycles = 32 * model.OMEGA[i] / (2 * math.pi)
        assert f"dimensions {2 * i} and {2 * i + 1}" in prose
        assert f"One full wave, 2π/ω, takes {2 * math.pi / model.OMEGA[i]:,.2f} positions" in prose
        if cycles >= 2:
            assert f"repeats about {cycles:.1f} times" in prose
        elif cycles < 1:
            # "no two positions get the same pair of values": the angle stays below one turn
            pairs = {(round(math.sin(p * model.OMEGA[i]), 9), round(math.cos(p * model.OMEGA[i]), 9)) for p in range(32)}
            assert len(pairs) == 32
    ratio = model.wavelength(1) / model.wavelength(0)
    assert all(math.isclose(model.wavelength(j + 1) / model.wavelength(j), ratio) for j in range(7))
    assert f"{ratio:.2f} times longer" in _part(pe_states, 2, "hint")
    deeper = _part(pe_states, 2, "deeper")
    assert f"2π ({2 * math.pi:.2f})" in deeper and f"10000 · 2π ({20000 * math.pi:,.2f})" in deeper
    assert f"stops at {model.wavelength(7):,.2f}" in deeper and "256 pairs" in _part(pe_states, 2, "practitioners")


# Step 3: a distinct vector of the same length for every position.

def test_step3_claims(pe_states, model):  # noqa: F811
    pe = model.encoding(range(32))
    distances = np.linalg.norm(pe[:, None] - pe[None], axis=2)
    np.fill_diagonal(distances, np.inf)
    for state, prose in _states(pe_states, 3):
        pos = state.choice["position"]
        nearest = int(np.argmin(distances[pos]))
        # Every row as near as the nearest: a middle row's two neighbours tie exactly.
        tied = [p for p in range(32) if distances[pos, p] - distances[pos, nearest] < 1e-9]
        assert len(tied) == (1 if pos in (0, 31) else 2) and all(abs(p - pos) == 1 for p in tied)
        if len(tied) == 1:
            assert f"The nearest other row is position {nearest}'s, at a distance of {_f(distances[pos, nearest])}" in prose
        else:
            assert f"nearest other rows are positions {tied[0]} and {tied[1]}, tied exactly at a distance of " \
                   f"{_f(distances[pos, nearest])}" in prose
        moved = np.abs(pe[pos, -2:] - pe[0, -2:]).max()
        if pos == 0:
            assert np.array_equal(pe[0], np.tile([0.0, 1.0], 8))
            assert "every sine is 0 and every cosine 1" in prose
        else:
            assert f"by less than {formats.upper_bound(moved, 3)}" in prose
    deeper = _part(pe_states, 3, "deeper")
    assert len({tuple(np.round(r, 9)) for r in pe}) == 32 and "All 32 rows are different" in deeper
    neighbours = [distances[p, p + 1] for p in range(31)]
    assert np.allclose(neighbours, distances.min()) and f"distance of {_f(distances.min())}" in deeper
    assert "added" in deeper and "not appended" in deeper


# Step 4: offsets.

def test_step4_claims(pe_states, model):  # noqa: F811
    pe = model.encoding(range(32))
    for state, prose in _states(pe_states, 4):
        pos, k = state.choice["position"], state.choice["offset"]
        dots = pe @ pe[pos]
        assert int(np.argmax(dots)) == pos and dots[pos] == pytest.approx(8)
        assert (pos == 0 or dots[pos - 1] < dots[pos]) and dots[pos + 1] < dots[pos]
        if pos - k >= 0:
            assert dots[pos - k] == pytest.approx(dots[pos + k])
            assert f"The position {k} behind, {pos - k}, scores the same {_f(dots[pos - k])}" in prose
        else:
            assert "behind" not in prose
        assert f"{_f(k * model.OMEGA[0])} radians for pair 0" in prose
    sums = [sum(math.cos(k * w) for w in model.OMEGA) for k in range(32)]
    deeper = _part(pe_states, 4, "deeper")
    dip = next(k for k in range(1, 31) if sums[k - 1] > sums[k] < sums[k + 1])
    bump = next(k for k in range(dip + 1, 31) if sums[k - 1] < sums[k] > sums[k + 1])
    assert sums[bump] > sums[dip]
    assert f"dips to {_f(sums[dip])} at offset {dip} and climbs back to {_f(sums[bump])} at offset {bump}" in deeper
    hint = _part(pe_states, 4, "hint")
    assert f"stays at {_f(sums[1])}" in hint and f"fall to {_f(sums[8])}" in hint and sums[8] < sums[4] < sums[2] < sums[1]
    # The paper's own words, kept as the paper gives them: a hypothesis, and a near tie.
    paper = _part(pe_states, 4, "practitioners")  # the lesson's length: a practitioner's detail
    assert "hypothesis" in paper and "25.7 BLEU against 25.8" in paper and "4.92" in paper


# Step 5: the three schemes.

def test_step5_claims(pe_states, model):  # noqa: F811
    for state, prose in _states(pe_states, 5):
        scheme = state.choice["scheme"]
        matrix = model.similarity(scheme)
        near = np.mean([matrix[m, m + 1] for m in range(31)] + [matrix[m + 1, m] for m in range(31)])
        far = np.mean([matrix[m, n] for m in range(32) for n in range(32) if abs(m - n) >= 16])
        if scheme != "Rotary":  # the rotary sentence gives the offsets ±1 instead
            assert f"{_f(near)}), positions 16 or more apart" in prose or f"neighbours average {_f(near)}" in prose
            assert _f(far) in prose
        constant = max(np.ptp(np.diagonal(matrix, d)) for d in range(-31, 32)) < 1e-9
        if scheme == "Learned":
            assert not constant and abs(near) < 0.2 and "random values" in prose
            assert "512 parameters" in prose
        else:
            assert constant and "diagonal" in prose
        if scheme == "Rotary":
            assert not np.allclose(matrix, matrix.T)
            assert f"one step ahead scores {_f(matrix[0, 1])}, one step behind {_f(matrix[1, 0])}) only because the " \
                   "key differs from the query" in prose
            assert "noisy copy" in prose
            # With the key equal to the query the rotary chart is symmetric: the asymmetry is the key's.
            q = np.array([model.rotate(model.QUERY, m) for m in range(32)])
            same = model.cosine_matrix(q, q)
            assert np.allclose(same, same.T)
    assert "393,216" in _part(pe_states, 5, "deeper") and 512 * 768 == 393216


def test_intro_and_questions_name_the_toy_sizes(pe_states, model):  # noqa: F811
    explainer = _explainer(pe_states)
    assert f"{model.D_MODEL} dimensions" in _text(explainer.intro) and f"{model.N_POSITIONS} positions" in _text(explainer.intro)
    questions = re.findall(r"^### (.+)$", explainer.questions, flags=re.M)
    assert questions == ["Why sine and cosine?", "Why add the encoding instead of concatenating it?",
                         "What happens past the longest training length?", "Which scheme do modern models use?"]


# Every work the page names is in its references, and every reference is used.

def test_every_cited_work_is_referenced(pe_states):  # noqa: F811
    check_references(_explainer(pe_states), _everything(pe_states))


def test_no_hyphen_minus_in_numbers(pe_states):  # noqa: F811
    assert not re.search(r"(?<![\w-])-\d", _everything(pe_states))


# Issue 22

def _diagonal_spread(matrix):
    n = len(matrix)
    return max(float(np.ptp(np.diagonal(matrix, k))) for k in range(-(n - 1), n))


def _cosines(a, b):
    a = a / np.linalg.norm(a, axis=1, keepdims=True)
    b = b / np.linalg.norm(b, axis=1, keepdims=True)
    return a @ b.T


def test_step5_projections_undo_the_offset_pattern_of_added_encodings(pe_states, model):  # noqa: F811
    """Added encodings pass through W_Q and W_K: the positions' part of the scores is then
    neither offset-only nor symmetric. RoPE turns the projected query and key, so its
    scores stay offset-only after any projection."""
    pe = model.encoding(range(32))
    projected = _cosines(pe @ model.W_Q, pe @ model.W_K)
    spread = _diagonal_spread(projected)
    assert spread > 0.5 and not np.allclose(projected, projected.T, atol=0.1)
    _, _, prose = next((s, None, p) for s, p in _states(pe_states, 5) if s.choice["scheme"] == "Sinusoidal")
    assert "That is the raw encodings" in prose and f"vary by up to {formats.upper_bound(spread, 2)}" in prose
    assert "not symmetric" in prose and "cross terms" in prose
    rng = np.random.default_rng(0)
    for _ in range(3):     # any projections: the rotation comes after them
        w_q, w_k = rng.normal(size=(2, 16, 16))
        q, k = model.QUERY @ w_q, model.KEY @ w_k
        rope = _cosines(np.array([model.rotate(q, m) for m in range(32)]),
                        np.array([model.rotate(k, n) for n in range(32)]))
        assert _diagonal_spread(rope) < 1e-9
    rotary = next(p for s, p in _states(pe_states, 5) if s.choice["scheme"] == "Rotary")
    assert "it still does after the projections" in rotary and "direction is not lost" not in rotary


def test_a_larger_base_slows_every_wave_but_the_fastest(pe_states, model):  # noqa: F811
    """Grattafiori et al. 2024: Llama 3 raises the rotary base from 10,000 to 500,000."""
    old, new = model.frequencies(), model.frequencies(base=500_000)
    assert old[0] == new[0] == 1.0 and (new[1:] < old[1:]).all()
    assert model.LLAMA3_BASE == 500_000
    questions = _text(_explainer(pe_states).questions)
    assert "slows every wave but the fastest" in questions and "base⁰ = 1 whatever the base" in questions
    assert "slows every wave down" not in questions


def _shown(text):
    """A number as the page writes it, read back."""
    return float(text.replace("\u2212", "-").replace(",", ""))


def test_step2_slow_pairs_bound_their_waves_as_shown(pe_states, model):  # noqa: F811
    """Issue 35 (ERROR): "the cosine stays above 1.00" for pairs 5 to 7, whose minima are 0.9952,
    0.99954 and 0.99995. Every bound, as shown, holds strictly over the chart's positions, and
    says something (no cosine 'above −1.00', no sine 'below 1.00')."""
    slow = 0
    for state, prose in _states(pe_states, 2):
        i = state.choice["pair"]
        angles = np.arange(32) * model.OMEGA[i]
        if 32 * model.OMEGA[i] / (2 * math.pi) < 0.1:
            slow += 1
            found = re.search(r"the sine stays below (\S+) and the cosine above (\S+), so", prose)
            assert found, prose
            below, above = map(_shown, found.groups())
            assert np.sin(angles).max() < below < 1 and -1 < above < np.cos(angles).min()
            assert round(below - np.sin(angles).max(), 9) <= 0.01 and round(np.cos(angles).min() - above, 9) <= 0.01
        assert "stays above 1.00" not in prose and "thousands of positions long" not in prose
    assert slow == 4  # pairs 4 to 7


def test_step2_frequency_is_called_an_angular_frequency(pe_states, model):  # noqa: F811
    """Issue 35: "Frequency 1.000" beside "Wavelength 6.28" is ω in radians per position."""
    _, steps, prose = pe_states
    for state, text in _states(pe_states, 2):
        caption = prose[1].states[state.key][1]
        assert f"angular frequency {state.values['frequency']} radians per position" in caption
        assert f"ω = {state.values['frequency']}: an angular frequency, in radians per position" in text
        assert math.isclose(2 * math.pi / model.OMEGA[state.choice["pair"]], state.values["wavelength"])
    assert "angular frequency of pair i, in radians per position" in _part(pe_states, 2, "deeper")


def test_step3_the_slowest_columns_move_by_less_than_the_bound_shown(pe_states, model):  # noqa: F811
    """Issue 35: "(by at most 0.000)" at position 1, where the last columns move by 0.00032."""
    pe = model.encoding(range(32))
    for state, prose in _states(pe_states, 3):
        pos = state.choice["position"]
        if pos == 0:
            continue
        moved = np.abs(pe[pos, -2:] - pe[0, -2:]).max()
        bound = _shown(re.search(r"\(by less than (\S+)\)", prose).group(1))
        assert 0 < moved < bound <= moved + 0.001 and "by at most" not in prose


def test_a_causal_mask_lets_a_word_see_itself(pe_states):  # noqa: F811
    deeper = _part(pe_states, 1, "practitioners")
    assert "see only itself and the words before it" in deeper


def test_learned_tables_are_not_called_later_than_the_transformer(pe_states):  # noqa: F811
    """Vaswani et al. 2017, Section 3.5, tried "learned positional embeddings [9]", [9] being
    Gehring et al. 2017 (ConvS2S), and report them in Table 3, row (E)."""
    explainer = _explainer(pe_states)
    intro, ideas = _text(explainer.intro), _text(explainer.key_ideas)
    assert "Later models" not in intro + ideas and "moved on" not in ideas
    assert "older than the Transformer" in intro and "Gehring et al. (2017)" in intro and "Table 3, row E" in intro
    assert any(r.title == "Convolutional Sequence to Sequence Learning" for r in reference_entries(explainer))
