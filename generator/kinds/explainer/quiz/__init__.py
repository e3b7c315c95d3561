"""Check your understanding: an explainer's questions (its quiz/ folder), whose
right answers the build computes from the page's own model. Read with the
explainer (content.py), resolved against its computed states when its text is
rendered (answers.py), shown by the theme's templates/_quiz.html and run by its
questions.js (view.py); docs/authoring.md describes the files, docs/lms.md the
score an LMS receives."""
from __future__ import annotations


class ExplainerText(list):
    """The text of an explainer: each step's prose (a list of StepProse, as the stages
    and tests read it), and `quiz`, its questions resolved (answers.Resolved)."""

    def __init__(self, steps, quiz: list):
        super().__init__(steps)
        self.quiz = quiz
