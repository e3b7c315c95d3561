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
    assert diskcache.read_entry(entry) == "<p>Some <em>text</em> here.</p>".encode()
    diskcache.write_entry(entry, "<p>from the cache</p>".encode())
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


# --- Every entry is checked by a digest of its bytes before it is used ------------------------------


def test_a_damaged_entry_is_made_again_and_written_over(tmp_path, monkeypatch):
    monkeypatch.setenv(diskcache.CACHE_ENV, str(tmp_path))
    key = diskcache.digest("input")
    diskcache.remembered("kind", key, lambda: "the whole text, as made")
    [entry] = [path for path in tmp_path.rglob("*") if path.is_file()]
    whole = entry.read_bytes()
    for damaged in (whole[:-5], whole[:30], whole[:-1] + b"!", b"", b"the whole text, as made"):
        entry.write_bytes(damaged)  # cut short, a byte changed, empty, or written without its digest
        assert diskcache.read("kind", key) is None
        assert diskcache.remembered("kind", key, lambda: "the whole text, as made") == "the whole text, as made"
        assert entry.read_bytes() == whole, "the damaged entry is replaced by a good one"


def test_cut_short_prose_is_never_shipped(tmp_path, monkeypatch):
    """A truncated Markdown entry once shipped cut-off prose with exit 0."""
    monkeypatch.setenv(diskcache.CACHE_ENV, str(tmp_path))
    text = "A paragraph long enough to be cut. " * 20
    whole = MarkdownRenderer()(text)
    [entry] = [path for path in (tmp_path / "markdown").rglob("*") if path.is_file()]
    entry.write_bytes(entry.read_bytes()[:-200])
    assert MarkdownRenderer()(text) == whole


def test_a_cut_short_script_is_escaped_again(tmp_path, monkeypatch):
    """A truncated 'scripts' entry once put half of plotly.js into a single-file copy."""
    from generator.outputs.offline import _script_file

    monkeypatch.setenv(diskcache.CACHE_ENV, str(tmp_path))
    script = ("var x = '</script>';\n" * 5000).encode()  # large enough to be kept on disk
    whole = _script_file(script)
    [entry] = [path for path in (tmp_path / "scripts").rglob("*") if path.is_file()]
    entry.write_bytes(entry.read_bytes()[: len(entry.read_bytes()) // 2])
    assert _script_file(script) == whole
