"""The dev server, run for real on a copy of the project: it listens on
127.0.0.1 only, reloads the browser through livereload after every edit (even
edits in quick succession), shows a failed rebuild as an overlay over the last
good page, and picks up edited generator code."""
import http.client
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from generator.build import build

from tests.conftest import FIXTURES, ROOT, THEMES, copy_generator

WAIT_MS = 30_000  # generous: the machine is shared; nothing here measures speed


class Server:
    """`python -m generator serve --port 0` in a copy of the project, its log collected."""

    def __init__(self, project: Path):
        self.project = project
        self.log: list[str] = []
        self._ready = threading.Event()
        self.process = subprocess.Popen([sys.executable, "-m", "generator", "serve", "--port", "0"], cwd=project,
                                        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
        threading.Thread(target=self._read, daemon=True).start()
        if not self._ready.wait(60):
            self.stop()
            pytest.fail("the dev server did not start:\n" + "\n".join(self.log))

    def _read(self):
        for line in self.process.stderr:
            self.log.append(line.rstrip("\n"))
            match = re.search(r"Serving (http://127\.0\.0\.1:(\d+)/)", line)
            if match:
                self.url, self.port = match.group(1), int(match.group(2))
                self._ready.set()

    def get(self, path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(self.url + path, timeout=30) as response:
                return response.status, response.read().decode("utf-8")
        except urllib.error.HTTPError as err:
            return err.code, err.read().decode("utf-8")

    def stop(self):
        self.process.terminate()
        self.process.wait(30)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    project = tmp_path_factory.mktemp("project")
    copy_generator(project)
    shutil.copytree(THEMES, project / "themes")
    shutil.copytree(FIXTURES / "tiny" / "content", project / "content")
    if (ROOT / "node_modules").is_dir():  # the theme's bundler finds esbuild here, as in this checkout
        (project / "node_modules").symlink_to(ROOT / "node_modules")
    running = Server(project)
    yield running
    running.stop()


@pytest.fixture
def page(server, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    # Only the dev server may be reached.
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(server.url)
                  else route.abort())
    p = context.new_page()
    sockets = []
    p.on("websocket", lambda socket: sockets.append(socket.url))
    p.goto(server.url + "coin-flips/index.html")
    p.wait_for_function("window.lensa?.runtime && window.Plotly")
    p.evaluate("window.__sameDocument = true")
    p.wait_for_function("window.LiveReload && window.LiveReload.connector.protocol >= 7")  # listening
    assert sockets == [server.url.replace("http:", "ws:") + "livereload"]  # livereload's own channel
    yield p
    context.close()


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def prose(page):
    return page.get_by_role("region", name="Runs of Heads", exact=True).locator("[data-prose]")


def test_listens_on_loopback_only(server):
    listening = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for row in Path(table).read_text().splitlines()[1:]:
            local, state = row.split()[1], row.split()[3]
            if state == "0A" and int(local.rsplit(":", 1)[1], 16) == server.port:  # 0A: listening
                listening.append(local.rsplit(":", 1)[0])
    assert listening == ["0100007F"]  # 127.0.0.1, and no other address


def request(server, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    """One raw request, with exactly the Host (and other headers) given: (status, headers, body)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
        for name, value in headers.items():
            connection.putheader(name, value)
        connection.endheaders()
        response = connection.getresponse()
        body = b"" if response.status == 101 else response.read()
        return response.status, dict(response.getheaders()), body
    finally:
        connection.close()


WEBSOCKET = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
             "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}


@pytest.mark.parametrize("host", ["attacker.example", "attacker.example:{port}", "127.0.0.1.attacker.example",
                                  "localhost.attacker.example:{port}", "192.168.1.20:{port}", ""])
def test_a_request_for_another_host_is_refused(server, host):
    """A DNS name rebound to 127.0.0.1 reaches the server with its own Host: refused,
    for the pages, livereload's script and its websocket alike."""
    host = host.format(port=server.port)
    for path, extra in (("/coin-flips/index.html", {}), ("/livereload.js", {}), ("/livereload", WEBSOCKET)):
        status, _, body = request(server, path, {"Host": host, **extra})
        assert status == 403 and b"Forbidden" in body and b"Runs of Heads" not in body, (path, status)


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST", "[::1]:{port}",
                                  "127.0.0.2:{port}", "drafts.localhost:{port}"])
def test_this_machine_is_answered_by_any_of_its_names(server, host):
    status, _, body = request(server, "/coin-flips/index.html", {"Host": host.format(port=server.port)})
    assert status == 200 and b"Runs of Heads" in body


def test_the_livereload_websocket_accepts_only_this_machines_pages(server):
    own = {"Host": f"127.0.0.1:{server.port}", **WEBSOCKET}
    assert request(server, "/livereload", {**own, "Origin": f"http://127.0.0.1:{server.port}"})[0] == 101
    assert request(server, "/livereload", {**own, "Origin": f"http://localhost:{server.port}"})[0] == 101
    for origin in ("http://attacker.example", "https://127.0.0.1.attacker.example", "null",
                   f"file://127.0.0.1:{server.port}"):
        assert request(server, "/livereload", {**own, "Origin": origin})[0] == 403, origin
    # A page elsewhere fetching a draft: its Origin gives it away even with this machine's Host.
    status, _, body = request(server, "/coin-flips/index.html", {"Host": f"127.0.0.1:{server.port}",
                                                                   "Origin": "http://attacker.example"})
    assert status == 403 and b"Runs of Heads" not in body


@pytest.mark.parametrize("path", ["//coin-flips", "///coin-flips", "/coin-flips"])
def test_a_redirect_stays_on_this_server(server, path):
    """'//coin-flips/' would be a protocol-relative address: another host, coin-flips."""
    status, headers, _ = request(server, path, {"Host": f"127.0.0.1:{server.port}"})
    assert status == 301 and headers["Location"] == "/coin-flips/"


def test_pages_get_the_client_only_when_served(server, tmp_path):
    status, html = server.get("coin-flips/")
    assert status == 200 and "/__dev__/client.js" in html and "/livereload.js" in html
    # The client runs before livereload.js, so that livereload.js finds its plugin.
    assert html.index("/__dev__/client.js") < html.index("/livereload.js") < html.index("</head>")
    out = tmp_path / "out"
    build(server.project / "content", out, server.project / "themes")
    for path in out.rglob("*"):
        if path.is_file():
            assert b"__dev__" not in path.read_bytes() and b"livereload" not in path.read_bytes(), path
    assert server.get("no/such/page.html")[0] == 404
    assert server.get("coin-flips")[0] == 200  # redirected to coin-flips/


def test_an_edit_reloads_the_page_without_recomputing(server, page):
    step = server.project / "content/coin-flips/steps/01-runs.md"
    edit(step, "With {{ flips }} flips", "After {{ flips }} flips")
    try:
        prose(page).get_by_text("After 2 flips").wait_for(timeout=WAIT_MS)
        assert page.evaluate("window.__sameDocument === undefined")  # a real reload
        assert any("reused the states of coin-flips" in line for line in server.log)
    finally:
        edit(step, "After {{ flips }} flips", "With {{ flips }} flips")
    prose(page).get_by_text("With 2 flips").wait_for(timeout=WAIT_MS)


def test_edits_in_quick_succession_each_reload(server, page):
    # livereload on its own ignores a reload within 3 s of the previous one.
    step = server.project / "content/coin-flips/steps/01-runs.md"
    original = step.read_text()
    try:
        for word in ("First", "Second", "Third"):
            page.evaluate("window.__sameDocument = true")
            step.write_text(original.replace("With {{ flips }} flips", word + " {{ flips }} flips"))
            prose(page).get_by_text(f"{word} 2 flips").wait_for(timeout=WAIT_MS)
            assert page.evaluate("window.__sameDocument === undefined")
    finally:
        step.write_text(original)
    prose(page).get_by_text("With 2 flips").wait_for(timeout=WAIT_MS)


def test_a_failed_rebuild_shows_an_overlay_over_the_last_good_page(server, page):
    step = server.project / "content/coin-flips/steps/01-runs.md"
    edit(step, "With {{ flips }} flips", "With {{ flipz }} flips")
    try:
        alert = page.get_by_role("alert").filter(has_text="Build failed")
        alert.wait_for(timeout=WAIT_MS)
        assert "undefined value 'flipz'" in alert.inner_text()
        assert "01-runs.md:28" in alert.inner_text()
        assert page.evaluate("window.__sameDocument === true")  # the last good page stays
        assert "With 2 flips" in prose(page).inner_text()
        status, html = server.get("coin-flips/index.html")
        assert status == 200 and "With <strong>" not in html and "With 2 flips" in html
        assert any("undefined value 'flipz'" in line for line in server.log)
        assert any("The last good build is still served." in line for line in server.log)
        # A page opened while the build is broken shows the errors too.
        other = page.context.new_page()
        other.goto(server.url + "index.html")
        other.get_by_role("alert").filter(has_text="undefined value 'flipz'").wait_for(timeout=WAIT_MS)
        other.close()
    finally:
        edit(step, "With {{ flipz }} flips", "With {{ flips }} flips")
    page.wait_for_function("window.__sameDocument === undefined", timeout=WAIT_MS)
    page.wait_for_function("window.lensa?.runtime && window.Plotly", timeout=WAIT_MS)
    assert page.get_by_role("alert").filter(has_text="Build failed").count() == 0


def test_a_model_that_calls_sys_exit_is_reported_and_the_server_keeps_serving(server):
    model = server.project / "content/coin-flips/model.py"
    original = model.read_text()
    seen = len(server.log)
    model.write_text(original.replace("import numpy as np\n", "import sys\nimport numpy as np\nsys.exit(0)\n"))
    try:
        wait_for_log(server, "called sys.exit(0)", seen)
        assert any(line.startswith("error: content/coin-flips/model.py:3: ") for line in server.log[seen:])
        assert server.process.poll() is None
        status, html = server.get("coin-flips/index.html")
        assert status == 200 and "Runs of Heads" in html  # the last good build
    finally:
        seen = len(server.log)
        model.write_text(original)
    wait_for_log(server, "Built in", seen)


def wait_for_log(server, text: str, after: int) -> None:
    deadline = time.monotonic() + WAIT_MS / 1000
    while not any(text in line for line in server.log[after:]):
        assert server.process.poll() is None, "\n".join(server.log)
        assert time.monotonic() < deadline, "\n".join(server.log[after:])
        time.sleep(0.05)  # the poll's interval: the wait is for the condition, up to the deadline


def test_changes_are_seen_by_content_whatever_their_modification_time(server, tmp_path):
    """A data file of content/_lib/ (here a dot-file) that the model reads: edited, it is seen
    and the states are computed again, even when it arrives with an old modification time."""
    content = server.project / "content"
    model = content / "coin-flips" / "model.py"
    original = model.read_text()
    shared = content / "_lib"
    seen = len(server.log)
    shared.mkdir()
    (shared / ".half").write_text("0.5")
    model.write_text(original.replace("    p = 0.5 ** np.arange(1, 4)", "    from pathlib import Path\n"
                                      "    half = float((Path(__file__).parents[1] / '_lib' / '.half').read_text())\n"
                                      "    p = half ** np.arange(1, 4)"))
    try:
        # The model that reads it is in use (the file may have had a rebuild of its own before).
        wait_for_log(server, "coin-flips/model.py", seen)
        seen = next(i for i in range(seen, len(server.log)) if "coin-flips/model.py" in server.log[i])
        wait_for_log(server, "Built in", seen)
        seen = len(server.log)
        # A file put back as an older copy (cp -a, mv, unzip): its modification time is in the past.
        older = tmp_path / ".half"
        older.write_text("0.4")
        os.utime(older, (946_684_800, 946_684_800))  # 2000-01-01
        os.replace(older, shared / ".half")
        wait_for_page(server, "a chance of 16%", seen)
        # The build's log line follows the pages it wrote: wait for it too.
        wait_for_log(server, "recomputed coin-flips", seen)
    finally:
        seen = len(server.log)
        model.write_text(original)
        shutil.rmtree(shared)
    wait_for_page(server, "a chance of 25%", seen)


def wait_for_page(server, text: str, after: int) -> None:
    """Until the served page says `text` (after a rebuild logged since `after`)."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while text not in server.get("coin-flips/index.html")[1]:
        assert server.process.poll() is None, "\n".join(server.log)
        assert time.monotonic() < deadline, "\n".join(server.log[after:])
        time.sleep(0.05)  # the poll's interval: the wait is for the condition, up to the deadline


def test_edited_generator_code_is_imported_afresh(server, page):
    formats = server.project / "generator/compute/formats.py"
    original = formats.read_text()
    # The percent filter and readout format, changed: prose and readouts must show it.
    edit(formats, ':.0f}%")', ':.0f} per cent")')
    try:
        page.wait_for_function("window.__sameDocument === undefined", timeout=WAIT_MS)
        prose(page).get_by_text("25 per cent").wait_for(timeout=WAIT_MS)
        assert any("generator/ changed: reloading its code." in line for line in server.log)
    finally:
        formats.write_text(original)
    prose(page).get_by_text("25%").wait_for(timeout=WAIT_MS)


def needs_node():
    if shutil.which("node") is None:
        pytest.skip("node is not installed: the theme's scripts cannot be bundled")


def test_an_edited_theme_script_is_bundled_into_the_rebuild(server):
    """themes/default/scripts/ changed: bundle.cjs runs (as `make build` runs it) and the rebuild
    that follows serves the new bundle; a source that does not bundle is the build's error, one line
    naming it, and the last good bundle stays, on disk and served."""
    needs_node()
    source = server.project / "themes/default/scripts/share/main.js"
    bundle = server.project / "themes/default/static/share.js"
    original, good = source.read_text(), bundle.read_bytes()
    seen = len(server.log)
    source.write_text(original + "\nwindow.__rebundled = 1;\n")
    try:
        wait_for_log(server, "Built in", seen)
        assert any(line == "Bundled themes/default/scripts." for line in server.log[seen:]), server.log[seen:]
        assert "__rebundled" in bundle.read_text()
        assert "__rebundled" in server.get("assets/share.js")[1]  # in the rebuild that followed the edit
        assert json.loads(server.get("__dev__/state")[1])["error"] is None
        seen = len(server.log)
        source.write_text(original + "\nwindow.__rebundled = 1;\nconst broken = ;\n")
        wait_for_log(server, "The last good bundles and build are still served.", seen)
        error = json.loads(server.get("__dev__/state")[1])["error"]
        line = original.count("\n") + 3
        assert error.startswith(f"error: themes/default/scripts/share/main.js:{line}:") and "\n" not in error, error
        assert "__rebundled" in bundle.read_text() and "__rebundled" in server.get("assets/share.js")[1]
        # An edit elsewhere does not hide it: the scripts are bundled again, and still fail.
        seen = len(server.log)
        step = server.project / "content/coin-flips/steps/01-runs.md"
        edit(step, "With {{ flips }} flips", "After {{ flips }} flips")
        wait_for_log(server, "The last good bundles and build are still served.", seen)
        assert json.loads(server.get("__dev__/state")[1])["error"] == error
        edit(step, "After {{ flips }} flips", "With {{ flips }} flips")
    finally:
        seen = len(server.log)
        source.write_text(original)
    wait_for_log(server, "Built in", seen)
    assert bundle.read_bytes() == good
    assert json.loads(server.get("__dev__/state")[1])["error"] is None
    assert "__rebundled" not in server.get("assets/share.js")[1]


def test_a_script_that_does_not_bundle_is_shown_over_the_page(server, page):
    needs_node()
    source = server.project / "themes/default/scripts/share/main.js"
    original = source.read_text()
    source.write_text(original + "\nconst broken = ;\n")
    try:
        alert = page.get_by_role("alert").filter(has_text="Build failed")
        alert.wait_for(timeout=WAIT_MS)
        assert "themes/default/scripts/share/main.js:" in alert.inner_text()
        assert page.evaluate("window.__sameDocument === true")  # the last good page stays
    finally:
        source.write_text(original)
    page.wait_for_function("window.__sameDocument === undefined", timeout=WAIT_MS)
    assert page.get_by_role("alert").filter(has_text="Build failed").count() == 0


def test_without_node_a_changed_script_is_one_line_saying_so(monkeypatch, tmp_path):
    from generator.dev import serve

    monkeypatch.setattr(serve.shutil, "which", lambda name: None)
    monkeypatch.chdir(tmp_path)
    bundler = tmp_path / "themes" / "default" / "scripts" / "bundle.cjs"
    assert serve._run_bundler(bundler) == [
        "error: themes/default/scripts/bundle.cjs: node is not installed, so themes/default/scripts/ cannot be "
        "bundled (install Node.js, as `make build` does)"]


def test_a_port_in_use_is_one_clear_line(server, tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "generator", "serve", "--port", str(port)],
                                cwd=server.project, capture_output=True, text=True, timeout=120)
    assert result.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr and "Traceback" not in result.stderr
    # Said before any build: the port is checked first.
    assert "Built" not in result.stderr and "Rebuild failed" not in result.stderr, result.stderr
