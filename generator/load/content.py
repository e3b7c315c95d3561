"""Load and validate the site: config, explainers and their steps.

Everything is read and checked before anything is computed or written; all
problems in all files are collected, so an author sees every error at once.
"""
from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from pathlib import Path

from . import schema
from ..errors import ContentError, Problem
from .frontmatter import load_document, parse_toml, read_text

SITE_FILE = "site.toml"
EXPLAINER_FILE = "explainer.md"
MODEL_FILE = "model.py"
STEPS_DIR = "steps"


@dataclass(frozen=True)
class SeriesEntry:
    slug: str
    title: str
    subtitle: str


@dataclass(frozen=True)
class SiteConfig:
    path: Path
    title: str
    description: str
    language: str
    theme: str
    base_url: str
    max_states: int
    labels: dict
    series: tuple[SeriesEntry, ...]
    extra: tuple[SeriesEntry, ...]


@dataclass(frozen=True)
class Control:
    kind: str
    name: str
    label: str
    values: tuple  # literal values, or resolved from model.py once it is loaded
    values_from: str | None
    default: object
    button: str
    details: tuple | None
    details_from: str | None


@dataclass(frozen=True)
class Readout:
    label: str
    value: str
    format: str


@dataclass(frozen=True)
class Chart:
    kind: str
    title: str
    x_title: str
    y_title: str
    y_format: str
    height: int
    wide: bool


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
    chart: Chart
    prose: str
    hint: str
    deeper: str
    prose_line: int = 1
    part_lines: dict = field(default_factory=dict)  # part name -> first line, for error messages


@dataclass(frozen=True)
class Reference:
    authors: str
    year: int
    title: str
    url: str


@dataclass
class Explainer:
    path: Path  # the explainer's folder
    slug: str
    title: str
    subtitle: str
    description: str
    question: str | None  # the heading of the intro
    updated: _dt.date
    related: list[str]
    references: list[Reference]
    intro: str
    key_ideas: str
    questions: str
    steps: list[Step] = field(default_factory=list)

    @property
    def model_path(self) -> Path:
        return self.path / MODEL_FILE


@dataclass
class Site:
    root: Path
    config: SiteConfig
    explainers: list[Explainer]
    warnings: list[Problem] = field(default_factory=list)


def load_site(content_dir: Path, warnings: list[Problem] | None = None) -> Site:
    """Read content/: the site config and every explainer folder in it.

    Warnings are appended to `warnings` as they are found (the caller's counting
    collector), so they are reported even when errors stop the build."""
    if not content_dir.is_dir():
        what = "is not a folder" if content_dir.exists() else "does not exist"
        raise ContentError.one(content_dir, f"{what}: expected the content folder, with a {SITE_FILE}")
    errors: list[Problem] = []
    warnings = [] if warnings is None else warnings
    config = _collect(errors, lambda: load_config(content_dir / SITE_FILE, warnings))
    explainers = []
    folders = sorted(p for p in content_dir.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))
    for folder in folders:
        if not _present(folder / EXPLAINER_FILE):
            warnings.append(Problem(folder, f"has no {EXPLAINER_FILE}; the folder is skipped"))
            continue
        explainer = _collect(errors, lambda: load_explainer(folder, warnings))
        if explainer:
            explainers.append(explainer)
    if config:
        errors += _check_slugs(config, explainers)
    if errors:
        raise ContentError(errors)
    ordered = _series_order(config, explainers)
    return Site(root=content_dir, config=config, explainers=ordered, warnings=warnings)


def load_config(path: Path, warnings: list[Problem]) -> SiteConfig:
    if not _present(path):
        raise ContentError.one(path, "is missing: every site needs a site.toml with at least a title")
    text = read_text(path)
    table = parse_toml(text, path)
    clean, errors, more_warnings = schema.validate(table, schema.SITE, path, text)
    warnings += more_warnings
    if errors:
        raise ContentError(errors)
    entries = lambda rows: tuple(SeriesEntry(**row) for row in rows)  # noqa: E731
    clean["base_url"] = clean["base_url"].rstrip("/") + "/" if clean["base_url"] else ""
    return SiteConfig(path=path, **{**clean, "series": entries(clean["series"]),
                                    "extra": entries(clean["extra"])})


def load_explainer(folder: Path, warnings: list[Problem]) -> Explainer:
    path = folder / EXPLAINER_FILE
    errors: list[Problem] = []
    doc = _collect(errors, lambda: load_document(path, ("main", "intro", "key-ideas", "questions")))
    if doc is None:
        raise ContentError(errors)
    meta, meta_errors, meta_warnings = schema.validate(doc.meta, schema.EXPLAINER, path, doc.text)
    errors += meta_errors
    warnings += meta_warnings
    for index, slug in enumerate(meta.get("related") or []):
        if not isinstance(slug, str):
            errors.append(Problem(path, f"expected a slug string, found {slug!r}",
                                  schema.line_of(doc.text, "related"), f"related[{index}]"))
    if "main" in doc.parts:
        warnings.append(Problem(path, "text before the first '::: part' marker is ignored",
                                doc.part_lines["main"]))
    if "intro" in doc.parts and not meta.get("question"):
        warnings.append(Problem(path, "the intro has no heading: add the question it answers, "
                                "e.g. question = \"What is ...?\"", doc.part_lines["intro"], "question"))
    if not _present(folder / MODEL_FILE):
        errors.append(Problem(folder / MODEL_FILE, "is missing: an explainer's numbers come from its model.py"))
    steps_dir = folder / STEPS_DIR
    step_files = sorted(steps_dir.glob("*.md")) if steps_dir.is_dir() else []
    if not step_files:
        errors.append(Problem(steps_dir, "has no step files (steps/NN-name.md)"))
    steps = []
    for number, step_path in enumerate(step_files, start=1):
        step = _collect(errors, lambda: load_step(step_path, number, warnings))
        if step:
            steps.append(step)
    if errors:
        raise ContentError(errors)
    return Explainer(
        path=folder, slug=folder.name, title=meta["title"], subtitle=meta["subtitle"],
        description=meta["description"], question=meta["question"], updated=meta["updated"], related=list(meta["related"]),
        references=[Reference(**ref) for ref in meta["references"]],
        intro=doc.parts.get("intro", ""), key_ideas=doc.parts.get("key-ideas", ""),
        questions=doc.parts.get("questions", ""), steps=steps,
    )


def load_step(path: Path, number: int, warnings: list[Problem]) -> Step:
    doc = load_document(path, ("main", "hint", "deeper"))
    meta, errors, meta_warnings = schema.validate(doc.meta, schema.STEP, path, doc.text)
    warnings += meta_warnings
    if "main" not in doc.parts:
        errors.append(Problem(path, "has no prose: write the state's Markdown before the first '::: part'",
                              doc.body_line))
    controls = []
    for index, row in enumerate(meta.get("controls") or []):
        control, control_errors = _control(row, path, f"controls[{index}]", doc.text)
        errors += control_errors
        controls.append(control)
    names = [c.name for c in controls if c]
    for name in sorted({n for n in names if names.count(n) > 1}):
        errors.append(Problem(path, f"two controls are named {name!r}", schema.line_of(doc.text, None, "controls[1]."),
                              "controls"))
    if errors:
        raise ContentError(errors)
    slug = path.stem.split("-", 1)[1] if "-" in path.stem and path.stem.split("-")[0].isdigit() else path.stem
    return Step(
        path=path, number=number, slug=slug, title=meta["title"], subtitle=meta["subtitle"],
        compute=meta["compute"], summary=meta["summary"], controls=controls,
        readouts=[Readout(**r) for r in meta["readouts"]], chart=Chart(**meta["chart"]),
        prose=doc.parts["main"], hint=doc.parts.get("hint", ""), deeper=doc.parts.get("deeper", ""),
        prose_line=doc.part_lines["main"], part_lines=dict(doc.part_lines),
    )


def _control(row: dict, path: Path, where: str, text: str) -> tuple[Control | None, list[Problem]]:
    errors: list[Problem] = []

    def line(key: str) -> int | None:
        return schema.line_of(text, key, where + ".") or schema.line_of(text, None, where + ".")

    if "{value}" not in row.get("button", "{value}"):
        errors.append(Problem(path, f"must contain '{{value}}', found {row.get('button')!r}", line("button"),
                              where + ".button"))
    values, details = row.get("values"), row.get("details")
    literal = isinstance(values, list)
    if literal and values and row.get("default") not in values:
        errors.append(Problem(path, f"expected one of the values {values!r}, found {row.get('default')!r}",
                              line("default"), where + ".default"))
    if isinstance(details, list) and literal and len(details) != len(values):
        errors.append(Problem(path, f"expected {len(values)} details (one per value), found {len(details)}",
                              line("details"), where + ".details"))
    control = Control(
        kind=row.get("kind", "buttons"), name=row.get("name"), label=row.get("label"),
        values=tuple(values) if literal else (), values_from=None if literal else values,
        default=row.get("default"), button=row.get("button", "{value}"),
        details=tuple(details) if isinstance(details, list) else None,
        details_from=details if isinstance(details, str) else None,
    )
    return control, errors


def _check_slugs(config: SiteConfig, explainers: list[Explainer]) -> list[Problem]:
    errors = []
    listed = [e.slug for e in config.series + config.extra]
    text = _source(config.path)
    for slug in sorted({s for s in listed if listed.count(s) > 1}):
        lines = [n for n, row in enumerate(text.split("\n"), start=1)
                 if row.strip().replace(" ", "") in (f'slug="{slug}"', f"slug='{slug}'")]
        errors.append(Problem(config.path, f"slug {slug!r} is listed more than once (each explainer once, "
                              "in series or extra)", lines[1] if len(lines) > 1 else None, "series"))
    known = set(listed) | {e.slug for e in explainers}
    for explainer in explainers:
        if schema.check_slug(explainer.slug):
            errors.append(Problem(explainer.path, schema.check_slug(explainer.slug).replace("slug", "folder name")))
        for slug in explainer.related:
            if slug not in known:
                path = explainer.path / EXPLAINER_FILE
                errors.append(Problem(path, f"unknown explainer {slug!r}: list it in site.toml or add its folder",
                                      schema.line_of(_source(path), "related"), "related"))
    return errors


def _series_order(config: SiteConfig, explainers: list[Explainer]) -> list[Explainer]:
    """Explainers in series order; unlisted ones follow, alphabetically."""
    rank = {entry.slug: i for i, entry in enumerate(config.series + config.extra)}
    return sorted(explainers, key=lambda e: (rank.get(e.slug, len(rank)), e.slug))


def _present(path: Path) -> bool:
    """True for a file that exists, and for a broken link, which reading then reports."""
    return path.exists() or path.is_symlink()


def _source(path: Path) -> str:
    try:
        return path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def _collect(errors: list[Problem], load):
    try:
        return load()
    except ContentError as err:
        errors += err.problems
        return None
