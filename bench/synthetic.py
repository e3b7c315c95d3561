"""A synthetic multi-head attention explainer whose size is set by two knobs,
the number of tokens in its sentence and the number of heads, for measuring
how build time and data size grow. Its four steps use the kinds whose data grows
with those knobs: heatmap, heatmap_grid, bar and blocks (the chart-kind fixture,
tests/fixtures/charts/, has every kind, for the click benchmark)."""
from __future__ import annotations

import textwrap
from pathlib import Path

WORDS = ("the cat sat on a mat while two small dogs ran past an old red barn near green hills and "
         "quiet rivers under bright stars so every bird sang loud songs for many happy children who "
         "played games with kites made from paper wood string glue tape cloth thread pins beads bells "
         "drums flutes harps horns lutes as grey clouds drifted over calm lakes where tall reeds swayed "
         "gently beside smooth stones whilst tiny frogs leapt high").split()

SITE = """\
title = "Scaling"
max_states = 4096

[[series]]
slug = "attention"
title = "Synthetic attention"
"""

EXPLAINER = """\
+++
title = "Synthetic attention"
subtitle = "A generated explainer for benchmarks"
updated = 2026-01-01
+++
::: intro
A sentence of {tokens} tokens read by {heads} heads.
"""

MODEL = """\
import math

import numpy as np

TOKENS = {tokens!r}
HEADS = list(range(1, {heads} + 1))
D_HEAD = 8
_rng = np.random.default_rng(7)
_X = _rng.standard_normal((len(TOKENS), len(HEADS) * D_HEAD))
_W_Q = _rng.standard_normal((len(HEADS), len(HEADS) * D_HEAD, D_HEAD)) / math.sqrt(D_HEAD)
_W_K = _rng.standard_normal((len(HEADS), len(HEADS) * D_HEAD, D_HEAD)) / math.sqrt(D_HEAD)
_W_V = _rng.standard_normal((len(HEADS), len(HEADS) * D_HEAD, D_HEAD)) / math.sqrt(D_HEAD)


def _softmax(scores):
    scores = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    return weights / weights.sum(axis=-1, keepdims=True)


_Q = np.einsum("td,hde->hte", _X, _W_Q)
_K = np.einsum("td,hde->hte", _X, _W_K)
WEIGHTS = _softmax(_Q @ _K.transpose(0, 2, 1) / math.sqrt(D_HEAD))
OUTPUTS = WEIGHTS @ np.einsum("td,hde->hte", _X, _W_V)
MAX_ENTROPY = math.log2(len(TOKENS))


def _row(head, query):
    row = WEIGHTS[head - 1, TOKENS.index(query)]
    top = int(row.argmax())
    entropy = float(-(row * np.log2(row)).sum())
    return row, {{"head": head, "query": query, "top_key": TOKENS[top], "top_weight": float(row[top]),
                 "entropy": entropy, "max_entropy": MAX_ENTROPY, "sharp": entropy < MAX_ENTROPY / 2}}


def one_head(head, query):
    row, values = _row(head, query)
    return {{"values": values,
            "chart": {{"z": WEIGHTS[head - 1], "x": TOKENS, "y": TOKENS, "highlight_row": TOKENS.index(query)}}}}


def all_heads(query):
    _, values = _row(1, query)
    return {{"values": values,
            "chart": {{"z": list(WEIGHTS), "x": TOKENS, "y": TOKENS, "titles": [f"Head {{h}}" for h in HEADS],
                      "highlight_row": TOKENS.index(query)}}}}


def one_row(head, query):
    row, values = _row(head, query)
    return {{"values": values, "chart": {{"x": TOKENS, "y": row, "highlight": int(row.argmax())}}}}


def concatenated(head):
    values = {{"head": head, "width": len(HEADS) * D_HEAD}}
    return {{"values": values,
            "chart": {{"sizes": [D_HEAD] * len(HEADS), "labels": [f"Head {{h}}" for h in HEADS],
                      "values": np.concatenate(OUTPUTS[:, 0]) * (np.repeat(HEADS, D_HEAD) == head)}}}}
"""

PROSE = """\
{% if sharp %}Head **{{ head }}** is sharp: from **{{ query }}**, {{ top_weight | percent }} of the
weight goes to **{{ top_key }}**.{% else %}Head **{{ head }}** spreads out: from **{{ query }}**, even the
top key, **{{ top_key }}**, gets only {{ top_weight | percent }}.{% endif %}

The entropy of this row is {{ entropy | fixed(2) }} bits, out of at most {{ max_entropy | fixed(2) }}.
"""

READOUTS = """
[[readouts]]
label = "Top key"
value = "top_key"
format = "text"

[[readouts]]
label = "Entropy"
value = "entropy"
format = "fixed:2"
"""


def _control(name: str, values: str, default) -> str:
    return f'[[controls]]\nname = "{name}"\nlabel = "{name.title()}"\nvalues = "{values}"\ndefault = {default!r}\n'


def _step(title: str, compute: str, controls: list[str], kind: str, readouts: str, prose: str) -> str:
    summary = "Weights of head {{ head }} for {{ query }}." if "query" in "".join(controls) else \
        "Head {{ head }} of {{ width }} dimensions."
    chart = f'[chart]\nkind = "{kind}"\ntitle = "{title}"\n'
    return (f'+++\ntitle = "{title}"\ncompute = "{compute}"\nsummary = "{summary}"\n\n'
            + "\n".join(controls) + readouts + "\n" + chart + "+++\n" + prose)


def write_site(root: Path, tokens: int, heads: int) -> Path:
    """A content folder with one explainer of `tokens` tokens and `heads` heads."""
    if not 1 <= tokens <= len(WORDS):
        raise ValueError(f"tokens must be 1 to {len(WORDS)}")
    words = [w.capitalize() if i == 0 else w for i, w in enumerate(WORDS[:tokens])]
    folder = root / "attention"
    (folder / "steps").mkdir(parents=True, exist_ok=True)
    (root / "site.toml").write_text(SITE, encoding="utf-8")
    (folder / "explainer.md").write_text(EXPLAINER.format(tokens=tokens, heads=heads), encoding="utf-8")
    (folder / "model.py").write_text(MODEL.format(tokens=words, heads=heads), encoding="utf-8")
    head, query = _control("head", "HEADS", 1), _control("query", "TOKENS", words[0])
    steps = {
        "01-one-head.md": _step("One head", "one_head", [head, query], "heatmap", READOUTS, PROSE),
        "02-all-heads.md": _step("All heads", "all_heads", [query], "heatmap_grid", READOUTS, PROSE),
        "03-one-row.md": _step("One row", "one_row", [head, query], "bar", READOUTS, PROSE),
        "04-concatenated.md": _step("Concatenated", "concatenated", [head], "blocks", "",
                                    "Head **{{ head }}** fills its share of {{ width }} dimensions.\n"),
    }
    for name, text in steps.items():
        (folder / "steps" / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def states(tokens: int, heads: int) -> int:
    return heads * tokens + tokens + heads * tokens + heads
