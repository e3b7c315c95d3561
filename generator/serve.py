"""The dev server: build the site in memory, serve it on 127.0.0.1, and
rebuild when content/, themes/ or generator/ change.

- Rebuilds are incremental: a BuildCache keeps each explainer's states, prose
  and page, keyed on a hash of their inputs, so only what a change affects is
  redone.
- A change to generator/ code drops every generator module and imports them
  afresh (with a new cache) before the rebuild, without restarting the server
  or losing the browser's connection. Only this module is not reloaded.
- Pages get a small client script (dev_client.js) at response time: it reloads
  the page after a rebuild and shows a failed rebuild's errors as an overlay,
  while the last good build keeps being served. Files on disk never contain it.
"""
from __future__ import annotations

import importlib
import json
import mimetypes
import secrets
import sys
import threading
import time
import traceback
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

HOST = "127.0.0.1"          # never listen beyond this machine
POLL_SECONDS = 0.25         # how often watched folders are scanned
SETTLE_SECONDS = 0.2        # quiet time after a change before rebuilding (editors save in bursts)
KEEPALIVE_SECONDS = 15
EVENTS_URL = "/__dev__/events"
CLIENT_URL = "/__dev__/client.js"
GENERATOR = Path(__file__).resolve().parent
CLIENT_FILE = GENERATOR / "dev_client.js"
_RELOADED_NOT = {"generator.serve", "generator.__main__"}  # the running server itself


class LiveSite:
    """The last good build, held in memory, and the state the browsers are told about."""

    def __init__(self, args):
        self.args = args
        self.files: dict[str, bytes] = {}
        self.build_id = "none"
        self.error: str | None = None
        self.version = 0            # bumped on every rebuild, good or failed
        self.closing = False
        self.changed = threading.Condition()
        self._session = secrets.token_hex(4)  # a restarted server's builds differ from the last one's
        self._builds = 0
        self._modules = None        # the generator modules in use: (build, errors, cache)
        self._cache = None

    def rebuild(self, changed: set[Path] | frozenset = frozenset()) -> bool:
        started = time.perf_counter()
        warnings: list = []
        try:
            if self._modules is None or any(GENERATOR in path.parents for path in changed):
                self._import_generator(fresh=self._modules is not None or bool(changed), changed=changed)
            build, errors, _ = self._modules
            result = build.build(self.args.content, None, self.args.themes, self.args.theme,
                                 strict=self.args.strict, warnings=warnings, cache=self._cache)
        except Exception as err:
            self._fail(err, warnings)
            return False
        files = {name: data if isinstance(data, bytes) else data.read_bytes()
                 for name, data in result.files.items()}
        for line in errors.report_lines(None, warnings, Path.cwd()):
            _log(line)
        self._builds += 1
        self._publish(files, f"{self._session}-{self._builds}", None)
        _log(f"Built in {time.perf_counter() - started:.2f} s: {self._cache.summary()}.")
        return True

    def state(self) -> str:
        return json.dumps({"build": self.build_id, "error": self.error})

    def close(self) -> None:
        with self.changed:
            self.closing = True
            self.changed.notify_all()

    def _import_generator(self, fresh: bool, changed: set[Path] | frozenset = frozenset()) -> None:
        """Import the build afresh: drop every generator module first, so edited
        code (and the modules importing it) is really reloaded."""
        self._modules = None  # if the import fails, the next rebuild tries again
        if fresh:
            for name in [n for n in sys.modules if n == "generator" or n.startswith("generator.")]:
                if name not in _RELOADED_NOT:
                    del sys.modules[name]
            importlib.invalidate_caches()
            _log("generator/ changed: reloading its code.")
            if GENERATOR / "serve.py" in changed:
                _log("serve.py itself changed: restart the server to use the new one.")
        build = importlib.import_module("generator.build")
        errors = importlib.import_module("generator.errors")
        cache = importlib.import_module("generator.cache")
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
        self._publish(self.files, self.build_id, "\n".join(lines))

    def _publish(self, files: dict[str, bytes], build_id: str, error: str | None) -> None:
        with self.changed:
            self.files, self.build_id, self.error = files, build_id, error
            self.version += 1
            self.changed.notify_all()


class Watcher:
    """Polls folders for changed, added and removed files. Polling needs no extra
    package and a content tree is small enough to scan several times a second."""

    def __init__(self, roots: list[Path]):
        self.roots = roots
        self._seen = self._scan()

    def wait(self, stop: threading.Event) -> set[Path]:
        """Block until something changed and then stayed quiet; return what changed."""
        while not stop.wait(POLL_SECONDS):
            current = self._scan()
            changed = _differences(self._seen, current)
            if not changed:
                continue
            while not stop.wait(SETTLE_SECONDS):
                latest = self._scan()
                more = _differences(current, latest)
                if not more:
                    break
                changed |= more
                current = latest
            self._seen = current
            return changed
        return set()

    def _scan(self) -> dict[Path, tuple[int, int]]:
        found = {}
        for root in self.roots:
            if not root.is_dir():
                continue
            for path in root.rglob("*"):
                parts = path.relative_to(root).parts
                if any(p.startswith(".") or p == "__pycache__" for p in parts) or _editor_temp(path.name):
                    continue
                try:
                    stat = path.stat()
                except OSError:
                    continue
                if not path.is_dir():
                    found[path] = (stat.st_mtime_ns, stat.st_size)
        return found


def serve(args) -> None:
    from .errors import BuildError

    site = LiveSite(args)
    site.rebuild()
    try:
        httpd = ThreadingHTTPServer((HOST, args.port), _handler(site))
    except OSError as err:
        raise BuildError(f"cannot listen on {HOST}:{args.port} ({err.strerror or err}); "
                         "is another server running there? Choose another port with --port") from None
    httpd.daemon_threads = True
    port = httpd.server_address[1]
    threading.Thread(target=httpd.serve_forever, name="http", daemon=True).start()
    roots = [args.content, args.themes, GENERATOR]
    _log(f"Serving http://{HOST}:{port}/ and watching {', '.join(_shown(r) for r in roots)}. "
         "Press Ctrl+C to stop.")
    stop = threading.Event()
    watcher = Watcher(roots)
    try:
        while not stop.is_set():
            changed = watcher.wait(stop)
            if changed:
                _log(f"Changed: {', '.join(sorted(_shown(p) for p in changed)[:5])}"
                     + (f" and {len(changed) - 5} more" if len(changed) > 5 else ""))
                site.rebuild(changed)
    except KeyboardInterrupt:
        _log("Stopped.")
    finally:
        site.close()
        httpd.shutdown()
        httpd.server_close()


def _handler(site: LiveSite):
    class Handler(BaseHTTPRequestHandler):
        server_version = "lensa-dev"

        def do_GET(self):
            self._respond(head=False)

        def do_HEAD(self):
            self._respond(head=True)

        def log_message(self, format, *args):  # requests are not worth a terminal line each
            pass

        def _respond(self, head: bool) -> None:
            path = urlsplit(self.path).path
            if path == EVENTS_URL and not head:
                return self._events()
            if path == CLIENT_URL:
                return self._send(200, "text/javascript; charset=utf-8", CLIENT_FILE.read_bytes(), head)
            files, build_id = site.files, site.build_id  # one consistent build
            name = unquote(path).lstrip("/")
            if name == "" or name.endswith("/"):
                name += "index.html"
            if name not in files and f"{name}/index.html" in files:
                self.send_response(301)
                self.send_header("Location", quote(path) + "/")
                self.end_headers()
                return None
            status = 200
            if not files:
                status, name, body = 503, "index.html", _WAITING_PAGE
            elif name in files:
                body = files[name]
            else:
                status, name = 404, "404.html"
                body = files.get(name, b"<!doctype html><title>Not found</title><h1>Not found</h1>")
            kind = mimetypes.guess_type(name)[0] or "application/octet-stream"
            if kind == "text/html":
                body = _inject(body, build_id)
            if kind.startswith("text/") or kind in ("application/javascript", "application/json"):
                kind += "; charset=utf-8"
            return self._send(status, kind, body, head)

        def _send(self, status: int, kind: str, body: bytes, head: bool) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            if not head:
                self.wfile.write(body)

        def _events(self) -> None:
            """Server-sent events: the current state at once, then after every rebuild."""
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            seen = None
            try:
                self.wfile.write(b"retry: 1000\n\n")
                while True:
                    with site.changed:
                        site.changed.wait_for(lambda: site.version != seen or site.closing, KEEPALIVE_SECONDS)
                        if site.closing:
                            return
                        version, state = site.version, site.state()
                    if version != seen:
                        self.wfile.write(f"event: state\ndata: {state}\n\n".encode("utf-8"))
                        seen = version
                    else:
                        self.wfile.write(b": still here\n\n")
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError):
                return

    return Handler


_WAITING_PAGE = (b"<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>Waiting for a good build</title>"
                 b"<body><h1>Waiting for a good build</h1><p>The site has not built yet. The errors are shown "
                 b"below and in the terminal; this page reloads once they are fixed.</p></body></html>")


def _inject(html: bytes, build_id: str) -> bytes:
    tag = (f'<script src="{CLIENT_URL}" data-build="{build_id}" data-events="{EVENTS_URL}"></script>'
           .encode("utf-8"))
    at = html.rfind(b"</body>")
    return html[:at] + tag + html[at:] if at >= 0 else html + tag


def _differences(before: dict, after: dict) -> set[Path]:
    return {path for path in before.keys() | after.keys() if before.get(path) != after.get(path)}


def _editor_temp(name: str) -> bool:
    return name.endswith(("~", ".swp", ".swx", ".tmp")) or name.startswith(".#") or name == "4913"


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
