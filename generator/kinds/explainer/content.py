"""An explainer's content: explainer.md (title, intro, key ideas, questions,
references) and its steps, each with controls, readouts and a chart. Loaded and
validated with every problem collected, so an author sees every error at once."""
from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from pathlib import Path

from ...errors import ContentError, Problem
from ...load.toml_lines import line_of
from ...load.validation import misspelt, record, slip_hint, validate
from ...load.content import Reference, collect, present
from ...load.frontmatter import load_document, parse_document, read_text
from ...render import charts as chart_kinds
from .. import PageSource
from .quiz.content import load_quiz
from .schema import CHART, EXPLAINER, READOUT, STEP

MAIN_FILE = "explainer.md"
MODEL_FILE = "model.py"
STEPS_DIR = "steps"
MAX_CHARTS = 3  # side by side on a wide screen; more would be too narrow to read

Readout = record("Readout", READOUT, __name__)
Chart = record("Chart", CHART, __name__)


@dataclass(frozen=True)
class Control:
    """A [[controls]] table, with its values resolved: a list in the step file,
    or (values_from) the name of a list in model.py, filled in once it is loaded."""
    kind: str
    name: str
    label: str
    values: tuple
    values_from: str | None
    default: object
    button: str
    details: tuple | None
    details_from: str | None
    labels: tuple | None = None        # the visible text of each value, when it is not the value
    labels_from: str | None = None

    def text(self, index: int) -> str:
        """What a reader sees for value `index`: `button` around its label or value."""
        shown = self.labels[index] if self.labels is not None else value_text(self.values[index])
        return self.button.replace("{value}", str(shown))


def value_text(value) -> str:
    """A value as the page names it (deep links, data-value): true and false as in TOML."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


TOGGLE_VALUES = (False, True)  # a toggle is off, then on: State.to indexes them so


@dataclass
class Step:
    path: Path
    number: int
    slug: str
    title: str
    subtitle: str
    compute: str
    summary: str
    controls: list[Control]
    readouts: list[Readout]
    charts: list[Chart]      # one to three, shown side by side on wide screens
    summaries: list[str]     # each chart's summary (Jinja), in order
    prose: str
    hint: str
    deeper: str
    practitioners: str = ""  # what a practitioner wants beyond the lesson, in a closed box
    prose_line: int = 1
    part_lines: dict = field(default_factory=dict)  # part name -> first line, for error messages

    @property
    def chart(self) -> Chart:
        """The first (often the only) chart."""
        return self.charts[0]


@dataclass
class Explainer(PageSource):
    question: str | None = None  # the heading of the intro
    intro: str = ""
    key_ideas: str = ""
    questions: str = ""
    steps: list[Step] = field(default_factory=list)
    quiz: list = field(default_factory=list)  # the questions of quiz/ (quiz/content.py's Question)

    @property
    def model_path(self) -> Path:
        return self.path / MODEL_FILE


def load_explainer(folder: Path, warnings: list[Problem]) -> Explainer:
    path = folder / MAIN_FILE
    errors: list[Problem] = []
    doc = collect(errors, lambda: load_document(path, ("main", "intro", "key-ideas", "questions")))
    if doc is None:
        raise ContentError(errors)
    meta, meta_errors, meta_warnings = validate(doc.meta, EXPLAINER, path, doc.text)
    errors += meta_errors
    warnings += meta_warnings
    for index, slug in enumerate(meta.get("related") or []):
        if not isinstance(slug, str):
            errors.append(Problem(path, f"expected a slug string, found {slug!r}",
                                  line_of(doc.text, "related"), f"related[{index}]"))
    if "main" in doc.parts:
        warnings.append(Problem(path, "text before the first '::: part' marker is ignored",
                                doc.part_lines["main"]))
    if "intro" in doc.parts and not meta.get("question"):
        warnings.append(Problem(path, "the intro has no heading: add the question it answers, "
                                "e.g. question = \"What is ...?\"", doc.part_lines["intro"], "question"))
    if not present(folder / MODEL_FILE):
        errors.append(Problem(folder / MODEL_FILE, "is missing: an explainer's numbers come from its model.py"))
    steps_dir = folder / STEPS_DIR
    step_files = sorted(steps_dir.glob("*.md")) if steps_dir.is_dir() else []
    if not step_files:
        errors.append(Problem(steps_dir, "has no step files (steps/NN-name.md)"))
    steps = []
    for number, step_path in enumerate(step_files, start=1):
        step = collect(errors, lambda: load_step(step_path, number, warnings))
        if step:
            steps.append(step)
    quiz = collect(errors, lambda: load_quiz(folder, steps, warnings)) if len(steps) == len(step_files) else []
    if errors:
        raise ContentError(errors)
    return Explainer(
        kind="explainer", path=folder, slug=folder.name, title=meta["title"], subtitle=meta["subtitle"],
        description=meta["description"], updated=meta["updated"], related=list(meta["related"]),
        references=[Reference(**ref) for ref in meta["references"]],
        further_reading=list(meta["further_reading"]), question=meta["question"],
        intro=doc.parts.get("intro", ""), key_ideas=doc.parts.get("key-ideas", ""),
        questions=doc.parts.get("questions", ""), steps=steps, quiz=quiz or [],
    )


def load_step(path: Path, number: int, warnings: list[Problem]) -> Step:
    step, found, errors = _step_of(path, number, read_text(path))
    warnings += found
    if errors:
        raise ContentError(list(errors))
    # The caller's own step (the build gives it its resolved controls), with new lists;
    # what they hold (controls, readouts, charts) is frozen.
    return replace(step, controls=list(step.controls), readouts=list(step.readouts), charts=list(step.charts),
                   summaries=list(step.summaries), part_lines=dict(step.part_lines))


@functools.lru_cache(maxsize=1024)
def _step_of(path: Path, number: int, text: str) -> tuple[Step | None, tuple[Problem, ...], tuple[Problem, ...]]:
    """A step, its warnings and its errors, made from its file's text alone: kept by that
    text, as the dev server's rebuilds read every step again and most are unchanged."""
    doc = parse_document(path, text, ("main", "hint", "deeper", "practitioners"))
    meta, errors, warnings = validate(doc.meta, STEP, path, doc.text)
    if "main" not in doc.parts:
        errors.append(Problem(path, "has no prose: write the state's Markdown before the first '::: part'",
                              doc.body_line))
    controls = []
    raw_rows = doc.meta.get("controls") if isinstance(doc.meta.get("controls"), list) else []
    clean_rows = meta.get("controls") or []
    for index, row in enumerate(clean_rows):
        # A key the schema refused is left out of the clean row; its error is said already.
        refused = set(raw_rows[index]) - set(row) if len(raw_rows) == len(clean_rows) else set()
        control, control_errors = _control(row, path, f"controls[{index}]", doc.text, refused)
        errors += control_errors
        controls.append(control)
    names = [c.name for c in controls if c]
    for name in sorted({n for n in names if names.count(n) > 1}):
        errors.append(Problem(path, f"two controls are named {name!r}", line_of(doc.text, None, "controls[1]."),
                              "controls"))
    chart_tables, summaries = _charts(meta, path, doc.text, errors, doc.meta)
    if not errors:
        errors += _chart_option_problems(chart_tables, meta.get("chart") is not None, path, doc.text)
    if errors:
        return None, tuple(warnings), tuple(errors)
    slug = path.stem.split("-", 1)[1] if "-" in path.stem and path.stem.split("-")[0].isdigit() else path.stem
    return Step(
        path=path, number=number, slug=slug, title=meta["title"], subtitle=meta["subtitle"],
        compute=meta["compute"], summary=meta["summary"], controls=controls,
        readouts=[Readout(**r) for r in meta["readouts"]],
        charts=[Chart(**table) for table in chart_tables], summaries=summaries,
        prose=doc.parts["main"], hint=doc.parts.get("hint", ""), deeper=doc.parts.get("deeper", ""),
        practitioners=doc.parts.get("practitioners", ""),
        prose_line=doc.part_lines["main"], part_lines=dict(doc.part_lines),
    ), tuple(warnings), ()


def _charts(meta: dict, path: Path, text: str, errors: list[Problem],
            written: dict) -> tuple[list[dict], list[str]]:
    """A step's charts: `[chart]` (one, described by the step's `summary`) or
    `[[charts]]` (one to MAX_CHARTS, each with its own summary)."""
    single, several = meta.get("chart"), meta.get("charts")
    if single is not None and several is not None:
        errors.append(Problem(path, "a step has either one [chart] or a list of [[charts]], not both",
                              line_of(text, None, "charts[0].") or line_of(text, None, "chart."),
                              "charts"))
        return [], []
    if single is not None:
        if not meta["summary"].strip():  # a chart with no caption and no text for screen readers
            slip = misspelt("summary", written, STEP)
            errors.append(Problem(path, "is required with [chart]: one sentence saying what the chart shows in "
                                  "the current state, its caption and its text for screen readers"
                                  + slip_hint(slip, "summary"),
                                  line_of(text, slip or "summary") or line_of(text, None, "chart."),
                                  "summary"))
        return [single], [meta["summary"]]
    if several is None:
        errors.append(Problem(path, "is required: expected a [chart] table or [[charts]] tables", None, "chart"))
        return [], []
    if not 1 <= len(several) <= MAX_CHARTS:
        errors.append(Problem(path, f"expected 1 to {MAX_CHARTS} charts, found {len(several)}",
                              line_of(text, None, f"charts[{min(len(several), MAX_CHARTS)}].")
                              or line_of(text, "charts"), "charts"))
        return [], []
    if meta["summary"]:
        errors.append(Problem(path, "a step with [[charts]] gives each chart its own summary; move this one "
                              "into its chart", line_of(text, "summary"), "summary"))
    tables = [{key: value for key, value in table.items() if key != "summary"} for table in several]
    return tables, [table.get("summary", "") for table in several]


def _chart_option_problems(tables: list[dict], single: bool, path: Path, text: str) -> list[Problem]:
    """What each chart's kind says of its options together (a log scale it cannot draw)."""
    found = []
    for index, table in enumerate(tables):
        where = "chart" if single else f"charts[{index}]"
        for issue in chart_kinds.check_options(chart_kinds.get(table["kind"]), Chart(**table)):
            line = line_of(text, issue.key, where + ".") or line_of(text, None, where + ".")
            found.append(Problem(path, issue.message, line, f"{where}.{issue.key}"))
    return found


def _control(row: dict, path: Path, where: str, text: str,
             refused: set = frozenset()) -> tuple[Control | None, list[Problem]]:
    """The control of a [[controls]] row the schema validated; `refused` are its keys the
    schema found wrong (and said so), about which nothing more is said here."""
    errors: list[Problem] = []

    def line(key: str) -> int | None:
        return line_of(text, key, where + ".") or line_of(text, None, where + ".")

    def problem(key: str, message: str) -> None:
        if key not in refused:
            errors.append(Problem(path, message, line(key), f"{where}.{key}"))

    kind = row.get("kind", "buttons")
    if "{value}" not in row.get("button", "{value}"):
        problem("button", f"must contain '{{value}}', found {row.get('button')!r}")
    values, details, labels = row.get("values"), row.get("details"), row.get("labels")
    default = row.get("default")
    if kind == "toggle":
        if values is not None:
            problem("values", "a toggle's values are false and true: leave 'values' out")
        for key in ("labels", "details"):
            if row.get(key) is not None:
                problem(key, f"a toggle is one button named by its label: it has no {key}")
        if not isinstance(default, bool):
            problem("default", f"expected true or false for a toggle, found {default!r}")
        values = list(TOGGLE_VALUES)
    else:
        if values is None:
            problem("values", "is required: expected a list or the name of a list in model.py")
        if isinstance(default, bool):
            problem("default", f"expected one of the values, found {str(default).lower()} "
                    "(true and false are a toggle's values: kind = \"toggle\")")
        if kind == "slider" and details is not None:
            problem("details", "a slider shows one value at a time: it has no details")
    literal = isinstance(values, list)
    if literal and values and kind != "toggle" and not isinstance(default, bool) and default not in values:
        problem("default", f"expected one of the values {values!r}, found {default!r}")
    for key, items in (("details", details), ("labels", labels)):
        if isinstance(items, list) and literal and len(items) != len(values):
            problem(key, f"expected {len(values)} {key} (one per value), found {len(items)}")
        if isinstance(items, list) and not all(isinstance(i, (str, int, float)) and not isinstance(i, bool)
                                               for i in items):
            problem(key, f"expected strings or numbers, found {items!r}")
    control = Control(
        kind=kind, name=row.get("name"), label=row.get("label"),
        values=tuple(values) if literal else (), values_from=None if literal else values,
        default=default, button=row.get("button", "{value}"),
        details=tuple(details) if isinstance(details, list) else None,
        details_from=details if isinstance(details, str) else None,
        labels=tuple(str(label) for label in labels) if isinstance(labels, list) else None,
        labels_from=labels if isinstance(labels, str) else None,
    )
    return control, errors
