"""Every figure of the brief (/work/shared/briefs/positional-encoding.md) in the
computed data, in the readouts and in the rendered prose, in every state; and
every combination of control values present."""
import math

import numpy as np
import pytest

from .test_positional_encoding_model import model, pe_states  # noqa: F401  (shared fixtures)
from .reader import normalise as _text  # the text a reader sees of some HTML


def _step(pe_states, number):  # noqa: F811
    _, steps, prose = pe_states
    return steps[number - 1], prose[number - 1]


def _each(pe_states, number):  # noqa: F811
    """(state, readouts by label, rendered prose) of every state of a step."""
    states, texts = _step(pe_states, number)
    labels = [r.label for r in states.step.readouts]
    return [(s, dict(zip(labels, s.readouts)), _text(texts.states[s.key][0])) for s in states.states]


def _minus(number):
    return f"{number:.2f}".replace("-", "−") if round(number, 2) != 0 else "0.00"


def test_five_steps_with_the_brief_titles(pe_states):  # noqa: F811
    _, steps, _ = pe_states
    assert [s.step.title for s in steps] == ["Order Matters", "Waves of Many Frequencies",
                                             "A Fingerprint for Every Position", "Relative Offsets",
                                             "Learned and Rotary Positions"]


def test_readout_labels_exactly_as_the_brief(pe_states):  # noqa: F811
    _, steps, _ = pe_states
    assert [[r.label for r in s.step.readouts] for s in steps] == [
        ["Sentence", "Same vector for each word"],
        ["d_model", "Pair", "Frequency", "Wavelength"],
        ["Position", "PE[0]", "PE[1]", "Norm"],
        ["Position", "Offset", "Dot product", "Same at every position"],
        ["Scheme", "Parameters", "Where it acts"],
    ]


def test_controls_as_the_brief(pe_states):  # noqa: F811
    _, steps, _ = pe_states
    one, two, three, four, five = (s.step.controls for s in steps)
    assert [(c.label, c.kind) for c in one] == [("Sentence", "buttons"), ("Positional encoding", "toggle")]
    assert list(one[0].values) == ["dog bites man", "man bites dog"] and one[1].default is False
    assert two[0].label == "Pair" and list(two[0].values) == list(range(8)) and two[0].default == 0
    assert (three[0].label, three[0].kind, list(three[0].values), three[0].default) == ("Position", "slider", list(range(32)), 5)
    assert [(c.label, list(c.values)) for c in four] == [("Position", [0, 5, 10, 20]), ("Offset", [1, 2, 4, 8])]
    assert five[0].label == "Scheme" and list(five[0].values) == ["Sinusoidal", "Learned", "Rotary"]


def test_step1_same_vector_yes_off_no_on(pe_states):  # noqa: F811
    seen = set()
    for state, readouts, _ in _each(pe_states, 1):
        assert readouts["Sentence"] == state.choice["sentence"]
        expected = "No" if state.choice["positional"] else "Yes"
        assert readouts["Same vector for each word"] == expected
        seen.add((state.choice["sentence"], expected))
    assert len(seen) == 4


def test_step1_chart_columns_follow_their_words(pe_states, model):  # noqa: F811
    states, _ = _step(pe_states, 1)
    by = {(s.choice["sentence"], s.choice["positional"]): s for s in states.states}
    for positional in (False, True):
        a, b = (np.array(by[(sentence, positional)].chart["z"]) for sentence in model.SENTENCES)
        assert a.shape == (16, 3)   # a column a word
        assert np.allclose(a, b) is (not positional)
    assert by[("dog bites man", False)].chart["x"] == ["dog (0)", "bites (1)", "man (2)"]
    assert by[("man bites dog", False)].chart["x"] == ["dog (2)", "bites (1)", "man (0)"]


@pytest.mark.parametrize("pair, wavelength", [(0, "6.28"), (1, "19.87"), (2, "62.83")])
def test_step2_wavelengths_of_the_brief(pe_states, pair, wavelength):  # noqa: F811
    state, readouts, prose = next(e for e in _each(pe_states, 2) if e[0].choice["pair"] == pair)
    assert readouts["Wavelength"] == wavelength and wavelength in prose


def test_step2_every_pair(pe_states):  # noqa: F811
    for state, readouts, prose in _each(pe_states, 2):
        i = state.choice["pair"]
        omega = 1 / 10000 ** (2 * i / 16)
        assert readouts["d_model"] == "16" and readouts["Pair"] == str(i)
        assert readouts["Frequency"] == f"{omega:#.4g}"
        assert len(readouts["Frequency"].lstrip("0.").replace(".", "")) == 4  # four significant digits
        assert readouts["Wavelength"] == f"{2 * math.pi / omega:,.2f}"
        chart = state.chart
        assert chart["series"] == ["sin", "cos"] and chart["x"] == list(range(32))
        assert np.allclose(chart["y"][0], np.sin(np.arange(32) * omega))
        assert np.allclose(chart["y"][1], np.cos(np.arange(32) * omega))
    states, _ = _step(pe_states, 2)
    assert states.step.chart.kind == "line"
    assert [_each(pe_states, 2)[i][1]["Frequency"] for i in (0, 1, 2)] == ["1.000", "0.3162", "0.1000"]


def test_step3_every_position(pe_states):  # noqa: F811
    for state, readouts, prose in _each(pe_states, 3):
        pos = state.choice["position"]
        assert readouts["Position"] == str(pos)
        assert readouts["PE[0]"] == _minus(math.sin(pos)) and readouts["PE[1]"] == _minus(math.cos(pos))
        assert readouts["Norm"] == "2.83" and "2.83" in prose
        z = np.array(state.chart["z"])
        assert z.shape == (32, 16) and np.abs(z).max() <= 1
        assert state.chart["highlight_row"] == pos
    states, _ = _step(pe_states, 3)
    default = states.by_key(states.default_key)
    assert default.choice["position"] == 5
    chart = states.step.chart
    assert (chart.kind, chart.scale, list(chart.z_range)) == ("heatmap", "diverging", [-1, 1])


def test_step4_dot_product_and_same_at_every_position(pe_states):  # noqa: F811
    for state, readouts, prose in _each(pe_states, 4):
        pos, k = state.choice["position"], state.choice["offset"]
        formula = sum(math.cos(k / 10000 ** (2 * i / 16)) for i in range(8))
        assert readouts["Position"] == str(pos) and readouts["Offset"] == str(k)
        assert readouts["Dot product"] == f"{formula:.2f}"
        assert readouts["Same at every position"] == "Yes"
        assert state.chart["rule"] == pos + k and state.chart["rule_label"] == f"pos + offset = {pos + k}"
        assert state.chart["y"][pos + k] == pytest.approx(formula)
        if k == 1:
            assert readouts["Dot product"] == "7.49" and "7.49" in prose


def test_step5_parameters_and_where_it_acts(pe_states):  # noqa: F811
    expected = {"Sinusoidal": ("0", "added to the input"), "Learned": ("512", "added to the input"),
                "Rotary": ("0", "rotates queries and keys")}
    for state, readouts, _ in _each(pe_states, 5):
        scheme = state.choice["scheme"]
        assert readouts["Scheme"] == scheme
        assert (readouts["Parameters"], readouts["Where it acts"]) == expected[scheme]
        z = np.array(state.chart["z"])
        assert z.shape == (32, 32) and np.abs(z).max() <= 1 + 1e-9
    states, _ = _step(pe_states, 5)
    assert (states.step.chart.kind, states.step.chart.scale) == ("heatmap", "diverging")
