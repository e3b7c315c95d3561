"""The one place Jinja environments are made, with the value filters, so
prose, summaries and theme templates all format numbers the same way."""
from __future__ import annotations

from pathlib import Path

import jinja2

from .formats import JINJA_FILTERS


def make_env(autoescape: bool, search_path: list[Path] | None = None,
             named: dict[str, Path] | None = None) -> jinja2.Environment:
    """StrictUndefined everywhere: a value a template names but the data lacks is
    an error at build time, never an empty gap on the page.

    `named` makes a folder's templates reachable as "@name/file.html" too, so a
    theme can extend the very template it overrides in its parent."""
    loader = jinja2.FileSystemLoader([str(p) for p in search_path]) if search_path else None
    if named:
        prefixed = jinja2.PrefixLoader({f"@{name}": jinja2.FileSystemLoader(str(path))
                                        for name, path in named.items()})
        loader = jinja2.ChoiceLoader([loader, prefixed]) if loader else prefixed
    env = jinja2.Environment(
        loader=loader,
        undefined=jinja2.StrictUndefined,
        autoescape=autoescape,
        keep_trailing_newline=False,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(JINJA_FILTERS)
    return env
