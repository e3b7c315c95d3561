"""The schema of a question file (quiz/NN-name.md): which kind of question, the
step and state whose values answer it, and per kind its options, its number or
its goal. A string in `options`, `answer`, `distractors` and `goal` is an
expression over that state's values (Jinja's, as in prose): the model computes
the answers, so they cannot disagree with the charts."""
from __future__ import annotations

from ....load.validation import Option, nonempty
from ..schema import format_check

KINDS = ("choice", "number", "chart")

# The keys each kind takes besides the common ones (kind, step, state).
KEYS = {
    "choice": ("options", "answer", "multiple"),
    "number": ("answer", "tolerance", "distractors", "format"),
    "chart": ("goal",),
}


def _step_check(value) -> str | None:
    if isinstance(value, int) and value < 1:
        return f"expected a step number from 1, found {value}"
    return nonempty(value) if isinstance(value, str) else None


QUESTION = {
    "kind": Option((str,), "What the reader does: 'choice', pick one option (or several, with multiple = true); "
                   "'number', type a number; 'chart', set the controls of the step to reach the goal.",
                   required=True, choices=KINDS),
    "step": Option((int, str), "The step that shows the answer: its number as the page shows it (3), or its file's "
                   "name without the number ('heads' for steps/03-heads.md). For a 'chart' question, the step "
                   "whose controls the reader sets.", required=True, check=_step_check),
    "state": Option((dict,), "That step's controls in the state that shows the answer, by name: "
                    "{ head = 3, query = \"cat\" }; a control left out keeps its default. The question's "
                    "expressions and text use this state's values, and its link opens it. For a 'chart' "
                    "question it must reach the goal; left out, the link opens the state that reaches it with "
                    "the fewest changes from the defaults.", default={}),
    "options": Option((list, str), "choice: the options, a list (shown as written), or an expression giving "
                      "the list (\"tokens\").", default=None),
    "answer": Option((list, str, int, float), "choice: the right option or options, a list of them or an "
                     "expression (\"top_key\"); number: the right number, or an expression (\"d_model // "
                     "heads\").", default=None),
    "multiple": Option((bool,), "choice: true to let the reader pick several options (checkboxes: every right "
                       "one and no other must be picked); false for one (radio buttons).", default=False),
    "tolerance": Option((int, float), "number: how far from the answer a number may be and still be right.",
                        default=0, check=lambda v: None if v >= 0 else f"expected 0 or more, found {v}"),
    "distractors": Option((list, str), "number: wrong numbers a reader is likely to give (d_model for d_k, "
                          "say), a list or an expression; the build checks that the tolerance accepts none.",
                          default=[]),
    "format": Option((str,), "number: how the answer is written where scripts are off and in the LMS (as a "
                     "readout's format).", default="text", check=format_check),
    "goal": Option((str,), "chart: a condition on the step's values, true in the states that answer the question "
                   "(\"entropy < 2\"). No state, or every state, meeting it is an error.", default=None,
                   check=nonempty),
}
