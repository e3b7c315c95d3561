"""Every figure of the brief (../shared/briefs/transformer-architecture.md) in
the computed data, in the readouts and in the rendered prose, in every state it
applies to; and every combination of control values present."""
import math

import pytest

from ..conftest import page_states
from .reader import normalise as text  # the text a reader sees of some HTML
from .reader import step_row as state_of, step_rows as every_state

SLUG = "transformer-architecture"


@pytest.fixture(scope="session")
def computed(site_states):
    """The explainer's states and prose, computed in Python as the build does:
    (site, step states, step prose)."""
    return page_states(site_states, SLUG)


def test_six_steps_with_the_brief_titles(computed):
    _, steps, _ = computed
    assert [s.step.title for s in steps] == ["The Whole Picture", "Residual Connections", "Layer Normalization",
                                             "The Feed-Forward Network", "Stacking the Layers", "Three Families"]


def test_controls_and_readout_labels_are_the_brief_ones(computed):
    _, steps, _ = computed
    controls = [[(c.label, list(c.values)) for c in s.step.controls] for s in steps]
    readouts = [[r.label for r in s.step.readouts] for s in steps]
    assert controls[0] == [("Part", ["Embedding", "Positional encoding", "Self-attention", "Cross-attention",
                                     "Feed-forward", "Add & Norm", "Output"])]
    assert readouts[0] == ["Part", "Input shape", "Output shape", "Parameters"]
    assert controls[1] == [("Residual connections", [False, True]), ("Layers", [1, 6, 24])]
    assert steps[1].step.controls[0].kind == "toggle" and steps[1].step.controls[0].default is True
    assert readouts[1] == ["Layers", "Signal kept"]
    assert controls[2][0][1] == ["The", "cat", "sat", "on", "the", "mat"]
    assert readouts[2] == ["Mean before", "Std before", "Mean after", "Std after"]
    assert controls[3][0][1] == controls[2][0][1]
    assert readouts[3] == ["d_ff", "Active units", "Parameters"]
    assert controls[4] == [("Model", ["Base", "Big"]), ("Layers", [1, 2, 3, 4, 5, 6])]
    assert readouts[4] == ["d_model", "Heads", "Encoder parameters", "Decoder parameters", "Total with embeddings"]
    assert controls[5] == [("Family", ["Encoder–decoder", "Encoder-only", "Decoder-only"])]
    assert readouts[5] == ["Family", "Example", "Masks", "Typical use"]


# Step 1: shapes for n tokens and the parameters of each part.
WHOLE = {
    "Embedding": ("n token ids", "n×512", "18,944,000"),
    "Positional encoding": ("n×512", "n×512", "0"),
    "Self-attention": ("n×512", "n×512", "1,050,624"),
    "Cross-attention": ("n×512 and m×512", "n×512", "1,050,624"),
    "Feed-forward": ("n×512", "n×512", "2,099,712"),
    "Add & Norm": ("n×512 + n×512", "n×512", "1,024"),
    "Output": ("n×512", "n×37,000", "0"),
}


@pytest.mark.parametrize("part", list(WHOLE))
def test_step1_whole_picture(computed, part):
    state, readouts, prose = state_of(computed, 1, part=part)
    shape_in, shape_out, params = WHOLE[part]
    assert readouts == {"Part": part, "Input shape": shape_in, "Output shape": shape_out, "Parameters": params}
    assert params in prose and shape_out in prose
    # The chosen part is marked in the diagram, and only it.
    labels = [state.chart["boxes"][i] for i in state.chart["highlight"]]
    assert labels and all(part.split()[0].lower() in label.lower() or part == "Output" for label in labels)
    assert not state.chart.get("faded")
    if part == "Output":
        assert "Section 3.4" in prose and "0 new weights" in prose


def test_step1_embedding_is_vocabulary_times_d_model(computed):
    state, _, _ = state_of(computed, 1, part="Embedding")
    assert state.values["params"] == state.values["vocab"] * state.values["d_model"] == 37_000 * 512


# Step 2: cosine similarity of the top to the input, two decimals, through the layers.

@pytest.mark.parametrize("residual", [True, False])
@pytest.mark.parametrize("layers", [1, 6, 24])
def test_step2_signal_kept(computed, residual, layers):
    state, readouts, prose = state_of(computed, 2, residual=residual, layers=layers)
    assert readouts["Layers"] == str(layers)
    kept = state.values["kept"]
    assert readouts["Signal kept"] == f"{kept:.2f}".replace("-", "−")
    assert state.chart["x"] == list(range(layers + 1))
    assert len(state.chart["y"]) == layers + 1 and state.chart["y"][0] == pytest.approx(1)
    assert state.chart["y"][-1] == pytest.approx(kept, abs=1e-4)
    assert readouts["Signal kept"] in prose


def test_step2_residuals_keep_more_at_every_depth(computed):
    for layers in (1, 6, 24):
        on = state_of(computed, 2, residual=True, layers=layers)[0].values["kept"]
        off = state_of(computed, 2, residual=False, layers=layers)[0].values["kept"]
        assert on > 0.35 and abs(off) < 0.25 and on > off + 0.3, layers


# Step 3: mean 0.00 and standard deviation 1.00 after, in every state.

def test_step3_layer_norm(computed):
    rows = every_state(computed, 3)
    assert len(rows) == 6
    for state, readouts, prose in rows:
        assert readouts["Mean after"] == "0.00" and readouts["Std after"] == "1.00", state.choice
        before, after = state.chart["y"]
        assert readouts["Mean before"] == f"{sum(before) / len(before):.2f}".replace("-", "−")
        mean = sum(before) / len(before)
        std = math.sqrt(sum((v - mean) ** 2 for v in before) / len(before))   # population: divide by d
        assert readouts["Std before"] == f"{std:.2f}"
        assert state.chart["series"] == ["Before", "After"]
        assert any(v < 0 for v in after) and any(v > 0 for v in after)  # signed bars
        assert readouts["Mean before"] in prose and readouts["Std before"] in prose
    # The tokens differ before the norm.
    assert len({r[1]["Std before"] for r in rows}) == 6


# Step 4: d_ff 2,048, parameters 2,099,712, active units counted in the toy.

def test_step4_feed_forward(computed):
    rows = every_state(computed, 4)
    for state, readouts, prose in rows:
        grid = state.chart["z"]
        hidden = [v for row in grid for v in row]          # the units, 8 to a row, in order
        active = sum(v > 0 for v in hidden)
        assert readouts == {"d_ff": "2,048", "Active units": str(active), "Parameters": "2,099,712"}
        assert min(hidden) == 0 and 0 < active < len(hidden)   # the zeroed units are there as zeros
        assert len(hidden) == 64 and all(len(row) == 8 for row in grid)
        assert state.chart["y"][0] == "1–8" and state.chart["y"][-1] == "57–64"
        assert f"{active} of the {len(hidden)}" in prose and f"{len(hidden) - active} are exactly" in prose
        assert state.values["d_ff"] == 4 * state.values["d_model"]


# Step 5: the counts by the formulas, for each model and depth.

SIZES = {"Base": (512, 2048, 8), "Big": (1024, 4096, 16)}


@pytest.mark.parametrize("model", ["Base", "Big"])
@pytest.mark.parametrize("layers", [1, 2, 3, 4, 5, 6])
def test_step5_stacking(computed, model, layers):
    state, readouts, prose = state_of(computed, 5, model=model, layers=layers)
    d, d_ff, heads = SIZES[model]
    attention, ff, norm = 4 * d * d + 4 * d, 2 * d * d_ff + d_ff + d, 2 * d
    encoder = layers * (attention + ff + 2 * norm)
    decoder = layers * (2 * attention + ff + 3 * norm)
    total = encoder + decoder + 37_000 * d
    assert readouts == {"d_model": f"{d:,}", "Heads": str(heads), "Encoder parameters": f"{encoder:,}",
                        "Decoder parameters": f"{decoder:,}", "Total with embeddings": f"{total:,}"}
    # The stacked bars add up to the same counts.
    columns = [sum(series[i] for series in state.chart["y"]) for i in range(3)]
    assert columns == pytest.approx([encoder / 1e6, decoder / 1e6, 37_000 * d / 1e6], abs=1e-3)
    assert state.chart["series"] == ["attention", "feed-forward", "norms", "embeddings"]
    assert f"{total:,}" in prose


def test_step5_six_layers_come_close_to_the_paper(computed):
    for model, paper in (("Base", 65), ("Big", 213)):
        state, readouts, prose = state_of(computed, 5, model=model, layers=6)
        millions = state.values["total"] / 1e6
        assert abs(millions - paper) < 3, model
        assert f"{millions:.1f} million" in prose and f"{paper} million" in prose


# Step 6: the families.

FAMILIES = {
    "Encoder–decoder": ("T5, the original Transformer", "Decoder self-attention"),
    "Encoder-only": ("BERT", "None"),
    "Decoder-only": ("GPT", "All self-attention"),
}


@pytest.mark.parametrize("family", list(FAMILIES))
def test_step6_families(computed, family):
    state, readouts, prose = state_of(computed, 6, family=family)
    example, masks = FAMILIES[family]
    assert readouts["Family"] == family and readouts["Example"] == example and readouts["Masks"] == masks
    assert readouts["Typical use"]
    boxes, faded = state.chart["boxes"], set(state.chart["faded"])
    encoder = {i for i in range(6)}
    decoder = set(range(6, len(boxes)))
    if family == "Encoder–decoder":
        assert not faded
    elif family == "Encoder-only":
        assert faded == decoder
    else:
        assert encoder <= faded and boxes.index("Cross-attention") in faded
        assert not faded & {boxes.index("Masked self-attention"), boxes.index("Feed-forward", 6)}
    # The causal attention is marked where there is one.
    marked = [boxes[i] for i in state.chart["highlight"]]
    assert marked == ([] if family == "Encoder-only" else ["Masked self-attention"])
