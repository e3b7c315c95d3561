"""Import a page's model.py: the author's numpy code that computes the numbers
of every state. The generator itself knows no model.

A model may import modules next to it and the site's shared helpers in
content/_lib/ (SHARED_DIR). Both are importable only while the model runs, and
are forgotten afterwards, so two pages' helpers of the same name never mix and
an edited helper is read again. The files a model imported from the shared
folder are returned, so the build cache can recompute exactly the pages that
use a changed helper.
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
import traceback
from pathlib import Path
from types import ModuleType

from ..errors import ContentError
from .frontmatter import unreadable_reason

SHARED_DIR = "_lib"


def load_model(path: Path, slug: str, shared: Path | None = None) -> tuple[ModuleType, list[Path]]:
    """(the module, the files of `shared` it imported)."""
    if not path.is_file():
        raise ContentError.one(path, unreadable_reason(path))
    # A unique module name per file keeps two pages' models apart.
    digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:10]
    name = f"_page_model_{slug.replace('-', '_')}_{digest}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    roots = [path.parent.resolve()] + ([shared.resolve()] if shared is not None and shared.is_dir() else [])
    before = set(sys.modules)
    sys.path[:0] = [str(root) for root in roots]
    importlib.invalidate_caches()
    try:
        spec.loader.exec_module(module)
    except SyntaxError as err:
        raise ContentError.one(Path(err.filename or path), f"syntax error: {err.msg}", line=err.lineno) from None
    except Exception as err:  # the author's code: report it, with the line it failed on
        where, line = _failing_file(err, path, roots)
        raise ContentError.one(where, f"failed to run: {type(err).__name__}: {err}", line=line) from None
    finally:
        del sys.path[:len(roots)]
        imported = _forget_content_modules(before, roots)
        sys.modules.pop(name, None)
    used = sorted({file for file in imported if len(roots) > 1 and roots[1] in file.parents})
    return module, used


def _forget_content_modules(before: set[str], roots: list[Path]) -> list[Path]:
    """Drop the modules imported from the content folders; return their files."""
    files = []
    for name in set(sys.modules) - before:
        module_file = getattr(sys.modules[name], "__file__", None)
        if module_file and any(root in Path(module_file).resolve().parents for root in roots):
            files.append(Path(module_file).resolve())
            del sys.modules[name]
    return files


def _failing_file(err: BaseException, path: Path, roots: list[Path]) -> tuple[Path, int | None]:
    """The content file (the model or a helper it imported) where `err` was raised, and its line."""
    for frame in reversed(traceback.extract_tb(err.__traceback__)):
        frame_path = Path(frame.filename).resolve()
        if frame_path == path.resolve() or any(root in frame_path.parents for root in roots):
            return (path if frame_path == path.resolve() else frame_path), frame.lineno
    return path, None


def line_in(path: Path, err: BaseException) -> int | None:
    """The line of `path` where an exception was raised, if it passed through it."""
    for frame in reversed(traceback.extract_tb(err.__traceback__)):
        if Path(frame.filename) == path:
            return frame.lineno
    return None
