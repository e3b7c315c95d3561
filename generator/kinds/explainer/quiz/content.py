"""The questions of an explainer, read from its quiz/ folder: one file per
question (quiz/NN-name.md, in file-name order, as steps are), with TOML front
matter (schema.py), the question as Markdown, and a `::: right` and a `::: wrong`
part, the feedback on each kind of answer.

What can be checked before any model runs is checked here: the keys each kind
takes, the step named, and the names of its controls. The values, the answers
and the goal are checked against the computed states (answers.py)."""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

from ....errors import ContentError, Problem, did_you_mean
from ....load.toml_lines import line_of
from ....load.validation import validate
from ....load.content import collect
from ....load.frontmatter import parse_document, read_text
from .schema import KEYS, QUESTION

QUIZ_DIR = "quiz"
PARTS = ("main", "right", "wrong")


@dataclass(frozen=True)
class Question:
    path: Path
    id: str                 # from the file name without its number: quiz/02-d-k.md -> "d-k"
    kind: str               # choice, number or chart
    step: int               # the index of the step in the explainer (0 for step 1)
    state: dict             # control name -> value, as written (checked against the values once resolved)
    options: object         # a list, or an expression (a string); None where the kind has none
    answer: object
    multiple: bool
    tolerance: float
    distractors: object
    format: str
    goal: str | None
    text: str               # the question (Markdown and Jinja); its first paragraph is the fieldset's legend
    right: str              # feedback on a right answer
    wrong: str              # and on a wrong one
    part_lines: dict = field(default_factory=dict, hash=False, compare=False)  # part -> its first line
    source: str = field(default="", repr=False, hash=False, compare=False)     # the file's text, for lines

    def line(self, key: str | None) -> int | None:
        """The line of a front matter key (or of `state`'s key `state.name`), or of a part."""
        if key in self.part_lines:
            return self.part_lines[key]
        if key and key.startswith("state."):
            return line_of(self.source, key[len("state."):], "state.") or line_of(self.source, "state")
        return line_of(self.source, key) if key else None

    def problem(self, key: str | None, message: str) -> Problem:
        return Problem(self.path, message, self.line(key), key)


def load_quiz(folder: Path, steps: list, warnings: list[Problem]) -> list[Question]:
    """Every question in `folder`/quiz/, in file-name order; `steps` are the explainer's,
    loaded. Raises ContentError with every problem of every file."""
    quiz_dir = folder / QUIZ_DIR
    if not quiz_dir.is_dir():
        return []
    errors: list[Problem] = []
    questions = []
    for path in sorted(quiz_dir.glob("*.md")):
        question = collect(errors, lambda: _load_question(path, steps, warnings))
        if question:
            questions.append(question)
    ids = [q.id for q in questions]
    for question in questions:
        if ids.count(question.id) > 1:
            errors.append(Problem(question.path, f"another question's file has the name {question.id!r} too "
                                  "(each question's name, its file's without the number, must be its own)"))
    if errors:
        raise ContentError(errors)
    return questions


def _load_question(path: Path, steps: list, warnings: list[Problem]) -> Question:
    names = tuple((step.slug, step.path.stem, tuple(c.name for c in step.controls)) for step in steps)
    question, found, errors = _question_of(path, read_text(path), names)
    warnings += found
    if errors:
        raise ContentError(list(errors))
    return question


@functools.lru_cache(maxsize=256)  # by its text: the dev server's rebuilds read every file again
def _question_of(path: Path, text: str, steps: tuple) -> tuple[Question | None, tuple, tuple]:
    doc = parse_document(path, text, PARTS)
    meta, errors, warnings = validate(doc.meta, QUESTION, path, doc.text)
    kind = meta.get("kind")

    def problem(key: str, message: str) -> None:
        errors.append(Problem(path, message, line_of(doc.text, key), key))

    for part, what in (("main", "the question, before the first '::: part'"), ("right", "'::: right', the "
                       "feedback on a right answer"), ("wrong", "'::: wrong', the feedback on a wrong answer")):
        if part not in doc.parts:
            errors.append(Problem(path, f"has no {what}", doc.body_line if part == "main" else None, part))
    if kind in KEYS:
        for key in QUESTION:
            if key in doc.meta and key not in ("kind", "step", "state") and key not in KEYS[kind]:
                takes = [k for k, keys in KEYS.items() if key in keys]
                problem(key, f"a {kind!r} question has no {key} ({key} is for "
                             f"{' and '.join(repr(k) for k in takes)} questions)")
        required = {"choice": ("options", "answer"), "number": ("answer",), "chart": ("goal",)}[kind]
        for key in required:
            if key in meta and meta[key] is None:
                errors.append(Problem(path, f"is required for a {kind!r} question", None, key))
    step = _step_index(meta.get("step"), steps, path, doc.text, errors) if "step" in meta else None
    state = meta.get("state") or {}
    if step is not None:
        controls = steps[step][2]
        for name in state:
            if name not in controls:
                errors.append(Problem(path, f"step {step + 1} has no control {name!r} ("
                                      + (f"its controls: {', '.join(controls)}" if controls else "it has none")
                                      + ")" + did_you_mean(name, controls),
                                      line_of(doc.text, name, "state.") or line_of(doc.text, "state"),
                                      f"state.{name}"))
        if kind == "chart" and not controls:
            problem("step", f"step {step + 1} has no controls for the reader to set")
    if errors:
        return None, tuple(warnings), tuple(errors)
    stem = path.stem
    name = stem.split("-", 1)[1] if "-" in stem and stem.split("-")[0].isdigit() else stem
    return Question(
        path=path, id=name, kind=kind, step=step, state=dict(state), options=meta["options"],
        answer=meta["answer"], multiple=meta["multiple"], tolerance=float(meta["tolerance"]),
        distractors=meta["distractors"], format=meta["format"], goal=meta["goal"],
        text=doc.parts["main"], right=doc.parts["right"], wrong=doc.parts["wrong"],
        part_lines=dict(doc.part_lines), source=text,
    ), tuple(warnings), ()


def _step_index(value, steps: tuple, path: Path, text: str, errors: list[Problem]) -> int | None:
    """The index of the step `step` names: by its number, or by its file's name (with or
    without the number)."""
    line = line_of(text, "step")
    if isinstance(value, int):
        if 1 <= value <= len(steps):
            return value - 1
        errors.append(Problem(path, f"there is no step {value}: the explainer has {len(steps)} steps", line, "step"))
        return None
    for index, (slug, stem, _) in enumerate(steps):
        if value in (slug, stem):
            return index
    slugs = [slug for slug, _, _ in steps]
    errors.append(Problem(path, f"there is no step {value!r} (the steps: {', '.join(slugs)})"
                          + did_you_mean(value, slugs), line, "step"))
    return None
