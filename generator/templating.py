"""The one place Jinja environments are made, with the value filters, so
prose, summaries and theme templates all format numbers the same way."""
from __future__ import annotations

from pathlib import Path

import jinja2

from .formats import JINJA_FILTERS


def make_env(autoescape: bool, search_path: list[Path] | None = None) -> jinja2.Environment:
    """StrictUndefined everywhere: a value a template names but the data lacks is
    an error at build time, never an empty gap on the page."""
    loader = jinja2.FileSystemLoader([str(p) for p in search_path]) if search_path else None
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
