"""The data a page carries: one JSON document inlined in a
`<script type="application/json">`, because pages must work from file://,
where fetch and ES modules are blocked.

Whatever all states of a step share (layout) is stored once per step, and
every array that appears more than once (a matrix shown under several
choices of another control) is stored once in a pool and referenced as {"$": index}.
"""
from __future__ import annotations

import json

from .prose import StepProse
from .states import StepStates

# Arrays whose JSON is shorter than this are cheaper inline than as a reference.
_MIN_POOLED = 24


def step_payload(computed: StepStates, prose: StepProse, figures: dict[str, dict], pool: "Pool") -> dict:
    """One step's entry: its shared layout and the per-state readouts, prose, summary and chart."""
    layouts = [figures[s.key]["layout"] for s in computed.states]
    shared = {k: v for k, v in layouts[0].items() if all(layout.get(k) == v for layout in layouts[1:])}
    states = {}
    for state in computed.states:
        figure = figures[state.key]
        html, summary = prose.states[state.key]
        states[state.key] = {
            "readouts": state.readouts,
            "prose": html,
            "summary": summary,
            "data": pool.intern(figure["data"]),
            "layout": {k: pool.intern(v) for k, v in figure["layout"].items() if k not in shared},
        }
    return {"default": computed.default_key, "layout": shared, "states": states}


class Pool:
    """Arrays stored once per page, by their canonical JSON."""

    def __init__(self):
        self.items: list = []
        self._index: dict[str, int] = {}

    def intern(self, node):
        if isinstance(node, dict):
            return {k: self.intern(v) for k, v in node.items()}
        if isinstance(node, list):
            text = canonical(node)
            if len(text) < _MIN_POOLED:
                return node
            if text not in self._index:
                # Intern children first so nested repeats (rows, labels) are shared too.
                self._index[text] = len(self.items)
                self.items.append(None)
                self.items[self._index[text]] = [self.intern(v) for v in node]
            return {"$": self._index[text]}
        return node


def canonical(data) -> str:
    """Stable JSON: sorted keys, no spaces, so equal data gives equal bytes."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def script_json(data, keep_order: bool = False) -> str:
    """JSON safe inside <script>: no '</script>', '<!--' or line separators can end it early.
    keep_order: keys as given rather than sorted (JSON-LD reads better with "@context" first)."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False) if keep_order \
        else canonical(data)
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))
