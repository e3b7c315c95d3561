"""The tests mirror the package: every module of generator/ has a test module named after it,
generator/<room>/<name>.py -> tests/generator/<room>/test_<name>.py (a package's __init__.py ->
tests/generator/<room>/<package>/test_<package>.py). The series' own pages are tested in
tests/content/, and what drives a browser across features in tests/browser/.

UNTESTED lists the modules with no test of their own name yet, each with the tests of a feature
that cover it for now; it may only shrink (a module that gets its test module leaves it), and it
is empty: a new module comes with its test module."""
from pathlib import Path

import generator

PACKAGE = Path(generator.__file__).parent
TESTS = Path(__file__).parent / "generator"

# Nothing to test by itself: a package's empty __init__.py, the command line's entry point, the
# starter's model (an author's template, run by the scaffold's tests).
EXEMPT = {"__main__.py", "cache/__init__.py", "compute/__init__.py", "dev/__init__.py", "load/__init__.py",
          "outputs/__init__.py", "render/__init__.py", "dev/starter/model.py"}

UNTESTED: dict[str, str] = {}


def module_test(module: str) -> Path:
    path = Path(module)
    if path.name == "__init__.py":
        return TESTS / path.parent / f"test_{path.parent.name}.py"
    return TESTS / path.parent / f"test_{path.stem}.py"


def modules() -> list[str]:
    return sorted(str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py") if path.name != "__init__.py"
                  or path.parent != PACKAGE)


def test_every_module_has_a_test_module_named_after_it():
    missing = [module for module in modules()
               if module not in EXEMPT | set(UNTESTED) and not module_test(module).is_file()]
    assert not missing, "no test module named after: " + ", ".join(f"{m} ({module_test(m)})" for m in missing)


def test_the_list_of_untested_modules_only_shrinks():
    tested = [module for module in UNTESTED if module_test(module).is_file()]
    assert not tested, f"these have their own test module now: take them off UNTESTED: {tested}"
    gone = [module for module in [*UNTESTED, *EXEMPT] if not (PACKAGE / module).is_file()]
    assert not gone, f"no such module any more: {gone}"
    stand_ins = {part.strip() for where in UNTESTED.values() for part in where.split(",")}
    assert all((TESTS / where).is_file() for where in stand_ins), stand_ins


def test_no_flat_test_module_is_left():
    """tests/ itself holds the shared fixtures and helpers, and this test: every test is in a room."""
    flat = sorted(path.name for path in Path(__file__).parent.glob("test_*.py") if path.name != "test_tree.py")
    assert not flat, flat


# The real site (content/) and the fixtures built from it (tests/conftest.py): the series' own tests use them,
# the generator's never do, so that editing an explainer fails no test of the generator.
REAL_NAMES = {"CONTENT", "page_states"}
REAL_FIXTURES = {"built_site", "themed_site", "scorm_site", "site_states", "mha_states"}


def real_content_uses(source: str) -> list[str]:
    """Where a test module's source reaches the real content/: an import of CONTENT (or a helper
    over the real site) from tests.conftest, a real-site fixture asked for, or ROOT / "content"."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[-1] == "conftest":
            found += [f"line {node.lineno}: imports {a.name}" for a in node.names if a.name in REAL_NAMES]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            arguments = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
            found += [f"line {node.lineno}: {node.name}() asks for {a.arg}" for a in arguments
                      if a.arg in REAL_FIXTURES]
        elif isinstance(node, ast.Constant) and node.value in REAL_FIXTURES:  # getfixturevalue, usefixtures
            found += [f"line {node.lineno}: names the fixture {node.value}"]
        elif (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and isinstance(node.left, ast.Name)
              and node.left.id == "ROOT" and isinstance(node.right, ast.Constant) and node.right.value == "content"):
            found += [f"line {node.lineno}: ROOT / 'content'"]
    return found


def test_no_test_of_the_generator_uses_the_real_content():
    """The generator's tests build its fixture sites (tests/fixtures/, conftest.tiny_site, charts_site,
    tiny_game); a test of a page of the series belongs in tests/content/."""
    uses = {str(path.relative_to(TESTS)): real_content_uses(path.read_text("utf-8"))
            for path in sorted(TESTS.rglob("*.py"))}
    assert not {path: found for path, found in uses.items() if found}


def test_the_check_for_the_real_content_finds_each_way_in():
    source = '''from tests.conftest import CONTENT, FIXTURES
from ..conftest import page_states


def test_a(built_site, tmp_path):
    pass


def test_b(request):
    return request.getfixturevalue("site_states"), ROOT / "content"
'''
    assert sorted(real_content_uses(source)) == sorted([
        "line 1: imports CONTENT", "line 2: imports page_states", "line 5: test_a() asks for built_site",
        "line 10: names the fixture site_states", "line 10: ROOT / 'content'"])
    assert real_content_uses("from tests.conftest import FIXTURES\n\n\ndef test_c(tiny_site):\n    pass\n") == []
