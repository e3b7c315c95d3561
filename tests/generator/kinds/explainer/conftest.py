"""The tiny site's explainer (coin-flips) with one question, loaded, computed, its text rendered and
built once: the explainer kind's tests use it, not the series (content/)."""
import pytest

from tests.conftest import FIXTURES, THEMES, write_files

QUESTION = """+++
kind = "number"
step = "runs"
state = { flips = 3 }
answer = "outcomes"
+++

How many outcomes do {{ flips }} flips have?

::: right

{{ flips }} flips have {{ outcomes }} outcomes.

::: wrong

Each flip doubles the outcomes.
"""


@pytest.fixture(scope="package")
def coin_flips(tmp_path_factory):
    """(site, its states by slug, its text by slug, the build folder) of the tiny site with a question."""
    import shutil

    from generator.build import build, read_site
    from generator.compute.states import compute_site
    from generator.render.prose import render_prose

    root = tmp_path_factory.mktemp("explainer")
    content = root / "content"
    shutil.copytree(FIXTURES / "tiny" / "content", content)
    write_files(content, {"coin-flips/quiz/01-outcomes.md": QUESTION})
    site = read_site(content)
    computed = compute_site(site)
    out = root / "out"
    build(content, out, THEMES)
    return site, computed, render_prose(site, computed), out
