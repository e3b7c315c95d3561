"""What the self-attention page says around its steps (introduction, key ideas,
questions, references) and in its parts that hold in every state, checked against
the toy model and the cited works. The claims of each state's prose are checked,
state by state, in test_self_attention_page.py."""
import re

import numpy as np

from .test_self_attention_figures import computed  # noqa: F401  (the computed page)
from .test_self_attention_model import model  # noqa: F401  (the toy model, imported from content/)
from .reader import as_read, check_references, reference_entries


def text_of(html):
    text = " ".join(re.sub(r"<[^>]+>", " ", as_read(html)).replace("&amp;", "&").replace("&quot;", '"')
                    .replace("&#34;", '"').replace("&#39;", "'").split())
    return re.sub(r" ([:;,.)])", r"\1", text)   # the space a closing tag left before punctuation


def page_of(computed):  # noqa: F811
    site, _, _ = computed
    return next(p for p in site.pages if p.slug == "self-attention")


def part(computed, number, name):  # noqa: F811
    _, _, prose = computed
    return text_of(getattr(prose[number - 1], name))


def everything(computed):  # noqa: F811
    _, _, prose = computed
    page = page_of(computed)
    parts = [page.intro, page.key_ideas, page.questions]
    for texts in prose:
        parts += [html for html, _ in texts.states.values()] + [texts.hint, texts.deeper, texts.practitioners]
        parts += [s for summaries in texts.summaries.values() for s in summaries]
    return text_of(" ".join(parts))


def test_the_page_says_once_that_the_toy_is_hand_set_and_trained_heads_are_not_this_tidy(computed):  # noqa: F811
    intro = text_of(page_of(computed).intro)
    assert "Its weights and the words' vectors are hand-set, so that each word's query asks a question a " \
           "person can read" in intro
    assert "a trained model's heads are learned, and rarely this tidy" in intro
    _, _, prose = computed
    steps = [text_of(" ".join([html for html, _ in t.states.values()] + [t.hint, t.deeper])) for t in prose]
    assert not any("hand-set" in s for s in steps)   # said once, where the reader meets the toy
    assert "random" not in intro and "random numbers" in steps[2]   # step 3 alone is random, and says so


def test_the_key_ideas_and_questions_follow_the_new_order(computed):  # noqa: F811
    ideas = text_of(page_of(computed).key_ideas)
    assert ideas.index("Softmax turns scores into weights") < ideas.index("Scaling keeps softmax useful")
    questions = text_of(page_of(computed).questions)
    assert "Step 3 shows both cases" in questions and "Step 5 counts the entries" in questions
    assert "(step 4)" in questions


def test_no_temperature_on_the_page(computed):  # noqa: F811
    assert "temperature" not in everything(computed).lower()


def test_every_cited_work_is_referenced_and_every_reference_cited(computed):  # noqa: F811
    check_references(page_of(computed), everything(computed))


def test_negative_numbers_use_the_minus_sign(computed):  # noqa: F811
    assert not re.search(r"(?<![\w/])-\d", everything(computed))


def test_additive_attention_finding_is_credited_to_britz(computed):  # noqa: F811
    """Vaswani et al. 2017, Section 3.2.1: "additive attention outperforms dot product
    attention without scaling for larger values of d_k [3]", [3] being Britz et al. 2017."""
    assert "a finding they take from Britz et al. (2017)" in part(computed, 3, "deeper")
    assert any(r.title == "Massive Exploration of Neural Machine Translation Architectures" and r.year == 2017
               for r in reference_entries(page_of(computed)))


def test_the_gradient_reason_is_the_papers_suspicion(computed):  # noqa: F811
    page = page_of(computed)
    assert "Vaswani et al. suspect" in text_of(page.key_ideas)
    assert "the authors suspect" in text_of(page.questions)
    assert "suspicion" in part(computed, 3, "deeper")


def test_the_variance_argument_states_its_conditions(computed):  # noqa: F811
    questions = text_of(page_of(computed).questions)
    assert "The dot product of two vectors whose d_k numbers are independent, each with mean 0 and " \
           "variance 1, has mean 0 and variance d_k" in questions
    assert "independent, with mean 0 and variance 1" in part(computed, 3, "deeper")


def test_position_is_added_at_the_input_only_in_the_original_design(computed):  # noqa: F811
    deeper = part(computed, 6, "deeper")
    assert "The original Transformer adds fixed sine and cosine patterns" in deeper
    assert "inside attention instead" in deeper and "(Su et al., 2021)" in deeper


def test_attention_is_not_read_as_importance(computed):  # noqa: F811
    intro = text_of(page_of(computed).intro)
    assert "which source words to read from" in intro and "matter most" not in intro


def test_a_decoders_causal_mask_breaks_the_symmetry(computed, model):  # noqa: F811
    """The intro and step 6 say what the mask hides and that it breaks the symmetry; the
    toy, masked, bears that out."""
    def causal(x):
        q, k, v = model.project(x)
        s = q @ k.T / 2
        s[np.triu_indices(len(x), 1)] = -np.inf
        w = np.exp(s - s.max(axis=1, keepdims=True))
        return (w / w.sum(axis=1, keepdims=True)) @ v
    masked, masked_shuffled = causal(model.X), causal(model.X[model.SHUFFLE])
    assert max(np.abs(masked[i] - masked_shuffled[model.SHUFFLE.index(i)]).max() for i in range(6)) > 0.1
    intro = page_of(computed).intro
    assert "a mask hides from each word the words after it" in " ".join(intro.split())
    assert "(page:decoder-only-transformers#step-1)" in intro
    assert "A decoder's causal mask leaves n(n + 1)/2 of them" in text_of(page_of(computed).questions)


def test_step_hints_hold(computed, model):  # noqa: F811
    scores = model.SCORES
    top = {t: model.TOKENS[int(np.argmax(scores[i]))] for i, t in enumerate(model.TOKENS)}
    hint = part(computed, 1, "hint")
    assert f"a verb looks for its subject ({top['sat']}), a preposition for its object ({top['on']}), " \
           f"a noun for what it does ({top['cat']})" in hint
    assert (top["sat"], top["on"], top["cat"]) == ("cat", "mat", "sat")
    assert scores[0, 1] == scores[0, 5] == 3 and "cat and mat score the same, 3.00 each" in hint
    deeper = part(computed, 1, "deeper")
    assert f"sat's query scores {scores[2, 1]:.2f} against cat's key, but cat's query scores " \
           f"{scores[1, 2]:.2f} against sat's key" in deeper and scores[2, 1] != scores[1, 2]
    # Step 4: sat's output sits near cat's value, far from the average; The's nearer the average.
    assert "Pick sat: its output sits near the value of cat, far from the plain average" in part(computed, 4, "hint")
    assert model.closer_to(2) == "top" and model.closer_to(0) == "average"
    # Step 5: 8 times longer, 64 times larger.
    assert "the text gets 8 times longer and the matrix 64 times larger" in part(computed, 5, "hint")
    # Step 6: the toy cannot tell the two sentences apart.
    assert '"The cat sat on the mat" from "on mat The the cat sat"' in part(computed, 6, "hint")


def test_step3_hint_says_only_what_holds(computed, model):  # noqa: F811
    """Issue 35: the unscaled top weight is not monotone in d_k (1.00 at 64, 0.99 at 256);
    the hint says what holds: the spread grows with every step, every state from 16 on is
    saturated, and the top weight at 64 and at 256."""
    def top(d, scaled):
        return model.softmax(model.scaling_scores(d, scaled)).max()
    spreads = [np.std(model.scaling_scores(d, False)) for d in model.D_KS]
    assert all(a < b for a, b in zip(spreads, spreads[1:]))
    assert top(4, False) < 0.90 <= min(top(d, False) for d in (16, 64, 256))
    hint = part(computed, 3, "hint")
    assert "the spread grows with every step, and from 16 on one key takes at least 0.90 of the weight " \
           f"({top(64, False):.2f} at 64, {top(256, False):.2f} at 256)" in hint
    assert f"{top(64, False):.2f}" == "1.00" and top(64, False) > top(256, False)
    assert all(0.75 < np.std(model.scaling_scores(d, True)) < 1.25 for d in model.D_KS)
    assert f"never goes above {max(top(d, True) for d in model.D_KS):.2f}" in hint
