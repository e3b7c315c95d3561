"""The dev server: livereload serving the site built in memory on 127.0.0.1,
rebuilt when content/, themes/ or generator/ change.

- Rebuilds are incremental: a BuildCache keeps each explainer's states, prose
  and page, keyed on a hash of their inputs, so only what a change affects is
  redone. build/ on disk is never touched.
- _Watcher finds the changes, by content; once they settle, the site is rebuilt
  and the browsers are told over livereload's websocket. A good rebuild reloads
  the pages (livereload.js does that); a failed one is shown by client.js,
  a livereload.js plugin, as an overlay over the last good page, which keeps
  being served.
- A change to generator/ code drops every generator module and imports them
  afresh (with a new cache) before the rebuild, without restarting the server
  or losing the browsers' connection. Only this module is not reloaded.
- A change under a theme's scripts/ (the ES modules its bundle.cjs bundles into
  static/, as `make build` runs it) is bundled with Node before the rebuild. A
  source that does not bundle is shown like a failed build, and the last good
  bundles stay in static/ (bundle.cjs writes none of them then).
- Everything runs on livereload's single event loop thread: serving, watching
  and rebuilding never overlap, so nothing here needs a lock.
- It answers only this machine: it listens on 127.0.0.1, and refuses any request
  (a page, livereload's script or its websocket) whose Host or Origin is not a
  loopback name, so a web page elsewhere cannot read drafts through a DNS name
  rebound to 127.0.0.1. Its redirects are paths on this server, never "//host/".
"""
from __future__ import annotations

import hashlib
import html
import importlib
import ipaddress
import json
import logging
import mimetypes
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import traceback
from http import HTTPStatus
from pathlib import Path
from urllib.parse import quote, urlsplit

from livereload import Server
from livereload.handlers import LiveReloadHandler, LiveReloadJSHandler
from livereload.server import LiveScriptContainer
from livereload.watcher import Watcher
from tornado import web
from tornado.ioloop import IOLoop, PeriodicCallback

from ..cache.build import ignored, ignored_folder
from ..errors import BuildError

HOST = "127.0.0.1"          # never listen beyond this machine
POLL_SECONDS = 0.2          # how often watched folders are scanned
SETTLE_SECONDS = 0.3        # quiet time after a change before rebuilding (editors save in bursts)
CLIENT_URL = "/__dev__/client.js"
STATE_URL = "/__dev__/state"
FAILED_PATH = "/__dev__/build-failed"   # the "path" of the reload message that means "show the errors"
BUNDLER = Path("scripts") / "bundle.cjs"  # a theme's bundler of its scripts/, under the theme's folder
BUNDLE_SECONDS = 120                      # a bundler that runs longer has hung
GENERATOR = Path(__file__).resolve().parents[1]
CLIENT_FILE = Path(__file__).resolve().parent / "client.js"
PACKAGE = __name__.partition(".")[0]   # "lensa" installed, "generator" in this repository's checkout
_RELOADED_NOT = {f"{PACKAGE}.dev.serve", f"{PACKAGE}.__main__"}  # the running server itself


class LiveSite:
    """The last good build, held in memory and served as a WSGI app, and its rebuilds."""

    def __init__(self, args):
        self.args = args
        self.files: dict[str, bytes] = {}
        self.build_id = "none"
        self.error: str | None = None
        self._session = secrets.token_hex(4)  # a restarted server's builds differ from the last one's
        self._builds = 0
        self._modules = None        # the generator modules in use: (build, errors, cache)
        self._cache = None
        self._pending: set[Path] = set()
        self._settling = None       # the timeout that rebuilds once changes stop coming
        self._unbundled: set[Path] = set()  # the bundlers whose last run failed: run again on every change
        self.watcher = None         # the _Watcher, told of the bundles this server writes itself

    def changed(self, paths: list[str]) -> None:
        """Note what changed, and rebuild once the changes settle."""
        self._pending |= {Path(p) for p in paths}
        loop = IOLoop.current()
        if self._settling is not None:
            loop.remove_timeout(self._settling)
        self._settling = loop.call_later(SETTLE_SECONDS, self._settled)

    def rebuild(self, changed: set[Path] | frozenset = frozenset()) -> bool:
        started = time.perf_counter()
        warnings: list = []
        try:
            if self._modules is None or any(GENERATOR in path.parents for path in changed):
                self._import_generator(fresh=self._modules is not None or bool(changed), changed=changed)
            build, errors, _ = self._modules
            result = build.build(self.args.content, None, self.args.themes, self.args.theme,
                                 strict=self.args.strict, warnings=warnings, cache=self._cache)
        except KeyboardInterrupt as err:  # Ctrl+C stops the server; say what was running (a model's step)
            if str(err):
                _log(f"Interrupted {err}.")
            raise
        except Exception as err:
            self._fail(err, warnings)
            return False
        for line in errors.report_lines(None, warnings, Path.cwd()):
            _log(line)
        self._builds += 1
        self.files = {name: data if isinstance(data, bytes) else data.read_bytes()
                      for name, data in result.files.items()}
        self.build_id, self.error = f"{self._session}-{self._builds}", None
        _log(f"Built in {time.perf_counter() - started:.2f} s: {self._cache.summary()}.")
        return True

    def __call__(self, environ, start_response):
        """The WSGI app livereload serves (it adds its own script to each page)."""
        path = environ["PATH_INFO"].encode("latin-1").decode("utf-8", "replace")
        head = environ["REQUEST_METHOD"] == "HEAD"
        if path == CLIENT_URL:
            return _respond(start_response, 200, "text/javascript", CLIENT_FILE.read_bytes(), head)
        if path == STATE_URL:
            state = json.dumps({"build": self.build_id, "error": self.error})
            return _respond(start_response, 200, "application/json", state.encode("utf-8"), head)
        name = path.lstrip("/")
        if name == "" or name.endswith("/"):
            name += "index.html"
        if name not in self.files and f"{name}/index.html" in self.files:
            # A path on this server: "/" and the name without its leading slashes ("//slug",
            # kept as it was, would be a protocol-relative address, another host's).
            start_response("301 Moved Permanently", [("Location", "/" + quote(name) + "/")])
            return [b""]
        status = 200
        if not self.files:
            status, name, body = 503, "index.html", _WAITING_PAGE
        elif name in self.files:
            body = self.files[name]
        else:
            status, name = 404, "404.html"
            body = self.files.get(name, _NOT_FOUND_PAGE)
        kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
        if kind == "text/html":
            body = self._with_client(body)
        return _respond(start_response, status, kind, body, head)

    def _settled(self) -> None:
        self._settling = None
        changed, self._pending = self._pending, set()
        shown = sorted(_shown(p) for p in changed)
        _log(f"Changed: {', '.join(shown[:5])}" + (f" and {len(shown) - 5} more" if len(shown) > 5 else ""))
        bundled = self._bundle(changed)
        if bundled is None:
            LiveReloadHandler.reload_waiters(FAILED_PATH)
            return
        built = self.rebuild(changed | bundled)
        # Sent directly rather than through livereload's own poll, which skips any reload
        # within 3 s of the previous one. "*" reloads the whole page, even for a CSS change.
        LiveReloadHandler.reload_waiters("*" if built else FAILED_PATH)

    def _bundle(self, changed: set[Path]) -> set[Path] | None:
        """Run the bundler of each theme whose scripts/ changed (or whose last bundling failed):
        the bundles it wrote, to rebuild with, or None when one failed (its errors then stand
        as the build's, over the last good page)."""
        bundlers = set(self._unbundled) | {b for b in map(self._bundler_of, changed) if b is not None}
        lines = []
        for bundler in sorted(bundlers):
            problem = _run_bundler(bundler)
            if problem:
                self._unbundled.add(bundler)
                lines += problem
            else:
                self._unbundled.discard(bundler)
                _log(f"Bundled {_shown(bundler.parent)}.")
        if lines:
            for line in lines:
                _log(line)
            _log("The last good bundles and build are still served.")
            self.error = "\n".join(lines)
            return None
        if not bundlers or self.watcher is None:
            return set()
        # The bundles it wrote join this rebuild, rather than starting another one (and a second reload);
        # a source edited again while it ran is bundled again.
        taken = {Path(p) for p in self.watcher.take()}
        again = [str(p) for p in taken if self._bundler_of(p) is not None]
        if again:
            self.changed(again)
        return taken

    def _bundler_of(self, path: Path) -> Path | None:
        """The bundle.cjs of the theme whose scripts/ holds `path`, or None."""
        themes = Path(self.args.themes).resolve()
        try:
            parts = path.resolve().relative_to(themes).parts
        except ValueError:
            return None
        bundler = themes / parts[0] / BUNDLER
        return bundler if len(parts) > 2 and parts[1] == BUNDLER.parts[0] and bundler.is_file() else None

    def _with_client(self, page: bytes) -> bytes:
        """Add client.js in the head, so that it runs (and registers its plugin)
        before the livereload.js that livereload inserts just before </head>."""
        tag = (f'<script src="{CLIENT_URL}" data-build="{html.escape(self.build_id)}" '
               f'data-state="{STATE_URL}" data-failed="{FAILED_PATH}"></script>').encode("utf-8")
        at = page.find(b"</head>")
        return page[:at] + tag + page[at:] if at >= 0 else page

    def _import_generator(self, fresh: bool, changed: set[Path] | frozenset = frozenset()) -> None:
        """Import the build afresh: drop every generator module first, so edited
        code (and the modules importing it) is really reloaded."""
        self._modules = None  # if the import fails, the next rebuild tries again
        if fresh:
            for name in [n for n in sys.modules if n == PACKAGE or n.startswith(f"{PACKAGE}.")]:
                if name not in _RELOADED_NOT:
                    del sys.modules[name]
            importlib.invalidate_caches()
            _log("generator/ changed: reloading its code.")
            if Path(__file__).resolve() in changed:
                _log("serve.py itself changed: restart the server to use the new one.")
        build = importlib.import_module(f"{PACKAGE}.build")
        errors = importlib.import_module(f"{PACKAGE}.errors")
        cache = importlib.import_module(f"{PACKAGE}.cache.build")
        self._modules, self._cache = (build, errors, cache), cache.BuildCache()

    def _fail(self, err: Exception, warnings: list) -> None:
        errors = self._modules[1] if self._modules else None
        if errors is not None and isinstance(err, errors.GeneratorError):
            lines = errors.report_lines(err, warnings, Path.cwd(), failed="Rebuild failed")
        elif isinstance(err, SyntaxError) and err.filename:
            lines = [f"error: {err.filename}:{err.lineno}: generator code: SyntaxError: {err.msg}"]
        else:
            lines = [f"error: internal error: {type(err).__name__}: {err}"
                     + ("" if self.args.debug else " (run with --debug for the traceback)")]
        if self.args.debug:
            traceback.print_exception(err)
        for line in lines:
            _log(line)
        _log("The last good build is still served." if self._builds else "Fix it and save: the site builds "
             "as soon as it can.")
        self.error = "\n".join(lines)


class _LocalServer(Server):
    """livereload's server, answering only requests from this machine (see _refusal):
    its application() with the same handlers, in an application that checks every
    request's Host and Origin before any handler sees it."""

    def application(self, port, host, liveport=None, debug=None, live_css=True):
        LiveReloadHandler.watcher = self.watcher
        LiveReloadHandler.live_css = live_css
        handlers = [(r"/livereload", LiveReloadHandler), (r"/livereload\.js", LiveReloadJSHandler),
                    (r".*", web.FallbackHandler, {"fallback": LiveScriptContainer(self.app, _LIVE_SCRIPT)})]
        _LocalApplication(handlers, debug=False).listen(port, address=host)


# livereload's own snippet: it loads livereload.js from the page's own host and port.
_LIVE_SCRIPT = (b'<script type="text/javascript">(function(){var s=document.createElement("script");'
                b'var port=(window.location.port || (window.location.protocol == \'https:\' ? 443: 80));'
                b's.src="//"+window.location.hostname+":"+port+ "/livereload.js?port=" + port;'
                b'document.head.appendChild(s);})();</script>')


class _LocalApplication(web.Application):
    def find_handler(self, request, **kwargs):
        refused = _refusal(request.headers)
        if refused:
            _log(f"Refused {request.method} {request.path[:80]!r}: {refused}")
            return self.get_handler_delegate(request, _Refused, {"reason": refused})
        return super().find_handler(request, **kwargs)


class _Refused(web.RequestHandler):
    def initialize(self, reason: str) -> None:
        self.reason = reason

    def prepare(self) -> None:
        self.set_status(403)
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(f"Forbidden: {self.reason}\n")


def _refusal(headers) -> str | None:
    """Why a request is not from this machine's own pages, or None: its Host must be a
    loopback name (the DNS rebinding check), and an Origin, where the browser sends
    one (a websocket, a fetch from another page), a loopback http(s) origin."""
    host = headers.get("Host", "")
    if not _loopback(host):
        return f"the host {host[:80]!r} is not this machine (the dev server answers only 127.0.0.1 and localhost)"
    for header in ("Origin", "Sec-WebSocket-Origin"):
        origin = headers.get(header)
        if origin is not None and not _local_origin(origin):
            return f"the origin {origin[:80]!r} is not a page of this machine"
    return None


def _loopback(host: str) -> bool:
    """A Host header (a name or address, and a port) that names this machine: localhost,
    a name under .localhost, 127.0.0.0/8 or [::1]."""
    name = host.strip().lower()
    if name.startswith("["):
        name = name[1:name.find("]")] if "]" in name else ""
    elif name.count(":") == 1:
        name = name.split(":")[0]
    name = name.rstrip(".")
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _local_origin(origin: str) -> bool:
    parts = urlsplit(origin.strip())
    return parts.scheme in ("http", "https") and bool(parts.netloc) and _loopback(parts.netloc)


class _Watcher(Watcher):
    """The watched folders, scanned every POLL_SECONDS by content rather than by
    modification time: a file is changed when it appears, goes, or holds other bytes.
    A file whose stat differs (size, times, inode) is read to tell, so one that
    arrives with an old modification time (cp -a, mv back, an unzip, a restore from
    the trash) is seen, and a save that changes nothing costs no rebuild. Dot-files
    count (a model may read them); bytecode and editor temporaries do not
    (cache/build.py's ignored(), which the build cache's keys follow too).

    It stands in for livereload's watcher: start() schedules the scans at our pace,
    and examine() reports no changed path to livereload, which would send a reload
    before the rebuild that runs once changes settle (LiveSite sends it after)."""

    def __init__(self, roots: list[Path], on_change):
        super().__init__()
        self._roots, self._on_change = roots, on_change
        self._known: dict[str, tuple[tuple, str]] = {}   # path -> (stat signature, content digest)
        self._scanned = False
        self.examine()  # what is there now: edits from here on (the first build included) count

    def start(self, callback) -> bool:
        PeriodicCallback(callback, POLL_SECONDS * 1000).start()
        return True

    def examine(self):
        seen: dict[str, tuple[tuple, str]] = {}
        changed = []
        for path, signature in self._stats():
            known = self._known.get(path)
            if known is not None and known[0] == signature:
                seen[path] = known
                continue
            digest = _content_digest(path)
            seen[path] = (signature, digest)
            if known is None or known[1] != digest:
                changed.append(path)
        changed += [path for path in self._known if path not in seen]
        self._known = seen
        if changed and self._scanned:
            self._on_change(sorted(changed))
        self._scanned = True
        return None, None

    def take(self) -> list[str]:
        """Scan now, and return what changed rather than report it: files this server wrote itself."""
        on_change, taken = self._on_change, []
        self._on_change = taken.extend
        try:
            self.examine()
        finally:
            self._on_change = on_change
        return taken

    def _stats(self):
        for root in self._roots:
            for folder, folders, files in os.walk(root, followlinks=True):
                folders[:] = [name for name in folders if not ignored_folder(name)]
                for name in files:
                    if ignored((name,)):
                        continue
                    path = os.path.join(folder, name)
                    try:
                        found = os.stat(path)
                    except OSError:  # gone between the listing and now: seen as gone next time
                        continue
                    yield path, (found.st_size, found.st_mtime_ns, found.st_ctime_ns, found.st_ino)


def _run_bundler(bundler: Path) -> list[str]:
    """Run a theme's bundle.cjs with Node: its error lines, or [] when it bundled."""
    node = shutil.which("node")
    shown = _shown(bundler)
    if node is None:
        return [f"error: {shown}: node is not installed, so {_shown(bundler.parent)}/ cannot be bundled "
                "(install Node.js, as `make build` does)"]
    try:
        run = subprocess.run([node, str(bundler)], capture_output=True, text=True, timeout=BUNDLE_SECONDS)
    except subprocess.TimeoutExpired:
        return [f"error: {shown}: still bundling after {BUNDLE_SECONDS} s; stopped"]
    if run.returncode == 0:
        return []
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    return lines or [f"error: {shown}: exited with status {run.returncode}"]


def _content_digest(path: str) -> str:
    try:
        with open(path, "rb") as file:
            return hashlib.file_digest(file, "sha256").hexdigest()
    except OSError:
        return "unreadable"


def serve(args) -> None:
    # The port first: a port in use is said at once, not after a build of the whole site.
    port = _free_port(args.port)
    site = LiveSite(args)
    # The generator's own code is watched where it is edited: run from a generator/ folder
    # (this repository's checkout, or an editable install of it), not installed from a wheel.
    roots = [args.content, args.themes] + ([GENERATOR] if GENERATOR.name == "generator" else [])
    watcher = _Watcher(roots, site.changed)  # watching starts now: edits during the first build count
    site.watcher = watcher
    server = _LocalServer(app=site, watcher=watcher)
    site.rebuild()
    # Said once the loop runs, so only after livereload has started listening.
    IOLoop.current().add_callback(_log, f"Serving http://{HOST}:{port}/ and watching "
                                  f"{', '.join(_shown(r) for r in roots)}. Press Ctrl+C to stop.")
    _quiet_logs()
    try:
        # debug=False: tornado's autoreload would restart the process on a code change;
        # generator code is reloaded in place instead.
        server.serve(port=port, host=HOST, debug=False)
    except OSError as err:  # the port was taken between the check and now
        raise _port_error(port, err) from None
    _log("Stopped.")


def _free_port(port: int) -> int:
    """Check that the port can be listened on (0: pick a free one) before livereload
    tries, so the failure is one line and the chosen port can be printed."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as tornado binds
        try:
            probe.bind((HOST, port))
        except OSError as err:
            raise _port_error(port, err) from None
        return probe.getsockname()[1]


def _port_error(port: int, err: OSError) -> BuildError:
    return BuildError(f"cannot listen on {HOST}:{port} ({err.strerror or err}); "
                 "is another server running there? Choose another port with --port")


def _quiet_logs() -> None:
    """livereload logs every connection, task and reload, and tornado every request;
    this server prints its own lines, so livereload's are kept for warnings and errors."""
    logging.getLogger("livereload").addFilter(lambda record: record.levelno >= logging.WARNING)
    logging.getLogger("tornado.access").addFilter(lambda record: False)  # a 503 while broken is expected


def _respond(start_response, status: int, kind: str, body: bytes, head: bool) -> list[bytes]:
    if kind.startswith("text/") or kind in ("application/javascript", "application/json"):
        kind += "; charset=utf-8"
    start_response(f"{status} {HTTPStatus(status).phrase}", [
        ("Content-Type", kind), ("Content-Length", str(len(body))), ("Cache-Control", "no-store")])
    return [b"" if head else body]


_WAITING_PAGE = (b"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Waiting for a good build"
                 b"</title></head><body><h1>Waiting for a good build</h1><p>The site has not built yet. The errors "
                 b"are shown below and in the terminal; this page reloads once they are fixed.</p></body></html>")
_NOT_FOUND_PAGE = (b"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Not found</title>"
                   b"</head><body><h1>Not found</h1></body></html>")


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
