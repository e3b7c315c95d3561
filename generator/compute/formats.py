"""How values are shown to a reader: the readout formats and the matching
Jinja filters, defined once so a readout and a sentence can never disagree."""
from __future__ import annotations

import functools
import math
import re

import numpy as np

from .precision import written, written_array

_FIXED = re.compile(r"^fixed:(\d)$")
_SIGNIFICANT = re.compile(r"^significant:([1-9])$")
FORMATS = ("text", "count", "fixed:N", "significant:N", "percent", "shape")
MINUS = "\u2212"  # the minus sign: a hyphen ("-") is shorter and sits too low beside digits


def minus(text: str) -> str:
    """A number's text with the minus sign (−) rather than a hyphen; a value that
    rounds to zero ('-0.00') loses its sign."""
    if not text.startswith("-"):
        return text
    rest = text[1:]
    return rest if not any(c in "123456789" for c in rest) else MINUS + rest


def percent(value) -> str:
    """A fraction as a whole percent: 0.2213 -> '22%', -0.05 -> '−5%'."""
    return _percent_text(float(value))


def fixed(value, digits: int = 2) -> str:
    """A number with a fixed count of decimals: 2.5371 -> '2.54', -0.5 -> '−0.50'."""
    return _fixed_text(float(value), digits)


# Remembered by value: data tables, pictures and prose show the same numbers in many
# states. 0.0 and -0.0 share an entry, which is right: every zero is written unsigned.
@functools.lru_cache(maxsize=65536)
def _percent_text(value: float) -> str:
    return minus(f"{_unsigned_zero(_round_half_up(value * 100, 0)):.0f}%")


@functools.lru_cache(maxsize=65536)
def _fixed_text(value: float, digits: int) -> str:
    return minus(f"{_unsigned_zero(_round_half_up(value, digits)):.{digits}f}")


def count(value, noun: str | None = None, plural_form: str | None = None) -> str:
    """A whole number with thousands separators: 16384 -> '16,384', -3 -> '−3'. Given a
    noun, the number and the noun that agrees with it: count('word') writes '1 word',
    '2 words', '16,384 words' (the plural as `plural` makes it; give the plural for any
    other word: count('query', 'queries'))."""
    number = minus(f"{int(value):,}")
    return number if noun is None else f"{number} {plural(value, noun, plural_form)}"


def plural(value, singular: str, plural_form: str | None = None) -> str:
    """The word that agrees with a count, without the count: 'word' for 1, 'words' for 0
    or 2 (English's regular plural: 'box' -> 'boxes', 'query' -> 'queries'); plural('is',
    'are') for a verb, and the plural given for any other word: plural('child',
    'children'). For 'the {{ n | count('token') }} after it {{ n | plural('is', 'are') }} hidden'."""
    if abs(float(value)) == 1:
        return singular
    return plural_form if plural_form is not None else _regular_plural(singular)


def _regular_plural(word: str) -> str:
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    if len(word) > 1 and word.endswith("y") and word[-2] not in "aeiou":
        return word[:-1] + "ies"
    return word + "s"


def lower_bound(value, digits: int = 2, limit=None) -> str:
    """A bound below a value, with `digits` decimals: rounded down, so that a sentence
    saying the value stays above it (or is at least it) holds as written, where fixed
    may round up past the value: 0.9952 -> '0.99' (fixed: '1.00', which the value never
    reaches), −0.123 -> '−0.13'. A value already at `digits` decimals gets the next one
    down (0.95 -> '0.94'), so 'above' holds strictly. `limit` is as far as the value can
    ever go (−1 for a cosine's minimum, 0 for a distance's): a bound that rounds to it
    says nothing, and is an error naming the state, so that the sentence is written
    another way there (with fixed and 'about', or without the claim)."""
    return _bound(value, digits, limit, down=True)


def upper_bound(value, digits: int = 2, limit=None) -> str:
    """A bound above a value, with `digits` decimals: rounded up, so that a sentence
    saying the value stays below it (or moves by at most it) holds as written: 0.00032
    -> '0.001' with 3 digits (fixed: '0.000', as if nothing moved), 0.9952 -> '1.00'. A
    value already at `digits` decimals gets the next one up. `limit`, as for
    lower_bound: 1 for a cosine's or a probability's maximum."""
    return _bound(value, digits, limit, down=False)


def _bound(value, digits: int, limit, down: bool) -> str:
    from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"cannot format {value!r}")
    exact = Decimal(repr(value))
    step = Decimal(1).scaleb(-int(digits))
    bound = exact.quantize(step, rounding=ROUND_FLOOR if down else ROUND_CEILING)
    if bound == exact:  # strictly beyond the value, so 'above' and 'below' hold as well as 'at least'
        bound = bound - step if down else bound + step
    shown = minus(f"{bound:.{int(digits)}f}")
    edge = None if limit is None else Decimal(repr(float(limit)))
    if edge is not None and (bound <= edge if down else bound >= edge):
        raise ValueError(f"{value!r} as {'a lower' if down else 'an upper'} bound rounds to {shown}, as far as it "
                         f"can go (limit {text(limit)}), so a sentence bounding it by {shown} says nothing here: "
                         "write this state another way (fixed and 'about', or without the bound)")
    return shown


def significant(value, digits: int = 3) -> str:
    """A number with `digits` significant digits, for values that span orders of
    magnitude (a loss from 2,136 down to 0.000002): 2136.4 -> '2,136', 0.01108 ->
    '0.0111', 0.00000199 -> '1.99×10⁻⁶'. Whole numbers keep every digit; below
    0.001 a power of ten is written out."""
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"cannot format {value!r}")
    if value == 0:
        return "0"
    # The exponent of the value as rounded: 9.996 is shown as 10.0, and 0.0009996 as 0.00100.
    exponent = math.floor(math.log10(abs(_round_half_up(value / 10 ** math.floor(math.log10(abs(value))),
                                                         digits - 1)))) + math.floor(math.log10(abs(value)))
    if exponent >= digits - 1:
        return count(_round_half_up(value, 0))
    if exponent >= -3:
        decimals = digits - 1 - exponent
        return minus(f"{_unsigned_zero(_round_half_up(value, decimals)):.{decimals}f}")
    mantissa = _round_half_up(value / 10 ** exponent, digits - 1)
    return minus(f"{mantissa:.{digits - 1}f}") + "×" + power_of_ten(exponent)


_SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def power_of_ten(exponent: int) -> str:
    """10 raised to a whole power, as a reader writes it: '10⁴', '10⁻⁶'."""
    return "10" + str(int(exponent)).translate(_SUPERSCRIPTS)


def shape(value) -> str:
    """An array shape: (64, 64) -> '64×64', (512, 2048) -> '512×2,048', each size a count
    with its thousands separators, as everywhere else."""
    return "×".join(f"{int(v):,}" for v in value)


def text(value) -> str:
    """A value as it is; a negative number with the minus sign."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return minus(str(value))
    return str(value)


def _unsigned_zero(value: float) -> float:
    # A value that rounds to zero reads as 0.00, not −0.00: the sign would claim a
    # direction the shown digits cannot carry.
    return 0.0 if value == 0 else value


def _round_half_up(value: float, digits: int) -> float:
    if not math.isfinite(value):
        raise ValueError(f"cannot format {value!r}")
    # Remembered: data tables and prose show the same numbers in many states.
    # The sign is part of the key, as -0.0 == 0.0 yet they print differently.
    return _rounded(value, digits, math.copysign(1.0, value))


@functools.lru_cache(maxsize=65536)
def _rounded(value: float, digits: int, sign: float) -> float:
    # Python rounds half to even (0.125 -> 0.12); readers expect 0.13, as a
    # calculator would. Decimal strings avoid binary representation surprises.
    from decimal import ROUND_HALF_UP, Decimal

    if abs(value) >= 2.0 ** 53:  # a float this large is a whole number: nothing to round (and Decimal's
        return value             # 28 digits could not quantize it)
    quantum = Decimal(1).scaleb(-digits)
    return float(Decimal(repr(value)).quantize(quantum, rounding=ROUND_HALF_UP))


def formatter(spec: str):
    """The function for a readout's `format`, or None if the spec is unknown."""
    match = _FIXED.match(spec)
    if match:
        digits = int(match.group(1))
        return lambda value: fixed(value, digits)
    match = _SIGNIFICANT.match(spec)
    if match:
        digits = int(match.group(1))
        return lambda value: significant(value, digits)
    return {"text": text, "count": count, "percent": percent, "shape": shape}.get(spec)


JINJA_FILTERS = {"percent": percent, "fixed": fixed, "significant": significant, "count": count, "shape": shape,
                 "plural": plural, "lower_bound": lower_bound, "upper_bound": upper_bound}


_SCALARS = frozenset((int, float, str, bool, type(None)))


def plain(value, arrays: dict | None = None):
    """Convert numpy scalars and arrays to plain Python, for templates and JSON, with
    every float at the build's precision (precision.py), so that what follows from a
    model's numbers does not depend on the CPU that computed them.
    `arrays` (a memo table of the build cache) makes equal arrays one shared list."""
    if isinstance(value, np.ndarray):
        return _plain_array(value, arrays)
    if isinstance(value, np.generic):  # before float: numpy's float64 is a float too
        return _plain_scalar(value.item())
    if isinstance(value, float):
        return written(value)
    if isinstance(value, (list, tuple)):
        if all(type(v) in _SCALARS for v in value):  # already plain: copy without a call per item
            return type(value)(written(v) if type(v) is float else v for v in value)
        return type(value)(plain(v, arrays) for v in value)
    return value


def _plain_scalar(value):
    return written(value) if type(value) is float else value


class SharedList(list):
    """A list plain() made from a numpy array of numbers. Equal arrays returned in
    many states (one head's weights under each of its queries) become one such
    list, so the charts and the page's pool, which recognise lists they have seen
    by identity, do their work once. A shared list is never modified, so what is
    worked out from it (its rounded numbers, its table cells) is kept on it."""
    __slots__ = ("_derived",)

    def derived(self, key, make):
        """make(), worked out once per key and kept with this list: as long as the
        list, which the build cache's table of shared arrays owns, and no longer."""
        try:
            table = self._derived
        except AttributeError:
            table = self._derived = {}
        if key not in table:
            table[key] = make()
        return table[key]


def _plain_array(array: np.ndarray, arrays: dict | None):
    if array.size < 16 or array.dtype.kind not in "biuf":
        return (written_array(array) if array.dtype.kind == "f" else array).tolist()
    if arrays is None:
        return _shared(array)
    key = (array.dtype.str, array.shape, array.tobytes())
    found = arrays.get(key)
    if found is None:
        found = arrays[key] = _shared(array)
    return found


def _shared(array: np.ndarray) -> SharedList:
    rows = (written_array(array) if array.dtype.kind == "f" else array).tolist()
    return SharedList(SharedList(row) for row in rows) if array.ndim == 2 else SharedList(rows)


def is_shared(value) -> bool:
    """Whether `value` is a list plain() shares between states (and so never changes)."""
    return type(value) is SharedList
