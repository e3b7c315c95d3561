"""Page kinds: what a content folder is (an explainer, a game...) and how it
becomes pages. The stages of build() iterate over pages of any kind and call
only the interface below; everything a kind knows (steps, rounds...) stays in
its own module or subpackage here.

A kind is found by its module defining `KIND`, an instance of a PageKind
subclass (site.py holds the interface, with the other types every stage
shares). A content folder's main file names its kind with a `kind` key
(default "explainer"); the file is the kind's `main_file`.

The kinds sit above the stages (they use load, compute and render), so no stage
imports this package: build() owns the registry `discover()` returns and passes it
down with the site (`Site.kinds`, `Site.kind_of`).
"""
from __future__ import annotations

import importlib
import pkgutil

from ..site import DEFAULT_KIND, PageKind, PageSource

__all__ = ["DEFAULT_KIND", "PageKind", "PageSource", "discover"]


def discover() -> dict[str, PageKind]:
    """Every kind under this package, by name: the registry a build owns."""
    found: dict[str, PageKind] = {}
    for module in pkgutil.iter_modules(__path__):
        kind = getattr(importlib.import_module(f"{__name__}.{module.name}"), "KIND", None)
        if isinstance(kind, PageKind):
            found[kind.name] = kind
    return found
