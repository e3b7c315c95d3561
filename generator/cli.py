"""Command line: python -m generator build|serve|check.

Errors are printed as one plain line each; a Python traceback reaches the
user only with --debug.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .errors import ContentError, GeneratorError

PROJECT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        return args.run(args)
    except GeneratorError as err:
        if args.debug:
            raise
        _report(err)
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as err:  # a bug of ours: still one line unless --debug
        if args.debug:
            raise
        print(f"error: internal error: {type(err).__name__}: {err} (run with --debug for details)",
              file=sys.stderr)
        return 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m generator", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")

    def command(name: str, run, help_text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.set_defaults(run=run, command=name)
        sub.add_argument("--content", type=Path, default=PROJECT / "content", help="content folder (default: content/)")
        sub.add_argument("--themes", type=Path, default=PROJECT / "themes", help="themes folder (default: themes/)")
        sub.add_argument("--theme", help="theme name, overriding site.toml")
        sub.add_argument("--strict", action="store_true", help="fail when there are warnings")
        sub.add_argument("--debug", action="store_true", help="show Python tracebacks")
        return sub

    build = command("build", _build, "Build the site into the output folder.")
    build.add_argument("--out", type=Path, default=PROJECT / "build", help="output folder (default: build/)")
    command("check", _check, "Validate the content and compute every state, writing nothing.")
    dist = command("dist", _dist, "Build the site, then pack it into one zip for offline distribution.")
    dist.add_argument("--out", type=Path, default=PROJECT / "build", help="output folder (default: build/)")
    dist.add_argument("--zip", type=Path, help="the archive to write (default: dist/<site title>.zip)")
    serve = command("serve", _serve, "Serve the site with live reload, rebuilding on change.")
    serve.add_argument("--out", type=Path, default=PROJECT / "build", help="output folder (default: build/)")
    serve.add_argument("--port", type=int, default=8000, help="port on 127.0.0.1 (default: 8000)")
    return parser


def _build(args) -> int:
    from .build import build

    started = time.perf_counter()
    result = build(args.content, args.out, args.themes, args.theme)
    _warn(result.warnings, args.strict)
    pages = sum(1 for name in result.files if name.endswith(".html"))
    print(f"Built {pages} pages into {args.out} in {time.perf_counter() - started:.2f} s")
    return 0


def _check(args) -> int:
    from .build import build

    result = build(args.content, None, args.themes, args.theme)
    _warn(result.warnings, args.strict)
    states = sum(len(s.controls) for e in result.site.explainers for s in e.steps)
    print(f"OK: {len(result.site.explainers)} explainers checked ({states} controls)")
    return 0


def _dist(args) -> int:
    from .archive import archive_name, pack_site
    from .build import build

    result = build(args.content, args.out, args.themes, args.theme)
    _warn(result.warnings, args.strict)
    name = archive_name(result.site.config.title)
    target = args.zip or PROJECT / "dist" / f"{name}.zip"
    count = pack_site(args.out, target, name)
    print(f"Packed {count} files from {args.out} into {target}")
    return 0


def _serve(args) -> int:
    from .serve import serve

    serve(args)
    return 0


def _warn(warnings, strict: bool) -> None:
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if strict and warnings:
        from .errors import StrictModeError

        raise StrictModeError(f"{len(warnings)} warning(s) with --strict")


def _report(err: GeneratorError) -> None:
    problems = err.problems if isinstance(err, ContentError) else [err]
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    if len(problems) > 1:
        print(f"{len(problems)} errors", file=sys.stderr)
