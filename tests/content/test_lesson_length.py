"""A lesson's length, on every state of every explainer of the series: a state's prose at
most about 180 words, the hint ("Try this") about 60, "Going deeper" about 120. What a
practitioner wants beyond that goes in the step's closed "For practitioners" box, which
the rule leaves alone. Words are counted as a reader reads them (tests/content/reader.py):
math in its plain form, a citation as its text."""
import pytest

from ..conftest import CONTENT
from .reader import normalise

# "About": a sentence a few words over is not a longer lesson; a paragraph over is.
LIMITS = {"prose": 180, "hint": 60, "deeper": 120}
SLACK = 1.05
EXPLAINERS = sorted(path.parent.name for path in CONTENT.glob("*/steps"))


def words(html: str) -> int:
    return len(normalise(html).split())


def longest_parts(prose) -> dict[str, tuple[int, str]]:
    """For each part, its largest word count over the step's states, and where."""
    found = {}
    for number, texts in enumerate(prose, start=1):
        for key, (html, _) in texts.states.items():
            count = words(html)
            if count > found.get("prose", (0, ""))[0]:
                found["prose"] = (count, f"step {number}, state {key or 'default'}")
        for part in ("hint", "deeper"):
            count = words(getattr(texts, part))
            if count > found.get(part, (0, ""))[0]:
                found[part] = (count, f"step {number}")
    return found


@pytest.mark.parametrize("slug", EXPLAINERS)
def test_every_state_is_a_lesson_long(site_states, slug):
    _, _, prose = site_states
    over = [f"{where}: {part} has {count} words (at most about {LIMITS[part]})"
            for part, (count, where) in longest_parts(prose[slug]).items() if count > LIMITS[part] * SLACK]
    assert not over, f"{slug}: " + "; ".join(over)
