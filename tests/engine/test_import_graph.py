"""The engine's modules import one another without a cycle, not even inside a function.

The graph is read from the source with :mod:`ast`: every ``import`` counts wherever it stands (at
module level, inside a function, under ``TYPE_CHECKING``), since an import that runs late still
ties the two modules together. The implicit import of a parent package (``engine`` before
``engine.game``) is not an edge: a package's ``__init__`` re-exporting its modules is its job.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import engine

ENGINE_DIR = Path(engine.__file__).parent


def modules_of(root: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` (whose ``__init__.py`` is in ``root``), by dotted name."""
    found: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = [package, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """For each module, the modules of the same set it imports anywhere in its source."""
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        here = name if is_package else name.rpartition(".")[0]
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                edges.update(a.name for a in node.names if a.name in modules)
            elif isinstance(node, ast.ImportFrom):
                base = here.rsplit(".", node.level - 1)[0] if node.level else ""
                if node.module:
                    base = f"{base}.{node.module}" if base else node.module
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    if sub in modules:
                        edges.add(sub)
                    elif base in modules:
                        edges.add(base)
        edges.discard(name)
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of ``graph`` as ``[a, b, ..., a]``, or ``[]`` when there is none."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(node: str) -> list[str]:
        path.append(node)
        on_path.add(node)
        for nxt in sorted(graph[node]):
            if nxt in on_path:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in done:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        path.pop()
        on_path.discard(node)
        done.add(node)
        return []

    for start in sorted(graph):
        if start not in done:
            cycle = visit(start)
            if cycle:
                return cycle
    return []


def test_every_engine_module_is_found_and_imports() -> None:
    modules = modules_of(ENGINE_DIR, "engine")
    assert {"engine", "engine.game", "engine.scenario", "engine.state", "engine.ai.hard"} <= set(
        modules
    )
    for name, path in modules.items():
        if name.endswith(".__main__"):
            continue  # runs its command line when imported; its imports are still read below
        module = importlib.import_module(name)
        assert Path(module.__file__ or "") == path


def test_engine_modules_import_each_other_without_a_cycle() -> None:
    graph = import_graph(modules_of(ENGINE_DIR, "engine"))
    assert "engine.state" in graph["engine.game"]  # the graph holds the engine's real imports
    assert find_cycle(graph) == [], "an import cycle in the engine"


def test_game_and_scenario_import_in_one_direction() -> None:
    graph = import_graph(modules_of(ENGINE_DIR, "engine"))
    assert "engine.game" in graph["engine.scenario"]
    assert "engine.scenario" not in graph["engine.game"]
    assert graph["engine.state"] <= {"engine.model", "engine.rng", "engine.tiles"}


def write_package(root: Path, files: dict[str, str]) -> Path:
    package = root / "pkg"
    package.mkdir()
    for name, text in {"__init__.py": "", **files}.items():
        (package / name).write_text(text, encoding="utf-8")
    return package


def test_an_import_inside_a_function_closes_a_cycle(tmp_path: Path) -> None:
    package = write_package(
        tmp_path,
        {
            "a.py": "from pkg.b import f\n",
            "b.py": "def f():\n    from pkg import a\n    return a\n",
        },
    )
    assert find_cycle(import_graph(modules_of(package, "pkg"))) == ["pkg.a", "pkg.b", "pkg.a"]


@pytest.mark.parametrize(
    "import_a",
    [
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import X\n",
        "import pkg.a\n",
        "from . import a\n",
    ],
    ids=["relative-under-type-checking", "plain-import", "relative-module"],
)
def test_every_form_of_import_counts(tmp_path: Path, import_a: str) -> None:
    package = write_package(tmp_path, {"a.py": "from pkg.b import Y\nX = 1\n", "b.py": import_a})
    assert find_cycle(import_graph(modules_of(package, "pkg"))) == ["pkg.a", "pkg.b", "pkg.a"]


def test_modules_that_import_one_way_have_no_cycle(tmp_path: Path) -> None:
    package = write_package(
        tmp_path,
        {"a.py": "from pkg.b import f\n", "b.py": "def f():\n    from pkg import c\n", "c.py": ""},
    )
    graph = import_graph(modules_of(package, "pkg"))
    assert graph == {"pkg": set(), "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.c"}, "pkg.c": set()}
    assert find_cycle(graph) == []
