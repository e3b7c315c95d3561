"""The precision of every number the build takes in and writes out: 10 significant digits.

A model's floats are rounded to it as they arrive (formats.plain) and every float
the page data holds is written at it (render/payload.py). Ten digits are far finer
than any chart, table or sentence can show (they show four at most) and far coarser
than the last bits in which two CPUs' maths libraries disagree (numpy picks its
exp, log and sin by the processor's instruction set), so the same content builds
to the same bytes on any machine. A value whose exact result lies within a few
units in the last place of a rounding boundary at the tenth digit could still
round apart, about once in a million values; nothing else can.

Rounding is done with IEEE arithmetic only (a multiplication by an exact power of
ten, round half to even, a division), never with a maths library, so it is itself
the same everywhere; `written` and `written_array` give the same result for the
same number.
"""
from __future__ import annotations

import math

import numpy as np

SIGNIFICANT_DIGITS = 10

# Exact powers of ten: every one up to 10**22 is a double. _BOUNDS[k + _LOW] is the
# double nearest 10**k, against which a magnitude's decimal exponent is settled.
_LOW, _HIGH = -12, 12   # magnitudes in [1e-12, 1e12) take the fast, exact path
_POWERS = [float(10 ** k) for k in range(23)]
_BOUNDS = [float(f"1e{k}") for k in range(_LOW, _HIGH + 1)]
_POWERS_ARRAY = np.array(_POWERS)
_BOUNDS_ARRAY = np.array(_BOUNDS)


def written(value: float) -> float:
    """`value` at the build's precision; -0.0 becomes 0.0 and non-finite values stay."""
    magnitude = abs(value)
    if not _BOUNDS[0] <= magnitude < _BOUNDS[-1]:
        return _written_outside(value)
    # A guess, settled against the bounds (a maths library may be a unit off at a power of ten).
    exponent = min(max(math.floor(math.log10(magnitude)), _LOW), _HIGH - 1)
    if magnitude >= _BOUNDS[exponent + 1 - _LOW]:
        exponent += 1
    elif magnitude < _BOUNDS[exponent - _LOW]:
        exponent -= 1
    decimals = SIGNIFICANT_DIGITS - 1 - exponent
    if decimals >= 0:
        return round(value * _POWERS[decimals]) / _POWERS[decimals] + 0.0
    return round(value / _POWERS[-decimals]) * _POWERS[-decimals] + 0.0


def _written_outside(value: float) -> float:
    if value == 0 or not math.isfinite(value):
        return value + 0.0
    return float(f"{value:.{SIGNIFICANT_DIGITS}g}")  # correctly rounded by Python's own conversion


def written_array(array: np.ndarray) -> np.ndarray:
    """A float array at the build's precision, element by element as `written` gives it."""
    values = np.asarray(array, dtype=np.float64)
    magnitude = np.abs(values)
    inside = (magnitude >= _BOUNDS[0]) & (magnitude < _BOUNDS[-1])
    result = values + 0.0
    if inside.any():
        kept = values[inside]
        size = magnitude[inside]
        exponent = np.clip(np.floor(np.log10(size)).astype(np.int64), _LOW, _HIGH - 1)
        exponent += size >= _BOUNDS_ARRAY[exponent + 1 - _LOW]
        exponent -= size < _BOUNDS_ARRAY[exponent - _LOW]
        decimals = SIGNIFICANT_DIGITS - 1 - exponent
        scale = _POWERS_ARRAY[np.abs(decimals)]
        up = decimals >= 0
        rounded = np.where(up, np.rint(kept * scale) / scale, np.rint(kept / scale) * scale)
        result[inside] = rounded + 0.0
    outside = ~inside & (values != 0) & np.isfinite(values)
    if outside.any():
        result[outside] = [_written_outside(v) for v in values[outside].tolist()]
    return result


def written_data(node):
    """A copy of a JSON-like value (dicts, lists, tuples, scalars) with every float written."""
    kind = type(node)
    if kind is float:
        return written(node)
    if kind is dict:
        return {key: written_data(value) for key, value in node.items()}
    if isinstance(node, (list, tuple)):
        return [written_data(item) for item in node]
    return node
