"""The command line: every command has --help, problems are one plain line
each with the totals last, --strict fails at the end, and no traceback
reaches the user without --debug."""
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import generator
from generator import cli
from generator.cli import main

from tests.conftest import FIXTURES, ROOT

TINY = FIXTURES / "tiny" / "content"


def run(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "generator", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True)


@pytest.mark.parametrize("command", ["build", "serve", "new", "check", "proof", "dist"])
def test_every_command_has_help(command, capsys):
    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: python -m generator {command}")
    assert "--debug" in out and "--content" in out


def test_no_command_prints_the_commands(capsys):
    assert main([]) == 2
    out = capsys.readouterr().out
    for command in ("build", "serve", "new", "check", "dist"):
        assert command in out


def test_check_reports_pages_and_states(capsys):
    assert main(["check", "--content", str(TINY)]) == 0
    assert "OK: 1 page and 3 states checked." in capsys.readouterr().out


def test_warnings_are_printed_and_counted(tmp_site, tmp_path, capsys):
    content = tmp_site({"site.toml": 'colour = "red"\n' + (TINY / "site.toml").read_text()})
    assert main(["build", "--content", str(content), "--out", str(tmp_path / "out")]) == 0
    captured = capsys.readouterr()
    assert "warning: " in captured.err and "site.toml:1: colour: unknown key" in captured.err
    assert "with 1 warning." in captured.out
    assert (tmp_path / "out" / "index.html").exists()


def test_strict_fails_at_the_end_with_totals_and_writes_nothing(tmp_site, tmp_path, capsys):
    content = tmp_site({
        "site.toml": 'colour = "red"\n' + (TINY / "site.toml").read_text(),
        "coin-flips/steps/01-runs.md": (TINY / "coin-flips/steps/01-runs.md").read_text()
        .replace("subtitle =", "subtitel ="),
    })
    out = tmp_path / "out"
    assert main(["build", "--strict", "--content", str(content), "--out", str(out)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert [line.split(":")[0] for line in err[:-1]] == ["error", "error"]
    assert err[-1] == "Build failed: 2 warnings, which --strict counts as errors."
    assert not out.exists()


def test_errors_and_warnings_together(tmp_site, capsys):
    content = tmp_site({"site.toml": 'titel = "Typo"\n'})
    assert main(["check", "--content", str(content)]) == 1
    err = capsys.readouterr().err
    assert "warning: " in err and "did you mean 'title'" in err
    assert "error: " in err and "title: is required" in err
    assert err.strip().splitlines()[-1] == "Check failed: 1 error, 1 warning."


def test_paths_are_shown_relative_to_the_working_folder(tmp_site, tmp_path, monkeypatch, capsys):
    content = tmp_site({"site.toml": 'title = 3\n'})
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--content", str(content)]) == 1
    assert "error: content/site.toml:1: title: expected a string, found 3 (an integer)" in capsys.readouterr().err


def test_a_missing_content_folder_is_one_line(tmp_path):
    result = run("build", "--content", tmp_path / "nope", "--out", tmp_path / "out")
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == \
        f"error: {tmp_path / 'nope'}: does not exist: expected the content folder, with a site.toml"
    assert "Traceback" not in result.stderr


def test_an_internal_error_is_one_line_without_debug(monkeypatch, capsys):
    import generator.build

    def broken(*args, **kwargs):
        raise RuntimeError("something of ours broke")

    monkeypatch.setattr(generator.build, "build", broken)
    assert main(["check", "--content", str(TINY)]) == 1
    err = capsys.readouterr().err
    assert err.strip() == ("error: internal error: RuntimeError: something of ours broke "
                           "(run with --debug for the traceback)")
    with pytest.raises(RuntimeError):
        main(["check", "--debug", "--content", str(TINY)])


def test_debug_shows_the_traceback_of_a_content_error(tmp_site):
    content = tmp_site({"site.toml": 'title = 3\n'})
    quiet = run("check", "--content", content)
    loud = run("check", "--debug", "--content", content)
    assert quiet.returncode == 1 and "Traceback" not in quiet.stderr
    assert loud.returncode == 1 and "Traceback" in loud.stderr and "ContentError" in loud.stderr


def test_default_folders_are_the_current_ones(tmp_path, monkeypatch):
    """This repository is a site like any other: `python -m generator` and the
    installed `lensa` command both work on the site in the current folder."""
    monkeypatch.chdir(tmp_path)
    parser = cli._parser()
    args = parser.parse_args(["build"])
    assert (args.content, args.themes, args.out) == (tmp_path / "content", tmp_path / "themes", tmp_path / "build")
    assert parser.prog == "python -m generator"
    monkeypatch.setattr(sys, "argv", [str(tmp_path / "venv" / "bin" / "lensa")])
    parser = cli._parser()
    args = parser.parse_args(["dist"])
    assert (args.content, args.themes, args.out, args.base) == (
        tmp_path / "content", tmp_path / "themes", tmp_path / "build", tmp_path)
    assert parser.prog == "lensa"


def test_version_names_lensa_and_the_plotly_js_it_ships(capsys):
    """The bundle built from the plotly.js package.json pins: an upgrade there shows here."""
    import json

    from generator.resources import BUILT_PLOTLY

    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"]["plotly.js"]
    bundle = json.loads((ROOT / BUILT_PLOTLY / "package.json").read_text())
    assert capsys.readouterr().out == (f"lensa {generator.__version__}, with plotly.js {pinned} "
                                       f"({bundle['name']}, {bundle['license']} licence)\n")


# --- Model code that ends the run or never returns ------------------------------------------

MODEL = (TINY / "coin-flips" / "model.py").read_text()


@pytest.mark.parametrize("where", ["import", "step"])
def test_a_model_that_calls_sys_exit_fails_check_at_its_line(tmp_site, tmp_path, where):
    exiting = (MODEL.replace("import numpy as np\n", "import sys\nimport numpy as np\nsys.exit(0)\n")
               if where == "import" else MODEL.replace("    p = 0.5", "    __import__('sys').exit(0)\n    p = 0.5"))
    tmp_site({"coin-flips/model.py": exiting})
    # The content folder given relative to the working folder.
    result = subprocess.run([sys.executable, "-m", "lensa", "check", "--content", "content"], cwd=tmp_path,
                            capture_output=True, text=True)  # the installed package: this checkout, editable
    assert result.returncode == 1 and "OK" not in result.stdout and "Traceback" not in result.stderr
    line = 3 if where == "import" else 7
    assert result.stderr.startswith(f"error: content/coin-flips/model.py:{line}: ") and "called sys.exit(0)" \
        in result.stderr, result.stderr


def test_ctrl_c_names_the_step_and_state_that_were_running(tmp_site, tmp_path):
    started = tmp_path / "started"
    # The model's step hangs (the sleep is what is tested: a step still running when Ctrl+C comes).
    content = tmp_site({"coin-flips/model.py": MODEL.replace(
        "    p = 0.5", f"    if flips == 2:\n        open({str(started)!r}, 'w').close()\n"
        "        __import__('time').sleep(600)\n    p = 0.5")})
    process = subprocess.Popen([sys.executable, "-m", "generator", "build", "--content", str(content), "--out",
                                str(tmp_path / "out")], cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not started.exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)  # the poll's interval: the wait is for the file, up to the deadline
        assert started.exists(), "the step never started"
        process.send_signal(signal.SIGINT)
        stderr = process.communicate(timeout=60)[1]
    finally:
        process.kill()
    assert process.returncode == 130
    assert stderr.strip() == "Interrupted while computing coin-flips, step 1 (runs) for flips=2.", stderr
    assert not (tmp_path / "out").exists()


def test_a_deleted_working_folder_is_one_line(tmp_path):
    gone = tmp_path / "gone"
    gone.mkdir()
    lensa = Path(sys.executable).with_name("lensa")  # the installed command (this checkout, editable)
    result = subprocess.run(["sh", "-c", f'cd "{gone}" && rmdir "{gone}" && exec "{lensa}" check'],
                            capture_output=True, text=True)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr == (f"error: {gone}: the working folder no longer exists (deleted or moved); cd into "
                             "the site's folder and run lensa again\n")
