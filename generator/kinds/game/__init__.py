"""The game: a page of rounds in which the reader puts words in a model's
spotlight (the attention of one position, the blank) and sees its answer. Every
spotlight of every round is computed at build time by the page's model.py;
the page only looks them up. Everything about rounds lives in this subpackage:
content and schema, compute, text, page data and pages."""
from __future__ import annotations

from pathlib import Path

from .. import PageKind
from . import compute, content, pages, proof, schema, text


class GameKind(PageKind):
    name = "game"
    main_file = content.MAIN_FILE
    model_file = content.MODEL_FILE
    runtime = "game.js"
    schema = {
        "`game.md` front matter (a game's main file)": schema.GAME,
        "Each `[[rounds]]` entry of a game": schema.ROUND,
        "The `[labels]` table of a game": schema.GAME_LABELS,
    }

    def load(self, folder: Path, warnings: list) -> content.Game:
        return content.load_game(folder, warnings)

    def declarations(self, source: content.Game) -> str:
        """What computing the rounds reads besides model.py: not their text (but the names its
        answers are shown by, which the states' readouts hold)."""
        return repr(([r.compute for r in source.rounds], source.facts, source.stars, source.max_states,
                     sorted(source.answer_names.items())))

    def compute(self, source, model, config, cache):
        return compute.compute_game(source, model, config.time_limit)

    def adopt(self, computed, source):
        return compute.adopt(computed, source)

    def render_text(self, source, computed, renderer) -> text.GameText:
        return text.render_game_text(source, computed, renderer)

    def render(self, source, computed, texts, context):
        return pages.render_game(source, computed, texts, context)

    def state_count(self, computed) -> int:
        return sum(len(states.states) for states in computed.rounds)

    def proof(self, source, computed, texts, to_html):
        return proof.game_proof(source, computed, texts)


KIND = GameKind()
