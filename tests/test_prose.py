"""Prose of every state: Jinja values inside Markdown."""
from __future__ import annotations

import json
import re

import markdown

from generator.build import build

from .conftest import THEMES

MODEL = """
WORDS = ["plain", "*starred*", "<b>bold</b>", "1. listed", "a & b"]


def runs(word):
    return {"values": {"word": word, "length": len(word), "long": len(word) > 6},
            "chart": {"x": ["a", "b"], "y": [1.0, 2.0], "highlight": 0}}
"""

STEP = """
+++
title = "Words"
compute = "runs"

[[controls]]
name = "word"
label = "Word"
values = "WORDS"
default = "plain"

[chart]
kind = "bar"
+++
{{ word }} has **{{ length }}** characters{% if long %}, a long one{% endif %}.
See [the word]({{ word }}) and `{{ word }}`.
"""


def state_prose(tmp_site, step: str = STEP) -> dict[str, str]:
    content = tmp_site({"coin-flips/model.py": MODEL, "coin-flips/steps/01-runs.md": step})
    result = build(content, None, THEMES)
    html = result.files["coin-flips/index.html"].decode()
    data = json.loads(re.search(r'id="explainer-data">(.*?)</script>', html, re.S).group(1))
    return {key: state["prose"] for key, state in data["steps"][0]["states"].items()}


def test_each_state_gets_its_own_values(tmp_site):
    prose = state_prose(tmp_site)
    assert prose["0"].startswith("<p>plain has <strong>5</strong> characters.")
    assert "has <strong>9</strong> characters, a long one." in prose["1"]


def test_values_are_text_never_markdown_or_html(tmp_site):
    prose = state_prose(tmp_site)
    assert "*starred* has" in prose["1"] and "<em>" not in prose["1"]
    assert "&lt;b&gt;bold&lt;/b&gt; has" in prose["2"] and "<b>" not in prose["2"]
    assert prose["3"].startswith("<p>1. listed has") and "<ol>" not in prose["3"]
    assert "a &amp; b has" in prose["4"]
    # Inside a link address and a code span, the value is escaped exactly once.
    assert 'href="a &amp; b"' in prose["4"] and "<code>a &amp; b</code>" in prose["4"]


def test_states_differing_only_in_values_share_one_markdown_conversion(tmp_site, monkeypatch):
    texts = []
    original = markdown.Markdown.convert

    def counting(self, text):
        texts.append(text)
        return original(self, text)
    monkeypatch.setattr(markdown.Markdown, "convert", counting)
    prose = state_prose(tmp_site)
    state_texts = [t for t in texts if "characters" in t]
    # Five states, two shapes of sentence: with and without ", a long one".
    assert len(prose) == 5 and len(state_texts) == 2


def test_an_authors_private_use_characters_are_left_alone(tmp_site):
    step = STEP.replace("{{ word }} has", "\ue000{{ word }}\ue001 has")
    prose = state_prose(tmp_site, step)
    assert prose["0"].startswith("<p>\ue000plain\ue001 has")
