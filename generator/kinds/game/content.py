"""A game's content: game.md (title, rounds, the words around them, an intro
and a note on the model) and its model.py. Loaded and validated with every
problem collected, so an author sees every error at once."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ...errors import ContentError, Problem
from ...load.toml_lines import line_of
from ...load.validation import record, validate
from ...load.content import Reference, collect, present
from ...load.frontmatter import load_document
from .. import PageSource
from .schema import GAME, ROUND

MAIN_FILE = "game.md"
MODEL_FILE = "model.py"
PARTS = ("main", "intro", "model")

Round = record("Round", ROUND, __name__)


@dataclass
class Game(PageSource):
    rounds: list = field(default_factory=list)      # Round records, in playing order
    labels: dict = field(default_factory=dict)      # GAME_LABELS, defaults filled in
    answer_names: dict = field(default_factory=dict)  # the model's token -> how the page names it
    feedback: dict = field(default_factory=dict)    # a kind of wrong answer -> the line shown for it
    facts: str | None = None                        # model.py's function for the '::: model' part
    stars: int = 3
    max_states: int = 4096
    intro: str = ""                                 # Markdown: how to play
    model_note: str = ""                            # Markdown + Jinja: about the model, with its facts
    part_lines: dict = field(default_factory=dict)  # part name -> first line, for error messages
    text: str = ""                                  # the file's source, for line numbers

    @property
    def main_path(self) -> Path:
        return self.path / MAIN_FILE

    @property
    def model_path(self) -> Path:
        return self.path / MODEL_FILE

    def line(self, index: int | None = None, key: str | None = None) -> int | None:
        """The line of round `index` (or of one of its keys), best effort."""
        if index is None:
            return line_of(self.text, key)
        where = f"rounds[{index}]."
        return (key and line_of(self.text, key, where)) or line_of(self.text, None, where)


def load_game(folder: Path, warnings: list[Problem]) -> Game:
    path = folder / MAIN_FILE
    errors: list[Problem] = []
    doc = collect(errors, lambda: load_document(path, PARTS))
    if doc is None:
        raise ContentError(errors)
    meta, meta_errors, meta_warnings = validate(doc.meta, GAME, path, doc.text)
    errors += meta_errors
    warnings += meta_warnings
    if "main" in doc.parts:
        warnings.append(Problem(path, "text before the first '::: part' marker is ignored", doc.part_lines["main"]))
    if "model" in doc.parts and not meta.get("facts") and "{{" in doc.parts["model"]:
        errors.append(Problem(path, "the '::: model' part prints values, but no facts function names where "
                              "they come from: add facts = \"...\" (a function in model.py)",
                              doc.part_lines["model"], "facts"))
    if not present(folder / MODEL_FILE):
        errors.append(Problem(folder / MODEL_FILE, "is missing: a game's answers come from its model.py"))
    if meta.get("rounds") == []:
        errors.append(Problem(path, "must list at least one round", line_of(doc.text, "rounds"), "rounds"))
    if errors:
        raise ContentError(errors)
    return Game(
        kind="game", path=folder, slug=folder.name, title=meta["title"], subtitle=meta["subtitle"],
        description=meta["description"], updated=meta["updated"], related=list(meta["related"]),
        references=[Reference(**ref) for ref in meta["references"]],
        further_reading=list(meta["further_reading"]),
        rounds=[Round(**row) for row in meta["rounds"]], labels=meta["labels"], facts=meta["facts"],
        answer_names=dict(meta["answer_names"]), feedback=dict(meta["feedback"]),
        stars=meta["stars"], max_states=meta["max_states"], intro=doc.parts.get("intro", ""),
        model_note=doc.parts.get("model", ""), part_lines=dict(doc.part_lines), text=doc.text,
    )
