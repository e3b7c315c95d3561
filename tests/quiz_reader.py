"""An explainer's questions (Check your understanding) answered as a reader
answers them: each question found as the group its legend names, options picked
by their labels, a number typed into "Your answer", a step's controls set by role
and name for a question about the chart, and Check pressed. What is right comes
from the build's own resolution of the questions (kinds/explainer/quiz/answers.py),
computed in Python; what is shown is read back from the page in one look."""
from __future__ import annotations

import html
import re

from generator.kinds.explainer.quiz.answers import Resolved

from .content.reader import choose, chosen

CHECK = {"choice": "Check", "number": "Check", "chart": "Check the chart"}


def reach_questions(page) -> None:
    """Scroll to the questions, as a reader does (the page runs questions.js as they near
    the screen), and wait until they answer."""
    page.get_by_role("heading", name="Check your understanding", exact=True).scroll_into_view_if_needed()
    page.wait_for_function("window.lensa?.quiz && window.lensa.quiz.ready && window.lensa?.runtime")


def question_group(scope, number: int, total: int):
    """Question `number` of `total` on the page: a fieldset, named by its legend."""
    return scope.get_by_role("group", name=re.compile(rf"^Question {number} of {total}\b"))


def wrong_option(found: Resolved) -> int:
    return next(i for i in range(len(found.options)) if i not in found.correct)


def wrong_number(found: Resolved) -> float:
    return found.answer + found.question.tolerance + max(1, abs(found.answer))


def wrong_state(found: Resolved, states):
    """A state of the question's step that does not reach its goal: the nearest to the one it links to."""
    linked = states.by_key(found.key)
    controls = states.step.controls

    def distance(state):
        return sum(abs(c.values.index(state.choice[c.name]) - c.values.index(linked.choice[c.name])) for c in controls)
    return min((s for s in states.states if s.key not in found.keys), key=distance)


def set_step(scope, states, choice: dict) -> None:
    """Set a step's controls to `choice` as a reader would, by role and name."""
    section = scope.get_by_role("region", name=states.step.title, exact=True)
    for control in states.step.controls:
        index = control.values.index(choice[control.name])
        if chosen(section, control) != index:
            choose(section, control, index)


def answer(scope, group, found: Resolved, steps, right: bool) -> None:
    """Answer the question in `group` right or wrong, and press Check. `steps` are the
    explainer's step states (for a question about the chart)."""
    question = found.question
    if question.kind == "choice":
        role = "checkbox" if question.multiple else "radio"
        for index in (found.correct if right else [wrong_option(found)]):
            group.get_by_role(role, name=found.options[index], exact=True).check()
    elif question.kind == "number":
        group.get_by_role("spinbutton", name="Your answer").fill(str(found.answer if right else wrong_number(found)))
    else:
        states = steps[question.step]
        target = states.by_key(found.key) if right else wrong_state(found, states)
        set_step(scope, states, target.choice)
    group.get_by_role("button", name=CHECK[question.kind], exact=True).click()


def shown_feedback(group) -> dict:
    """What the question's live region says, and where its link leads, in one look."""
    return group.evaluate("""g => {
        const region = g.querySelector('[role="status"]');
        const link = region.querySelector("a");
        return {text: region.innerText, link: link && link.getAttribute("href"), name: link && link.innerText,
                result: g.getAttribute("data-result")};
    }""")


def text_of(markup: str) -> str:
    """HTML as a reader reads it, its spacing collapsed (as innerText is, after words())."""
    return words(html.unescape(re.sub(r"<[^>]+>", "", markup)))


def words(text: str) -> str:
    return " ".join(text.split())


def expected_feedback(found: Resolved, right: bool) -> str:
    """The feedback's words as the page shows them (verdict, then the feedback text)."""
    return ("Right. " if right else "Not quite. ") + text_of(found.right if right else found.wrong)
