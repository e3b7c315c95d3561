"""The exceptions a build raises, and the problems they carry.

Every problem names the file it is about, so the command line can print one
plain line per problem and never a traceback.
"""
from __future__ import annotations

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
        where = str(self.path)
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


class BuildError(GeneratorError):
    """The build could not be written (file system, theme, assets)."""


class StrictModeError(GeneratorError):
    """Warnings were reported and --strict turns them into a failure."""
