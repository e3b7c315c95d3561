"""The Jinja environments and their on-disk cache of compiled templates."""
from __future__ import annotations

import jinja2
import pytest

from generator.render import templating
from generator.render.templating import compile_string, make_env


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv(templating.CACHE_ENV, str(folder))
    return folder


def test_a_compiled_string_template_is_reused_from_disk(cache_dir, monkeypatch):
    source = "{{ value | fixed(1) }} bits"
    assert compile_string(make_env(autoescape=True), source).render(value=1.25) == "1.3 bits"
    assert list(cache_dir.rglob("*.cache"))

    def no_compiling(*args, **kwargs):
        raise AssertionError("compiled again despite the cache")
    monkeypatch.setattr(jinja2.Environment, "compile", no_compiling)
    assert compile_string(make_env(autoescape=True), source).render(value=2.0) == "2.0 bits"


def test_compiled_code_is_kept_in_the_memory_it_is_given(cache_dir, monkeypatch):
    source = "{{ value }} kept"
    memory: dict = {}
    assert compile_string(make_env(autoescape=True, memory=memory), source).render(value=1) == "1 kept"
    assert len(memory) == 1
    for entry in cache_dir.rglob("*.cache"):
        entry.unlink()  # the disk forgets; the memory (a dev server's build cache) still has it

    def no_compiling(*args, **kwargs):
        raise AssertionError("compiled again despite the memory")
    monkeypatch.setattr(jinja2.Environment, "compile", no_compiling)
    assert compile_string(make_env(autoescape=True, memory=memory), source).render(value=2) == "2 kept"


def test_theme_templates_are_cached_too(cache_dir, tmp_path):
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "page.html").write_text("<p>{{ text }}</p>")
    env = make_env(autoescape=True, search_path=[templates])
    assert env.get_template("page.html").render(text="<b>") == "<p>&lt;b&gt;</p>"
    assert len(list(cache_dir.rglob("*.cache"))) == 1


def test_environments_with_different_options_do_not_share_compiled_code(cache_dir):
    source = "{{ text }}"
    html, plain = make_env(autoescape=True), make_env(autoescape=False)
    assert compile_string(html, source).render(text="<b>") == "&lt;b&gt;"
    assert html.bytecode_cache.directory != plain.bytecode_cache.directory
    # The same source, now in the cache, must still compile without autoescaping here.
    assert compile_string(plain, source).render(text="<b>") == "<b>"
    assert compile_string(make_env(autoescape=True), source).render(text="<b>") == "&lt;b&gt;"


def test_an_edited_template_is_compiled_afresh(cache_dir, tmp_path):
    templates = tmp_path / "templates"
    templates.mkdir()
    page = templates / "page.html"
    page.write_text("one")
    assert make_env(autoescape=True, search_path=[templates]).get_template("page.html").render() == "one"
    page.write_text("two")
    assert make_env(autoescape=True, search_path=[templates]).get_template("page.html").render() == "two"


def test_a_damaged_cache_entry_is_compiled_again(cache_dir, monkeypatch):
    source = "{{ 1 + 1 }}"
    compile_string(make_env(autoescape=False), source)
    for entry in cache_dir.rglob("*.cache"):
        entry.write_bytes(entry.read_bytes()[:20])
    assert compile_string(make_env(autoescape=False), source).render() == "2"


def test_syntax_errors_are_still_reported(cache_dir):
    with pytest.raises(jinja2.TemplateSyntaxError):
        compile_string(make_env(autoescape=True), "{% if x %}never closed")


def test_an_empty_cache_setting_turns_the_cache_off(tmp_path, monkeypatch):
    monkeypatch.setenv(templating.CACHE_ENV, "")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    env = make_env(autoescape=True)
    assert env.bytecode_cache is None
    assert compile_string(env, "{{ 3 }}").render() == "3"
    assert not any(tmp_path.rglob("*.cache"))


def test_an_unwritable_cache_costs_only_speed(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(templating.CACHE_ENV, str(blocker / "cache"))
    assert compile_string(make_env(autoescape=True), "{{ 4 }}").render() == "4"


# --- Content is data: prose renders in the sandbox ---------------------------------------------


def test_prose_can_print_values_use_filters_conditions_and_loops(cache_dir):
    env = make_env(autoescape=True, prose=True)
    source = ("{% for p in probabilities %}{{ p | percent }}{% if not loop.last %}, {% endif %}{% endfor %}; "
              "{{ '%.1f' | format(total) }} in {{ names | join(' and ') }}"
              "{% if total > 1 %}, more than one{% endif %}.")
    assert compile_string(env, source).render({"probabilities": [0.25, 0.5], "total": 1.5, "names": ["a", "b"]}) \
        == "25%, 50%; 1.5 in a and b, more than one."


@pytest.mark.parametrize("source", [
    "{{ cycler.__init__.__globals__.os.popen('id -un').read() }}",   # reaching a module through a function
    "{{ names.__class__.__mro__ }}",                                   # walking the classes
    "{{ names.append('c') }}",                                         # changing a state's value
    "{{ lipsum.__globals__['os'] }}",
])
def test_prose_cannot_reach_into_python_objects(cache_dir, source):
    env = make_env(autoescape=True, prose=True)
    with pytest.raises(jinja2.sandbox.SecurityError) as refused:
        compile_string(env, source).render({"names": ["a", "b"]})
    message, line = templating.render_problem(refused.value)
    assert message.startswith("unsafe access refused: ") and line == 1


def test_prose_cannot_include_another_template(cache_dir):
    env = make_env(autoescape=True, prose=True)
    with pytest.raises(templating.NotInProse) as refused:
        compile_string(env, "One\n{% include '/etc/passwd' %}").render({})
    assert templating.render_problem(refused.value) == (str(refused.value), 2)


def test_the_themes_templates_are_not_sandboxed(cache_dir):
    """The theme's templates are code, as model.py is; only content is data."""
    assert not make_env(autoescape=True).sandboxed
    assert make_env(autoescape=True, prose=True).sandboxed


def test_a_cache_entry_with_a_changed_byte_is_compiled_again(cache_dir):
    """Compiled code that still loads, but not the code that was kept: its digest tells."""
    source = "{{ 'kept-text' }}"
    assert compile_string(make_env(autoescape=False), source).render() == "kept-text"
    [entry] = list(cache_dir.rglob("*.cache"))
    entry.write_bytes(entry.read_bytes().replace(b"kept-text", b"kept-tent"))
    assert compile_string(make_env(autoescape=False), source).render() == "kept-text"


# --- What compiled code depends on besides the source ------------------------------------------


SCRIPT = "<script>  var  a = 1 ;  </script>"


def _theme_page(tmp_path):
    templates = tmp_path / "templates"
    templates.mkdir(exist_ok=True)
    (templates / "page.html").write_text(SCRIPT)
    return make_env(autoescape=True, search_path=[templates]).get_template("page.html").render()


def test_another_rjsmin_compiles_the_theme_afresh(cache_dir, tmp_path, monkeypatch):
    """The theme's inline scripts are minified before Jinja compiles a template, while the cache
    checks only the template's source: a minifier of another version must not reuse the old code."""
    import rjsmin

    assert _theme_page(tmp_path) == "<script>var a=1;</script>"
    monkeypatch.setattr(rjsmin, "jsmin", lambda script: script.strip())
    monkeypatch.setattr(rjsmin, "__version__", rjsmin.__version__ + ".post1")
    assert _theme_page(tmp_path) == "<script>var  a = 1 ;</script>"


def test_an_edit_to_the_code_that_rewrites_templates_compiles_them_afresh(cache_dir, tmp_path, monkeypatch):
    """The extensions that rewrite a template before it is compiled (prose's kept line breaks, the
    theme's minified scripts) are this module's code: another version of it compiles afresh."""
    assert _theme_page(tmp_path) == "<script>var a=1;</script>"
    edited = tmp_path / "templating.py"
    edited.write_text(open(templating.__file__).read() + "\n# another version\n")
    monkeypatch.setattr(templating, "__file__", str(edited))
    monkeypatch.setattr(templating, "_minified_script", lambda match: match.group(0).upper())
    assert _theme_page(tmp_path) == SCRIPT.upper()



def _finalize(passes_context: bool):
    """Two finalizers of one name: the compiled code calls the one that takes the context otherwise."""
    if passes_context:
        @jinja2.pass_eval_context
        def shown(eval_context, value):
            return f"[{value}]"
    else:
        def shown(value):
            return f"({value})"
    return shown


def test_a_finalizer_that_takes_the_context_compiles_afresh(cache_dir):
    source = "{{ 1 }}"
    assert compile_string(make_env(autoescape=False, finalize=_finalize(False)), source).render() == "(1)"
    assert compile_string(make_env(autoescape=False, finalize=_finalize(True)), source).render() == "[1]"
