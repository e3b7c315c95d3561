"""Results kept on disk between builds: read back for the same key, and a cache
that is off or cannot be written only costs time."""
from generator.cache import disk as diskcache
from generator.render.prose import MarkdownRenderer


def test_a_result_is_made_once_and_read_back(tmp_path, monkeypatch):
    monkeypatch.setenv(diskcache.CACHE_ENV, str(tmp_path))
    made = []

    def make():
        made.append(1)
        return "résumé ✓"

    key = diskcache.digest("some input")
    assert diskcache.remembered("kind", key, make) == "résumé ✓"
    assert diskcache.remembered("kind", key, make) == "résumé ✓"
    assert len(made) == 1
    assert diskcache.remembered("kind", diskcache.digest("other input"), make) == "résumé ✓"
    assert len(made) == 2
    assert not list(tmp_path.rglob("*.tmp")), "no partial entry is left behind"


def test_an_empty_setting_turns_the_cache_off(tmp_path, monkeypatch):
    monkeypatch.setenv(diskcache.CACHE_ENV, "")
    assert diskcache.cache_root() is None
    made = []
    for _ in range(2):
        diskcache.remembered("kind", "k", lambda: made.append(1) or "x")
    assert len(made) == 2


def test_a_cache_that_cannot_be_written_only_costs_time(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv(diskcache.CACHE_ENV, str(blocker / "cache"))
    assert diskcache.remembered("kind", "k", lambda: "made") == "made"


def test_digest_separates_its_parts():
    assert diskcache.digest("ab", "c") != diskcache.digest("a", "bc")
    assert diskcache.digest("a", b"b") == diskcache.digest("a", "b")


def test_markdown_html_is_kept_for_the_next_build(tmp_path, monkeypatch):
    monkeypatch.setenv(diskcache.CACHE_ENV, str(tmp_path))
    assert MarkdownRenderer()("Some *text* here.") == "<p>Some <em>text</em> here.</p>"
    [entry] = [path for path in (tmp_path / "markdown").rglob("*") if path.is_file()]
    assert entry.read_text("utf-8") == "<p>Some <em>text</em> here.</p>"
    entry.write_text("<p>from the cache</p>", "utf-8")
    # A renderer with no memory of its own (a new process): only the disk remembers.
    assert MarkdownRenderer()("Some *text* here.") == "<p>from the cache</p>"


def test_kept_results_stay_in_memory_and_only_large_ones_go_to_disk(tmp_path, monkeypatch):
    monkeypatch.setenv(diskcache.CACHE_ENV, str(tmp_path))
    memory: dict = {}  # a build cache's memo table
    made = []

    def make():
        made.append(1)
        return "text"

    assert diskcache.kept("kind", "k", make, memory, on_disk=False) == diskcache.kept("kind", "k", make, memory) == "text"
    assert len(made) == 1, "the second call is answered from memory"
    assert not [path for path in tmp_path.rglob("*") if path.is_file()], "on_disk=False writes nothing"
    diskcache.kept("kind", "other", make, memory)
    assert [path.name for path in tmp_path.rglob("*") if path.is_file()] == ["other"]
