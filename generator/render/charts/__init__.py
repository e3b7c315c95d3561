"""Chart kinds: each turns the data a model returns for one state into a
Plotly figure ({"data": [...], "layout": {...}}).

A kind is a module with `check(data) -> str | None` (what is wrong with the
data, if anything), `figure(chart, data) -> dict` and
`table(chart, data, labels) -> {"columns": [...], "rows": [[...]]}`: the same
state as an accessible data table of strings (Plotly charts are opaque to
screen readers), with "highlight" naming the selected row if there is one.
Colours come from colour-blind-safe palettes; text, grid and outline colours
are left to the page's theme (see common.theme_colour).
"""
from __future__ import annotations

from types import ModuleType

from . import bar, blocks, heatmap, heatmap_grid

_KINDS: dict[str, ModuleType] = {
    "bar": bar,
    "blocks": blocks,
    "heatmap": heatmap,
    "heatmap_grid": heatmap_grid,
}
KINDS = tuple(sorted(_KINDS))


def get(name: str) -> ModuleType | None:
    return _KINDS.get(name)
