"""The data a page carries: one JSON document inlined in a
`<script type="application/json">`, because pages must work from file://,
where fetch and ES modules are blocked.

Whatever all states of a step share (layout) is stored once per step, and
every array that appears more than once (a matrix shown under several
choices of another control) is stored once in a pool and referenced as {"$": index}.

What a page's data holds is its kind's choice (kinds/); this module gives
every kind the pool and the escaping.
"""
from __future__ import annotations

import json
import math
import re
from json.encoder import encode_basestring as _encode_string

from ..compute.precision import written, written_data

# Arrays whose JSON is shorter than this are cheaper inline than as a reference.
_MIN_POOLED = 24


class Pool:
    """Arrays stored once per page, by their canonical JSON.

    A page's states repeat the same arrays many times over (a 64×64 matrix in
    every state of a query control), so interning is built to cost little per
    repeat: each array's canonical text is composed from its items' texts (a row
    of numbers is encoded once, in C), and an array object met before is looked
    up by identity without being read again."""

    def __init__(self):
        self.items: list = []
        self._index: dict[str, int] = {}
        self._seen: dict[int, tuple] = {}   # id(list) -> (the list, interned, text)

    def intern(self, node):
        return self._intern(node)[0]

    def _intern(self, node) -> tuple[object, str]:
        """(node with repeated arrays replaced by references, canonical text of node)."""
        if isinstance(node, dict):
            interned, texts = {}, {}
            for key, value in node.items():
                interned[key], texts[_scalar_text(key)] = self._intern(value)
            return interned, "{" + ",".join([f"{key}:{texts[key]}" for key in sorted(texts)]) + "}"
        if not isinstance(node, list):
            return node, _scalar_text(node)
        seen = self._seen.get(id(node))
        if seen is not None and seen[0] is node:
            return seen[1], seen[2]
        if _SCALARS.issuperset(map(type, node)):
            interned, text = node, _CANONICAL(node)
            if _MAYBE_UNWRITTEN(text):
                interned = [written(v) if type(v) is float else v for v in node]
                text = _CANONICAL(interned)
        else:
            parts = [self._intern(item) for item in node]
            interned, text = [part[0] for part in parts], "[" + ",".join([part[1] for part in parts]) + "]"
        if len(text) >= _MIN_POOLED:
            index = self._index.get(text)
            if index is None:
                index = self._index[text] = len(self.items)
                self.items.append(interned)
            interned = {"$": index}
        self._seen[id(node)] = (node, interned, text)
        return interned, text


_SCALARS = frozenset((int, float, str, bool, type(None)))
_LITERALS = {True: "true", False: "false", None: "null"}


def _scalar_text(value) -> str:
    """canonical(value) for the common scalars, without json.dumps's per-call cost."""
    kind = type(value)
    if kind is str:
        return _encode_string(value)
    if kind is int:
        return int.__repr__(value)
    if kind is float and math.isfinite(value):
        return float.__repr__(written(value))
    if kind is bool or value is None:
        return _LITERALS[value]
    return canonical(value)  # anything else, and NaN or infinity, which it refuses


def canonical(data) -> str:
    """Stable JSON: sorted keys, no spaces, floats at the build's precision, so equal
    data gives equal bytes on any machine."""
    return _encoded(data, _CANONICAL)


# A run of 11 digits: a number written more finely than the build's precision (or,
# harmlessly, a long number in a string), found in the encoded text, which is far
# cheaper than looking at every float of a page's data.
_MAYBE_UNWRITTEN = re.compile(r"\d{11}").search


def _encoded(data, encode) -> str:
    """encode(data), with every float at the build's precision (compute/precision.py)."""
    text = encode(data)
    return encode(written_data(data)) if _MAYBE_UNWRITTEN(text) else text


# Made once: json.dumps with options builds a new encoder on every call.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode
_IN_ORDER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode


def script_json(data, keep_order: bool = False) -> str:
    """JSON safe inside <script>: no '</script>', '<!--' or line separators can end it early.
    keep_order: keys as given rather than sorted (JSON-LD reads better with "@context" first)."""
    text = _encoded(data, _IN_ORDER if keep_order else _CANONICAL)
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))
