"""Check your understanding across the series: every explainer asks 3 to 5 questions,
one at least about the chart; and a question about the chart says the same whichever
state the reader reaches, so that it is true of the state they are in when it shows
(each page's tests/content/test_<slug>_quiz.py checks what it says against the model)."""
import pytest

from generator.kinds.explainer.quiz.answers import _context, _html
from generator.build import read_site
from generator.render.prose import text_renderer

from ..conftest import CONTENT
from ..quiz_reader import text_of

EXPLAINERS = [page.slug for page in read_site(CONTENT).pages if page.kind == "explainer"]


@pytest.mark.parametrize("slug", EXPLAINERS)
def test_every_explainer_asks_three_to_five_questions_one_about_the_chart(slug, site_states):
    quiz = site_states[2][slug].quiz
    assert 3 <= len(quiz) <= 5, slug
    assert any(found.question.kind == "chart" for found in quiz), slug
    for found in quiz:  # each question has its feedback both ways, and a link to a step of its own page
        assert text_of(found.right) and text_of(found.wrong) and found.fragment.startswith(f"step-{found.step_number}")


@pytest.mark.parametrize("slug", EXPLAINERS)
def test_a_question_about_the_chart_reads_the_same_in_every_state(slug, site_states):
    """Its question and its feedback on a right answer are the same in every state that
    reaches the goal, and its feedback on a wrong answer in every state: what the reader
    reads is written for the state they set, whichever it is."""
    _, computed, prose = site_states
    renderer = text_renderer()
    for found in (q for q in prose[slug].quiz if q.question.kind == "chart"):
        states = computed[slug][found.question.step]
        question = found.question
        for part, keys in (("main", found.keys), ("right", found.keys), ("wrong", [s.key for s in states.states])):
            texts = {text_of(_html(question, part, _context(states.by_key(key)), renderer)) for key in keys}
            assert len(texts) == 1, (slug, found.id, part, sorted(texts)[:2])
