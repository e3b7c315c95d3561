"""First view on a throttled phone: each page served gzipped over HTTP (as GitHub
Pages serves it) to headless Chromium slowed to 4× CPU, 1.6 Mbit/s down and a
150 ms round trip, with an empty cache. The reader scrolls to the first chart
and waits for it. The figures are times from the navigation's start: until the
first chart shows (a drawing of its default state in the HTML, or Plotly's), until
Plotly has drawn it, and until a first click has been handled (the runtime's
"explainer:state" event)."""
from __future__ import annotations

import gzip
import mimetypes
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from .common import CHROMIUM, CHROMIUM_ARGS, GZIP_LEVEL, median

CPU_SLOWDOWN = 4
DOWNLOAD_BYTES_PER_S = 1.6e6 / 8
UPLOAD_BYTES_PER_S = 750e3 / 8
ROUND_TRIP_MS = 150
VIEWPORT = {"width": 412, "height": 823}

# Runs in the page before its own scripts: notes when the first chart shows.
_WATCH = """
(() => {
  const seen = window.__firstView = {};
  const look = () => {
    const chart = document.querySelector("[data-chart]");
    if (!chart) return;
    if (seen.shown === undefined && chart.querySelector("svg")) seen.shown = performance.now();
    if (seen.plotted === undefined && chart.querySelector(".main-svg")) seen.plotted = performance.now();
  };
  new MutationObserver(look).observe(document, { childList: true, subtree: true });
  document.addEventListener("explainer:state", () => {
    if (seen.clicked === undefined) seen.clicked = performance.now();
  });
})();
"""


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
        compressible = kind.startswith("text/") or kind in ("application/javascript", "application/json",
                                                             "image/svg+xml")
        if compressible:
            body = gzip.compress(body, GZIP_LEVEL, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", kind)
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


def measure(build_dir: Path, paths: list[str], runs: int) -> dict:
    """{page path: {"shown", "plotted", "clicked": median ms, "runs": [...]}}."""
    from playwright.sync_api import sync_playwright

    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_GzipHandler, directory=str(build_dir)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    results = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for path in paths:
                samples = [_one_view(browser, base + path) for _ in range(runs)]
                results[path] = {key: median([s[key] for s in samples]) for key in ("shown", "plotted", "clicked")}
                results[path]["runs"] = samples
            browser.close()
    finally:
        server.shutdown()
    return results


def _one_view(browser, url: str) -> dict:
    context = browser.new_context(viewport=VIEWPORT, is_mobile=True, has_touch=True, device_scale_factor=2)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": ROUND_TRIP_MS,
                                                  "downloadThroughput": DOWNLOAD_BYTES_PER_S,
                                                  "uploadThroughput": UPLOAD_BYTES_PER_S})
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    page.add_init_script(_WATCH)
    page.goto(url, wait_until="commit")
    chart = page.locator("[data-chart]").first
    chart.wait_for(state="attached", timeout=60_000)
    chart.scroll_into_view_if_needed()
    page.wait_for_function("() => window.__firstView.shown !== undefined", timeout=60_000)
    page.wait_for_function("() => window.__firstView.plotted !== undefined", timeout=60_000)
    section = page.locator("section[data-step]").first
    button = section.locator("button[data-index][aria-pressed=false]").first
    button.click()
    page.wait_for_function("() => window.__firstView.clicked !== undefined", timeout=60_000)
    times = page.evaluate("() => window.__firstView")
    context.close()
    return {key: float(times[key]) for key in ("shown", "plotted", "clicked")}
