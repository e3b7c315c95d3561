"""Page kinds: what a content folder is (an explainer, a game...) and how it
becomes pages. The stages of build() iterate over pages of any kind and call
only the interface below; everything a kind knows (steps, rounds...) stays in
its own module or subpackage here.

A kind is found by its module defining `KIND`, an instance of a PageKind
subclass (site.py holds the interface, with the other types every stage
shares). A content folder's main file names its kind with a `kind` key
(default "explainer"); the file is the kind's `main_file`.
"""
from __future__ import annotations

import importlib
import pkgutil

from ..load.schema import REFERENCE, record
from ..site import DEFAULT_KIND, PageKind, PageSource

__all__ = ["DEFAULT_KIND", "KINDS_BY_NAME", "PageKind", "PageSource", "Reference", "kind_of"]

Reference = record("Reference", REFERENCE, __name__)  # a work a page cites


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

