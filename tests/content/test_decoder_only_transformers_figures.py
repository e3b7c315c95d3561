"""Every figure of the brief (/work/shared/briefs/decoder-only-transformers.md):
in the computed data, in the readouts and in the rendered prose, in every state
where the brief gives a formula and in the stated state where it gives a figure;
and every combination of control values present."""
import math
import re

import pytest

from ..conftest import page_states
from .reader import normalise as text  # the text a reader sees of some HTML
from .reader import step_row as state_for, step_rows as all_states

SLUG = "decoder-only-transformers"


@pytest.fixture(scope="session")
def dot_states(site_states):
    """The explainer's states and prose computed in Python, independent of any page:
    (site, step states, step prose)."""
    return page_states(site_states, SLUG)


def test_five_steps_with_the_brief_titles(dot_states):
    _, steps, _ = dot_states
    assert [s.step.title for s in steps] == ["The Causal Mask", "Predicting the Next Token", "Temperature and Top-k",
                                             "One Token at a Time, with a Cache", "Scale"]


# ---------------------------------------------------------------- step 1

def test_step1_controls(dot_states):
    _, steps, _ = dot_states
    query, mask = steps[0].step.controls
    assert (query.label, query.default, list(query.values)) == ("Query", "sat", ["The", "cat", "sat", "on", "the", "mat"])
    assert (mask.kind, mask.label, mask.default) == ("toggle", "Causal mask", True)


def test_step1_visible_keys_and_weight_on_future_in_every_state(dot_states):
    tokens = ["The", "cat", "sat", "on", "the", "mat"]
    seen = 0
    for state, readouts, prose in all_states(dot_states, 1):
        query, causal = state.choice["query"], state.choice["causal"]
        position = tokens.index(query)
        assert list(readouts) == ["Query", "Visible keys", "Weight on future"]
        assert readouts["Query"] == query
        assert readouts["Visible keys"] == str(position + 1 if causal else 6)
        future = readouts["Weight on future"]
        if causal:
            assert future == "0.00"
        elif position < 5:
            assert float(future) >= 0.01, query
        else:
            assert future == "0.00"
        assert f"{future}" in prose
        seen += 1
    assert seen == 12
    state, readouts, _ = state_for(dot_states, 1)
    assert readouts == {"Query": "sat", "Visible keys": "3", "Weight on future": "0.00"}


def test_step1_masked_cells_are_masked_not_zero(dot_states):
    """Done when: the masked cells of every causal matrix read as masked, in the data."""
    for state, _, _ in all_states(dot_states, 1):
        chart = state.chart
        n = len(chart["z"])
        if state.choice["causal"]:
            mask = chart["mask"]
            assert [[bool(v) for v in row] for row in mask] == [[j > i for j in range(n)] for i in range(n)]
        else:
            assert not any(any(row) for row in chart.get("mask", [[False]]))
        assert chart["highlight_row"] == ["The", "cat", "sat", "on", "the", "mat"].index(state.choice["query"])


def test_step1_data_table_says_masked(dot_states):
    from generator.render import charts
    site, steps, _ = dot_states
    states = steps[0]
    for state in states.states:
        table = charts.get(states.step.chart.kind).table(states.step.chart, state.chart, site.config.labels)
        cells = [cell for row in table["rows"] for cell in row[1:]]
        masked = sum(cell == "masked" for cell in cells)
        assert masked == (15 if state.choice["causal"] else 0), state.key


# ---------------------------------------------------------------- step 2

def test_step2_contexts_and_readouts(dot_states):
    _, steps, _ = dot_states
    control = steps[1].step.controls[0]
    assert control.label == "Context"
    assert list(control.labels) == ["The", "The cat", "The cat sat", "The cat sat on", "The cat sat on the",
                                    "The cat sat on the mat"]
    for state, readouts, prose in all_states(dot_states, 2):
        assert list(readouts) == ["Context", "Top next token", "Probability"]
        assert readouts["Context"] == state.values["context"]
        assert re.fullmatch(r"[01]\.\d\d", readouts["Probability"])
        chart = state.chart
        assert len(chart["x"]) == 5 and chart["x"][0] == readouts["Top next token"]
        assert chart["y"] == sorted(chart["y"], reverse=True)
        assert f"{chart['y'][0]:.2f}" == readouts["Probability"]
        assert readouts["Top next token"] in prose and readouts["Probability"] in prose


# ---------------------------------------------------------------- step 3

def test_step3_readouts_in_every_state(dot_states):
    for state, readouts, prose in all_states(dot_states, 3):
        assert list(readouts) == ["Top probability", "Tokens kept", "Entropy (bits)", "Sum of probabilities"]
        assert readouts["Sum of probabilities"] == "1.00"
        k = state.choice["k"]
        assert readouts["Tokens kept"] == str(k)   # k, or the vocabulary size for All
        chart = state.chart
        assert sum(not f for f in chart["faded"]) == k
        assert all(y == 0 for y, f in zip(chart["y"], chart["faded"]) if f)
        assert sum(chart["y"]) == pytest.approx(1)
        if k == 1:
            assert (readouts["Top probability"], readouts["Entropy (bits)"]) == ("1.00", "0.00")
        assert readouts["Entropy (bits)"] in prose


def test_step3_all_is_the_vocabulary(dot_states):
    _, steps, _ = dot_states
    temperature, top_k = steps[2].step.controls
    assert [temperature.button.replace("{value}", label) for label in temperature.labels] == ["0.5", "1", "2"]
    assert list(top_k.labels) == ["1", "3", "All"]
    state, readouts, _ = state_for(dot_states, 3, k=top_k.values[-1])
    assert readouts["Tokens kept"] == str(len(state.chart["x"])) == str(state.values["vocab_size"]) == "16"


def test_step3_lower_temperature_gives_a_higher_top_probability(dot_states):
    _, steps, _ = dot_states
    temperature, top_k = steps[2].step.controls
    for k in top_k.values:
        if k < 2:
            continue
        tops = [float(state_for(dot_states, 3, temperature=t, k=k)[1]["Top probability"]) for t in
                sorted(temperature.values)]
        assert tops == sorted(tops, reverse=True) and len(set(tops)) == len(tops), (k, tops)


# ---------------------------------------------------------------- step 4

def test_step4_counts_in_every_state(dot_states):
    for state, readouts, prose in all_states(dot_states, 4):
        step = state.choice["step"]
        assert readouts == {"Step": str(step), "Cached keys": str(step - 1), "New keys": "1",
                            "Scores with cache": str(step), "Scores without cache": str(step * (step + 1) // 2)}
        for chart in state.charts:
            assert chart["highlight_row"] == step - 1
            assert [any(row) for row in chart["mask"]] == [r >= step for r in range(6)]
    assert state_for(dot_states, 4, step=6)[1]["Scores without cache"] == "21"


# ---------------------------------------------------------------- step 5

BRIEF_MODELS = {
    "GPT-1": {"Layers": "12", "d_model": "768", "Heads": "12", "Context": "512", "Parameters": "117M"},
    "GPT-2": {"Layers": "48", "d_model": "1,600", "Heads": "25", "Context": "1,024", "Parameters": "1.56B"},
    "GPT-3": {"Layers": "96", "d_model": "12,288", "Heads": "96", "Context": "2,048", "Parameters": "175B"},
}


@pytest.mark.parametrize("name", list(BRIEF_MODELS))
def test_step5_published_sizes(dot_states, name):
    state, readouts, prose = state_for(dot_states, 5, model=name)
    assert readouts == BRIEF_MODELS[name]
    for value in readouts.values():
        assert value in prose
    # Table 2 of the GPT-2 paper gave 1,542M for the largest model, a count OpenAI's
    # gpt-2 README calls wrong: the page never uses it.
    assert "1,542" not in prose and "1542" not in prose


def test_step5_chart_is_log_parameters(dot_states):
    state, _, _ = state_for(dot_states, 5)
    assert state.chart["x"] == ["GPT-1", "GPT-2", "GPT-3"]
    # GPT-1 and GPT-2 as counted from their released configurations, GPT-3 from Brown et al.'s Table 2.1.
    assert state.chart["y"] == pytest.approx([math.log10(116_534_784), math.log10(1_557_611_200),
                                              math.log10(175e9)])
    assert state.chart["text"] == ["117M", "1.56B", "175B"]
