"""The explainer: a page of numbered steps, each with controls, readouts, a
chart and prose for every state of its controls. Everything about steps lives
in this subpackage: content and schema, compute, text, page data and pages."""
from __future__ import annotations

from pathlib import Path

from .. import PageKind
from ...errors import ContentError
from . import compute, content, pages, proof, schema, text
from .quiz import ExplainerText
from .quiz.answers import resolve_quiz
from .quiz.schema import QUESTION


class ExplainerKind(PageKind):
    name = "explainer"
    main_file = content.MAIN_FILE
    model_file = content.MODEL_FILE
    runtime = "runtime.js"
    schema = {
        "`explainer.md` front matter": schema.EXPLAINER,
        "Step front matter (`steps/NN-name.md`)": schema.STEP,
        "Each `[[controls]]` entry of a step": schema.CONTROL,
        "Each `[[readouts]]` entry of a step": schema.READOUT,
        "The `[chart]` table of a step": schema.CHART,
        "Each `[[charts]]` entry of a step": schema.CHARTS_ITEM,
        "Question front matter (`quiz/NN-name.md`)": QUESTION,
    }

    def load(self, folder: Path, warnings: list) -> content.Explainer:
        return content.load_explainer(folder, warnings)

    def declarations(self, source: content.Explainer) -> str:
        """Everything about the steps that the computation reads: not their prose."""
        return repr([(s.path.name, s.number, s.compute, s.controls, s.readouts, s.charts) for s in source.steps])

    def content_files(self, source: content.Explainer) -> list[Path]:
        return [source.path / self.main_file, *(s.path for s in source.steps), *(q.path for q in source.quiz)]

    def compute(self, source, model, config, cache) -> list[compute.StepStates]:
        return compute.compute_explainer(source, model, config.max_states, cache, config.time_limit)

    def adopt(self, computed, source):
        return compute.adopt(computed, source)

    def warnings(self, computed) -> list:
        return [warning for step in computed for warning in step.warnings]

    def render_text(self, source, computed, renderer) -> ExplainerText:
        """Each step's prose, and the questions resolved against the states (their text is prose too)."""
        problems = []
        try:
            steps = text.render_explainer_text(source, computed, renderer)
        except ContentError as err:  # the questions' problems are reported with the steps'
            problems, steps = err.problems, []
        try:
            resolved = resolve_quiz(source, computed, renderer)
        except ContentError as err:
            problems, resolved = problems + err.problems, []
        if problems:
            raise ContentError(problems)
        return ExplainerText(steps, resolved)

    def render(self, source, computed, texts, context):
        return pages.render_explainer(source, computed, texts, context)

    def state_count(self, computed) -> int:
        return sum(len(step.states) for step in computed)

    def scored(self, source) -> int:
        return len(source.quiz)

    def proof(self, source, computed, texts, to_html):
        return proof.explainer_proof(source, computed, texts, to_html)


KIND = ExplainerKind()
