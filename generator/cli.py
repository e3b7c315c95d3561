"""Command line: lensa init|new|serve|check|proof|build|dist|docs (dist --scorm: SCORM packages).

Problems are printed one plain line each, warnings are counted, and the totals
come last. A Python traceback reaches the user only with --debug. Installed
(pyproject.toml), it is the `lensa` command and `python -m lensa`; in this
repository's checkout, `python -m generator` too. Every command works on the
site in the current folder: its content/ and themes/, its build/ and dist/.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from . import __version__
from .errors import GeneratorError, Problem, display_path, report_lines
from .resources import DOCS_DIR, GUIDES

COMMAND = "lensa"  # the console script pyproject.toml installs
EPILOG = "Every command takes --help. `lensa docs` prints Lensa's authoring guide, which explains every field."


def main(argv: list[str] | None = None) -> int:
    try:
        Path.cwd()  # every command works on the site in the current folder
    except OSError:  # deleted (or moved away) under the shell that runs us
        folder = os.environ.get("PWD") or "the working folder"
        print(f"error: {folder}: the working folder no longer exists (deleted or moved); cd into the site's "
              f"folder and run {COMMAND} again", file=sys.stderr)
        return 1
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    warnings: list[Problem] = []  # the run's counting collector, filled by the build
    try:
        return args.run(args, warnings)
    except GeneratorError as err:
        if args.debug:
            raise
        _print(report_lines(err, warnings, Path.cwd(), failed=args.failed))
        return 1
    except KeyboardInterrupt as err:  # Interrupted says what was running: the model's step and state
        print(f"Interrupted {err}." if str(err) else "Interrupted.", file=sys.stderr)
        return 130
    except Exception as err:  # a bug of ours: still one line unless --debug
        if args.debug:
            raise
        _print(report_lines(None, warnings, Path.cwd()))
        print(f"error: internal error: {type(err).__name__}: {err} (run with --debug for the traceback)",
              file=sys.stderr)
        return 1


def program() -> str:
    """The command as the user typed it: `lensa`, or `python -m <package>`."""
    if Path(sys.argv[0]).stem == COMMAND:
        return COMMAND
    return f"python -m {__name__.partition('.')[0]}"


def version_line() -> str:
    from .resources import plotly_bundle

    bundle = plotly_bundle()
    return f"lensa {__version__}, with " + (bundle.describe() if bundle else
                                            "no partial plotly.js bundle (npm ci installs it)")


def _parser() -> argparse.ArgumentParser:
    base = Path.cwd()
    prog = program()
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0].replace(
        "lensa", prog, 1), epilog=EPILOG)
    parser.add_argument("--version", action="version", version=version_line(),
                        help="show the version of lensa and of the plotly.js it ships, and exit")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")

    def command(name: str, run, help_text: str, failed: str, site: bool = True) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=help_text, epilog=EPILOG)
        sub.set_defaults(run=run, command=name, failed=failed, base=base)
        sub.add_argument("--content", type=Path, default=base / "content",
                         help="content folder (default: content/)")
        if site:
            sub.add_argument("--themes", type=Path, default=base / "themes",
                             help="folder of the site's own themes (default: themes/); the packaged "
                                  "themes, default and course, need none, and a theme of the site's "
                                  "wins over a packaged one of the same name")
            sub.add_argument("--theme", help="theme name, overriding the theme in site.toml")
            sub.add_argument("--strict", action="store_true",
                             help="fail when there are warnings (unknown keys and the like)")
        sub.add_argument("--debug", action="store_true", help="show Python tracebacks of failures")
        return sub

    init = commands.add_parser("init", help="Start a site in a folder: content/ with a first explainer, "
                               "a GitHub Pages workflow, a README.", epilog=EPILOG,
                               description="Start a site in FOLDER (default: the current folder): "
                               "content/site.toml with a series of one explainer, that explainer, a "
                               ".gitignore, requirements.txt (this version of lensa), a GitHub Pages "
                               "workflow and a README. It refuses a folder that is not empty unless "
                               "told to, and never overwrites a file.")
    init.set_defaults(run=_init, command="init", failed="Init failed", base=base)
    init.add_argument("folder", nargs="?", type=Path, default=Path("."), metavar="FOLDER",
                      help="where the site goes, made if missing (default: the current folder)")
    init.add_argument("--title", help="the site's title (default: made from the folder's name)")
    init.add_argument("--force", action="store_true",
                      help="start the site in a folder that is not empty, keeping every file already there")
    init.add_argument("--debug", action="store_true", help="show Python tracebacks of failures")
    build = command("build", _build, "Build the site into the output folder, replacing it only when "
                    "the whole build succeeds.", "Build failed")
    build.add_argument("--out", type=Path, default=base / "build", help="output folder (default: build/)")
    command("check", _check, "Validate the content and compute every state, writing nothing.", "Check failed")
    proof = command("proof", _proof, "Write every text of a page as a reader meets it, state after state, "
                    "as plain text to proofread: each step's readouts, chart captions and prose in every "
                    "state of its controls, then its hint and deeper part (a game: every round's text and "
                    "what it announces for every spotlight).", "Proof failed", site=False)
    proof.add_argument("slugs", nargs="*", metavar="SLUG",
                       help="the pages to write, in the site's order (default: every page)")
    proof.add_argument("--step", type=int, metavar="N",
                       help="only step N of each page (a game's round N)")
    proof.add_argument("--skip-repeats", action="store_true",
                       help="write a text that reads exactly as in an earlier state of its step as "
                            "'(as in state K)', so that only what changes is read twice")
    dist = command("dist", _dist, "Build the site, then pack it into one zip for offline distribution, or (--scorm) "
                   "into SCORM packages for an LMS.",
                   "Dist failed")
    dist.add_argument("--out", type=Path, default=base / "build", help="output folder (default: build/)")
    dist.add_argument("--zip", type=Path, help="the archive to write (default: dist/<site title>.zip)")
    dist.add_argument("--scorm", nargs="?", const="all", choices=["1.2", "2004", "all"],
                      help="instead of the zip, write SCORM packages for an LMS (docs/lms.md): one per page and one "
                           "of the whole site, in SCORM 1.2, 2004 (4th Edition) or all of them (the default)")
    dist.add_argument("--scorm-dir", type=Path, help="the folder for the SCORM packages (default: dist/scorm/)")
    serve = command("serve", _serve, "Preview the site on http://127.0.0.1 with live reload: rebuild "
                    "what a change affects and reload the browser.", "Serve failed")
    serve.add_argument("--port", type=int, default=8000,
                       help="port on 127.0.0.1 (default: 8000; 0 picks a free one)")
    new = command("new", _new, "Start a new explainer: a small working example in content/SLUG/, "
                  "added to the series in site.toml.", "New failed", site=False)
    new.add_argument("slug", help="the explainer's folder name and URL: lowercase letters, digits, hyphens")
    new.add_argument("--title", help="its title (default: made from the slug)")
    new.add_argument("--subtitle", help="one line under the title, also in the series list (asked for when "
                     "the terminal can answer; else left for you to write)")
    place = new.add_mutually_exclusive_group()
    place.add_argument("--after", metavar="SLUG", help="list it right after this explainer in site.toml "
                       "(default: at the end of the series, with a comment)")
    place.add_argument("--before", metavar="SLUG", help="list it right before this explainer in site.toml")
    docs = commands.add_parser("docs", help="Print Lensa's authoring guide (or open it in the browser), "
                               "the one that comes with this version.", epilog=EPILOG,
                               description="Print the guide for authors that this installed version of "
                               "Lensa carries, as Markdown: from `lensa init` to publishing, with every field "
                               "of site.toml, explainers, steps, charts and their data. --open shows it in the "
                               "browser instead.")
    docs.set_defaults(run=_docs, command="docs", failed="Docs failed", base=base)
    docs.add_argument("guide", nargs="?", default=GUIDES[0], choices=GUIDES,
                      help="which guide: authoring (the default: writing and publishing an explainer), "
                           "embedding (iframes and offline copies), lms (SCORM packages), figures "
                           "(Download figure and citing), deep-links (addresses of states)")
    docs.add_argument("--open", action="store_true",
                      help="open the guide in the browser (as HTML written to a temporary file) rather than print it")
    docs.add_argument("--path", action="store_true", help="print where the guide's file is, and nothing else")
    docs.add_argument("--debug", action="store_true", help="show Python tracebacks of failures")
    return parser


def _build(args, warnings: list[Problem]) -> int:
    from .build import build

    started = time.perf_counter()
    result = build(args.content, args.out, args.themes, args.theme, strict=args.strict, warnings=warnings)
    _print(report_lines(None, warnings, Path.cwd()))
    pages = sum(1 for name in result.files if name.endswith(".html"))
    print(f"Built {pages} pages ({result.state_count} states) into {_shown(args.out)} "
          f"in {time.perf_counter() - started:.2f} s{_warning_total(warnings)}.")
    return 0


def _check(args, warnings: list[Problem]) -> int:
    from .build import build

    result = build(args.content, None, args.themes, args.theme, strict=args.strict, warnings=warnings)
    _print(report_lines(None, warnings, Path.cwd()))
    pages = len(result.site.pages)
    print(f"OK: {pages} page{'' if pages == 1 else 's'} and {result.state_count} states "
          f"checked{_warning_total(warnings)}.")
    return 0


def _proof(args, warnings: list[Problem]) -> int:
    from .dev.proof import proofread

    lines = proofread(args.content, args.slugs, args.step, args.skip_repeats, warnings)
    _print(report_lines(None, warnings, Path.cwd()))
    try:
        sys.stdout.write("\n".join(lines) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:  # `lensa proof | head`: the reader has read enough
        sys.stdout = None
    return 0


def _dist(args, warnings: list[Problem]) -> int:
    from .outputs.archive import archive_name, pack_site
    from .build import build

    if args.scorm:
        return _scorm(args, warnings)
    result = build(args.content, args.out, args.themes, args.theme, strict=args.strict, warnings=warnings)
    _print(report_lines(None, warnings, Path.cwd()))
    name = archive_name(result.site.config.title)
    target = args.zip or args.base / "dist" / f"{name}.zip"
    count = pack_site(args.out, target, name)
    print(f"Packed {count} files from {_shown(args.out)} into {_shown(target)}{_warning_total(warnings)}.")
    return 0


def _scorm(args, warnings: list[Problem]) -> int:
    """The packages are made from the build in memory: build/ is left as it is, and
    nothing is written until every package is made."""
    from .build import build
    from .outputs.scorm import VERSIONS, scorm_packages, write_scorm_packages

    versions = VERSIONS if args.scorm == "all" else (args.scorm,)
    result = build(args.content, None, args.themes, args.theme, strict=args.strict, warnings=warnings)
    built = scorm_packages(result.site, result.files, versions)
    _print(report_lines(None, warnings, Path.cwd()))
    folder = args.scorm_dir or args.base / "dist" / "scorm"
    paths = write_scorm_packages(built, folder)
    pages = len(result.site.pages)
    print(f"Packed {len(paths)} SCORM packages ({pages} page{'' if pages == 1 else 's'} and the whole site, "
          f"SCORM {' and '.join(versions)}) into {_shown(folder)}{_warning_total(warnings)}.")
    return 0


def _serve(args, warnings: list[Problem]) -> int:
    from .dev.serve import serve

    serve(args)
    return 0


def _new(args, warnings: list[Problem]) -> int:
    from .dev.scaffold import scaffold

    subtitle = args.subtitle
    if subtitle is None and sys.stdin.isatty() and sys.stdout.isatty():
        try:
            subtitle = input("Subtitle: one line under the title, the promise of what the reader will understand\n"
                             "(Enter to write it later): ").strip()
        except EOFError:
            subtitle = ""
    created = scaffold(args.content, args.slug, args.title, subtitle=subtitle, after=args.after, before=args.before)
    for line in created.report(Path.cwd(), program()):
        print(line)
    return 0


def _init(args, warnings: list[Problem]) -> int:
    from .dev.site_scaffold import init_site

    started = init_site(args.base / args.folder, args.title, force=args.force, version=__version__)
    for line in started.report(Path.cwd(), program()):
        print(line)
    return 0


def _docs(args, warnings: list[Problem]) -> int:
    """The guide this version ships: its path, its Markdown, or a page of it in the browser."""
    path = DOCS_DIR / f"{args.guide}.md"
    if not path.is_file():
        raise GeneratorError(f"{path}: the guide is missing from this installation of lensa; reinstall it")
    if args.path:
        print(path)
        return 0
    text = path.read_text("utf-8")
    if not args.open:
        sys.stdout.write(text)
        return 0
    import tempfile
    import webbrowser

    import markdown

    title = text.splitlines()[0].lstrip("# ").strip() if text else args.guide
    body = markdown.markdown(text, extensions=["tables", "fenced_code"])
    page = Path(tempfile.mkdtemp(prefix="lensa-docs-")) / f"{args.guide}.html"
    page.write_text(f'<!doctype html><html lang="en"><meta charset="utf-8"><title>{title}</title>'
                    '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:50rem;margin:2rem auto;padding:0 1rem}'
                    'table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.2rem .4rem}'
                    f'pre{{overflow-x:auto;background:#f4f4f4;padding:.5rem}}</style>{body}</html>\n', "utf-8")
    opened = webbrowser.open(page.as_uri())
    print(f"{'Opened' if opened else 'Open'} {page.as_uri()}" + ("" if opened else " in a browser (none was found)"))
    return 0


def _warning_total(warnings: list[Problem]) -> str:
    return f", with {len(warnings)} warning{'' if len(warnings) == 1 else 's'}" if warnings else ""


def _shown(path: Path) -> str:
    return display_path(path, Path.cwd())


def _print(lines: list[str]) -> None:
    for line in lines:
        print(line, file=sys.stderr)
