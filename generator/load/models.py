"""Import each explainer's model.py: the author's numpy code that computes
the numbers of every state. The generator itself knows no model."""
from __future__ import annotations

import hashlib
import importlib.util
import sys
import traceback
from dataclasses import replace
from pathlib import Path
from types import ModuleType

from .content import Explainer
from ..errors import ContentError, Problem
from .frontmatter import unreadable_reason
from .schema import line_of


def load_model(explainer: Explainer) -> ModuleType:
    path = explainer.model_path
    if not path.is_file():
        raise ContentError.one(path, unreadable_reason(path))
    # A unique module name per file keeps two explainers' models apart.
    digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:10]
    name = f"_explainer_model_{explainer.slug.replace('-', '_')}_{digest}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except SyntaxError as err:
        raise ContentError.one(path, f"syntax error: {err.msg}", line=err.lineno) from None
    except Exception as err:  # the author's code: report it, with the line it failed on
        raise ContentError.one(path, f"failed to run: {type(err).__name__}: {err}",
                               line=_line_in(path, err)) from None
    sys.modules.pop(name, None)
    return module


def resolve_controls(explainer: Explainer, model: ModuleType) -> None:
    """Replace control values and details named by model.py lists with the lists themselves."""
    errors: list[Problem] = []
    for step in explainer.steps:
        resolved = []
        text = _source(step.path)
        for index, control in enumerate(step.controls):
            where = f"controls[{index}]"

            def line(key: str, where=where) -> int | None:
                return line_of(text, key, where + ".") or line_of(text, None, where + ".")

            values, details = control.values, control.details
            if control.values_from:
                values = _model_list(model, control.values_from, step.path, where + ".values", errors,
                                     line("values"))
                if values is not None and control.default not in values:
                    errors.append(Problem(step.path, f"expected one of {list(values)!r} (model.py's "
                                          f"{control.values_from}), found {control.default!r}",
                                          line("default"), where + ".default"))
            if control.details_from:
                details = _model_list(model, control.details_from, step.path, where + ".details", errors,
                                      line("details"))
            if values is not None and details is not None and len(details) != len(values):
                errors.append(Problem(step.path, f"expected {len(values)} details (one per value), "
                                      f"found {len(details)}", line("details"), where + ".details"))
            resolved.append(replace(control, values=tuple(values or ()),
                                    details=tuple(details) if details is not None else None))
        step.controls = resolved
        if not callable(getattr(model, step.compute, None)):
            errors.append(Problem(step.path, f"model.py defines no function {step.compute!r}",
                                  line_of(text, "compute"), "compute"))
    if errors:
        raise ContentError(errors)


def _model_list(model, name, path, field, errors, line=None):
    if not hasattr(model, name):
        errors.append(Problem(path, f"model.py defines no list {name!r}", line, field))
        return None
    value = getattr(model, name)
    try:
        value = list(value)
    except TypeError:
        errors.append(Problem(path, f"expected model.py's {name!r} to be a list, found "
                              f"{type(value).__name__}", line, field))
        return None
    if not value:
        errors.append(Problem(path, f"model.py's {name!r} is empty: a control needs at least one value",
                              line, field))
        return None
    if len({str(v) for v in value}) != len(value):
        errors.append(Problem(path, f"model.py's {name!r} has repeated values", line, field))
        return None
    from ..compute.formats import plain

    return [plain(v) for v in value]


def _source(path: Path) -> str:
    try:
        return path.read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def _line_in(path: Path, err: BaseException) -> int | None:
    """The line of `path` where an exception was raised, if it passed through it."""
    for frame in reversed(traceback.extract_tb(err.__traceback__)):
        if Path(frame.filename) == path:
            return frame.lineno
    return None
