"""A citation reads as a citation in every state of every explainer: "(Google Research, 2018)",
never "[Google Research (2018)]", which is what a bracketed citation followed by a colon at the
start of a line became (Markdown read it as a link label)."""
import re

import pytest

from ..conftest import CONTENT

EXPLAINERS = sorted(path.parent.name for path in CONTENT.glob("*/steps"))
# A citation's span with a literal bracket just outside it.
BRACKETED = re.compile(r'\[\s*<span class="cite">|<span class="cite">(?:(?!</span>).)*</span>\s*\]', re.S)


@pytest.mark.parametrize("slug", EXPLAINERS)
def test_no_citation_sits_in_literal_brackets(site_states, slug):
    _, _, prose = site_states
    found = []
    for number, texts in enumerate(prose[slug], start=1):
        parts = [html for html, _ in texts.states.values()] + [texts.hint, texts.deeper, texts.practitioners]
        found += [f"step {number}: {m.group(0)[:80]}" for part in parts for m in BRACKETED.finditer(part)]
    assert not found, found
