"""Page kinds: what a content folder is (an explainer, a game...) and how it
becomes pages. The stages of build() iterate over pages of any kind and call
only the interface below; everything a kind knows (steps, rounds...) stays in
its own module or subpackage here.

A kind is found by its module defining `KIND`, an instance of a PageKind
subclass. A content folder's main file names its kind with a `kind` key
(default "explainer"); the file is the kind's `main_file`.
"""
from __future__ import annotations

import datetime as _dt
import importlib
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from ..load.schema import REFERENCE, record

if TYPE_CHECKING:  # the interface's types, without importing the stages
    from ..render.pages import RenderContext
    from ..render.pages import Page


Reference = record("Reference", REFERENCE, __name__)  # a work a page cites


@dataclass
class PageSource:
    """What every kind's content has, and all that the stages outside the kind
    read: the series navigation, the index, the sitemap and the cache."""
    kind: str
    path: Path          # the content folder
    slug: str
    title: str
    subtitle: str
    description: str
    updated: _dt.date
    related: list[str] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)

    @property
    def main_path(self) -> Path:
        return self.path / KINDS_BY_NAME()[self.kind].main_file


class PageKind:
    """The interface of a kind. Subclasses set the class attributes and
    implement the methods; nothing else about them is assumed."""

    name: ClassVar[str]        # the `kind` key's value, e.g. "explainer"
    main_file: ClassVar[str]   # the folder's main file, e.g. "explainer.md"
    model_file: ClassVar[str | None] = "model.py"  # the author's numpy code, if the kind has one
    runtime: ClassVar[str]     # the script under the theme's static/ that drives its pages
    schema: ClassVar[dict]     # {file description: option table}, for the field reference

    def load(self, folder: Path, warnings: list) -> PageSource:
        """Read and validate the folder; raise ContentError with every problem."""
        raise NotImplementedError

    def declarations(self, source: PageSource) -> str:
        """Everything besides the model's files that computing the states reads (a cache key part)."""
        raise NotImplementedError

    def compute(self, source: PageSource, model: Any, config, memo) -> Any:
        """Every state of the page, each with its key and where each control leads."""
        raise NotImplementedError

    def adopt(self, computed: Any, source: PageSource) -> Any:
        """States computed by an earlier build, attached to this build's source (its prose may be new)."""
        return computed

    def warnings(self, computed: Any) -> list:
        """Problems found while computing (or kept with reused states) that do not stop
        the build: reported with the site's warnings, and failing it under --strict."""
        return []

    def render_text(self, source: PageSource, computed: Any, text) -> Any:
        """The text of every state (prose.TextRenderer gives Markdown and Jinja)."""
        raise NotImplementedError

    def render(self, source: PageSource, computed: Any, texts: Any, context: "RenderContext") -> list["Page"]:
        """The page and its other outputs (embeds); a Page with `offline_copy` set gets a single-file copy."""
        raise NotImplementedError

    def state_count(self, computed: Any) -> int:
        raise NotImplementedError


def _discover() -> dict[str, PageKind]:
    found: dict[str, PageKind] = {}
    for module in pkgutil.iter_modules(__path__):
        kind = getattr(importlib.import_module(f"{__name__}.{module.name}"), "KIND", None)
        if isinstance(kind, PageKind):
            found[kind.name] = kind
    return found


_REGISTRY: dict[str, PageKind] | None = None


def KINDS_BY_NAME() -> dict[str, PageKind]:  # noqa: N802 (a constant, found on first use)
    """Every kind under this package, by name."""
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = _discover()
    return _REGISTRY


def kind_of(source: PageSource) -> PageKind:
    return KINDS_BY_NAME()[source.kind]


DEFAULT_KIND = "explainer"
