"""A page's model.py may import the modules next to it and the site's shared
helpers in content/_lib/; neither leaks into the next page's model."""
from __future__ import annotations

from generator.build import build
from generator.errors import ContentError

from .conftest import THEMES


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
