"""Incremental rebuilds: only what a change affects is recomputed or
re-rendered, and a cached build is byte-identical to a fresh one."""
import shutil

import pytest

from generator.build import build
from generator.cache.build import BuildCache
from generator.dev.scaffold import scaffold

from .conftest import THEMES


@pytest.fixture
def two_explainers(tmp_site, tmp_path):
    content = tmp_site()
    scaffold(content, "softmax")
    themes = tmp_path / "themes"
    shutil.copytree(THEMES, themes)
    return content, themes


def rebuild(content, themes, cache):
    result = build(content, None, themes, cache=cache)
    fresh = build(content, None, themes)
    assert _bytes(result.files) == _bytes(fresh.files)  # reuse never changes the output
    # The page's data and single-file copy are remade exactly when the page (with its embeds) is.
    for derived in ("payload", "offline"):
        assert sorted(cache.made[derived]) == sorted(cache.made["page"]), derived
    return {kind: sorted(cache.made[kind]) for kind in ("states", "charts", "prose", "page")}


def _bytes(files):
    return {name: data if isinstance(data, bytes) else data.read_bytes() for name, data in files.items()}


def edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def append(path, text):
    with path.open("a") as file:
        file.write(text)


def test_nothing_changed_reuses_everything(two_explainers):
    content, themes = two_explainers
    cache = BuildCache()
    assert rebuild(content, themes, cache) == {kind: ["coin-flips", "softmax"]
                                               for kind in ("states", "charts", "prose", "page")}
    assert rebuild(content, themes, cache) == {"states": [], "charts": [], "prose": [], "page": []}
    assert sorted(cache.reused["states"]) == ["coin-flips", "softmax"]


def test_a_prose_edit_re_renders_without_recomputing(two_explainers):
    content, themes = two_explainers
    cache = BuildCache()
    rebuild(content, themes, cache)
    edit(content / "coin-flips/steps/01-runs.md", "With {{ flips }} flips", "After {{ flips }} flips")
    # The charts and tables interned for the page's data are kept: only the text is new.
    assert rebuild(content, themes, cache) == {"states": [], "charts": [], "prose": ["coin-flips"],
                                               "page": ["coin-flips"]}
    html = build(content, None, themes, cache=cache).files["coin-flips/index.html"].decode()
    assert "After 2 flips" in html


def test_a_model_edit_recomputes_only_its_explainer(two_explainers):
    content, themes = two_explainers
    cache = BuildCache()
    rebuild(content, themes, cache)
    edit(content / "softmax/model.py", "[2.0, 1.2, 0.4, -0.6]", "[2.5, 1.2, 0.4, -0.6]")
    made = rebuild(content, themes, cache)
    assert made == {"states": ["softmax"], "charts": ["softmax"], "prose": ["softmax"], "page": ["softmax"]}


def test_a_control_edit_recomputes_its_explainer(two_explainers):
    content, themes = two_explainers
    cache = BuildCache()
    rebuild(content, themes, cache)
    edit(content / "coin-flips/steps/01-runs.md", "default = 2", "default = 3")
    assert rebuild(content, themes, cache)["states"] == ["coin-flips"]


def test_a_theme_edit_re_renders_pages_only(two_explainers):
    content, themes = two_explainers
    cache = BuildCache()
    rebuild(content, themes, cache)
    append(themes / "default/static/style.css", "\n/* a change */\n")
    assert rebuild(content, themes, cache) == {"states": [], "charts": [], "prose": [],
                                               "page": ["coin-flips", "softmax"]}


def test_a_title_edit_re_renders_every_page_that_lists_it(two_explainers):
    content, themes = two_explainers
    cache = BuildCache()
    rebuild(content, themes, cache)
    edit(content / "softmax/explainer.md", 'title = "Softmax"', 'title = "Softmax and Temperature"')
    made = rebuild(content, themes, cache)
    assert made["states"] == [] and made["page"] == ["coin-flips", "softmax"]


def test_a_label_edit_remakes_the_data_tables_without_recomputing(two_explainers):
    content, themes = two_explainers
    cache = BuildCache()
    rebuild(content, themes, cache)
    append(content / "site.toml", '\n[labels]\ndata_item = "Which outcome"\n')
    made = rebuild(content, themes, cache)
    assert made["states"] == [] and made["charts"] == ["coin-flips", "softmax"]
    assert "Which outcome" in build(content, None, themes, cache=cache).files["coin-flips/index.html"].decode()


def test_a_failed_build_keeps_the_last_entries(two_explainers):
    content, themes = two_explainers
    cache = BuildCache()
    rebuild(content, themes, cache)
    step = content / "coin-flips/steps/01-runs.md"
    good = step.read_text()
    step.write_text(good.replace("{{ flips }} flips", "{{ flipz }} flips"))
    with pytest.raises(Exception):
        build(content, None, themes, cache=cache)
    step.write_text(good)
    assert rebuild(content, themes, cache) == {"states": [], "charts": [], "prose": [], "page": []}


def test_an_edited_shared_helper_recomputes_exactly_the_pages_that_import_it(two_explainers):
    content, themes = two_explainers
    (content / "_lib").mkdir()
    (content / "_lib" / "halves.py").write_text("HALF = 0.5\n")
    model = content / "coin-flips" / "model.py"
    edit(model, "import numpy as np\n", "import numpy as np\nfrom halves import HALF\n")
    edit(model, "p = 0.5 ** np.arange(1, 4)", "p = HALF ** np.arange(1, 4)")
    cache = BuildCache()
    rebuild(content, themes, cache)
    (content / "_lib" / "halves.py").write_text("HALF = 0.5  # a comment changes the file, not the value\n")
    assert rebuild(content, themes, cache)["states"] == ["coin-flips"]  # softmax imports nothing shared
    assert rebuild(content, themes, cache)["states"] == []
