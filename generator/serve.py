"""The dev server: build, serve build/ on 127.0.0.1 with livereload, and
rebuild when content, themes or the generator change. A failed rebuild is
printed and the last good build keeps being served."""
from __future__ import annotations

import sys
from pathlib import Path

HOST = "127.0.0.1"  # never listen beyond this machine


def serve(args) -> None:
    from livereload import Server

    from .build import build
    from .cli import _report
    from .errors import GeneratorError

    def rebuild() -> None:
        try:
            build(args.content, args.out, args.themes, args.theme)
            print("Rebuilt.", file=sys.stderr)
        except GeneratorError as err:
            _report(err)
            print("The last good build is still served.", file=sys.stderr)

    build(args.content, args.out, args.themes, args.theme)
    server = Server()
    for folder in (args.content, args.themes, Path(__file__).parent):
        server.watch(str(folder), rebuild, delay=0.2)
    print(f"Serving {args.out} on http://{HOST}:{args.port}/index.html", file=sys.stderr)
    server.serve(host=HOST, port=args.port, root=str(args.out), open_url_delay=None)
