"""Imports point one way: ``bot -> {engine, render, data, i18n}``, ``render -> {engine, i18n}``,
``data -> engine``; ``i18n`` (the languages both ``bot`` and ``render`` speak) and ``engine``
import none of the project's packages. Read from the source, so a new import fails here."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PROJECT = {"engine", "render", "data", "bot", "i18n"}
ALLOWED = {
    "engine": {"engine"},
    "i18n": {"i18n"},
    "render": {"render", "engine", "i18n"},
    "data": {"data", "engine"},
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
