"""A build folder served over HTTP on 127.0.0.1 as a static host serves it:
text compressed with gzip, a folder's index.html for its address."""
from __future__ import annotations

import contextlib
import gzip
import mimetypes
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from .common import GZIP_LEVEL

_COMPRESSED = ("application/javascript", "application/json", "image/svg+xml")


@contextlib.contextmanager
def served(build_dir: Path):
    """Serve `build_dir` while the block runs; yields its address ("http://127.0.0.1:port/")."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_GzipHandler, directory=str(build_dir)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class _GzipHandler(SimpleHTTPRequestHandler):
    """Files from the build, compressed as a static host sends them."""

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if not path.is_file():
            self.send_error(404)
            return None
        body = path.read_bytes()
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        compressible = kind.startswith("text/") or kind in _COMPRESSED
        if compressible:
            body = gzip.compress(body, GZIP_LEVEL, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", kind + ("; charset=utf-8" if kind.startswith("text/") else ""))
        if compressible:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return _Body(body)

    def log_message(self, *args):  # quiet
        pass


class _Body:
    def __init__(self, data: bytes):
        self.data = data

    def read(self, *args):
        data, self.data = self.data, b""
        return data

    def close(self):
        pass
