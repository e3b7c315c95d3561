"""A game's page data: one JSON document inlined in a
`<script type="application/json">` (pages must work from file://, where fetch
is blocked). Each round: {"default", "states": {key: {"answer", "confidence",
"words", "stars", "at" (each control's value), "table", "to"}}}, with the
data table's columns pooled (render/payload.py); and for the whole game, the
sentences the runtime shows for each number of stars and each score.

A round's states run to thousands, so the page carries only what differs
between them: the sentence announced for each is put together in the page
from the game's `says` and `solved` texts and the state's own answer,
confidence and stars, as text.py does for the first state."""
from __future__ import annotations

import hashlib

from ...compute.formats import percent
from ...render.payload import Pool, canonical, script_json
from .compute import RoundStates
from .content import Game
from .text import GameText, solved_text, stars_text

def word_names(states: RoundStates, labels: dict) -> list[str]:
    """How each word is told apart from the others: by its place, when the sentence has it twice."""
    seen = [w for i, w in enumerate(states.words) if i != states.blank]
    return [f"{word} ({labels['word_number'].replace('{n}', str(i + 1))})" if seen.count(word) > 1 else word
            for i, word in enumerate(states.words)]


def shares(states: RoundStates, choice: dict, memo: dict | None = None) -> list[list[str]]:
    """Each head's attention at the blank, word by word, as the page shows it: the
    chosen words share it equally; an empty spotlight leaves it all on the blank.
    With `memo`, a head's column for a spotlight is made once, as one list: the
    pool recognises a list it has seen by identity."""
    memo = {} if memo is None else memo
    columns = []
    for head in states.heads:
        chosen = tuple(choice[head]) or (states.blank,)
        column = memo.get(chosen)
        if column is None:
            share = percent(1 / len(chosen))
            column = memo[chosen] = [share if p in chosen else percent(0) for p in range(len(states.words))]
        columns.append(column)
    return columns


def game_payload(game: Game, rounds: list[RoundStates], text: GameText) -> str:
    pool = Pool()
    data = []
    for states in rounds:
        entries, columns = {}, {}
        for state in states.states:
            answer, confidence, words = state.readouts
            entries[state.key] = {"answer": answer, "confidence": confidence, "words": words,
                                  "stars": state.values["stars"], "at": state.values["at"],
                                  "table": pool.intern(shares(states, state.choice, columns)), "to": state.to}
        data.append({"default": states.default_key, "states": entries})
    total = game.stars * len(rounds)
    labels = game.labels
    score = [labels["score_of"].replace("{score}", str(n)).replace("{total}", str(total)) for n in range(total + 1)]
    # Stars kept in storage belong to these rounds only: a changed round starts from nothing.
    version = hashlib.sha256(canonical([[s.words, s.target, s.heads, s.candidates] for s in rounds]).encode())
    return script_json({
        "rounds": data, "pool": pool.items, "score": score,
        "stars": [stars_text(game, n) for n in range(game.stars + 1)],
        "best": [labels["best"].replace("{stars}", stars_text(game, n)) for n in range(game.stars + 1)],
        # What is announced: these sentences with the state's own words (text.py's says).
        "says": labels["says"], "solved": [solved_text(game, n) for n in range(game.stars + 1)],
        "storage": f"lensa-game:{game.slug}:{version.hexdigest()[:12]}",
    })
