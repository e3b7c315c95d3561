"""An explainer's page data: one JSON document inlined in a
`<script type="application/json">` (pages must work from file://, where fetch
and ES modules are blocked). Each step: {"default", "layout" (what all its
states share), "states": {key: {"data", "layout", "table", "readouts", "prose",
"summary", "to"}}}, with repeated arrays pooled (render/payload.py).

The charts and tables are interned apart from the text (readouts, prose,
summaries): a prose edit leaves them as they were, so the dev server reuses
them, and a step's embed takes its part of them rather than interning again.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...render.payload import Pool, script_json
from .compute import StepStates
from .text import StepProse


@dataclass
class ChartPayload:
    """An explainer's charts and data tables in every state, interned into one pool.
    Each step: {"default", "charts": [{"layout" (what all its states share)}],
    "states": {key: {"charts": [{"data", "layout", "table"}]}}}."""
    steps: list[dict]
    pool: list


def chart_payload(steps: list[StepStates], labels: dict) -> ChartPayload:
    pool = Pool()
    return ChartPayload([_step_charts(states, states.figures, states.tables(labels), pool) for states in steps],
                        pool.items)


def _step_charts(computed: StepStates, figures: list[dict[str, dict]], tables: list[dict[str, dict]],
                 pool: "Pool") -> dict:
    shared_layouts = []  # per chart, what its layout is in every state
    for chart_figures in figures:
        layouts = [chart_figures[s.key]["layout"] for s in computed.states]
        shared_layouts.append({k: v for k, v in layouts[0].items()
                               if all(layout.get(k) == v for layout in layouts[1:])})
    states = {}
    for state in computed.states:
        charts = []
        for chart_figures, chart_tables, shared in zip(figures, tables, shared_layouts):
            figure = chart_figures[state.key]
            charts.append({
                "data": pool.intern(figure["data"]),
                "layout": {k: pool.intern(v) for k, v in figure["layout"].items() if k not in shared},
                "table": pool.intern(_split(chart_tables[state.key])),
            })
        states[state.key] = {"charts": charts}
    return {"default": computed.default_key, "charts": [{"layout": shared} for shared in shared_layouts],
            "states": states}


def _split(table: dict) -> dict:
    """A data table as the page carries it: each row's header (its first cell) apart
    from its cells, so a row of a matrix's values is the very array its heatmap's
    hover labels hold, and is stored once in the pool."""
    rows = table["rows"]
    split = {key: value for key, value in table.items() if key != "rows"}
    split.update(headers=[row[0] for row in rows], cells=[row[1:] for row in rows])
    return split


def explainer_payload(charts: ChartPayload, steps: list[StepStates], prose: list[StepProse]) -> str:
    """The inline JSON of a page showing all of an explainer's steps (its page
    and its whole-explainer embed carry the same data)."""
    data = [_with_text(step, states, texts) for step, states, texts in zip(charts.steps, steps, prose)]
    return script_json({"steps": data, "pool": charts.pool})


def step_payload(charts: ChartPayload, index: int, states: StepStates, prose: StepProse,
                 only: int | None = None) -> str:
    """The inline JSON of one step alone (a step's embed): only the pooled arrays
    that step uses, renumbered in the order interning that step alone gives them.
    With `only`, the step's data holds that one of its charts alone."""
    renumbered: dict[int, int] = {}
    pool: list = []

    def take(node):
        if isinstance(node, dict):
            if len(node) == 1 and "$" in node:
                old = node["$"]
                if old not in renumbered:
                    item = take(charts.pool[old])  # what an array holds is pooled before the array
                    renumbered[old] = len(pool)
                    pool.append(item)
                return {"$": renumbered[old]}
            return {key: take(value) for key, value in node.items()}
        if isinstance(node, list):
            return [take(item) for item in node]
        return node

    step = charts.steps[index]
    if only is not None:
        step = {**step, "charts": [step["charts"][only]],
                "states": {key: {"charts": [state["charts"][only]]} for key, state in step["states"].items()}}
    step = take(step)
    return script_json({"steps": [_with_text(step, states, prose, only)], "pool": pool})


def _with_text(step: dict, computed: StepStates, prose: StepProse, only: int | None = None) -> dict:
    states = {}
    for state in computed.states:
        html, _ = prose.states[state.key]
        summaries = prose.summaries[state.key] if only is None else [prose.summaries[state.key][only]]
        charts = [{**chart, "summary": summary} for chart, summary in zip(step["states"][state.key]["charts"],
                                                                          summaries)]
        # "to": where each control leads from this state, which the runtime follows.
        states[state.key] = {"readouts": state.readouts, "prose": html, "to": state.to, "charts": charts}
    return {**step, "states": states}
