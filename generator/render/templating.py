"""The one place Jinja environments are made, with the value filters, so
prose, summaries and theme templates all format numbers the same way.

Content is data: the templates authors write (prose, summaries, hints) render in
Jinja's sandbox, which lets them print values, use filters, tests, conditions and
loops, but never reach a Python object's insides (`cycler.__init__.__globals__`),
change a value, or load another template. Only the theme's own templates, which are
code like model.py, get the full environment.

Compiling a Jinja template costs far more than rendering it, so compiled
templates are kept on disk (diskcache.py), keyed by a hash of their source and of
what else their compiled code depends on (_bytecode_cache()): a build compiles
only what changed.
"""
from __future__ import annotations

import hashlib
import marshal
import re
import sys
from pathlib import Path

import jinja2
import jinja2.ext
import jinja2.sandbox
import rjsmin

from ..cache.disk import CACHE_ENV, cache_root, read_entry, write_entry  # noqa: F401 (CACHE_ENV: for tests, bench)
from ..compute.formats import JINJA_FILTERS


def make_env(autoescape: bool, search_path: list[Path] | None = None,
             named: dict[str, Path] | None = None, finalize=None, memory: dict | None = None,
             prose: bool = False, trim_blocks: bool = True) -> jinja2.Environment:
    """StrictUndefined everywhere: a value a template names but the data lacks is
    an error at build time, never an empty gap on the page.

    `named` makes a folder's templates reachable as "@name/file.html" too, so a
    theme can extend the very template it overrides in its parent. `prose` keeps
    the line breaks an author's text has after a tag at the end of a line (see
    KeepLineBreaks), whatever `trim_blocks` says, and makes a sandboxed environment
    (content is data) that refuses to include, import or extend a template."""
    loader = jinja2.FileSystemLoader([str(p) for p in search_path]) if search_path else None
    if prose:
        loader = _NoTemplates()
    if named:
        prefixed = jinja2.PrefixLoader({f"@{name}": jinja2.FileSystemLoader(str(path))
                                        for name, path in named.items()})
        loader = jinja2.ChoiceLoader([loader, prefixed]) if loader else prefixed
    options = dict(undefined=jinja2.StrictUndefined, autoescape=autoescape, keep_trailing_newline=False,
                   trim_blocks=trim_blocks, lstrip_blocks=True, finalize=finalize,
                   extensions=[KeepLineBreaks] if prose else [InlineScriptsMinified])
    kind = jinja2.sandbox.ImmutableSandboxedEnvironment if prose else jinja2.Environment
    env = kind(loader=loader, bytecode_cache=_bytecode_cache(options, memory, kind), **options)
    env.filters.update(JINJA_FILTERS)
    if prose:
        env.template_class = ProseTemplate
    return env


class InlineScriptsMinified(jinja2.ext.Extension):
    """A theme's inline scripts (the colour scheme's, the early taps', the citation cards')
    are shipped without their comments and spaces, as its script files are (outputs/assets.py):
    each page carries them, and the byte budget counts them. A script with a template tag in
    it is left as written, since minifying could join the tag to what is around it."""

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        return _INLINE_SCRIPT.sub(_minified_script, source) if "<script>" in source else source


_INLINE_SCRIPT = re.compile(r"(<script>)(.*?)(</script>)", re.S)


def _minified_script(match: re.Match) -> str:
    body = match.group(2)
    if "{{" in body or "{%" in body or "{#" in body:
        return match.group(0)
    return match.group(1) + rjsmin.jsmin(body) + match.group(3)


# --- Line breaks in prose ------------------------------------------------------------------
# Prose is Markdown, where a line break inside a paragraph is a space. Jinja's trim_blocks
# drops the line break after a tag, so "…pushing left.{% endif %}" and a next line
# "Because…" would read "left.Because". In prose every tag that ends a line keeps its line
# break instead ("+%}" turns trim_blocks off for that tag, whatever the environment says),
# marked; after rendering, a marked break whose line came out empty (a tag alone on its line,
# or a condition whose whole line was false) is dropped, so no blank line, which Markdown
# would read as a new paragraph, appears where the author wrote none.
_KEPT = "\ue002"  # marks a kept line break (private use: never in what a template prints)
_LINE_END_TAG = re.compile(r"(\{[%#](?:(?![%#]\}).)*?)(?<![-+])([%#]\})\n")
_RAW = re.compile(r"\{%-?\s*raw\s*-?%\}.*?(?=\{%-?\s*endraw\s*[-+]?%\})", re.S)  # up to its endraw
_EMPTY_LINE = re.compile("(?:^|(?<=\n))[ \t]*" + _KEPT + "\n")


class KeepLineBreaks(jinja2.ext.Extension):
    """Prose templates keep the line break after a tag at the end of a line (a tag that
    strips it on purpose, "-%}", is left as written)."""

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        if _KEPT in source:  # an author's own private-use character: left as it is
            return source
        parts, at = [], 0
        for raw in _RAW.finditer(source):  # the text of a {% raw %} block is not a template's
            parts += [_keep_breaks(source[at:raw.start()]), raw.group(0)]
            at = raw.end()
        return "".join(parts) + _keep_breaks(source[at:])


def _keep_breaks(text: str) -> str:
    return _LINE_END_TAG.sub(lambda m: f"{m.group(1)}+{m.group(2)}{_KEPT}\n", text)


def kept_line_breaks(text: str) -> str:
    """A rendered prose template with its marked line breaks settled: dropped where their
    line came out empty, plain line breaks elsewhere."""
    if _KEPT not in text:
        return text
    return _EMPTY_LINE.sub("", text).replace(_KEPT, "")


class ProseTemplate(jinja2.Template):
    """A prose template: rendered, then its kept line breaks settled."""

    def render(self, *args, **kwargs) -> str:
        return kept_line_breaks(super().render(*args, **kwargs))


class NotInProse(jinja2.TemplateRuntimeError):
    """A prose template asked for another template ({% include %}, {% import %},
    {% extends %}): a step's text stands alone, and reads no file."""


class _NoTemplates(jinja2.BaseLoader):
    def get_source(self, environment, template):
        raise NotInProse(f"prose cannot include, import or extend another template ({template!r}): each "
                         "text stands alone; repeat the words, or compute them in model.py as a value")


def render_problem(err: Exception) -> tuple[str, int | None]:
    """What went wrong while rendering an author's template, in words, and the line of
    the template it happened on (Jinja rewrites a traceback to show the template's own
    lines). The sandbox's refusals say why: prose is data."""
    line = None
    tb = err.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<template>":
            line = tb.tb_lineno
        tb = tb.tb_next
    if isinstance(err, jinja2.sandbox.SecurityError):
        return (f"unsafe access refused: {str(err).rstrip('.')} (prose is data: it may print values and use "
                "filters, tests, conditions and loops, but not reach into Python objects or change a value)"), line
    if isinstance(err, NotInProse):
        return str(err), line
    return f"{type(err).__name__}: {err}", line


def compile_string(env: jinja2.Environment, source: str) -> jinja2.Template:
    """env.from_string(source), with the compiled code cached like a file template's."""
    cache = env.bytecode_cache
    if cache is None:
        return env.from_string(source)
    bucket = cache.get_bucket(env, f"<string {hashlib.sha256(source.encode()).hexdigest()}>", None, source)
    if bucket.code is None:
        bucket.code = env.compile(source)  # raises TemplateSyntaxError as from_string does
        try:
            cache.set_bucket(bucket)
        except OSError:  # a read-only or full disk only costs speed
            pass
    return env.template_class.from_code(env, bucket.code, env.make_globals(None))


def _bytecode_cache(options: dict, memory: dict | None, kind: type) -> jinja2.BytecodeCache | None:
    """One folder per Jinja version, Python version, environment options, kind (the
    sandbox compiles calls and operators differently), finalize (Jinja applies it to
    constants as it compiles) and version of the code that rewrites a template before
    Jinja compiles it: compiled code depends on all of them, while the cache checks
    only the source. (Filters, tests and globals are looked up
    when a template runs, so they are no part of its compiled code; a theme's templates
    are kept by their file's path as well as their source.)"""
    root = cache_root()
    if root is None:
        return None
    described = repr(sorted((k, getattr(v, "__qualname__", v)) for k, v in options.items()))
    digest = hashlib.sha256(f"{jinja2.__version__}|{sys.version}|{described}|{_finalizer(options['finalize'])}|"
                            f"{kind.__qualname__}|{_rewriting_code()}".encode()).hexdigest()[:16]
    folder = root / "templates" / digest
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return _QuietCache(str(folder), memory)


def _finalizer(finalize) -> str:
    """What compiled code depends on of the environment's finalize: Jinja applies it to a
    constant ({{ "text" }}) as it compiles, and calls it with the context if it asks for it.
    Its code, the module it reads, and what it asks for."""
    if finalize is None:
        return ""
    module = sys.modules.get(getattr(finalize, "__module__", ""))
    try:
        source = Path(module.__file__).read_bytes() if module and module.__file__ else b""
        code = marshal.dumps(finalize.__code__)
    except (OSError, AttributeError, ValueError):  # no file, or a callable without code of its own
        source, code = b"", getattr(finalize, "__qualname__", type(finalize).__qualname__).encode()
    pass_arg = getattr(finalize, "jinja_pass_arg", None)
    return hashlib.sha256(source + b"\0" + code + str(pass_arg).encode()).hexdigest()


def _rewriting_code() -> str:
    """The code that rewrites a template's source before Jinja compiles it: this module's
    extensions (KeepLineBreaks, InlineScriptsMinified) and the minifier they call."""
    return hashlib.sha256(Path(__file__).read_bytes() + rjsmin.__version__.encode()).hexdigest()


class _QuietCache(jinja2.FileSystemBytecodeCache):
    """A cache entry that cannot be read or written is skipped, not an error."""

    def __init__(self, directory: str, memory: dict | None):
        super().__init__(directory)
        # The dev server rebuilds in one process: code it loaded or compiled before is
        # kept in the build cache's memory too, keyed like the file (folder, template, checksum).
        self._memory = memory

    def load_bytecode(self, bucket) -> None:
        remembered = self._memory.get((self.directory, bucket.key, bucket.checksum)) if self._memory is not None \
            else None
        if remembered is not None:
            bucket.code = remembered
            return
        # Kept as the disk cache keeps every entry (digest first): a damaged one is compiled again.
        data = read_entry(Path(self._get_cache_filename(bucket)))
        if data is not None:
            try:
                bucket.bytecode_from_string(data)
            except Exception:  # noqa: BLE001 (the right bytes of another Python's marshal: compile again)
                bucket.reset()
        if bucket.code is not None:
            self._remember(bucket)

    def dump_bytecode(self, bucket) -> None:
        self._remember(bucket)
        write_entry(Path(self._get_cache_filename(bucket)), bucket.bytecode_to_string())

    def _remember(self, bucket) -> None:
        if self._memory is not None:
            self._memory[(self.directory, bucket.key, bucket.checksum)] = bucket.code


# --- Expressions -----------------------------------------------------------------------------
# A question's answers and goal (kinds/explainer/quiz/) are Jinja expressions over a state's
# values ("top_key", "entropy < 2"), as prose writes them between {{ }}. Content is data: they
# run in an immutable sandbox, with the prose's filters and StrictUndefined, so a name the
# state lacks is an error rather than an empty answer.
_EXPRESSIONS: jinja2.Environment | None = None


def compile_expression(source: str):
    """A callable that evaluates `source` with a state's values as keyword arguments.
    Raises jinja2.TemplateSyntaxError for an expression that does not parse."""
    global _EXPRESSIONS
    if _EXPRESSIONS is None:
        _EXPRESSIONS = jinja2.sandbox.ImmutableSandboxedEnvironment(undefined=jinja2.StrictUndefined)
        _EXPRESSIONS.filters.update(JINJA_FILTERS)
    return _EXPRESSIONS.compile_expression(source, undefined_to_none=False)
