"""Shared by the tests of each page's questions (test_<slug>_quiz.py): the page's
questions as the build resolved them, by name, and their text as a reader reads it."""
from ..quiz_reader import text_of


def questions(site_states, slug: str) -> dict:
    """The page's questions (kinds/explainer/quiz/answers.Resolved), by their name."""
    return {found.id: found for found in site_states[2][slug].quiz}


def shown(found) -> dict[str, str]:
    """What a reader reads of a question: its legend (and the rest of the question),
    its answer where scripts are off, and its feedback both ways."""
    return {"question": text_of(found.legend + " " + found.more), "answer": found.answer_text,
            "right": text_of(found.right), "wrong": text_of(found.wrong)}


def states_reaching(found, states) -> list:
    """The states of a question's step that reach its goal."""
    return [states.by_key(key) for key in found.keys]
