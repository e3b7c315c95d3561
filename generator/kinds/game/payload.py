"""A game's page data: one JSON document inlined in a
`<script type="application/json">` (pages must work from file://, where fetch
is blocked). Each round: {"default", "states": {key: {"answer", "confidence",
"words", "stars", "says", "on", "name", "table", "to"}}}, with the data
table's columns pooled (render/payload.py); and for the whole game, the
sentences the runtime shows for each number of stars and each score."""
from __future__ import annotations

import hashlib

from ...compute.formats import percent
from ...render.payload import Pool, canonical, script_json
from .compute import RoundStates
from .content import Game
from .text import GameText, stars_text

EMPTY = "none"  # an empty head in a spotlight's name


def word_names(states: RoundStates, labels: dict) -> list[str]:
    """How each word is told apart from the others: by its place, when the sentence has it twice."""
    seen = [w for i, w in enumerate(states.words) if i != states.blank]
    return [f"{word} ({labels['word_number'].replace('{n}', str(i + 1))})" if seen.count(word) > 1 else word
            for i, word in enumerate(states.words)]


def spotlight_name(states: RoundStates, choice: dict) -> str:
    """A spotlight as the address fragment names it: each head's words, '+' between
    words and ',' between heads ('keys+cabinet', 'this,deer'); a word the sentence
    has twice carries its place ('the-4'), and an empty head is 'none'."""
    words = states.words
    others = [w for i, w in enumerate(words) if i != states.blank]

    def word(p: int) -> str:
        return f"{words[p]}-{p + 1}" if others.count(words[p]) > 1 or words[p] == EMPTY else words[p]
    return ",".join("+".join(word(p) for p in choice[head]) or EMPTY for head in states.heads)


def shares(states: RoundStates, choice: dict) -> list[list[str]]:
    """Each head's attention at the blank, word by word, as the page shows it: the
    chosen words share it equally; an empty spotlight leaves it all on the blank."""
    columns = []
    for head in states.heads:
        chosen = choice[head] or [states.blank]
        share = percent(1 / len(chosen))
        columns.append([share if position in chosen else percent(0) for position in range(len(states.words))])
    return columns


def game_payload(game: Game, rounds: list[RoundStates], text: GameText) -> str:
    pool = Pool()
    data = []
    for states, texts in zip(rounds, text.rounds):
        controls = {control: c for c, control in enumerate(states.controls)}
        heads = {head: h for h, head in enumerate(states.heads)}
        entries = {}
        for state in states.states:
            answer, confidence, words = state.readouts
            entries[state.key] = {
                "answer": answer, "confidence": confidence, "words": words, "stars": state.values["stars"],
                "says": texts.says[state.key], "name": spotlight_name(states, state.choice),
                "on": sorted(controls[(heads[head], p)] for head, chosen in state.choice.items() for p in chosen),
                "table": pool.intern(shares(states, state.choice)), "to": state.to,
            }
        data.append({"default": states.default_key, "states": entries})
    total = game.stars * len(rounds)
    labels = game.labels
    score = [labels["score_of"].replace("{score}", str(n)).replace("{total}", str(total)) for n in range(total + 1)]
    best = [labels["best"].replace("{stars}", stars_text(game, n)) for n in range(game.stars + 1)]
    # Stars kept in storage belong to these rounds only: a changed round starts from nothing.
    version = hashlib.sha256(canonical([[s.words, s.target, s.heads, s.candidates] for s in rounds]).encode())
    return script_json({"rounds": data, "pool": pool.items, "score": score, "best": best,
                        "stars": [stars_text(game, n) for n in range(game.stars + 1)],
                        "storage": f"lensa-game:{game.slug}:{version.hexdigest()[:12]}"})
