"""The validation engine: one `Option` per key of a table (its type, default, a doc
and a check), and `validate`, which checks a table against its options, collects
every problem ("expected X, found Y") at its file and line before anything stops,
and reports unknown keys as warnings. The checks any schema may use are here too;
what the tables are is each schema's (load/schema.py for the site, kinds/ for pages).
"""
from __future__ import annotations

import datetime as _dt
import math
import re
from dataclasses import dataclass, make_dataclass
from pathlib import Path
from typing import Any, Callable

from ..errors import Problem, closest, did_you_mean
from .toml_lines import line_of

_TYPE_NAMES = {
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "true or false",
    list: "a list",
    dict: "a table",
    _dt.date: "a date (YYYY-MM-DD)",
}



@dataclass(frozen=True)
class Option:
    """One key of a table: its type, whether it is required, and what it means."""

    types: tuple[type, ...]
    doc: str
    required: bool = False
    default: Any = None
    choices: tuple | None = None
    # Extra check on a well-typed value; returns an error message or None.
    check: Callable[[Any], str | None] | None = None
    # For lists of tables: the schema of each item.
    item: "dict[str, Option] | None" = None

    def describe(self) -> str:
        if self.choices:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        return " or ".join(_TYPE_NAMES.get(t, t.__name__) for t in self.types)


# What XML 1.0 forbids in text (and HTML too): the C0 control characters but the tab and the
# line breaks, lone surrogates, U+FFFE and U+FFFF. One in a title made every SCORM manifest
# ill-formed; a vertical tab (U+000B) is what a soft line break pasted from a word processor becomes.
FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def forbidden_character(text: str) -> str | None:
    """A message naming the first character of `text` that no text field may hold, or None."""
    found = FORBIDDEN.search(text)
    if found is None:
        return None
    return (f"holds the control character U+{ord(found.group(0)):04X}, which XML 1.0 (an LMS's manifest) and "
            "HTML forbid: delete it (a soft line break pasted from a word processor is one)")


def _forbidden_in(value) -> str | None:
    """forbidden_character() of a string, or of the strings in a list or table of them."""
    if isinstance(value, str):
        return forbidden_character(value)
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return next((found for item in items if (found := _forbidden_in(item))), None)


def nonempty(value) -> str | None:
    return "must not be empty" if not str(value).strip() else None


def url_check(value: str) -> str | None:
    if not re.match(r"^https?://[^/\s]+", value):
        return f"expected an absolute URL with a scheme (https://...), found {value!r}"
    return None



def language(value: str) -> str | None:
    if not re.fullmatch(r"[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*", value):
        return f"expected a language tag such as 'en' or 'pt-BR', found {value!r}"
    return None


def placeholders(*allowed: str) -> Callable[[str], str | None]:
    """Labels with {placeholders}: any other {name} would reach the page unreplaced."""
    def check(value: str) -> str | None:
        unknown = [name for name in re.findall(r"\{([^{}]*)\}", value) if name not in allowed]
        if unknown:
            names = ", ".join("{" + n + "}" for n in allowed)
            return f"unknown placeholder {{{unknown[0]}}} (expected {names})"
        return nonempty(value)
    return check


def identifier(value: str) -> str | None:
    if not value.isidentifier():
        return f"expected a Python identifier, found {value!r}"
    return None


def values_check(value) -> str | None:
    if isinstance(value, list) and not value:
        return "must list at least one value"
    if isinstance(value, list):
        bad = [v for v in value if isinstance(v, bool) or not isinstance(v, (str, int, float))]
        if bad:
            return f"values must be strings or numbers, found {bad[0]!r}"
        endless = [v for v in value if isinstance(v, float) and not math.isfinite(v)]
        if endless:  # TOML has nan and inf; a state's key, its address and its sentence cannot
            return f"values must be finite numbers, found {endless[0]!r}"
        if len({str(v) for v in value}) != len(value):
            return "values must be unique"
    return None


def record(name: str, table: dict[str, Option], module: str) -> type:
    """A frozen dataclass with one field per key of `table`, in order: the
    content model the stages read is the schema itself, declared once."""
    fields = [(key, option.types[0] if len(option.types) == 1 else object) for key, option in table.items()]
    cls = make_dataclass(name, fields, frozen=True)
    cls.__module__ = module
    cls.__doc__ = f"One validated {name} table: {', '.join(table)}."
    return cls


def validate(table: dict, schema: dict[str, Option], path: Path, text: str = "",
             prefix: str = "", table_line: int | None = None) -> tuple[dict, list[Problem], list[Problem]]:
    """Check `table` against `schema`; return (values with defaults, errors, warnings).

    Every problem in the table is collected; `text` (the file's source) lets each
    one point at its line, and `prefix` names where a nested table sits
    ("controls[1].")."""
    errors: list[Problem] = []
    warnings: list[Problem] = []
    clean: dict = {}

    def locate(key: str) -> int | None:
        return line_of(text, key, prefix) or table_line

    for key, value in table.items():
        if key not in schema:
            near = _closest(key, schema)
            hint = f" (did you mean '{near}'?)" if near else f" (known keys: {', '.join(schema)})"
            warnings.append(Problem(path, f"unknown key{hint}; it is ignored", locate(key), prefix + key))
    for key, option in schema.items():
        name = prefix + key
        if key not in table:
            if option.required:
                slip = misspelt(key, table, schema)
                errors.append(Problem(path, f"is required: expected {option.describe()}" + slip_hint(slip, key),
                                      locate(slip) if slip else table_line, name))
            elif option.item is not None and isinstance(option.default, dict):
                clean[key] = validate({}, option.item, path)[0]
            else:
                clean[key] = option.default
            continue
        value = table[key]
        line = locate(key)
        if not _has_type(value, option.types):
            errors.append(Problem(path, f"expected {option.describe()}, found {_describe(value)}"
                                  + _type_hint(value, option), line, name))
            continue
        if option.item is None and (message := _forbidden_in(value)):  # tables of a schema: their own keys
            errors.append(Problem(path, message, line, name))
            continue
        if option.choices and value not in option.choices:
            errors.append(Problem(path, f"expected {option.describe()}, found {value!r}"
                                  + did_you_mean(value, option.choices), line, name))
            continue
        if option.check and (message := option.check(value)):
            errors.append(Problem(path, message, line, name))
            continue
        if option.item is not None and isinstance(value, list):
            items = []
            for index, item in enumerate(value):
                where = f"{name}[{index}]"
                if not isinstance(item, dict):
                    errors.append(Problem(path, f"expected a table, found {_describe(item)}", line, where))
                    continue
                item_line = line_of(text, None, where + ".") or line
                sub, sub_errors, sub_warnings = validate(item, option.item, path, text, where + ".", item_line)
                errors += sub_errors
                warnings += sub_warnings
                items.append(sub)
            value = items
        elif option.item is not None and isinstance(value, dict):
            sub_line = line_of(text, None, name + ".") or line
            value, sub_errors, sub_warnings = validate(value, option.item, path, text, name + ".", sub_line)
            errors += sub_errors
            warnings += sub_warnings
        clean[key] = value
    return clean, errors, warnings


def _has_type(value, types) -> bool:
    if isinstance(value, bool):
        return bool in types
    if isinstance(value, _dt.datetime):
        return _dt.datetime in types
    if isinstance(value, int) and float in types:
        return True
    return isinstance(value, types)


def _describe(value) -> str:
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    for kind, name in _TYPE_NAMES.items():
        if isinstance(value, kind) and not isinstance(value, _dt.datetime):
            return f"{value!r} ({name})" if not isinstance(value, (list, dict)) else name
    return type(value).__name__


def misspelt(key: str, table: dict, schema: dict) -> str | None:
    """The key of `table` that is no option of `schema` but close to `key`: a required key
    written with a slip ('sumary' for 'summary'), or None."""
    unknown = [name for name in table if name not in schema]
    return closest(key, unknown, cutoff=0.75)


def slip_hint(slip: str | None, key: str) -> str:
    return f" (found {slip!r}: did you mean {key!r}?)" if slip else ""


def _type_hint(value, option: Option) -> str:
    """A nudge for the commonest slips, such as a date written in quotes."""
    if _dt.date in option.types and isinstance(value, str):
        return "; write the date without quotes, e.g. updated = 2026-01-31"
    if (int in option.types or float in option.types) and isinstance(value, str):
        return "; write the number without quotes"
    return ""


def _closest(key: str, schema: dict) -> str | None:
    return closest(key, list(schema), cutoff=0.75)
