"""The exceptions a build raises, the problems they carry, and how a run's
problems are reported to a person.

Every problem names the file it is about, so the command line and the dev
server can print one plain line per problem and never a traceback.
"""
from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Problem:
    """One thing wrong (or suspicious) in one input file."""

    path: Path | str
    message: str
    line: int | None = None
    field: str | None = None

    def __str__(self) -> str:
        return self.describe()

    def describe(self, base: Path | None = None) -> str:
        """'file:line: field: message', the file shown relative to `base` when inside it."""
        where = display_path(self.path, base)
        if self.line:
            where += f":{self.line}"
        field = f" {self.field}:" if self.field else ""
        return f"{where}:{field} {self.message}"


class GeneratorError(Exception):
    """Base of every error the generator reports to a user."""


class ContentError(GeneratorError):
    """The content (config, explainers, steps, model code) is invalid."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    @classmethod
    def one(cls, path, message, line=None, field=None) -> "ContentError":
        return cls([Problem(path, message, line, field)])


class MarkupError(GeneratorError):
    """Math or a citation in an author's text that cannot be rendered. `fragment` is
    the text as written, which the render stage finds in the page's files to name
    the file and the line."""

    def __init__(self, message: str, fragment: str = ""):
        self.message, self.fragment = message, fragment
        super().__init__(f"{message}: {fragment}" if fragment else message)


class BuildError(GeneratorError):
    """The build could not be written (file system, theme, assets)."""


class Interrupted(KeyboardInterrupt):
    """Ctrl+C while a build ran an author's code: its message says which (the step, the state)."""


class StrictModeError(GeneratorError):
    """Warnings were reported and --strict turns them into a failure."""

    def __init__(self, warnings: list[Problem]):
        self.warnings = list(warnings)
        super().__init__(f"{_count(len(self.warnings), 'warning')} with --strict")


def report_lines(error: BaseException | None, warnings: list[Problem], base: Path | None = None,
                 failed: str = "Build failed") -> list[str]:
    """What a person reads after a run: every warning, every error, then the totals.

    `warnings` is the run's counting collector; with --strict they are what failed
    the run, and are listed once, as errors."""
    strict = isinstance(error, StrictModeError)
    errors = [] if strict else problems_of(error)
    lines = [f"{'error' if strict else 'warning'}: {w.describe(base)}" for w in warnings]
    lines += [f"error: {line}" for line in (p if isinstance(p, str) else p.describe(base) for p in errors)]
    if error is None:
        return lines
    if strict:
        lines.append(f"{failed}: {_count(len(warnings), 'warning')}, which --strict counts as errors.")
    else:
        total = _count(len(errors), "error")
        lines.append(f"{failed}: {total}" + (f", {_count(len(warnings), 'warning')}." if warnings else "."))
    return lines


def problems_of(error: BaseException | None) -> list[Problem | str]:
    """The problems an error stands for, with the causes of a non-content error unravelled."""
    if error is None:
        return []
    if isinstance(error, ContentError):
        return error.problems
    lines, seen = [str(error)], {str(error)}
    cause = error.__cause__
    while cause is not None and str(cause) not in seen:
        lines.append(f"caused by: {cause}")
        seen.add(str(cause))
        cause = cause.__cause__
    return ["\n  ".join(lines)]


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def display_path(path: Path | str, base: Path | None) -> str:
    if base is None:
        return str(path)
    try:
        relative = os.path.relpath(Path(path).absolute(), base)
    except ValueError:  # another drive on Windows
        return str(path)
    return str(path) if relative.startswith("..") else relative


def closest(word, names, cutoff: float = 0.6) -> str | None:
    """The name among `names` nearest to `word` (a slip of a letter or two), or None."""
    matches = difflib.get_close_matches(str(word), [str(n) for n in names], n=1, cutoff=cutoff)
    return matches[0] if matches else None


def did_you_mean(word, names) -> str:
    """' (did you mean 'x'?)' for the name nearest to `word`, or '' when none is near: the one
    place a message suggests what an author may have meant."""
    near = closest(word, names)
    return f" (did you mean {near!r}?)" if near is not None and near != str(word) else ""
