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


@dataclass
class GameText:
    intro: str                # HTML
    model_note: str           # HTML
    rounds: list[RoundText]


def stars_text(game: Game, stars: int) -> str:
    return game.labels["stars_of"].replace("{stars}", str(stars)).replace("{total}", str(game.stars))


def solved_text(game: Game, stars: int) -> str:
    """What is added to the announcement of a state that earns `stars` (nothing for none)."""
    return " " + game.labels["solved"].replace("{stars}", stars_text(game, stars)) if stars else ""


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
    texts = []
    for states in rounds:
        says = {}
        for state in states.states:
            answer, confidence, _ = state.readouts
            sentence = labels["says"].replace("{answer}", answer).replace("{confidence}", confidence)
            says[state.key] = sentence + solved_text(game, state.values["stars"])
        own = labels["own_answer"].replace("{answer}", answer_name(states.own_answer, game.answer_names)).replace(
            "{confidence}", percent(states.own_confidence))
        texts.append(RoundText(to_html(states.round.goal), to_html(states.round.lesson), says, own))
    return GameText(to_html(game.intro), note, texts)
