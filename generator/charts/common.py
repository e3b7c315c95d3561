"""Pieces shared by the chart kinds: palettes, checks and layout defaults."""
from __future__ import annotations

from ..formats import is_shared

# Okabe & Ito's palette: distinguishable with every common colour-vision deficiency.
CATEGORICAL = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#999999"]
ACCENT = "#D55E00"
MUTED = "#8FA9C7"
SEQUENTIAL = "Viridis"  # perceptually uniform and colour-blind-safe


def base_layout(chart, **extra) -> dict:
    layout = {
        "height": chart.height,
        "margin": {"l": 64, "r": 16, "t": 48 if chart.title else 16, "b": 56},
        "paper_bgcolor": "rgba(0,0,0,0)",
        "plot_bgcolor": "rgba(0,0,0,0)",
        "showlegend": False,
        "font": {"family": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif", "size": 13},
    }
    if chart.title:
        layout["title"] = {"text": chart.title, "x": 0, "xanchor": "left", "font": {"size": 15}}
    layout.update(extra)
    return layout


_ROUNDED: dict[tuple, tuple] = {}  # (id of a shared list, digits) -> (that list, rounded)


def axis(title: str = "", **extra) -> dict:
    spec = {"title": {"text": title} if title else None, "fixedrange": True, "zeroline": False}
    spec.update(extra)
    return {k: v for k, v in spec.items() if v is not None}


def rounded(values, digits: int = 4):
    """Round numbers for the page: shorter JSON, stable bytes between builds."""
    if isinstance(values, (list, tuple)):
        shared = is_shared(values)
        if shared:  # an array many states share: rounded once, and the result shared too
            found = _ROUNDED.get((id(values), digits))
            if found is not None and found[0] is values:
                return found[1]
        # One comprehension per row rather than a call per number: charts hold thousands.
        result = [rounded(v, digits) if isinstance(v, (list, tuple))
                  else round(v, digits) + 0.0 if isinstance(v, float) else v for v in values]
        if shared:
            if len(_ROUNDED) >= 4096:
                _ROUNDED.clear()
            _ROUNDED[(id(values), digits)] = (values, result)  # holding values keeps its id unique
        return result
    if isinstance(values, float):
        return round(values, digits) + 0.0  # + 0.0 turns -0.0 into 0.0
    return values


def matrix_problem(z, name: str = "z") -> str | None:
    if not isinstance(z, list) or not z or not all(isinstance(row, list) and row for row in z):
        return f"'{name}' must be a non-empty 2-D array"
    width = len(z[0])
    if any(len(row) != width for row in z):
        return f"'{name}' rows have different lengths"
    if is_shared(z):  # made from a numeric numpy array: numbers only, already seen
        return None
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for row in z for v in row):
        return f"'{name}' must hold only numbers"
    return None


def labels_problem(data: dict, name: str, length: int) -> str | None:
    labels = data.get(name)
    if not isinstance(labels, list) or len(labels) != length:
        found = len(labels) if isinstance(labels, list) else type(labels).__name__
        return f"'{name}' must be a list of {length} labels, found {found}"
    return None


def index_problem(data: dict, name: str, length: int, optional: bool = True) -> str | None:
    value = data.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < length:
        return f"'{name}' must be an index from 0 to {length - 1}, found {value!r}"
    return None


def first_problem(*problems) -> str | None:
    return next((p for p in problems if p), None)
