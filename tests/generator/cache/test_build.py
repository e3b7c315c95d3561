"""Incremental rebuilds: only what a change affects is recomputed or
re-rendered, and a cached build is byte-identical to a fresh one. Computed
states kept on disk are loaded by the next process's build, and an edit to any
of their inputs has them computed again."""
import shutil
import sys

import numpy
import pytest

from generator.build import build
from generator.cache import build as build_cache
from generator.cache import disk as diskcache
from generator.cache.build import BuildCache
from generator.dev.scaffold import scaffold

from tests.conftest import THEMES


@pytest.fixture(autouse=True)
def own_disk_cache(tmp_path, monkeypatch):
    """Each test starts with an empty disk cache of its own, whatever earlier builds kept."""
    monkeypatch.setenv(diskcache.CACHE_ENV, str(tmp_path / "disk-cache"))


@pytest.fixture
def two_explainers(tmp_site, tmp_path):
    content = tmp_site()
    scaffold(content, "softmax")
    themes = tmp_path / "themes"
    shutil.copytree(THEMES, themes)
    return content, themes


def uncached_build(content, themes):
    """A build that computes everything: nothing is reused from memory or loaded from
    disk (the disk's compiled templates aside, which test_templating.py covers)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(build_cache, "_load", lambda kind, key, accept=None: None)
        return build(content, None, themes)


def rebuild(content, themes, cache):
    result = build(content, None, themes, cache=cache)
    fresh = uncached_build(content, themes)
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


# --- Computed states on disk, for the next process --------------------------------------


def next_process_build(content, themes):
    """A build with a new BuildCache, as the next `lensa build` runs: what it loaded from
    disk and what it computed. Its output is always what an uncached build makes."""
    cache = BuildCache()
    result = build(content, None, themes, cache=cache)
    assert _bytes(result.files) == _bytes(uncached_build(content, themes).files)
    return {"loaded": sorted(cache.loaded["states"]), "made": sorted(cache.made["states"]),
            "charts loaded": sorted(cache.loaded["charts"])}


BOTH = ["coin-flips", "softmax"]


def test_the_next_build_loads_the_states_and_charts_it_computed(two_explainers):
    content, themes = two_explainers
    assert next_process_build(content, themes) == {"loaded": [], "made": BOTH, "charts loaded": []}
    assert next_process_build(content, themes) == {"loaded": BOTH, "made": [], "charts loaded": BOTH}


def test_without_a_disk_cache_every_build_computes(two_explainers, monkeypatch):
    content, themes = two_explainers
    monkeypatch.setenv(diskcache.CACHE_ENV, "")
    for _ in range(2):
        assert next_process_build(content, themes)["made"] == BOTH


def test_a_damaged_entry_is_computed_again(two_explainers, tmp_path):
    content, themes = two_explainers
    next_process_build(content, themes)
    for entry in (tmp_path / "disk-cache" / "states").rglob("*"):
        if entry.is_file():
            entry.write_bytes(b"not a pickle")
    assert next_process_build(content, themes)["made"] == BOTH


@pytest.mark.parametrize("kind", ["states", "charts"])
@pytest.mark.parametrize("stored", [
    42, ("states", "no list of files"), ([1, 2, 3], []), (None, [("not a path", "hash")]), {"charts": []},
])
def test_an_entry_of_the_wrong_shape_is_made_again(two_explainers, tmp_path, kind, stored):
    """Well kept (its digest matches) but not what this code stores: made again, never an internal error."""
    import pickle

    content, themes = two_explainers
    next_process_build(content, themes)
    for entry in (tmp_path / "disk-cache" / kind).rglob("*"):
        if entry.is_file():
            diskcache.write_entry(entry, pickle.dumps(stored))
    found = next_process_build(content, themes)  # its output is what an uncached build makes
    assert found["made" if kind == "states" else "charts loaded"] == (BOTH if kind == "states" else [])


# A model that reads a data file beside it, and one that uses a helper of content/_lib/
# that reads a data file of its own (as tinyformer reads weights.npz).
READS_DATA = """\
import json
from pathlib import Path

import numpy as np

from halves import HALF

FLIPS = [1, 2, 3]
SCALE = json.loads(Path(__file__).with_name("scale.json").read_text())


def runs(flips):
    p = HALF ** np.arange(1, 4) * SCALE
    return {"values": {"flips": flips, "probability": float(p[flips - 1]), "outcomes": 2 ** flips},
            "chart": {"x": ["1", "2", "3"], "y": p.tolist(), "highlight": flips - 1}}
"""
HELPER = """\
from pathlib import Path

HALF = float((Path(__file__).parent / "half.txt").read_text())
"""


@pytest.fixture
def reading_data(two_explainers):
    content, themes = two_explainers
    (content / "coin-flips" / "model.py").write_text(READS_DATA)
    (content / "coin-flips" / "scale.json").write_text("1.0")
    (content / "_lib").mkdir()
    (content / "_lib" / "halves.py").write_text(HELPER)
    (content / "_lib" / "half.txt").write_text("0.5")
    next_process_build(content, themes)
    return content, themes


def _pages_say(content, themes, text):
    return text in build(content, None, themes).files["coin-flips/index.html"].decode()


@pytest.mark.parametrize("path, old, new, shown", [
    ("coin-flips/model.py", "2 ** flips", "3 ** flips", "there are 9 outcomes"),       # the model
    ("coin-flips/scale.json", "1.0", "2.0", "a chance of 50%"),                        # a data file beside it
    ("coin-flips/steps/01-runs.md", "default = 2", "default = 3", "a chance of 13%"),  # what its steps declare
    ("_lib/halves.py", "HALF = float", "HALF = 0.2 * float", "a chance of 1%"),        # a shared helper
    ("_lib/half.txt", "0.5", "0.4", "a chance of 16%"),                                 # a data file a helper reads
])
def test_an_edit_to_any_input_of_the_states_computes_them_again(reading_data, path, old, new, shown):
    content, themes = reading_data
    assert next_process_build(content, themes)["made"] == []
    edit(content / path, old, new)
    found = next_process_build(content, themes)
    assert "coin-flips" in found["made"] and "coin-flips" not in found["loaded"]
    assert _pages_say(content, themes, shown)


def test_a_dot_file_beside_the_model_is_an_input_too(reading_data):
    content, themes = reading_data
    model = content / "coin-flips" / "model.py"
    model.write_text(model.read_text().replace('with_name("scale.json")', 'with_name(".scale.json")'))
    (content / "coin-flips" / ".scale.json").write_text("1.0")
    cache = BuildCache()
    rebuild(content, themes, cache)
    next_process_build(content, themes)
    (content / "coin-flips" / ".scale.json").write_text("2.0")
    assert rebuild(content, themes, cache)["states"] == ["coin-flips"]   # the dev server's next rebuild
    (content / "coin-flips" / ".scale.json").write_text("3.0")
    assert "coin-flips" in next_process_build(content, themes)["made"]  # the next process's build
    assert _pages_say(content, themes, "a chance of 75%")


def test_a_data_file_of_the_shared_folder_recomputes_in_the_same_process(reading_data):
    """The dev server's cache: an edited data file of content/_lib/ (which any model may read) is
    seen, where an edited shared module recomputes only the pages that import it."""
    content, themes = reading_data
    cache = BuildCache()
    rebuild(content, themes, cache)
    edit(content / "_lib" / "half.txt", "0.5", "0.4")
    assert rebuild(content, themes, cache)["states"] == BOTH
    assert "a chance of 16%" in build(content, None, themes, cache=cache).files["coin-flips/index.html"].decode()


def test_a_prose_edit_loads_the_states(reading_data):
    content, themes = reading_data
    edit(content / "coin-flips/steps/01-runs.md", "With {{ flips }} flips", "After {{ flips }} flips")
    assert next_process_build(content, themes)["loaded"] == BOTH
    assert _pages_say(content, themes, "After 2 flips")


@pytest.mark.parametrize("change", ["generator code", "python", "numpy"])
def test_other_code_computes_the_states_again(two_explainers, monkeypatch, tmp_path, change):
    content, themes = two_explainers
    next_process_build(content, themes)
    if change == "generator code":
        # The generator's code is read from its package folder: a copy of it, edited.
        package = tmp_path / "package"
        shutil.copytree(THEMES.parent / "generator", package, ignore=shutil.ignore_patterns("__pycache__"))
        before = BuildCache.code_digest(package)
        append(package / "render" / "charts" / "bar.py", "\n# an edit\n")
        assert BuildCache.code_digest(package) != before
        monkeypatch.setattr(BuildCache, "code_digest", staticmethod(lambda folder: before + " edited"))
    elif change == "python":
        monkeypatch.setattr(sys, "version", sys.version + " (another build)")
    else:
        monkeypatch.setattr(numpy, "__version__", numpy.__version__ + ".post1")
    assert next_process_build(content, themes)["made"] == BOTH


def test_a_site_moved_elsewhere_computes_its_states_again(two_explainers, tmp_path):
    """Computed states name their files (in warnings), so they are kept per folder."""
    content, themes = two_explainers
    next_process_build(content, themes)
    moved = tmp_path / "moved" / "content"
    shutil.copytree(content, moved)
    assert next_process_build(moved, themes)["made"] == BOTH


@pytest.mark.parametrize("name", ["scale.md", "notes/scale.md", "steps/notes/scale.md"])
def test_a_markdown_file_the_model_reads_is_an_input_too(reading_data, name):
    """Only the Markdown the page's kind reads as its content (explainer.md, steps/NN-name.md,
    quiz/NN-name.md) is left out of the states' key, its computed part being declared: any other
    .md file of the folder (a table the model reads, notes) counts like any data file."""
    content, themes = reading_data
    model = content / "coin-flips" / "model.py"
    model.write_text(model.read_text().replace('with_name("scale.json")', f'parent.joinpath("{name}")'))
    (content / "coin-flips" / name).parent.mkdir(parents=True, exist_ok=True)
    (content / "coin-flips" / name).write_text("1.0")
    cache = BuildCache()
    rebuild(content, themes, cache)
    next_process_build(content, themes)
    (content / "coin-flips" / name).write_text("2.0")
    assert rebuild(content, themes, cache)["states"] == ["coin-flips"]   # the dev server's next rebuild
    (content / "coin-flips" / name).write_text("3.0")
    assert "coin-flips" in next_process_build(content, themes)["made"]  # the next process's build
    assert _pages_say(content, themes, "a chance of 75%")


def test_an_edit_to_the_pages_own_markdown_still_reuses_the_states(reading_data):
    content, themes = reading_data
    cache = BuildCache()
    rebuild(content, themes, cache)
    append(content / "coin-flips/explainer.md", "\nAn edit to the prose.\n")
    assert rebuild(content, themes, cache)["states"] == []
    assert next_process_build(content, themes)["made"] == []


@pytest.mark.parametrize("path, old, new", [
    ("softmax/explainer.md", "This explainer starts from", "This page starts from"),       # its intro
    ("softmax/quiz/01-top-word.md", "Which word still gets", "Which word keeps"),           # a question
    ("softmax/quiz/01-top-word.md", 'answer = "top_word"', 'answer = "words[0]"'),          # its answer
])
def test_an_edit_to_the_pages_other_markdown_shows_without_recomputing(two_explainers, path, old, new):
    """The page's own Markdown outside steps/ (intro, key ideas, questions, quiz/) is prose: a rebuild
    shows the edit (rebuild() compares with a fresh build) and computes nothing again."""
    content, themes = two_explainers
    cache = BuildCache()
    rebuild(content, themes, cache)
    edit(content / path, old, new)
    assert rebuild(content, themes, cache)["states"] == []
    assert "coin-flips" not in cache.made["prose"] and "softmax" in cache.made["prose"]
