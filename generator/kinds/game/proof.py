"""A game's text for `lensa proof`: how to play and the note on the model, then
each round with its sentence, goal and lesson, what the model answers with its
own attention, and what is announced for every spotlight, one after another."""
from __future__ import annotations

from ...site import ProofSection, ProofText
from .compute import RoundStates
from .content import Game
from .text import GameText, word_names


def game_proof(game: Game, computed, text: GameText) -> list[ProofSection]:
    rounds = computed.rounds
    labels = game.labels
    opening = [ProofText("Subtitle", game.subtitle, html=False)] if game.subtitle else []
    sections = [ProofSection("Introduction", opening + [ProofText("", text.intro)])]
    if text.model_note:
        sections.append(ProofSection(labels["model"], [ProofText("", text.model_note)]))
    for states, texts in zip(rounds, text.rounds):
        number, total = states.number, len(rounds)
        sentence = " ".join(labels["blank"] if i == states.blank else w for i, w in enumerate(states.words))
        sections.append(ProofSection(f"Round {number} of {total}: {states.round.title}", [
            ProofText(labels["sentence"], sentence, html=False),
            ProofText(labels["target"], states.target, html=False),
            ProofText("Goal", texts.goal),
            ProofText(labels["lesson"], texts.lesson),
            *([ProofText(labels["more"], texts.more)] if texts.more else []),
            ProofText(labels["reveal"], texts.own_answer, html=False),
        ], part=number))
        names = word_names(states, labels)
        count = len(states.states)
        for index, state in enumerate(states.states, start=1):
            answer, confidence, words = state.readouts
            opens = " (the round opens here)" if state.key == states.default_key else ""
            readouts = " · ".join(f"{labels[key]}: {value}" for key, value in
                                  (("answer", answer), ("confidence", confidence), ("words", words)))
            sections.append(ProofSection(
                f"Round {number}, spotlight {index} of {count}: {_spotlight(states, state.choice, names)}{opens}",
                [ProofText("Readouts", readouts, html=False), ProofText("", texts.says[state.key], html=False)],
                part=number, state=f"spotlight {index}"))
    return sections


def _spotlight(states: RoundStates, choice: dict, names: list[str]) -> str:
    """The words in each head's spotlight: 'Head 1: cat · Head 3: none'."""
    return " · ".join(f"{head}: {', '.join(names[p] for p in choice[head]) or 'none'}" for head in states.heads)
