"""What the decoder-only page teaches, checked against the data.

Each test recomputes from the toy model (or from the published sizes) what a
sentence of the page claims, without going through the values the step
functions return, and checks the rendered text."""
import re

import numpy as np
import pytest

from .test_decoder_only_transformers_figures import SLUG, all_states, dot_states, state_for, text  # noqa: F401
from .test_decoder_only_transformers_model import model  # noqa: F401


@pytest.fixture(scope="module")
def page(dot_states):  # noqa: F811
    site, steps, prose = dot_states
    explainer = next(e for e in site.pages if e.slug == SLUG)
    return explainer, steps, prose


def everything(page):
    explainer, steps, prose = page
    parts = [explainer.intro, explainer.key_ideas, explainer.questions]
    for texts in prose:
        parts += [html for html, _ in texts.states.values()] + [texts.hint, texts.deeper]
    return text(" ".join(parts))


def test_step1_top_key_and_future_weight_recomputed(dot_states, model):  # noqa: F811
    for state, readouts, prose in all_states(dot_states, 1):
        query, causal = state.choice["query"], state.choice["causal"]
        i = model.TOKENS.index(query)
        scores_row = model.attention_weights(False)[i]
        if causal:   # renormalise the unmasked weights over the visible keys: the masked softmax
            row = np.where(np.arange(6) <= i, scores_row, 0) / scores_row[:i + 1].sum()
        else:
            row = scores_row
        top = model.TOKENS[int(np.argmax(row))]
        assert f"goes to {top}" in prose, (query, causal)
        assert f"{row[i + 1:].sum():.2f}" in prose
        if causal and i < 5:
            assert "−∞" in prose and "masked" in prose


def test_step1_hint_every_query_but_the_last_leaks(model):  # noqa: F811
    free = model.attention_weights(False)
    leaks = [free[i, i + 1:].sum() for i in range(6)]
    assert all(round(v, 2) >= 0.01 for v in leaks[:-1]) and leaks[-1] == 0


def test_step1_says_the_toy_was_trained_with_the_mask(dot_states):  # noqa: F811
    _, _, prose = state_for(dot_states, 1, causal=False)
    assert "trained with the mask" in prose


def test_step2_the_model_is_close_to_the_corpus_odds(dot_states, model):  # noqa: F811
    for state, readouts, prose in all_states(dot_states, 2):
        n = state.choice["context"]
        p = model.next_distribution(n)
        truth = model.corpus_next(model.WORDS[:n])
        top = model.VOCAB[int(np.argmax(p))]
        assert top == max(truth, key=truth.get) == readouts["Top next token"]
        assert abs(p.max() - truth[top]) < 0.06, (n, p.max(), truth[top])
        assert f"{round(truth[top] * 100)}%" in prose.replace(" %", "%")
        true_next = (model.WORDS + ["."])[n]
        assert f"{-np.log(p[model.IDS[true_next]]):.2f}" in prose


def test_step2_hint_the_full_stop_is_almost_certain(model):  # noqa: F811
    tops = [model.next_distribution(n).max() for n in model.CONTEXTS]
    assert model.VOCAB[int(np.argmax(model.next_distribution(6)))] == "."
    assert tops[-1] > 0.99 and max(tops[:-1]) < 0.7


def test_step3_hint_temperature_order_at_all(dot_states):  # noqa: F811
    tops = [float(state_for(dot_states, 3, temperature=t)[1]["Top probability"]) for t in (0.5, 1.0, 2.0)]
    assert tops[0] > tops[1] > tops[2]


def test_step3_greedy_is_top_k_one(dot_states):  # noqa: F811
    for t in (0.5, 1.0, 2.0):
        _, _, prose = state_for(dot_states, 3, temperature=t, k=1)
        assert "greedy decoding" in prose


def test_step4_the_cache_numbers(dot_states, model):  # noqa: F811
    for state, readouts, prose in all_states(dot_states, 4):
        step = state.choice["step"]
        assert f"{2 * model.D_MODEL * step:,} numbers" in prose   # layers (1) × 2 × context × d_model
        _, _, row = model.cached_keys_values(model.WORDS[:step])
        assert f"goes to {model.TOKENS[int(np.argmax(row))]}" in prose


@pytest.mark.parametrize("name", ["GPT-1", "GPT-2", "GPT-3"])
def test_step5_derived_figures(dot_states, model, name):  # noqa: F811
    m = model.MODELS[name]
    _, _, prose = state_for(dot_states, 5, model=name)
    assert f"{m['layers'] * 2 * m['context'] * m['d_model']:,} numbers" in prose
    blocks = 12 * m["layers"] * m["d_model"] ** 2
    assert f"{round(blocks / 1e6):,}M" in prose
    assert blocks < m["parameters"]   # the rest really is outside the blocks' matrices


def test_step5_hint_growth(page, model):  # noqa: F811
    _, _, prose = page
    hint = text(prose[4].hint)
    g1, g3 = model.MODELS["GPT-1"], model.MODELS["GPT-3"]
    assert f"{round(g3['parameters'] / g1['parameters']):,}-fold" in hint
    deeper, wider = g3["layers"] // g1["layers"], g3["d_model"] // g1["d_model"]
    assert f"{deeper} × {wider}² = {deeper * wider ** 2:,}-fold" in hint


def test_questions_quote_the_context_lengths(page, model):  # noqa: F811
    explainer, _, _ = page
    answers = text(explainer.questions)
    for name in ("GPT-1", "GPT-2", "GPT-3"):
        assert f"{model.MODELS[name]['context']:,} for {name}" in answers or \
            f"{model.MODELS[name]['context']:,} tokens for {name}" in answers


def test_the_page_says_which_model_it_is(page, model):  # noqa: F811
    explainer, _, _ = page
    intro = text(explainer.intro)
    assert model.HEADS == 1 and "single head" in intro
    assert "sat" in intro and "Spotlight" in intro and "chosen by hand" in intro


def test_negative_numbers_use_the_minus_sign(page):
    assert not re.search(r"(^|[\s(])-\s?(\d|∞|ln)", everything(page))


def test_every_cited_work_is_referenced(page):
    explainer, _, _ = page
    body = everything(page)
    cited = set(re.findall(r"([A-Z][\w-]+) et al\.,? \(?(\d{4})", body))
    cited |= {(a, y) for a, y in re.findall(r"([A-Z][\w-]+) et al\., (?:\d{4}); (\d{4})", body)}
    surnames = {(r.authors.split(",")[0].split()[-1], r.year) for r in explainer.references}
    cited |= set(re.findall(r"\((OpenAI), (\d{4})\)", body))
    missing = {(a, int(y)) for a, y in cited} - surnames
    assert not missing, missing
    for surname, year in surnames:
        if surname == "OpenAI":
            assert f"(OpenAI, {year})" in body
            continue
        assert re.search(rf"{surname} et al\.,? \(?(\d{{4}}; )?{year}", body) or \
            re.search(rf"{surname} et al\., \d{{4}}; {year}", body), (surname, year)


def test_the_kv_cache_question_billions_and_gigabytes(page, model):  # noqa: F811
    explainer, _, _ = page
    assert "billions of numbers" in text(explainer.questions) and "gigabytes" in text(explainer.questions)
    values = model.scale("GPT-3")["values"]
    assert 1e9 <= values["cache_numbers"] < 1e12 and values["cache_gb"] >= 1


def test_the_rest_outside_the_blocks_shrinks_as_models_grow(model):  # noqa: F811
    shares = [model.scale(name)["values"]["block_share"] for name in model.MODEL_NAMES]
    assert shares == sorted(shares) and all(0 < s < 1 for s in shares)
