"""Import a page's model.py, and run its code: the author's numpy code that
computes the numbers of every state. The generator itself knows no model.

A model may import modules next to it and the site's shared helpers in
content/_lib/ (SHARED_DIR), at its top or inside a step's function: both are
importable while its page is computed (model_imports), and forgotten
afterwards, so two pages' helpers of the same name never mix and an edited
helper is read again. The files a model imported from the shared folder are
returned, so the build cache can recompute exactly the pages that use a
changed helper.

Model code is code (docs/authoring.md, What is code and what is data), but its
mistakes must not pass for a build: each call of it (guarded) has a time limit,
and a sys.exit() in it is an error at its line, never the end of the build.
"""
from __future__ import annotations

import ctypes
import hashlib
import importlib
import importlib.util
import signal
import sys
import threading
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from ..errors import ContentError, Interrupted
from .frontmatter import unreadable_reason

SHARED_DIR = "_lib"


@dataclass
class ModelImports:
    """What the model code run inside model_imports() imported from the shared folder."""
    used: list[Path] = field(default_factory=list)


@contextmanager
def model_imports(folder: Path, shared: Path | None = None):
    """While the block runs, the page's folder and the shared folder are importable;
    afterwards the modules imported from them are forgotten, and `.used` lists the
    shared files among them."""
    roots = [folder.resolve()] + ([shared.resolve()] if shared is not None and shared.is_dir() else [])
    imports = ModelImports()
    before = set(sys.modules)
    sys.path[:0] = [str(root) for root in roots]
    importlib.invalidate_caches()
    try:
        yield imports
    finally:
        del sys.path[:len(roots)]
        imported = _forget_content_modules(before, roots)
        imports.used = sorted({file for file in imported if len(roots) > 1 and roots[1] in file.parents})


def load_model(path: Path, slug: str, time_limit: float | None = None) -> ModuleType:
    """The module, run inside model_imports() (where its imports are found)."""
    if not path.is_file():
        raise ContentError.one(path, unreadable_reason(path))
    # A unique module name per file keeps two pages' models apart.
    digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:10]
    name = f"_page_model_{slug.replace('-', '_')}_{digest}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    roots = [path.parent.resolve(), (path.parent.parent / SHARED_DIR).resolve()]
    try:
        guarded(spec.loader.exec_module, (module,), time_limit)
    except SyntaxError as err:
        raise ContentError.one(Path(err.filename or path), f"syntax error: {err.msg}", line=err.lineno) from None
    except KeyboardInterrupt:
        raise Interrupted(f"while importing {path.name} of {slug}") from None
    except Exception as err:  # the author's code: report it, with the line it failed on
        where, line = _failing_file(err, path, roots)
        message = (f"did not finish its import within {err.seconds:g} s (time_limit in site.toml)"
                   if isinstance(err, ModelTimedOut) else f"failed to run: {model_failure(err)}")
        raise ContentError.one(where, message, line=line) from None
    finally:
        sys.modules.pop(name, None)
    return module


# --- Each call of model code: a time limit, and sys.exit() as an error --------------------------


class ModelStopped(Exception):
    """Model code that ended the build (sys.exit) or ran past its time limit; raised
    with the model's traceback, so its line can be found."""


class ModelExited(ModelStopped):
    def __init__(self, code):
        shown = "" if code is None else repr(code)
        super().__init__(f"called sys.exit({shown}), which would end the whole build: a model returns its "
                         "numbers, and raises an exception to report a problem")


class ModelTimedOut(ModelStopped):
    def __init__(self, seconds: float):
        self.seconds = seconds
        super().__init__(f"did not return within {seconds:g} s (time_limit in site.toml; is it in an endless loop?)")


class _TimeUp(BaseException):
    """Raised inside model code when its time is up: not an Exception, so that the
    model's own `except Exception` cannot swallow it."""


def guarded(function, arguments: tuple | dict = (), time_limit: float | None = None):
    """function(*arguments) or function(**arguments), as model code: stopped with
    ModelTimedOut after `time_limit` seconds, and a sys.exit() in it raised as ModelExited."""
    try:
        with _time_limit(time_limit):
            return function(**arguments) if isinstance(arguments, dict) else function(*arguments)
    except SystemExit as err:
        raise ModelExited(err.code).with_traceback(err.__traceback__) from None
    except _TimeUp as err:
        raise ModelTimedOut(time_limit).with_traceback(err.__traceback__) from None


def model_failure(err: BaseException) -> str:
    """An error of model code, in words: ours (ModelStopped) as they are, others with their type."""
    return str(err) if isinstance(err, ModelStopped) else f"{type(err).__name__}: {err}"


@contextmanager
def _time_limit(seconds: float | None):
    """Raise _TimeUp in this thread once `seconds` have passed: by the interval timer's
    signal in the main thread where there is one (it interrupts a sleep too), else by an
    asynchronous exception, which Python delivers at the next instruction it runs."""
    if not seconds:
        yield
    elif threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        def expire(signum, frame):
            raise _TimeUp()
        previous = signal.signal(signal.SIGALRM, expire)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    else:
        with _async_time_limit(seconds):
            yield


@contextmanager
def _async_time_limit(seconds: float):
    thread, lock, state = threading.get_ident(), threading.Lock(), {"done": False, "fired": False}

    def expire():
        with lock:
            if not state["done"]:
                state["fired"] = True
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), ctypes.py_object(_TimeUp))
    timer = threading.Timer(seconds, expire)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        with lock:
            state["done"] = True
            if state["fired"]:  # sent but perhaps not yet raised: it must not land in the build's own code
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), None)


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
    path = path.resolve()  # the content folder may have been given relative to the working folder
    for frame in reversed(traceback.extract_tb(err.__traceback__)):
        if Path(frame.filename).resolve() == path:
            return frame.lineno
    return None
