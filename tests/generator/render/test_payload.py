import json
import re

import pytest

from generator.kinds.explainer.payload import chart_payload, explainer_payload, step_payload
from generator.render.payload import Pool, canonical, script_json

from tests.conftest import FIXTURES


def test_script_json_cannot_close_the_script():
    data = {"prose": "</script><script>alert(1)</script> <!-- x --> & \u2028"}
    text = script_json(data)
    assert "</script" not in text.lower()
    assert "<!--" not in text
    assert "\u2028" not in text
    assert json.loads(text) == data


def test_pool_stores_repeated_arrays_once():
    pool = Pool()
    matrix = [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9]]
    first = pool.intern({"z": matrix, "n": 1})
    second = pool.intern({"z": matrix, "n": 2})
    assert first["z"] == second["z"] == {"$": 0}
    assert len(re.findall(r"0\.7", canonical(pool.items))) == 1


def test_short_arrays_stay_inline():
    pool = Pool()
    assert pool.intern([1, 2]) == [1, 2]
    assert pool.items == []


def test_canonical_is_stable():
    assert canonical({"b": 1, "a": [1.5]}) == '{"a":[1.5],"b":1}'


def resolve(node, pool):
    if isinstance(node, list):
        return [resolve(item, pool) for item in node]
    if isinstance(node, dict):
        if set(node) == {"$"}:
            return resolve(pool[node["$"]], pool)
        return {key: resolve(value, pool) for key, value in node.items()}
    return node


def test_interned_figures_resolve_to_the_originals_with_each_array_stored_once():
    rows = [[round(0.1 * i + 0.01 * j, 2) for j in range(6)] for i in range(6)]
    names = [[f"w{i} → w{j}" for j in range(6)] for i in range(6)]
    states = []
    for index in range(4):
        # Equal arrays arrive both as the same objects and as fresh copies.
        trace = {"type": "heatmap", "z": [list(r) for r in rows], "customdata": names, "opacity": index / 4,
                 "nested": {"b": [1.5, "x", None, True], "a": [[{"k": [7] * 10}]]}}
        states.append({"data": [trace], "layout": {"shapes": [{"y0": index - 0.5, "y1": index + 0.5}]}})
    pool = Pool()
    interned = [pool.intern(state) for state in states]
    assert [resolve(node, pool.items) for node in interned] == states
    text = canonical(pool.items)
    assert text.count('"w5 → w5"') == 1
    assert text.count("0.55") == 1


def test_every_state_carries_its_chart_table_pooled_like_the_chart(charts_site):
    out, _ = charts_site
    html = (out / "chart-kinds" / "index.html").read_text("utf-8")
    data = json.loads(re.search(r'<script type="application/json" id="explainer-data">(.*?)</script>',
                                html, re.S).group(1))

    def resolve(node):
        if isinstance(node, dict):
            if set(node) == {"$"}:
                return resolve(data["pool"][node["$"]])
            return {k: resolve(v) for k, v in node.items()}
        if isinstance(node, list):
            return [resolve(v) for v in node]
        return node

    for step in data["steps"]:
        for state in step["states"].values():
            for chart in state["charts"]:  # one chart per step, or more
                table = resolve(chart["table"])
                assert table["columns"] and len(table["headers"]) == len(table["cells"])
                assert all(len(cells) + 1 == len(table["columns"]) for cells in table["cells"])
    # Rows shared by several states (one head's matrix, whichever query is chosen)
    # are stored once and referenced.
    rows = [chart["table"]["cells"] for step in data["steps"] for state in step["states"].values()
            for chart in state["charts"]]
    assert all(set(r) == {"$"} for r in rows if isinstance(r, dict))
    assert len({canonical(r) for r in rows}) < len(rows)


@pytest.fixture(scope="module")
def chart_kinds_states():
    """The charts fixture's explainer computed and its text rendered: (site, step states, step prose)."""
    from generator.build import read_site
    from generator.compute.states import compute_site
    from generator.render.prose import render_prose

    site = read_site(FIXTURES / "charts" / "content")
    computed = compute_site(site)
    return site, computed["chart-kinds"], render_prose(site, computed)["chart-kinds"]


def test_a_step_alone_carries_what_interning_that_step_alone_gives(chart_kinds_states):
    """A step's embed takes its part of the page's pool, renumbered: the same
    bytes as interning the step on its own, with no array it does not use."""
    site, steps, prose = chart_kinds_states
    labels = site.config.labels
    charts = chart_payload(steps, labels)
    for index, (states, texts) in enumerate(zip(steps, prose)):
        alone = explainer_payload(chart_payload([states], labels), [states], [texts])
        assert step_payload(charts, index, states, texts) == alone
    page = json.loads(explainer_payload(charts, steps, prose))
    alone = [json.loads(step_payload(charts, i, s, t)) for i, (s, t) in enumerate(zip(steps, prose))]
    assert max(len(step["pool"]) for step in alone) < len(page["pool"])
