"""The precision of written floats (generator/compute/precision.py): ten significant
digits, the same on any CPU, so the site builds to the same bytes wherever it is built."""
from __future__ import annotations

import functools
import json
from types import ModuleType

import numpy as np
import pytest

from generator.build import build
from generator.compute import states as states_stage
from generator.compute.formats import plain
from generator.compute.precision import SIGNIFICANT_DIGITS, written, written_array, written_data
from generator.render.payload import Pool, canonical, script_json

from tests.conftest import FIXTURES, THEMES


def _samples() -> np.ndarray:
    rng = np.random.default_rng(7)
    spread = rng.standard_normal(20000) * 10.0 ** rng.integers(-15, 15, 20000)
    edges = [0.0, -0.0, 1e-12, -1e-12, 1e12, 9.9999999995e11, 0.125, 2.5, 1 / 3, 1e-300, -5e300, 123456789012345.0]
    return np.concatenate([spread, rng.random(5000), edges])


def test_a_written_float_is_the_value_rounded_to_ten_significant_digits():
    values = _samples()
    expected = [float(f"{v:.{SIGNIFICANT_DIGITS}g}") + 0.0 for v in values.tolist()]
    assert [written(v) for v in values.tolist()] == expected
    assert written_array(values).tolist() == expected
    assert written(0.14077969075294047) == written(0.1407796907529405) == 0.1407796908


def test_writing_keeps_what_needs_no_rounding_and_unsigns_zero():
    assert written(0.5) == 0.5 and written(-2.25) == -2.25 and written(3.0) == 3.0
    assert str(written(-0.0)) == "0.0" and str(written_array(np.array([-0.0]))[0]) == "0.0"
    assert np.isnan(written(float("nan"))) and written(float("-inf")) == float("-inf")
    assert written(written(1 / 7)) == written(1 / 7)


def test_a_models_floats_arrive_at_the_written_precision():
    third = 1 / 3
    assert plain(third) == 0.3333333333
    assert plain(np.float64(third)) == 0.3333333333 and type(plain(np.float64(third))) is float
    assert plain(np.float32(0.1)) == 0.1000000015
    assert plain([third, 1, "a", True]) == [0.3333333333, 1, "a", True]
    assert plain(np.full((4, 5), third)) == [[0.3333333333] * 5] * 4
    assert plain(np.arange(3) / 3) == [0.0, 0.3333333333, 0.6666666667]
    assert plain(np.arange(4)) == [0, 1, 2, 3] and plain({"k": 2}) == {"k": 2}


def test_the_page_data_writes_every_float_at_the_written_precision():
    data = {"layout": {"x0": 0.14077969075294047, "range": [-0.13333333333333336, 2.8666666666666667]},
            "text": "12345678901 is a string"}
    assert json.loads(script_json(data)) == written_data(data)
    assert "0.1407796908" in script_json(data, keep_order=True)
    assert canonical([1 / 3]) == "[0.3333333333]"
    # Arrays equal once written are one entry of the pool, whatever their last bits.
    pool = Pool()
    row = [i / 7 for i in range(1, 9)]
    nudged = [float(np.nextafter(v, np.inf)) for v in row]
    first, second = pool.intern(row), pool.intern(nudged)
    assert first == second and len(pool.items) == 1
    assert pool.items[0] == [written(v) for v in row]


def _nudged(value):
    """`value` with every float one unit in the last place higher."""
    if isinstance(value, np.ndarray) and value.dtype.kind == "f":
        return np.nextafter(value, np.inf)
    if isinstance(value, (float, np.floating)) and not isinstance(value, bool):
        return type(value)(np.nextafter(value, np.inf))
    if isinstance(value, dict):
        return {key: _nudged(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_nudged(item) for item in value)
    return value


class _NudgedModel(ModuleType):
    """A page's model whose functions return every float a unit in the last place off,
    as another CPU's maths library may."""

    def __init__(self, model: ModuleType):
        super().__init__(model.__name__)
        self._model = model

    def __getattr__(self, name):
        found = getattr(self._model, name)
        if not (callable(found) and getattr(found, "__module__", None) == self._model.__name__):
            return found

        @functools.wraps(found)
        def nudged(*args, **kwargs):
            return _nudged(found(*args, **kwargs))
        return nudged


@pytest.mark.parametrize("fixture", ["charts", "newcomer"])
def test_the_site_builds_to_the_same_bytes_when_every_model_float_is_a_unit_off(fixture, monkeypatch):
    """Fixture sites of the generator (tests/fixtures/) whose models compute in floats: every chart
    kind, and the newcomer's gradient descent."""
    monkeypatch.setenv("LENSA_CACHE_DIR", "")  # nothing computed before may stand in for the nudged models
    content = FIXTURES / fixture / "content"
    exact = build(content, None, THEMES).files
    load_model = states_stage.load_model

    def load_nudged(*args, **kwargs):
        return _NudgedModel(load_model(*args, **kwargs))
    monkeypatch.setattr(states_stage, "load_model", load_nudged)
    nudged = build(content, None, THEMES).files
    assert sorted(nudged) == sorted(exact)
    differing = [name for name in sorted(exact) if nudged[name] != exact[name]]
    assert not differing, f"{len(differing)} files differ, among them {differing[:5]}"


@pytest.mark.parametrize("value", [0.1, 1e-5, 123.456, 6.02214076e23])
def test_a_written_float_reads_back_as_itself(value):
    assert float(repr(written(value))) == written(value)
    assert len(repr(written(value)).replace("-", "").replace(".", "").split("e")[0].lstrip("0")) <= SIGNIFICANT_DIGITS
