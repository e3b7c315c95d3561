"""A page's model.py may import the modules next to it and the site's shared
helpers in content/_lib/; neither leaks into the next page's model."""
from __future__ import annotations

import threading

from generator.build import build
from generator.cache.build import BuildCache
from generator.errors import ContentError

from tests.conftest import FIXTURES, THEMES


def _use_helpers(content, sibling: str, shared: str):
    (content / "_lib").mkdir(exist_ok=True)
    (content / "_lib" / "shared_numbers.py").write_text(shared)
    model = content / "coin-flips" / "model.py"
    (content / "coin-flips" / "probabilities.py").write_text(sibling)
    text = model.read_text().replace("import numpy as np\n", "import numpy as np\nfrom probabilities import halves\n")
    model.write_text(text.replace("p = 0.5 ** np.arange(1, 4)", "p = halves(3)"))


def test_a_model_imports_its_sibling_and_the_shared_folder(tmp_site):
    content = tmp_site()
    _use_helpers(content, "import shared_numbers\n\ndef halves(n):\n    return shared_numbers.BASE ** (__import__('numpy').arange(1, n + 1))\n",
                 "BASE = 0.25\n")
    result = build(content, None, THEMES)
    [step] = result.computed["coin-flips"]
    assert step.by_key("0").values["probability"] == 0.25  # the shared value, through the sibling
    import sys
    assert "probabilities" not in sys.modules and "shared_numbers" not in sys.modules


def test_a_failing_helper_is_reported_at_its_own_file_and_line(tmp_site):
    content = tmp_site()
    _use_helpers(content, "import shared_numbers\n\ndef halves(n):\n    return shared_numbers.BASE\n",
                 "BASE = 1 / 0\n")
    try:
        build(content, None, THEMES)
    except ContentError as err:
        [problem] = err.problems
        assert problem.path.name == "shared_numbers.py" and problem.line == 1
        assert "ZeroDivisionError" in problem.message
    else:
        raise AssertionError("the build should fail")


def test_an_import_inside_a_step_function_works_as_at_the_top(tmp_site):
    """The model's folder and content/_lib/ stay importable while its functions run."""
    content = tmp_site()
    _use_helpers(content, "import shared_numbers\n\ndef halves(n):\n    return shared_numbers.BASE ** "
                 "(__import__('numpy').arange(1, n + 1))\n", "BASE = 0.25\n")
    model = content / "coin-flips" / "model.py"
    text = model.read_text().replace("from probabilities import halves\n", "")
    model.write_text(text.replace("    p = halves(3)", "    from probabilities import halves\n    p = halves(3)"))
    cache = BuildCache()
    result = build(content, None, THEMES, cache=cache)
    assert result.computed["coin-flips"][0].by_key("0").values["probability"] == 0.25
    import sys
    assert "probabilities" not in sys.modules and "shared_numbers" not in sys.modules
    # The shared helper it imported from inside the function counts as an input of its states.
    (content / "_lib" / "shared_numbers.py").write_text("BASE = 0.5\n")
    result = build(content, None, THEMES, cache=cache)
    assert cache.made["states"] == ["coin-flips"]
    assert result.computed["coin-flips"][0].by_key("0").values["probability"] == 0.5


def test_the_time_limit_holds_in_any_thread(tmp_site):
    """Off the main thread (no signal there), the limit still stops an endless loop."""
    content = tmp_site({"site.toml": "time_limit = 0.3\n" + (FIXTURES / "tiny/content/site.toml").read_text()})
    model = content / "coin-flips" / "model.py"
    model.write_text(model.read_text().replace("    p = 0.5", "    while flips == 3:\n        pass\n    p = 0.5"))
    failed = []
    thread = threading.Thread(target=lambda: _failure(content, failed))
    thread.start()
    thread.join(60)
    assert not thread.is_alive(), "the endless loop was never stopped"
    [problem] = failed[0].problems
    assert problem.line in (7, 8) and "step 1 (runs) for flips=3: did not return within 0.3 s" in problem.message


def _failure(content, failed):
    try:
        build(content, None, THEMES)
    except ContentError as err:
        failed.append(err)


# --- NaN, infinities and numpy's floating-point warnings ------------------------------------------

OVERFLOWING = '''import numpy as np

FLIPS = [1, 2, 3]


def runs(flips):
    p = 0.5 ** np.arange(1, 4)
    growth = np.exp(np.float64(300 * flips))
    return {"values": {"flips": flips, "probability": float(p[flips - 1] * growth * growth), "outcomes": 2 ** flips},
            "chart": {"x": ["1", "2", "3"], "y": p.tolist(), "highlight": flips - 1}}
'''


def test_an_overflow_that_becomes_an_infinity_is_one_error_at_the_model_line(tmp_site, capfd):
    """numpy's RuntimeWarning is not printed: the infinity it led to is one error naming the
    state, at the model's line where numpy warned."""
    content = tmp_site({"coin-flips/model.py": OVERFLOWING})
    try:
        build(content, None, THEMES)
    except ContentError as err:
        [problem] = err.problems
    else:
        raise AssertionError("an infinite value built")
    assert problem.path == content / "coin-flips" / "model.py" and problem.line == 9
    assert problem.message == ("coin-flips, step 1 (runs) returned a NaN or infinite value 'probability' for "
                               "flips=2: numpy warned 'overflow encountered in scalar multiply' on this line")
    assert "RuntimeWarning" not in capfd.readouterr().err


def test_a_floating_point_warning_with_a_finite_result_is_a_warning_that_strict_refuses(tmp_site, capfd):
    from generator.errors import StrictModeError

    # 1/0 is computed, then left out by np.where: the values are finite, numpy warned all the same.
    guarded = OVERFLOWING.replace("    growth = np.exp(np.float64(300 * flips))\n",
                                  "    odds = np.where(np.arange(3) > 0, 1 / np.arange(3), 0.0)\n")
    guarded = guarded.replace("p[flips - 1] * growth * growth", "p[flips - 1] + odds[0]")
    content = tmp_site({"coin-flips/model.py": guarded})
    warnings = []
    result = build(content, None, THEMES, warnings=warnings)
    assert result.computed["coin-flips"][0].by_key("0").values["probability"] == 0.5
    [warning] = [w for w in warnings if "numpy" in w.message]
    assert warning.path == content / "coin-flips" / "model.py" and warning.line == 8
    assert warning.message == ("coin-flips, step 1 (runs): numpy warned 'divide by zero encountered in divide' "
                               "for flips=1 (and 2 other states)")
    assert "RuntimeWarning" not in capfd.readouterr().err
    try:
        build(content, None, THEMES, strict=True, warnings=[])
    except StrictModeError:
        pass
    else:
        raise AssertionError("--strict let a numpy warning through")
