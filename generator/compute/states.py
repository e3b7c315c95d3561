"""Compute every state of every page, whatever its kind: the stage loads each
page's model and hands it to the page's kind, which returns its states.

What is generic lives here: a State (its key, the reader's choice, the values,
and `to`, where each control leads from it), the grid of states that "every
combination of the controls" makes, and the checks on what a model returns.
"""
from __future__ import annotations

import itertools
import math
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..cache.build import BuildCache
from ..errors import ContentError, Problem
from ..load.models import SHARED_DIR, guarded, load_model, model_imports
from ..site import Site
from .formats import is_shared


@dataclass
class State:
    key: str                 # the state's name in the page's data, e.g. "0.1"
    choice: dict             # control name -> value
    values: dict             # plain Python values returned by the model
    chart: Any               # the kind's data for this state's figure(s)
    readouts: list[str]      # formatted, in declaration order
    # Where each control leads: to[c][v] is the key of the state the reader reaches
    # by choosing value v of control c here. The runtime follows it and never
    # builds a key itself, so any finite graph of states works the same way.
    to: list[list[str]] = field(default_factory=list)


def grid(sizes: list[int]) -> list[tuple[tuple[int, ...], str, list[list[str]]]]:
    """Every combination of controls with `sizes` values: (value indices, key,
    where each control leads). Keys are the indices joined by '.'."""
    def key(indices) -> str:
        return ".".join(map(str, indices))
    cells = []
    for indices in itertools.product(*(range(n) for n in sizes)):
        to = [[key(indices[:c] + (v,) + indices[c + 1:]) for v in range(n)] for c, n in enumerate(sizes)]
        cells.append((indices, key(indices), to))
    return cells


@dataclass(frozen=True)
class NumericWarning:
    """A floating-point warning (numpy's RuntimeWarning: an overflow, a division by
    zero, an invalid value) that an author's code gave: the file and line it points at,
    which for numpy's own warnings is the line of the model that computed the value."""
    file: Path
    line: int | None
    message: str


def run_model(function, arguments: dict, time_limit: float | None = None) -> tuple[Any, list[NumericWarning]]:
    """Call a model's function (guarded: within the time limit, and a sys.exit() raised as
    an error), keeping the floating-point warnings it gives (in order) instead of letting
    Python print them: the build reports them as its own one-line problems, at the
    model's line. Any other warning goes on as it would have."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        output = guarded(function, arguments, time_limit)
    numeric = []
    for found in caught:
        if issubclass(found.category, RuntimeWarning):
            numeric.append(NumericWarning(Path(found.filename), found.lineno, str(found.message)))
        else:
            warnings.warn_explicit(found.message, found.category, found.filename, found.lineno)
    return output, numeric


def compute_site(site: Site, cache: BuildCache | None = None) -> dict[str, Any]:
    """Every page's states, keyed by slug, as its kind computes them.

    With a cache, a page whose model files, shared helpers and declarations are
    unchanged is not recomputed (its model is not even imported)."""
    cache = cache or BuildCache()
    errors: list[Problem] = []
    computed = {}
    shared = site.root / SHARED_DIR
    for page in site.pages:
        kind = site.kind_of(page)

        def make(page=page, kind=kind):
            if not kind.model_file:
                return kind.compute(page, None, site.config, cache), []
            # The model's folder and content/_lib/ stay importable while its functions run.
            with model_imports(page.path, shared) as imports:
                model = load_model(page.path / kind.model_file, page.slug, site.config.time_limit)
                computed = kind.compute(page, model, site.config, cache)
            return computed, imports.used
        try:
            found = cache.states(page, kind.declarations(page), site.config.max_states, make, shared,
                                 accept=lambda value, page=page, kind=kind: _adoptable(kind, value, page),
                                 prose=kind.content_files(page))
            computed[page.slug] = kind.adopt(found, page)
            site.warnings.extend(kind.warnings(computed[page.slug]))
        except ContentError as err:
            errors += err.problems
    if errors:
        raise ContentError(errors)
    return computed


def _adoptable(kind, value, page) -> bool:
    """States an earlier build kept that the kind can attach to this page (it raises if not)."""
    kind.warnings(kind.adopt(value, page))
    return True


def finite(value, memo: dict | None = None) -> bool:
    """Whether every number in a value is finite; arrays many states share are checked once."""
    if isinstance(value, float):
        return math.isfinite(value)
    if memo is not None and is_shared(value):
        found = memo.get(id(value))
        if found is None or found[0] is not value:
            found = memo[id(value)] = (value, finite(list(value)))
        return found[1]
    if isinstance(value, (list, tuple)):
        if all(type(v) is float for v in value):  # a row of numbers: no call per number
            return all(map(math.isfinite, value))
        return all(finite(v, memo) for v in value)
    return True
