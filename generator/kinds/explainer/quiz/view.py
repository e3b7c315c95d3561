"""The questions as a page shows them: what the theme's templates/_quiz.html
needs of each question, and the page data that the theme's questions.js reads
(inline JSON, as pages must work from file://, where fetch is blocked).

Each page shows the questions it can answer: the explainer's page and its whole
embed every question; a step's embed (and the embed of one of its charts) the
questions about that step, whose links and goals it holds."""
from __future__ import annotations

from ....render.payload import script_json
from ....site import ProofSection, ProofText
from .answers import Resolved

SCRIPT = "questions.js"   # the theme's script that runs the questions
DATA_ID = "quiz-data"     # the id of the page data's <script>


def quiz_view(resolved: list[Resolved], slug: str, labels: dict, mastery: int, step: int | None = None) -> dict | None:
    """What a page shows of the questions (all, or those of step number `step`); None for none."""
    shown = [q for q in resolved if step is None or q.step_number == step]
    if not shown:
        return None
    return {"questions": [_question(q, n, len(shown), labels) for n, q in enumerate(shown, start=1)],
            "data": script_json(_data(shown, slug, labels, mastery)), "data_id": DATA_ID, "script": SCRIPT}


def _question(found: Resolved, number: int, total: int, labels: dict) -> dict:
    question = found.question
    step = {"{n}": str(found.step_number), "{title}": found.step_title}
    view = {
        "id": f"question-{question.id}", "kind": question.kind, "legend": found.legend, "more": found.more,
        "count": _fill(labels["quiz_question"], {"{n}": str(number), "{total}": str(total)}),
        "right": found.right, "wrong": found.wrong, "multiple": question.multiple,
        "options": list(zip(found.options, found.option_ids)),
        "explain": {"href": "#" + found.fragment, "text": _fill(labels["quiz_explain"], step)},
        "check": labels["quiz_check_chart" if question.kind == "chart" else "quiz_check"],
    }
    if question.kind == "chart":
        view["task"] = {"href": f"#step-{found.step_number}", "text": _fill(labels["quiz_task"], step)}
        choices = ", ".join(f"{label}: {text}" for label, text in found.choices)
        view["answer"] = _fill(labels["quiz_chart_answer"], {"{n}": str(found.step_number), "{choices}": choices})
    else:
        view["answer"] = _fill(labels["quiz_answer"], {"{answer}": found.answer_text})
    return view


def _data(shown: list[Resolved], slug: str, labels: dict, mastery: int) -> dict:
    """What questions.js needs to check and score answers, and to report them (scorm.js)."""
    questions = []
    for found in shown:
        question = found.question
        entry = {"id": question.id, "v": found.version, "kind": question.kind}
        if question.kind == "choice":
            entry.update(correct=found.correct)  # the options' names are their inputs' values
        elif question.kind == "number":
            entry.update(answer=found.answer, tolerance=question.tolerance)
        else:
            entry.update(step=found.step_number, keys=found.keys, example=[list(pair) for pair in found.example])
        questions.append(entry)
    return {"storage": f"lensa-quiz:{slug}", "mastery": mastery / 100, "questions": questions,
            "labels": {key.removeprefix("quiz_"): labels[key]
                       for key in ("quiz_right", "quiz_wrong", "quiz_choose", "quiz_number", "quiz_score")}}


def _fill(label: str, values: dict[str, str]) -> str:
    for placeholder, value in values.items():
        label = label.replace(placeholder, value)
    return label


def quiz_proof(resolved: list[Resolved]) -> list:
    """The questions for `lensa proof` (kinds/explainer/proof.py): each one's question,
    options or answer, feedback both ways and link, as a reader meets them."""
    sections = []
    for number, found in enumerate(resolved, start=1):
        question = found.question
        texts = [ProofText("", f"<p>{found.legend}</p>{found.more}")]
        if found.options:
            texts.append(ProofText("Options", " · ".join(found.options), html=False))
        if question.kind == "chart":
            texts.append(ProofText("Goal", f"{question.goal} (reached in {len(found.keys)} states of step "
                                           f"{found.step_number})", html=False))
        texts += [ProofText("Answer", found.answer_text or ", ".join(f"{label}: {text}" for label, text in found.choices),
                            html=False),
                  ProofText("If right", found.right), ProofText("If wrong", found.wrong),
                  ProofText("Link", f"step {found.step_number}: {found.step_title} (#{found.fragment})", html=False)]
        sections.append(ProofSection(f"Question {number} of {len(resolved)} ({question.path.parent.name}/"
                                     f"{question.path.name})", texts))
    return sections
