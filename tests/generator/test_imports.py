"""The generator's rooms are layers, and no module imports from a layer above its own:
the stages run load -> compute -> render -> outputs and each may use the ones before it;
the kinds use the stages (and reach them only through the interface build() passes
down: `Site.kinds`); dev uses what it needs below; build() and the command line sit on
top. Every import statement counts, wherever it stands (inside a function too).

The order is written once, in docs/architecture.md ("Layers"), and read from there."""
import ast
import re
from pathlib import Path

import generator

PACKAGE = Path(generator.__file__).parent
DOC = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"


def layers() -> list[str]:
    """The rooms of generator/, lowest first, as docs/architecture.md lists them."""
    found = re.search(r"^Layers, lowest first: (.+)$", DOC.read_text("utf-8"), re.M)
    assert found, "docs/architecture.md lists the layers on a line 'Layers, lowest first: ...'"
    return [name.strip(" .`") for name in found.group(1).split("<")]


def room(module: str) -> str:
    """The room of a module named relative to the package ("load.schema" -> "load", "" -> "__init__")."""
    return module.split(".")[0] or "__init__"


def imports(path: Path) -> list[tuple[str, int]]:
    """(module imported, line) for each of the package's own modules `path` imports, named relative
    to the package; a package's __init__ counts as its folder."""
    name = path.relative_to(PACKAGE).with_suffix("").parts
    here = list(name[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = here[:len(here) - (node.level - 1)] + (node.module.split(".") if node.module else [])
            found += [(".".join(base) if base else _module_or_package(alias.name), node.lineno)
                      for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in ("generator", "lensa"):
            found.append((".".join(node.module.split(".")[1:]), node.lineno))
        elif isinstance(node, ast.Import):
            found += [(".".join(alias.name.split(".")[1:]), node.lineno) for alias in node.names
                      if alias.name.split(".")[0] in ("generator", "lensa")]
    return found


def _module_or_package(name: str) -> str:
    """`from . import name` at the package's top: a module or subpackage, or a name of its __init__."""
    return name if (PACKAGE / name).is_dir() or (PACKAGE / f"{name}.py").exists() else ""


def upward(order: list[str]) -> list[str]:
    rank = {name: index for index, name in enumerate(order)}
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(PACKAGE).with_suffix("").parts).removesuffix("__init__").rstrip(".")
        for target, line in imports(path):
            if rank[room(target)] > rank[room(module)]:
                found.append(f"generator/{path.relative_to(PACKAGE)}:{line}: {room(module)} imports "
                             f"{target or 'the package'}, from {room(target)} above it")
    return found


def test_every_room_has_its_layer():
    rooms = {room(".".join(path.relative_to(PACKAGE).with_suffix("").parts).removesuffix("__init__").rstrip("."))
             for path in PACKAGE.rglob("*.py")}
    assert rooms == set(layers()), "a room of generator/ is missing from the layers, or a layer has no room"


def test_no_module_imports_from_a_layer_above_its_own():
    assert not upward(layers()), "\n".join(upward(layers()))


def test_the_stages_run_in_their_order_below_the_kinds():
    order = layers()
    assert order.index("site") < order.index("load") < order.index("compute") < order.index("render") \
        < order.index("outputs") < order.index("kinds") < order.index("dev") < order.index("build")


def test_the_package_imports_only_relatively():
    """The installed package is `lensa`, the checkout's `generator`: only relative imports work in both."""
    absolute = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            if any(name.split(".")[0] in ("generator", "lensa") for name in names):
                absolute.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert not absolute, absolute


def test_the_check_finds_an_upward_import():
    """The check can fail: with the kinds put below the load stage, the kinds' imports of it are upward."""
    order = layers()
    order.remove("kinds")
    order.insert(order.index("load"), "kinds")
    assert any(" kinds imports load" in line for line in upward(order))
