"""Imports point one way: ``bot -> {engine, render, data, rating, i18n}``,
``render -> {engine, i18n}``, ``data -> {rating, engine}``, ``rating -> engine``; ``i18n`` (the
languages both ``bot`` and ``render`` speak) and ``engine`` import none of the project's
packages. Inside and across packages no module imports, through any chain of imports, a module
that imports it back: an import inside a function counts as much as one at the top (it only
hides a circle until the function runs). Inside ``bot``, no cog imports ``render``: a cog parses,
acknowledges and calls a desk; pictures are the show side's. Read from the source, so a new
import fails here."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT = {"engine", "render", "data", "rating", "bot", "i18n"}
ALLOWED = {
    "engine": {"engine"},
    "i18n": {"i18n"},
    "render": {"render", "engine", "i18n"},
    "rating": {"rating", "engine"},
    "data": {"data", "rating", "engine"},
    "bot": PROJECT,
}


def imported(path: Path) -> set[str]:
    """The project's top-level packages that ``path`` imports (at any depth of the module)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found & PROJECT


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_each_package_imports_only_the_packages_below_it(package: str) -> None:
    wrong = {
        str(path.relative_to(ROOT)): sorted(imported(path) - ALLOWED[package])
        for path in sorted((ROOT / package).rglob("*.py"))
        if imported(path) - ALLOWED[package]
    }
    assert wrong == {}


def module_name(path: Path) -> str:
    """``data/records.py`` -> ``data.records``; ``data/__init__.py`` -> ``data``."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    """Every module of the project's packages, by name."""
    return {
        module_name(path): path for package in PROJECT for path in (ROOT / package).rglob("*.py")
    }


def imports_of(name: str, path: Path, known: set[str]) -> Iterator[str]:
    """The project's modules that module ``name`` imports, anywhere in it (in a function, under
    ``TYPE_CHECKING``...): ``from a.b import c`` is ``a.b.c`` when that is a module, else
    ``a.b``. A package's own ``__init__``, which Python runs before any of its modules, is not
    counted as imported by them (it may gather its modules' names)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{alias.name}" for alias in node.names]
            targets = [t if t in known else base for t in targets]
        else:
            continue
        for target in targets:
            if target in known and target != name:
                yield target


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_circles_are_found_however_they_are_hidden() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_itself_back_through_others() -> None:
    found = modules()
    known = set(found)
    graph = {name: set(imports_of(name, path, known)) for name, path in found.items()}
    assert len(graph) > 100 and graph["data.sqlite"], "the walk found the project's imports"
    assert circles(graph) == []


def test_no_cog_imports_render() -> None:
    found = modules()
    known = set(found)
    cogs = {name: path for name, path in found.items() if name.startswith("bot.cogs.")}
    assert "bot.cogs.records" in cogs
    drawing = {
        name: sorted(t for t in imports_of(name, path, known) if t.split(".")[0] == "render")
        for name, path in cogs.items()
    }
    assert {name: found for name, found in drawing.items() if found} == {}
