"""The theme's words: every label the default theme puts around content, read from the
data file beside it (themes/default/labels.toml: each label's default, what it is for and
the {placeholders} it may hold) into the options of site.toml's [labels], where a site
translates them. Read here, in the load stage, since site.toml is checked before a theme
is chosen."""
from __future__ import annotations

import tomllib

from ..resources import THEMES_DIR
from .validation import Option, nonempty, placeholders

WORDS = THEMES_DIR / "default" / "labels.toml"


def months(value: list) -> str | None:
    if len(value) != 12 or not all(isinstance(m, str) and m.strip() for m in value):
        return f"expected 12 month names, January first, found {value!r}"
    return None


def options(path=WORDS) -> dict[str, Option]:
    """The labels of a words file as options, in its order: none may be empty, the month
    names are twelve, and a label with placeholders may hold only those."""
    with open(path, "rb") as handle:
        table = tomllib.load(handle)
    return {key: Option((type(entry["default"]),), entry["doc"], default=entry["default"],
                        check=months if isinstance(entry["default"], list)
                        else placeholders(*entry["placeholders"]) if "placeholders" in entry else nonempty)
            for key, entry in table.items()}


LABELS = options()
