"""A game's page data: one JSON document inlined in a
`<script type="application/json">` (pages must work from file://, where fetch
is blocked).

A round's states run to thousands, so the page carries only what the model
decides for each: its answer, confidence, stars and top answers, and the line
of feedback a wrong answer gets. States are listed in the order of their
controls' values (the first control slowest, each control with `values`
values), so the state a button leads to is found by its place, and which words
each head reads is read off that place too: the data table, the drawing of
where the attention goes and the sentence announced (text.py's says, put
together from the game's labels) are made in the page from it."""
from __future__ import annotations

import hashlib

from ...compute.formats import count, percent
from ...render.payload import canonical, script_json
from .compute import RoundStates, answer_name
from .drawing import stroke
from .content import Game
from .text import GameText, solved_text, stars_text, word_names


def share_texts(states: RoundStates) -> list[str]:
    """The share of a head's attention each chosen word gets, by how many are chosen (index 0: none)."""
    most = len(states.candidates)
    return [percent(0)] + [percent(1 / n) for n in range(1, most + 1)]


def shares(states: RoundStates, choice: dict) -> list[list[str]]:
    """Each head's attention at the blank, word by word, as the page shows it: the
    chosen words share it equally; an empty spotlight leaves it all on the blank."""
    texts = share_texts(states)
    columns = []
    for head in states.heads:
        chosen = tuple(choice[head]) or (states.blank,)
        columns.append([texts[len(chosen)] if p in chosen else texts[0] for p in range(len(states.words))])
    return columns


def ordered(states: RoundStates) -> list:
    """The round's states in the order of their controls' values (the first control slowest)."""
    values = states.values_per_control
    place = {}
    for state in states.states:
        index = 0
        for value in state.values["at"]:
            index = index * values + value
        place[index] = state
    return [place[i] for i in range(len(place))]


def game_payload(game: Game, rounds: list[RoundStates], text: GameText) -> str:
    labels = game.labels
    data = []
    for states, texts in zip(rounds, text.rounds):
        listed = ordered(states)
        entries = []
        for state in listed:
            answer, confidence, _ = state.readouts
            entry = {"answer": answer, "confidence": confidence, "stars": state.values["stars"]}
            if state.values["top"]:
                entry["top"] = [[answer_name(a, game.answer_names), percent(p)] for a, p in state.values["top"]]
            if state.values["feedback"]:
                entry["feedback"] = state.values["feedback"]
            entries.append(entry)
        data.append({
            "default": states.default_key, "keys": [s.key for s in listed], "states": entries,
            "values": states.values_per_control, "heads": states.heads,
            "candidates": states.candidates, "one": states.one_word_per_head, "blank": states.blank,
            "names": word_names(states, labels), "shares": share_texts(states),
            "counts": [count(n) for n in range(len(states.candidates) * len(states.heads) + 1)],
            "strokes": [stroke(n) for n in range(len(states.candidates) + 1)],
        })
    total = game.stars * len(rounds)
    score = [labels["score_of"].replace("{score}", str(n)).replace("{total}", str(total)) for n in range(total + 1)]
    # Stars kept in storage belong to these rounds only: a changed round starts from nothing.
    version = hashlib.sha256(canonical([[s.words, s.target, s.heads, s.candidates] for s in rounds]).encode())
    return script_json({
        "rounds": data, "score": score,
        "stars": [stars_text(game, n) for n in range(game.stars + 1)],
        "best": [labels["best"].replace("{stars}", stars_text(game, n)) for n in range(game.stars + 1)],
        # What is announced: these sentences with the state's own words (text.py's says).
        "says": labels["says"], "solved": [solved_text(game, n) for n in range(game.stars + 1)],
        "feedback": game.feedback, "looks": labels["looks"], "looks_blank": labels["looks_blank"],
        "and": labels["and"],
        "storage": f"lensa-game:{game.slug}:{version.hexdigest()[:12]}",
    })
