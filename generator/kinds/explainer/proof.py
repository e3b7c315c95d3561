"""An explainer's text for `lensa proof`: the introduction, key ideas and
questions, then each step with every state's choice, readouts, chart captions
and prose, one state after another, then its hint and deeper part, then the
questions of Check your understanding."""
from __future__ import annotations

from ...site import ProofSection, ProofText
from .compute import StepStates
from .content import Control, Explainer
from .quiz.view import quiz_proof
from .text import StepProse


def explainer_proof(explainer: Explainer, computed: list[StepStates], prose: list[StepProse],
                    to_html) -> list[ProofSection]:
    opening = [ProofText("Subtitle", explainer.subtitle, html=False)] if explainer.subtitle else []
    if explainer.question:
        opening.append(ProofText("Question", explainer.question, html=False))
    sections = [ProofSection("Introduction", opening + [ProofText("", to_html(explainer.intro))])]
    if explainer.key_ideas.strip():
        sections.append(ProofSection("Key ideas", [ProofText("", to_html(explainer.key_ideas))]))
    total = len(computed)
    for states, texts in zip(computed, prose):
        step = states.step
        sections.append(ProofSection(
            f"Step {step.number} of {total}: {step.title} ({step.path.parent.name}/{step.path.name})",
            [ProofText("Subtitle", step.subtitle, html=False)] if step.subtitle else [], part=step.number))
        count = len(states.states)
        for number, state in enumerate(states.states, start=1):
            chosen = _choice(step.controls, state.key)
            opens = " (the page opens here)" if state.key == states.default_key and count > 1 else ""
            found = []
            if step.readouts:
                found.append(ProofText("Readouts", " · ".join(
                    f"{readout.label}: {shown}" for readout, shown in zip(step.readouts, state.readouts)), html=False))
            captions = texts.summaries.get(state.key) or [texts.states[state.key][1]]
            for index, caption in enumerate(captions, start=1):
                if caption:
                    found.append(ProofText("Chart" if len(captions) == 1 else f"Chart {index}", caption, html=False))
            found.append(ProofText("", texts.states[state.key][0]))
            sections.append(ProofSection(f"Step {step.number}, state {number} of {count}"
                                         + (f": {chosen}" if chosen else "") + opens,
                                         found, part=step.number, state=f"state {number}"))
        static = [ProofText(label, html) for label, html in (("Try this", texts.hint), ("Going deeper", texts.deeper),
                                                               ("For practitioners", texts.practitioners))
                  if html]
        if static:
            sections.append(ProofSection(f"Step {step.number}: after its states", static, part=step.number))
    sections += quiz_proof(getattr(prose, "quiz", []))  # Check your understanding
    if explainer.questions.strip():
        sections.append(ProofSection("Common questions", [ProofText("", to_html(explainer.questions))]))
    return sections


def _choice(controls: list[Control], key: str) -> str:
    """The reader's choice in a state, as the controls show it: 'Pair: Pair 5 · Causal mask: on'."""
    if not controls:
        return ""
    indices = [int(part) for part in key.split(".")]
    return " · ".join(f"{c.label}: {('on' if c.values[i] else 'off') if c.kind == 'toggle' else c.text(i)}"
                      for c, i in zip(controls, indices))
