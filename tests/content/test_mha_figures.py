"""Every figure of the brief (../shared/briefs/multi-head-attention.md), in
the computed data, in the readouts and in the rendered prose of the default
states; and every combination of control values present."""
import re

import pytest

from .reader import as_read


@pytest.fixture(scope="module")
def computed(mha_states):
    return mha_states


def step(computed, number):
    _, steps, prose = computed
    return steps[number - 1], prose[number - 1]


def default(computed, number):
    states, texts = step(computed, number)
    state = states.by_key(states.default_key)
    html, summary = texts.states[states.default_key]
    return state, dict(zip([r.label for r in states.step.readouts], state.readouts)), _text(html)


def _text(html):
    return " ".join(re.sub(r"<[^>]+>", " ", as_read(html)).split())


def test_six_steps_with_the_brief_titles(computed):
    _, steps, _ = computed
    assert [s.step.title for s in steps] == ["One Head's Limit", "Multiple Heads", "Different Patterns",
                                             "Concatenation", "Output Projection", "Multi-Head in Action"]


def test_step1_one_heads_limit(computed):
    state, readouts, prose = default(computed, 1)
    assert state.choice == {"query": "cat"}
    assert readouts == {"Query": "cat", "Top key": "cat", "Entropy (bits)": "2.54"}
    assert round(state.values["top_weight"], 2) == 0.22
    assert round(state.values["max_entropy"], 2) == 2.58
    assert "22%" in prose.replace(" %", "%") and "2.54" in prose
    states, _ = step(computed, 1)
    entropies = [s.values["entropy"] for s in states.states]
    assert len(entropies) == 6
    assert all(2.53 <= round(e, 2) <= 2.58 for e in entropies)


@pytest.mark.parametrize("heads, d_k", [(1, "64"), (2, "32"), (4, "16"), (8, "8")])
def test_step2_multiple_heads(computed, heads, d_k):
    states, _ = step(computed, 2)
    assert states.step.controls[0].default == 4
    state = states.by_key(str(states.step.controls[0].values.index(heads)))
    readouts = dict(zip([r.label for r in states.step.readouts], state.readouts))
    assert readouts == {"d_model": "64", "Heads": str(heads), "d_k": d_k, "Params (4·d_model²)": "16,384"}


def test_step3_different_patterns(computed):
    state, readouts, prose = default(computed, 3)
    assert state.choice == {"head": 1, "query": "cat"}
    assert readouts == {"Head": "Head 1", "Pattern": "Positional", "Top key": "cat", "Entropy": "2.00"}
    assert round(state.values["window_share"], 2) == 0.88
    assert "88%" in prose.replace(" %", "%") and "2.00" in prose
    assert "hand" in prose.lower()  # the page says the patterns are hand-set
    states, _ = step(computed, 3)
    names = {s.values["pattern"] for s in states.states}
    assert len(names) == 8


def test_step4_concatenation(computed):
    states, _ = step(computed, 4)
    for state in states.states:
        readouts = dict(zip([r.label for r in states.step.readouts], state.readouts))
        assert readouts == {"Per head": str(64 // state.choice["heads"]), "Concat": "64", "Output": "64"}
    state, _, prose = default(computed, 4)
    assert state.choice == {"heads": 4} and "0–15" in prose and "16–31" in prose


def test_step5_output_projection(computed):
    state, readouts, prose = default(computed, 5)
    assert readouts == {"Concat": "64", "W_O shape": "64×64", "Output": "64", "Share": "35%"}
    assert "35%" in prose.replace(" %", "%") and "simplified" in prose
    states, _ = step(computed, 5)
    shares = [s.values["share"] for s in states.states]
    assert sum(shares) == pytest.approx(1)
    assert sum(int(r.readouts[3].rstrip("%")) for r in states.states) == 100


def test_step6_multi_head_in_action(computed):
    state, readouts, prose = default(computed, 6)
    assert readouts == {"Head": "Head 1", "Query": "cat", "Top key": "cat", "Weight": "0.47"}
    assert "0.47" in prose and state.values["pattern"] == "Positional"
    assert len(state.chart["z"]) == 4 and state.chart["highlight"] == 0


def test_numbers_in_prose_come_from_values(computed):
    """Digits in a step's prose must change with the data: rendering with every
    numeric value shifted must change every number the reader sees."""
    _, steps, prose = computed
    for states, texts in zip(steps, prose):
        html, _ = texts.states[states.default_key]
        # Only these literal digits may appear: head names, formula exponents and citation years.
        stripped = re.sub(r"\b[Hh]eads? \d\b(?!%)|d_model²|log₂|log2|\b(19|20)\d\d\b|GPT-3|\b[0-9]+(?=\))", "",
                          _text(html))
        numbers = re.findall(r"\d[\d,.]*", stripped)
        values = states.by_key(states.default_key).values
        rendered = {str(v) for v in _flatten(values.values())}
        formatted = {f(v) for v in _flatten(values.values()) if isinstance(v, (int, float))
                     for f in (_pct, _pct1, _fix2, _count, str)}
        for number in numbers:
            number = number.rstrip(".,")
            assert number in rendered | formatted or _is_range_part(number, values), \
                (states.step.title, number)


def _flatten(values):
    for v in values:
        if isinstance(v, (list, tuple)):
            yield from _flatten(v)
        yield v


def _pct(v):
    return f"{round(v * 100)}" if isinstance(v, float) else str(v)


def _pct1(v):
    """A share as a percent with one decimal (step 5's shares that read alike when whole)."""
    return f"{v * 100:.1f}" if isinstance(v, float) else str(v)


def _fix2(v):
    return f"{v:.2f}"


def _count(v):
    return f"{int(v):,}" if float(v).is_integer() else str(v)


def _is_range_part(number, values):
    return any(number == str(v) for v in values.values() if isinstance(v, int))


# Literal digits the reader may see that are not data: head and model names,
# formulas, and citation years.
_LITERALS = re.compile(r"\b[Hh]eads? \d\b(?!%)|4·d_model²|d_model²|log₂|log2|\b(19|20)\d\d\b"
                       r"|\b(?:GPT|Llama|Gemma)(?:-\d+)*(?:-\d+B)?\b|\b\d+B\b")


def _unexplained_numbers(text, values):
    """The numbers of `text` that no value (or formatted value) accounts for."""
    # A string value may hold digits ("Heads 2, 6 and 8"): those come from the data too.
    for v in sorted((v for v in _flatten(values.values()) if isinstance(v, str)), key=len, reverse=True):
        if any(c.isdigit() for c in v):
            text = text.replace(v, " ")
    numbers = re.findall(r"\d[\d,.]*", _LITERALS.sub("", text))
    rendered = {str(v) for v in _flatten(values.values())}
    formatted = {f(v) for v in _flatten(values.values()) if isinstance(v, (int, float)) and not isinstance(v, bool)
                 for f in (_pct, _pct1, _fix2, _count, str)}
    return [n.rstrip(".,") for n in numbers
            if n.rstrip(".,") not in rendered | formatted and not _is_range_part(n.rstrip(".,"), values)]


def test_numbers_in_every_state_hint_and_deeper_come_from_values(computed):
    """Every state's prose is checked against that state's values, and the hint
    and the deeper part against the step's constants (the values that are the
    same in every state, the only ones those parts may use)."""
    _, steps, prose = computed
    for states, texts in zip(steps, prose):
        for state in states.states:
            html, _ = texts.states[state.key]
            assert _unexplained_numbers(_text(html), state.values) == [], (states.step.title, state.key)
        for part in ("hint", "deeper", "practitioners"):
            # A block of code is code, not a figure: its digits are numpy's axes.
            shown = re.sub(r'<div class="code-block">.*?</div>', "", getattr(texts, part), flags=re.S)
            assert _unexplained_numbers(_text(shown), states.constants) == [], (states.step.title, part)
