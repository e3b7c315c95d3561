"""What the BERT page's prose says about its charts, true in every state (issue 42's screenshot pass)."""
from .test_bert_masked_language_modeling_figures import computed  # noqa: F401  (the fixture)
from .test_bert_masked_language_modeling_model import model  # noqa: F401  (the toy, from content/)
from .reader import normalise as _text


def test_step1_names_the_outlined_bar_when_it_is_not_the_top_guess(computed, model):  # noqa: F811
    """Step 1 outlines the hidden word's bar, not the tallest: where the toy guesses wrong (mat), the
    outlined bar is not the top guess, and the prose says which bar is outlined."""
    _, steps, prose = computed
    wrong = 0
    for state in steps[0].states:
        text = _text(prose[0].states[state.key][0])
        chart, values = state.chart, state.values
        outlined = chart.get("highlight")
        names_it = "(the outlined bar)" in text
        if outlined is not None and outlined != 0:
            wrong += 1
            assert chart["x"][outlined] == values["target"] and names_it, text
        else:
            assert not names_it, text
    assert wrong >= 1  # mat: the toy guesses cat
