"""generator/site.py holds the types every stage shares and imports no stage,
so the generator's import graph has no circle. Every import statement counts,
wherever it stands: one inside a function or under TYPE_CHECKING that only
hides a circle would still be found."""
import ast
from pathlib import Path

import generator

PACKAGE = Path(generator.__file__).parent
STAGES = ("cache", "load", "compute", "render", "outputs", "kinds", "dev")


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's own modules that `name` imports (names relative to the package, "" for it)."""
    here = name.split(".") if path.name == "__init__.py" or not name else name.split(".")[:-1]
    here = [part for part in here if part]
    targets = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[:len(here) - (node.level - 1)] + (node.module.split(".") if node.module else [])
            elif node.module == "generator" or (node.module or "").startswith("generator."):
                base = node.module.split(".")[1:]
            else:
                continue
            for alias in node.names:
                module = ".".join(base + [alias.name])
                targets.add(module if module in modules else ".".join(base))
        elif isinstance(node, ast.Import):
            targets |= {alias.name.removeprefix("generator").lstrip(".") for alias in node.names
                        if alias.name.split(".")[0] == "generator"}
    return targets


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) & set(modules) for name, path in modules.items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    circles, state, trail = [], {}, []

    def visit(module: str) -> None:
        state[module] = "open"
        trail.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == "open":
                circles.append(trail[trail.index(target):] + [target])
            elif target not in state:
                visit(target)
        trail.pop()
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module)
    return circles


def test_the_import_graph_has_no_circle():
    circles = _circles(_graph())
    assert not circles, "import circles: " + "; ".join(" -> ".join(circle) for circle in circles)


def test_the_shared_types_import_no_stage():
    imported = _graph()["site"]
    assert not {module for module in imported if module.split(".")[0] in STAGES}, imported


def test_the_circle_finder_finds_a_circle():
    """The check above can fail: site.py importing the kinds, which import it."""
    graph = _graph()
    assert "site" in graph["kinds"]
    graph["site"] = graph["site"] | {"kinds"}
    assert ["site", "kinds", "site"] in _circles(graph)


def test_every_stage_and_kind_uses_the_shared_types():
    from generator import site
    from generator.kinds import PageKind, PageSource
    from generator.kinds.explainer import KIND as EXPLAINER
    from generator.load.content import load_site  # noqa: F401 (imports cleanly on its own)
    from generator.render.pages import render_pages  # noqa: F401

    assert PageKind is site.PageKind and PageSource is site.PageSource
    assert isinstance(EXPLAINER, site.PageKind)
