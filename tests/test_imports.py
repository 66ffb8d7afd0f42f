"""The package's import graph: no cycles, and each layer imports only the layers below it.

The layers, bottom up: ``tabletop.envs`` (games), ``tabletop.agents``, ``tabletop.matches``
(playing many games and counting them), ``tabletop.web`` (the web table), ``tabletop.wrappers``
(the gymnasium side, for training), ``tabletop.training`` (the trainers) and ``tabletop.cli``
(the command line, of which ``serve`` starts the web table). Every package the repository
installs is a layer.
Imports are read from the source with ``ast``, at module level and inside functions alike (a
lazy import is still an edge; a lazy import one way is fine, a cycle is not). Imports under
``if TYPE_CHECKING:`` never run and are left out.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import pkgutil
from pathlib import Path

import pytest

LAYERS = (
    "tabletop.envs",
    "tabletop.agents",
    "tabletop.matches",
    "tabletop.web",
    "tabletop.wrappers",
    "tabletop.training",
    "tabletop.cli",
)
"""Bottom up: a layer may import the layers before it, never those after it. The web table
and the match counting sit below the wrappers, so they need only engines and agents; the
command line sits on top, so no trainer or library imports a command."""

SETUP = Path(__file__).parents[1] / "setup.py"


def package_modules() -> dict[str, Path]:
    """Every module of the layers: dotted name -> source file."""
    modules: dict[str, Path] = {}
    for layer in LAYERS:
        package = importlib.import_module(layer)
        modules[layer] = Path(package.__file__)
        for info in pkgutil.walk_packages(package.__path__, f"{layer}."):
            spec = importlib.util.find_spec(info.name)
            assert spec is not None and spec.origin is not None, info.name
            modules[info.name] = Path(spec.origin)
    return modules


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imported_modules(name: str, path: Path, modules: set[str]) -> set[str]:
    """The package modules that module ``name`` imports at run time. ``from x import y``
    imports ``x.y`` when that is a module, else ``x``; relative imports are resolved."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base]).strip(".")
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in modules else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
    return {module for module in found if module in modules and module != name}


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports."""
    modules = package_modules()
    return {name: imported_modules(name, path, set(modules)) for name, path in modules.items()}


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return sorted(cycles)


def layer_of(module: str) -> int:
    """0 for ``tabletop.envs`` and its modules, 1 for ``tabletop.agents``, and so on; a
    module of no layer is an error, never left out."""
    for rank, layer in enumerate(LAYERS):
        if module == layer or module.startswith(f"{layer}."):
            return rank
    raise ValueError(f"{module} belongs to no layer of {LAYERS}")


def installed_packages() -> set[str]:
    """The top-level packages setup.py installs (its ``NAMESPACE_DIRS`` keys)."""
    for node in ast.walk(ast.parse(SETUP.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "NAMESPACE_DIRS":
            return set(ast.literal_eval(node.value))
    raise AssertionError(f"no NAMESPACE_DIRS in {SETUP}")


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph()


def test_every_layer_is_walked(graph: dict[str, set[str]]) -> None:
    for expected in (
        "tabletop.envs.core.spec",
        "tabletop.agents.ismcts",
        "tabletop.wrappers.single_agent",
        "tabletop.matches.records",
        "tabletop.web.tables",
        "tabletop.training.base_trainer",
        "tabletop.cli.main",
    ):
        assert expected in graph
    assert "tabletop.agents.policy" in graph["tabletop.agents.registry"]  # a lazy import


def test_every_installed_package_is_a_layer() -> None:
    assert installed_packages() == set(LAYERS)


def test_a_module_outside_the_layers_is_refused() -> None:
    with pytest.raises(ValueError, match="no layer"):
        layer_of("tabletop.elsewhere.module")


def test_no_import_cycles(graph: dict[str, set[str]]) -> None:
    cycles = find_cycles(graph)
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_layers_import_only_the_layers_below(graph: dict[str, set[str]]) -> None:
    upward = [
        f"{module} imports {target}"
        for module, targets in graph.items()
        for target in sorted(targets)
        if layer_of(target) > layer_of(module)
    ]
    assert not upward, "imports from a higher layer:\n" + "\n".join(upward)


def test_type_checking_imports_are_not_edges(tmp_path: Path) -> None:
    source = tmp_path / "probe.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from tabletop.agents.base import Agent\n"
        "def late():\n"
        "    from tabletop.cli import main\n"
        "    from . import spec\n",
        encoding="utf-8",
    )
    known = {"tabletop.agents.base", "tabletop.cli.main", "tabletop.envs.core.spec"}
    found = imported_modules("tabletop.envs.core.probe", source, known)
    assert found == {"tabletop.cli.main", "tabletop.envs.core.spec"}


def test_a_cycle_is_found_and_named() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycles(graph) == [["a", "b", "c"]]
