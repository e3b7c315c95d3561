"""The chart captions of the decoder-only page, true in every state (issue 42's screenshot pass)."""
from .test_decoder_only_transformers_figures import SLUG, all_states, dot_states  # noqa: F401
from .test_decoder_only_transformers_model import model  # noqa: F401


def test_step4_speaks_of_later_rows_only_while_there_are_some(dot_states, model):  # noqa: F811
    """At step 6 the cache holds every token: no row is left "not computed yet"."""
    _, steps, prose = dot_states
    n = len(model.TOKENS)
    seen = set()
    for state in steps[3].states:
        summaries = prose[3].summaries[state.key]
        step = state.choice["step"]
        assert len(summaries) == 2  # the key cache and the value cache
        summary = " ".join(summaries)
        assert summary.count("later tokens are not computed yet") == (2 if step < n else 0), (step, summary)
        seen.add(step)
    assert seen == set(range(1, n + 1))


def test_step3_says_which_bars_are_greyed_exactly_where_top_k_removes_some(dot_states):  # noqa: F811
    """The bars that top-k removes are greyed over a grey band; the prose names them so wherever
    some are removed, and never with Top-k at All."""
    _, steps, prose = dot_states
    removed_states = 0
    for state in steps[2].states:
        text = prose[2].states[state.key][0]
        removed = any(state.chart["faded"])
        assert ("greyed" in text) == removed, (state.choice, text)
        removed_states += removed
    assert removed_states > 0
