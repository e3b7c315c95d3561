import json
import re

from generator.payload import Pool, canonical, script_json


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
