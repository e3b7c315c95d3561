"""Every figure of the brief (/work/shared/briefs/self-attention.md) as the
build computes it: in the readouts and charts of every state and in the
rendered prose; every combination of control values present; every number of
the prose, hints and deeper parts taken from the computed values."""
import math
import re

import pytest


from ..conftest import page_states
from .reader import as_read

SLUG = "self-attention"
TOKENS = ["The", "cat", "sat", "on", "the", "mat"]
MINUS = "\u2212"


@pytest.fixture(scope="session")
def computed(site_states):
    return page_states(site_states, SLUG)


def fixed(value, digits):
    """A number rounded half up, as the page shows it (0.0625 -> 0.063), with the minus sign."""
    from decimal import ROUND_HALF_UP, Decimal
    text = str(Decimal(repr(float(value))).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))
    return text.replace("-", MINUS)


def _text(html):
    return " ".join(re.sub(r"<[^>]+>", " ", as_read(html)).replace("&amp;", "&").replace("&quot;", '"')
                    .replace("&#34;", '"').replace("&#39;", "'").split())


def step(computed, number):
    _, steps, prose = computed
    return steps[number - 1], prose[number - 1]


def readouts(states, state):
    return dict(zip([r.label for r in states.step.readouts], state.readouts))


def state_for(states, **choice):
    key = ".".join(str(c.values.index(choice.get(c.name, c.default))) for c in states.step.controls)
    return states.by_key(key)


def prose_of(computed, number, state):
    _, texts = step(computed, number)
    return _text(texts.states[state.key][0])


def every(states):
    return [(s, readouts(states, s)) for s in states.states]


def test_six_steps_with_the_brief_titles_softmax_before_scaling(computed):
    _, steps, _ = computed
    assert [s.step.title for s in steps] == ["Queries and Keys", "Softmax", "Scaling by √d_k",
                                             "Mixing the Values", "All Queries at Once", "Order Blindness"]


def _controls(states):
    return [(c.kind, c.label, list(c.values), c.default) for c in states.step.controls]


def test_step1_queries_and_keys(computed):
    states, _ = step(computed, 1)
    assert _controls(states) == [("buttons", "Query", TOKENS, "cat")]
    assert [c.kind for c in states.step.charts] == ["heatmap", "bar"]
    for state, shown in every(states):
        pipeline, row = state.charts[0], state.charts[1]["y"]
        top = max(range(6), key=lambda i: row[i])   # the first of a tie
        assert shown == {"Query": state.choice["query"], "Top key": TOKENS[top], "Top score": fixed(row[top], 2)}
        assert state.charts[1]["x"] == TOKENS and state.charts[1]["highlight"] == top
        # The pipeline: q, then k, then q × k, whose sum is the top score.
        labels = pipeline["y"]
        q, k, products = (pipeline["z"][labels.index(name)] for name in
                          (f"q ({state.choice['query']})", f"k ({TOKENS[top]})", "q × k"))
        assert products == [a * b for a, b in zip(q, k)] and sum(products) == pytest.approx(row[top])
        assert pipeline["x"] == ["noun", "verb", "animal", "place"] and labels[-1] == "q × k"
    default = state_for(states)
    assert min(default.charts[1]["y"]) < 0          # drawn below the axis
    assert readouts(states, default)["Top key"] == "sat"
    for query, top in (("sat", "cat"), ("on", "mat"), ("cat", "sat")):
        assert readouts(states, state_for(states, query=query))["Top key"] == top
    for query in ("The", "the"):
        row = state_for(states, query=query).charts[1]["y"]
        assert row[1] == row[5] == max(row)


def test_step2_softmax(computed):
    states, _ = step(computed, 2)
    assert _controls(states) == [("buttons", "Query", TOKENS, "cat"), ("buttons", "Scores ×", [0.5, 1.0, 2.0], 1.0)]
    assert [str(c) for c in states.step.controls[1].labels] == ["0.5", "1", "2"]
    assert [r.label for r in states.step.readouts] == ["Top key", "Top weight", "Sum of weights", "Entropy (bits)"]
    for state, shown in every(states):
        assert shown["Sum of weights"] == "1.00"
        weights = state.charts[1]["y"]
        assert all(w >= 0 for w in weights) and state.values["low_weight"] > 0
        entropy = -sum(w * math.log2(w) for w in weights if w > 0)
        assert abs(float(shown["Entropy (bits)"]) - entropy) < 0.006
        assert shown["Top key"] == TOKENS[max(range(6), key=lambda i: weights[i])]
        # Beside the weights, the scores they came from, times the factor.
        raw = state_for(step(computed, 1)[0], query=state.choice["query"]).charts[1]["y"]
        assert state.charts[0]["y"] == pytest.approx([r * state.choice["factor"] for r in raw])
    for query in TOKENS:
        entropies = [state_for(states, query=query, factor=f).values["entropy"] for f in (0.5, 1.0, 2.0)]
        assert entropies[0] > entropies[1] > entropies[2], query
        assert len({readouts(states, state_for(states, query=query, factor=f))["Top key"]
                    for f in (0.5, 1.0, 2.0)}) == 1
    assert "emperature" not in " ".join(c.label for c in states.step.controls)


@pytest.mark.parametrize("d_k", [4, 16, 64, 256])
def test_step3_scaling(computed, d_k):
    states, _ = step(computed, 3)
    assert _controls(states) == [("buttons", "d_k", [4, 16, 64, 256], 64),
                                 ("toggle", "Scale by √d_k", [False, True], True)]
    on, off = state_for(states, d_k=d_k, scaled=True), state_for(states, d_k=d_k, scaled=False)
    r_on, r_off = readouts(states, on), readouts(states, off)
    assert r_on["d_k"] == r_off["d_k"] == str(d_k)
    assert r_on["Scale"] == fixed(1 / math.sqrt(d_k), 3) and r_off["Scale"] == "1.000"
    assert float(r_on["Top weight"]) < 0.60
    assert 0.75 <= float(r_on["Score spread"]) <= 1.25
    assert 0.5 * math.sqrt(d_k) <= float(r_off["Score spread"]) <= 1.5 * math.sqrt(d_k)
    for state in (on, off):
        assert sum(state.chart["y"]) == pytest.approx(1, abs=1e-3)
        assert readouts(states, state)["Top weight"] == fixed(max(state.chart["y"]), 2)
    if d_k == 256:
        assert float(r_off["Top weight"]) >= 0.90
        assert "saturated" in prose_of(computed, 3, off)
    if d_k == 64:
        assert r_on["Scale"] == "0.125"


def test_step3_spread_grows_unscaled(computed):
    states, _ = step(computed, 3)
    spreads = [float(readouts(states, state_for(states, d_k=d, scaled=False))["Score spread"])
               for d in (4, 16, 64, 256)]
    assert spreads == sorted(spreads) and len(set(spreads)) == 4


def test_step4_values_output_and_plain_average(computed):
    states, _ = step(computed, 4)
    assert _controls(states) == [("buttons", "Query", TOKENS, "cat")]
    assert [c.kind for c in states.step.charts] == ["bar", "heatmap"]
    for state, shown in every(states):
        weights, z = state.charts[0]["y"], state.charts[1]["z"]
        assert shown == {"Query": state.choice["query"],
                         "Top key": TOKENS[max(range(6), key=lambda i: weights[i])], "Output width": "4"}
        assert state.charts[1]["y"] == [f"v {t}" for t in TOKENS] + ["output", "plain average"]
        for j in range(4):   # the output is Σ wᵢvᵢ, the average the plain mean, both of the rows drawn
            assert z[6][j] == pytest.approx(sum(w * row[j] for w, row in zip(weights, z[:6])), abs=5e-4)
            assert z[7][j] == pytest.approx(sum(row[j] for row in z[:6]) / 6, abs=5e-4)


@pytest.mark.parametrize("view", ["Scores", "Weights"])
@pytest.mark.parametrize("length", [6, 12, 24, 48])
def test_step5_all_queries(computed, view, length):
    states, _ = step(computed, 5)
    assert _controls(states) == [("buttons", "View", ["Scores", "Weights"], "Weights"),
                                 ("buttons", "Length", [6, 12, 24, 48], 6)]
    state = state_for(states, view=view, length=length)
    shown = readouts(states, state)
    assert shown == {"Matrix shape": f"{length}×{length}", "Score entries": f"{length * length:,}",
                     "Row sums": "1.00" if view == "Weights" else "varies"}
    z = state.chart["z"]
    assert len(z) == length and all(len(row) == length for row in z)
    if view == "Weights":
        assert state.chart["scale"] == "sequential"
        assert all(sum(row) == pytest.approx(1, abs=0.005 * length) for row in z)   # each rounded to 0.01
    else:
        assert state.chart["scale"] == "diverging" and any(v < 0 for row in z for v in row)
    # Numbered rows, so a label names its row even where the axis shows every k-th;
    # the query's row is marked, and its label is in the key above the plot.
    assert state.chart["y"] == state.chart["x"]
    assert [label.split(" ")[0] for label in state.chart["y"]] == [str(i + 1) for i in range(length)]
    assert [label.split(" ")[1] for label in state.chart["y"][:6]] == TOKENS
    assert state.chart["regions"] == [{"rows": 1, "columns": [0, length - 1], "label": "row 2: cat's query"}]
    if length == 48:
        assert shown["Score entries"] == "2,304"


def test_step5_every_row_label_is_beside_its_row(computed):
    """Issue 42: at 48 the labels sat beside the wrong row. Every tick the axis writes
    (every k-th at 48) is the label of the row at its position, and says its number."""
    states, _ = step(computed, 5)
    longest = state_for(states, length=48).chart["y"]
    for state in states.states:
        for axis in ("xaxis", "yaxis"):
            layout = states.figures[0][state.key]["layout"][axis]
            assert layout["ticktext"] and all(text == longest[position] and text.startswith(f"{position + 1} ")
                                              for position, text in zip(layout["tickvals"], layout["ticktext"]))


def test_step6_order_blindness(computed):
    states, _ = step(computed, 6)
    assert _controls(states) == [("buttons", "Word order", ["Original", "Shuffled"], "Original"),
                                 ("buttons", "Query", TOKENS, "cat")]
    for query in TOKENS:
        original = state_for(states, order="Original", query=query)
        shuffled = state_for(states, order="Shuffled", query=query)
        assert readouts(states, original) == readouts(states, shuffled)
        assert readouts(states, original)["Same output"] == "Yes" and readouts(states, original)["Query"] == query
        assert original.charts[0]["x"] == TOKENS and sorted(shuffled.charts[0]["x"]) == sorted(TOKENS)
        assert shuffled.charts[0]["x"] != TOKENS
        bars = [dict(zip(state.charts[0]["x"], state.charts[0]["y"])) for state in (original, shuffled)]
        assert bars[0] == bars[1]
        # The output vector in both orders, side by side: the same numbers.
        for state in (original, shuffled):
            output = state.charts[1]
            assert output["series"] == ["Original order", "Shuffled order"] and output["y"][0] == output["y"][1]


# Numbers in the text come from the data

def _flatten(values):
    for v in values:
        if isinstance(v, (list, tuple)):
            yield from _flatten(v)
        yield v


def _forms(v):
    if isinstance(v, bool):
        return set()
    forms = {str(v)}
    if isinstance(v, (int, float)):
        forms |= {f"{v:.2f}", f"{v:.3f}", f"{round(v * 100)}", fixed(v, 2), fixed(v, 3)}
        if float(v).is_integer():
            forms |= {f"{int(v):,}", str(int(v))}
    return {f.replace("-", MINUS) for f in forms} | forms


# Literal digits the reader may see that are not data: formulas, indices,
# citation years and sections, the brief's fixed sentence and superscripts.
_LITERALS = re.compile(r"1/√|a 1 for each|\b(19|20)\d\d\b|Section \d(\.\d)*|Table \d|Equation \d|step \d|"
                       r"[qkwsv][₁₂ᵢⱼ]|"
                       r"\b(?:sum to|sums to|near|variance|mean|to|not|at|than) [01](?![.,]?\d)|"
                       r"[0-9](?=[⁰¹²³⁴⁵⁶⁷⁸⁹⁻])|"
                       r"10[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+|n²|d²|: 0 if|\bis 0(?![.,]?\d)")


def _unexplained_numbers(text, values):
    for v in sorted((v for v in _flatten(values.values()) if isinstance(v, str)), key=len, reverse=True):
        if any(c.isdigit() for c in v):   # a whole number only: "2" must not eat the 2 of 2.58
            text = re.sub(rf"(?<![\d.]){re.escape(v)}(?![.,]?\d)", " ", text)
    numbers = re.findall(r"[−-]?\d[\d,.]*", _LITERALS.sub(" ", text))
    allowed = set().union(*(_forms(v) for v in _flatten(values.values())))
    found = []
    for n in numbers:
        n = n.rstrip(".,")
        if n not in allowed and n.lstrip("−-") not in allowed:
            found.append(n)
    return found


def test_numbers_in_every_state_hint_and_deeper_come_from_values(computed):
    _, steps, prose = computed
    for states, texts in zip(steps, prose):
        for state in states.states:
            html, _ = texts.states[state.key]
            assert _unexplained_numbers(_text(html), state.values) == [], (states.step.title, state.key)
            for summary in texts.summaries[state.key]:   # every chart's caption
                assert _unexplained_numbers(summary, state.values) == [], (states.step.title, state.key)
        for part in ("hint", "deeper", "practitioners"):
            assert _unexplained_numbers(_text(getattr(texts, part)), states.constants) == [], \
                (states.step.title, part)


def test_negative_numbers_use_the_minus_sign(computed):
    _, steps, prose = computed
    for states, texts in zip(steps, prose):
        for state in states.states:
            html, _ = texts.states[state.key]
            for text in [_text(html)] + texts.summaries[state.key]:
                assert not re.search(r"(?<![\w])-\d", text), (states.step.title, state.key, text)
            assert not any(r.startswith("-") for r in state.readouts)
