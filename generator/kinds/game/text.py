"""The text of a game: its intro, the note on the model (which may print the
values of model.py's facts function), each round's goal and lesson, and the
sentence announced for every spotlight. All rendered at build time."""
from __future__ import annotations

from dataclasses import dataclass

import jinja2

from ...compute.formats import percent
from ...errors import ContentError
from ...render.prose import TextRenderer
from ...render.templating import compile_string, render_problem
from .compute import GameStates, RoundStates, answer_name
from .content import Game


@dataclass
class RoundText:
    goal: str                 # HTML
    lesson: str               # HTML
    says: dict[str, str]      # state key -> the sentence announced when the reader reaches it
    own_answer: str           # the sentence under the model's own attention
    more: str = ""            # HTML: the rest of the lesson, behind a disclosure


@dataclass
class GameText:
    intro: str                # HTML
    model_note: str           # HTML
    rounds: list[RoundText]


def word_names(states: RoundStates, labels: dict) -> list[str]:
    """How each word is told apart from the others: by its place, when the sentence has it twice."""
    seen = [w for i, w in enumerate(states.words) if i != states.blank]
    return [f"{word} ({labels['word_number'].replace('{n}', str(i + 1))})" if seen.count(word) > 1 else word
            for i, word in enumerate(states.words)]


def stars_text(game: Game, stars: int) -> str:
    return game.labels["stars_of"].replace("{stars}", str(stars)).replace("{total}", str(game.stars))


def solved_text(game: Game, stars: int) -> str:
    """What is added to the announcement of a state that earns `stars` (nothing for none)."""
    return " " + game.labels["solved"].replace("{stars}", stars_text(game, stars)) if stars else ""


def looks_text(game: Game, states: RoundStates, choice: dict, names: list[str]) -> str:
    """Where each head's attention goes, in words: 'Head 3 looks at key and cabinets.'"""
    labels = game.labels
    sentences = []
    for head in states.heads:
        words = [names[p] for p in choice[head]]
        if not words:
            sentences.append(labels["looks_blank"].replace("{head}", head))
            continue
        listed = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {labels['and']} {words[-1]}"
        sentences.append(labels["looks"].replace("{head}", head).replace("{words}", listed))
    return " ".join(sentences)


def feedback_text(game: Game, kind: str | None) -> str:
    """The line a wrong answer of `kind` gets, after the answer (nothing for a right one)."""
    return " " + game.feedback[kind] if kind else ""


def _check_feedback(game: Game, rounds: list[RoundStates]) -> None:
    """Every kind of wrong answer the rounds name has its line in game.md."""
    used = sorted({s.values["feedback"] for states in rounds for s in states.states if s.values["feedback"]})
    missing = [kind for kind in used if kind not in game.feedback]
    if missing:
        raise ContentError.one(game.main_path, f"feedback has no line for {', '.join(missing)}, kinds of wrong answer "
                               "model.py names (add them to the feedback table)", game.line(key="feedback"),
                               "feedback")


def render_game_text(game: Game, computed: GameStates, text: TextRenderer) -> GameText:
    rounds, facts = computed.rounds, computed.facts
    labels = game.labels

    def to_html(markdown_text: str) -> str:
        return text.to_html(markdown_text, game.main_path)
    note = ""
    if game.model_note:
        line = game.part_lines.get("model")
        try:
            note = to_html(compile_string(text.html_env, game.model_note).render(facts))
        except jinja2.TemplateSyntaxError as err:
            raise ContentError.one(game.main_path, f"model: template syntax error: {err.message}",
                                   line=line + err.lineno - 1 if line and err.lineno else line, field="model") from None
        except jinja2.UndefinedError as err:
            known = ", ".join(sorted(facts)) or "nothing: set facts"
            raise ContentError.one(game.main_path, f"model: {err.message} (the facts are: {known})", line=line,
                                   field="model") from None
        except Exception as err:  # the sandbox's refusal, a filter given the wrong kind of value
            message, at = render_problem(err)
            raise ContentError.one(game.main_path, message, line=line + at - 1 if line and at else line,
                                   field="model") from None
    _check_feedback(game, rounds)
    texts = []
    for states in rounds:
        says = {}
        names = word_names(states, labels)
        for state in states.states:
            answer, confidence, _ = state.readouts
            sentence = labels["says"].replace("{answer}", answer).replace("{confidence}", confidence)
            says[state.key] = (sentence + solved_text(game, state.values["stars"])
                               + feedback_text(game, state.values["feedback"]) + " "
                               + looks_text(game, states, state.choice, names))
        own = labels["own_answer"].replace("{answer}", answer_name(states.own_answer, game.answer_names)).replace(
            "{confidence}", percent(states.own_confidence))
        more = to_html(states.round.more) if states.round.more else ""
        texts.append(RoundText(to_html(states.round.goal), to_html(states.round.lesson), says, own, more))
    return GameText(to_html(game.intro), note, texts)
