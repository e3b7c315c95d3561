"""Every figure of the brief (../shared/briefs/cross-attention.md), in the
computed data, in the readouts and in the rendered prose; every combination of
control values present; and the masked cells of the causal matrix masked in
the chart data and in its data table."""
import functools
import re

import numpy as np
import pytest


from generator.render import charts

from ..conftest import page_states
from .reader import step_row, step_rows
from .reader import as_read

SLUG = "cross-attention"
TITLES = ["Looking Across", "Where Q, K and V Come From", "Two Kinds of Attention in the Decoder", "Alignment",
          "Beyond Translation"]


@pytest.fixture(scope="session")
def computed(site_states):
    """The explainer's states and prose, computed in Python: (site, step states, step prose)."""
    return page_states(site_states, SLUG)


def _text(html):
    """The text a reader sees: tags dropped, spaces normalised, none before punctuation."""
    text = " ".join(re.sub(r"<[^>]+>", " ", as_read(html)).replace("&amp;", "&").split())
    return re.sub(r"\( ", "(", re.sub(r" ([,.;:)])", r"\1", text))


# Every state's row, and the row of one state, with the prose read as _text reads it.
states_of = functools.partial(step_rows, text=_text)
state_for = functools.partial(step_row, text=_text)


def test_five_steps_with_the_brief_titles(computed):
    _, steps, _ = computed
    assert [s.step.title for s in steps] == TITLES


def test_readout_labels_are_the_briefs(computed):
    _, steps, _ = computed
    assert [[r.label for r in s.step.readouts] for s in steps] == [
        ["Target word", "Top source word", "Weight"],
        ["Matrix", "Comes from", "Shape"],
        ["Attention", "Weights shape", "Masked"],
        ["Target word", "Top source word", "Crossing"],
        ["Caption word", "Top patch", "Weight"],
    ]


# Step 1: Looking Across

def test_step1_buttons_and_default(computed):
    _, steps, _ = computed
    control, = steps[0].step.controls
    assert list(control.values) == ["le", "chat", "noir", "dort"] and control.default == "chat"


@pytest.mark.parametrize("target, source", [("chat", "cat"), ("noir", "black"), ("le", "the")])
def test_step1_each_word_finds_its_translation(computed, target, source):
    state, readouts, _ = state_for(computed, 1, target=target)
    assert readouts["Target word"] == target and readouts["Top source word"] == source
    bars = state.chart["y"]
    assert state.chart["x"] == ["the", "black", "cat", "is", "sleeping"]
    assert state.chart["x"][int(np.argmax(bars))] == source and state.chart["highlight"] == int(np.argmax(bars))
    assert readouts["Weight"] == f"{max(bars):.2f}" and re.fullmatch(r"\d\.\d\d", readouts["Weight"])
    assert sum(bars) == pytest.approx(1, abs=1e-3)


def test_step1_dort_splits_between_is_and_sleeping(computed):
    state, readouts, prose = state_for(computed, 1, target="dort")
    weights = dict(zip(state.chart["x"], state.chart["y"]))
    top = max(weights, key=weights.get)
    assert top in ("is", "sleeping") and readouts["Top source word"] == top
    assert weights[top] > 0.35
    assert weights["is"] + weights["sleeping"] > 0.70
    assert float(readouts["Weight"]) > 0.35
    assert "is" in prose and "sleeping" in prose


# Step 2: Where Q, K and V Come From

@pytest.mark.parametrize("matrix, source, shape", [("Q", "decoder", "4×8"), ("K", "encoder", "5×8"),
                                                   ("V", "encoder", "5×8")])
def test_step2_where_each_matrix_comes_from(computed, matrix, source, shape):
    state, readouts, prose = state_for(computed, 2, matrix=matrix)
    assert readouts == {"Matrix": matrix, "Comes from": source, "Shape": shape}
    # The toy's widths: Q is (target length)×d_k, K (source length)×d_k, V (source length)×d_v.
    values = state.values
    rows = values["n_rows_target"] if matrix == "Q" else values["n_rows_source"]
    width = values["d_k"] if matrix in "QK" else values["d_v"]
    assert shape == f"{rows}×{width}"
    chart = state.chart
    path = [chart["boxes"][i] for i in chart["highlight"]]
    assert path[-1] == "Cross-attention"
    assert path[0].startswith("Target" if source == "decoder" else "Source")
    assert path[-2].endswith(f"({matrix})")
    # The path is drawn along arrows of the diagram, and what is off the path is faded.
    assert all([a, b] in chart["arrows"] for a, b in zip(chart["highlight"], chart["highlight"][1:]))
    assert set(chart["faded"]) == set(range(len(chart["boxes"]))) - set(chart["highlight"])


def test_step2_box_labels_break_only_between_words(computed):
    """The diagram's narrow K and V boxes read "V (valu / es)" at every width: a label is cut into
    lines at spaces and hyphens only, so every word of it is whole on the page."""
    _, steps, _ = computed
    for state, _, _ in states_of(computed, 2):
        figure = charts.get("diagram").figure(steps[1].step.chart, state.chart)
        labels = [a["text"] for a in figure["layout"]["annotations"] if "<br>" in a.get("text", "")]
        labels += [s["label"]["text"] for s in figure["layout"].get("shapes", []) if "label" in s]
        assert labels
        for label in labels:
            assert label.replace("-<br>", "-").replace("<br>", " ") in state.chart["boxes"], label


# Step 3: Two Kinds of Attention in the Decoder

def test_step3_self_attention_is_causal_and_its_future_cells_are_masked(computed):
    site, steps, _ = computed
    state, readouts, _ = state_for(computed, 3, attention="Self")
    assert readouts == {"Attention": "Self", "Weights shape": "4×4", "Masked": "Yes"}
    z, mask = np.array(state.chart["z"]), np.array(state.chart["mask"])
    assert z.shape == (4, 4)
    assert mask.tolist() == [[j > i for j in range(4)] for i in range(4)]
    assert np.allclose(z.sum(axis=1), 1, atol=1e-3)
    # In the data table the masked cells read as the legend names them, never as a number.
    table = charts.get("heatmap").table(steps[2].step.chart, state.chart, site.config.labels)
    for i, row in enumerate(table["rows"]):
        cells = row[1:]
        assert [c == "masked (future)" for c in cells] == [j > i for j in range(4)], row
        assert all(re.fullmatch(r"\d\.\d+", c) for c, m in zip(cells, mask[i]) if not m)
    # And the figure draws them with the masked fill and a legend, not as zeros of the scale.
    figure = charts.get("heatmap").figure(steps[2].step.chart, state.chart)
    assert "masked" in str(figure).lower()


def test_step3_cross_attention_is_rectangular_and_unmasked(computed):
    site, steps, _ = computed
    state, readouts, _ = state_for(computed, 3, attention="Cross")
    assert readouts == {"Attention": "Cross", "Weights shape": "4×5", "Masked": "No"}
    assert np.array(state.chart["z"]).shape == (4, 5)
    assert "mask" not in state.chart
    table = charts.get("heatmap").table(steps[2].step.chart, state.chart, site.config.labels)
    assert not any("masked" in c for row in table["rows"] for c in row)


def test_step3_both_matrices_on_one_grid_the_self_one_leaves_the_last_column_empty(computed):
    """The hint: both shapes on one grid of cells, the self-attention matrix narrower."""
    _, steps, prose = computed
    figures = steps[2].figures[0]
    assert "the self-attention matrix leaves the last column empty" in _text(prose[2].hint)
    layouts = {attention: figures[state_for(computed, 3, attention=attention)[0].key]["layout"]
               for attention in ("Self", "Cross")}
    assert layouts["Self"]["xaxis"]["range"] == layouts["Cross"]["xaxis"]["range"] == [-0.5, 4.5]
    assert [layouts[a]["images"][0]["sizex"] for a in ("Self", "Cross")] == [4, 5]


# Step 4: Alignment

def test_step4_controls(computed):
    _, steps, _ = computed
    head, target = steps[3].step.controls
    assert len(head.values) >= 2 and list(target.values) == ["le", "chat", "noir", "dort"]


def test_step4_chat_and_noir_cross_in_every_head(computed):
    for state, readouts, _ in states_of(computed, 4):
        target = state.choice["target"]
        assert readouts["Crossing"] == ("Yes" if target in ("chat", "noir") else "No"), state.key
        z = np.array(state.chart["z"])
        assert z.shape == (4, 5)
        assert state.chart["highlight_row"] == ["le", "chat", "noir", "dort"].index(target)
        assert readouts["Top source word"] == state.chart["x"][int(np.argmax(z[state.chart["highlight_row"]]))]
    for head in (1, 2):
        assert state_for(computed, 4, head=head, target="chat")[1]["Top source word"] == "cat"
        assert state_for(computed, 4, head=head, target="noir")[1]["Top source word"] == "black"


# Step 5: Beyond Translation

def test_step5_patches(computed):
    _, steps, _ = computed
    control, = steps[4].step.controls
    assert list(control.values) == ["a", "cat", "on", "mat"]
    for state, readouts, prose in states_of(computed, 5):
        z = np.array(state.chart["z"])
        assert z.shape == (3, 3) and z.sum() == pytest.approx(1, abs=1e-3)
        r, c = divmod(int(np.argmax(z)), 3)
        assert readouts["Caption word"] == state.choice["word"]
        assert readouts["Top patch"] == f"({r + 1}, {c + 1})"
        assert readouts["Weight"] == f"{z[r, c]:.2f}"
        assert f"row {r + 1}, column {c + 1}" in prose
    assert state_for(computed, 5, word="cat")[1]["Top patch"] == "(2, 2)"
