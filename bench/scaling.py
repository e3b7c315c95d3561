"""How cost grows with the work: build time and data size of the synthetic
explainer as its sentence grows (6 to 64 tokens) and its heads multiply
(1 to 16). Data is compared with what it would be if every state carried
its full figure (no sharing): states × per-state payload."""
from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path

from . import synthetic
from .common import PYTHON, gz, median, run
from .first_view import DATA_SCRIPT

TOKENS = (6, 12, 24, 48, 64)
HEADS = (1, 2, 4, 8, 16)
FIXED_HEADS = 4
FIXED_TOKENS = 6


def measure(runs: int, tokens=TOKENS, heads=HEADS) -> dict:
    sweeps = {"tokens": [], "heads": []}
    with tempfile.TemporaryDirectory(prefix="bench-scaling-") as temp:
        for count in tokens:
            sweeps["tokens"].append(_one(Path(temp), count, FIXED_HEADS, runs))
        for count in heads:
            sweeps["heads"].append(_one(Path(temp), FIXED_TOKENS, count, runs))
    for name, rows in sweeps.items():
        _growth(rows, name)
    return {"fixed_heads": FIXED_HEADS, "fixed_tokens": FIXED_TOKENS, **sweeps}


def _one(temp: Path, tokens: int, heads: int, runs: int) -> dict:
    content = synthetic.write_site(temp / f"c-{tokens}-{heads}", tokens, heads)
    out = temp / f"o-{tokens}-{heads}"
    probes = [json.loads(run([PYTHON, "-m", "bench.probe", "stages", str(content), str(out)])
                         .stdout.splitlines()[-1]) for _ in range(runs)]
    html = (out / "attention" / "index.html").read_text("utf-8")
    payload = json.loads(DATA_SCRIPT.search(html).group(1))
    states = sum(len(step["states"]) for step in payload["steps"])
    text = _canonical(payload).encode()
    unpooled = _canonical(_expand(payload)).encode()
    return {
        "tokens": tokens, "heads": heads, "states": states,
        "build_s": median(p["build_s"] for p in probes),
        "stages": {name: median(p["stages"].get(name, 0.0) for p in probes) for name in probes[0]["stages"]},
        "data_raw": len(text), "data_gzip": gz(text),
        "unpooled_raw": len(unpooled), "per_state_raw": len(unpooled) / states,
        "page_gzip": gz(html.encode()),
    }


def _growth(rows: list[dict], knob: str) -> None:
    """Growth exponent between neighbouring rows: d log(size) / d log(knob)."""
    for before, after in zip(rows, rows[1:]):
        step = math.log(after[knob] / before[knob])
        after["data_exponent"] = math.log(after["data_raw"] / before["data_raw"]) / step
        after["unpooled_exponent"] = math.log(after["unpooled_raw"] / before["unpooled_raw"]) / step
        after["time_exponent"] = math.log(after["build_s"] / before["build_s"]) / step


def _expand(payload: dict):
    pool = payload["pool"]

    def resolve(node):
        if isinstance(node, list):
            return [resolve(item) for item in node]
        if isinstance(node, dict):
            if set(node) == {"$"}:
                return resolve(pool[node["$"]])
            return {key: resolve(value) for key, value in node.items()}
        return node
    return {"steps": resolve(payload["steps"])}


def _canonical(data) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
