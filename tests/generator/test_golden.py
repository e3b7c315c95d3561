"""Golden site: the tiny fixture site's pages, built now, against the pages
committed in fixtures/tiny/expected/. Any change to what a build writes shows
here as a diff, so a refactor that should change nothing can prove it, and an
intended change is reviewed in the commit that updates the expected pages
(LENSA_UPDATE_GOLDEN=1 pytest tests/generator/test_golden.py rewrites them)."""
from __future__ import annotations

import difflib
import os
import re

from generator.build import build

from tests.conftest import FIXTURES, THEMES

EXPECTED = FIXTURES / "tiny" / "expected"
# Asset versions and the stylesheet the 404 page inlines change with every theme
# edit; the pages around them are what is compared.
_VERSION = re.compile(r"\?v=[0-9a-f]{10}")
_INLINE_STYLE = re.compile(r"<style>.*?</style>", re.S)


def _pages(files: dict) -> dict[str, str]:
    return {name: _INLINE_STYLE.sub("<style>…</style>", _VERSION.sub("?v=…", data.decode("utf-8")))
            for name, data in files.items() if name.endswith(".html") and not name.startswith("offline/")}


def test_the_tiny_site_builds_exactly_as_committed():
    pages = _pages(build(FIXTURES / "tiny" / "content", None, THEMES).files)
    if os.environ.get("LENSA_UPDATE_GOLDEN"):
        for name, text in pages.items():
            (EXPECTED / name).parent.mkdir(parents=True, exist_ok=True)
            (EXPECTED / name).write_text(text, encoding="utf-8")
    expected = {path.relative_to(EXPECTED).as_posix(): path.read_text("utf-8")
                for path in EXPECTED.rglob("*.html")}
    assert sorted(pages) == sorted(expected)
    for name in sorted(pages):
        if pages[name] != expected[name]:
            diff = "\n".join(difflib.unified_diff(expected[name].splitlines(), pages[name].splitlines(),
                                                  f"expected/{name}", f"built/{name}", lineterm="", n=2))
            raise AssertionError(f"{name} differs from the golden page:\n{diff[:6000]}")
