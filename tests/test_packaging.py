"""What ``pyproject.toml`` declares is what the code imports, and ``constraints.txt`` (the tested
versions, for a reproducible install) pins every declared package at a version it accepts.

Read from the source and the two files, so a new import or a new dependency fails here."""

from __future__ import annotations

import ast
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
SELF = "flaming-pyramids-bot"
PROJECT = {"engine", "render", "data", "rating", "bot", "i18n", "bench", "tests"}


def _project() -> dict[str, Any]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        project: dict[str, Any] = tomllib.load(f)["project"]
    return project


def _requirements(group: str) -> list[Requirement]:
    """``dependencies`` or an extra's list, without the project's references to itself."""
    project = _project()
    raw: list[str] = (
        project["dependencies"]
        if group == "dependencies"
        else project["optional-dependencies"][group]
    )
    return [r for r in map(Requirement, raw) if canonicalize_name(r.name) != SELF]


def _declared(*groups: str) -> set[str]:
    return {canonicalize_name(r.name) for g in groups for r in _requirements(g)}


def _third_party_modules(folder: str) -> set[str]:
    """The top-level modules outside the standard library and the project that ``folder``'s
    Python files import."""
    found: set[str] = set()
    for path in (ROOT / folder).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
    return {m for m in found if m not in sys.stdlib_module_names and m not in PROJECT}


def _distributions(modules: set[str]) -> dict[str, set[str]]:
    """Each module and the installed distributions that provide it."""
    providers = packages_distributions()
    return {m: {canonicalize_name(d) for d in providers.get(m, [])} for m in sorted(modules)}


@pytest.mark.parametrize(
    ("folders", "groups"),
    [
        (("engine", "render", "data", "rating", "bot", "i18n"), ("dependencies", "postgres")),
        (("tests", "bench"), ("dependencies", "postgres", "test")),
    ],
    ids=["the installed packages", "the tests and benches"],
)
def test_every_module_the_code_imports_is_declared_not_only_brought_in_by_another(
    folders: tuple[str, ...], groups: tuple[str, ...]
) -> None:
    declared = _declared(*groups)
    modules = set().union(*(_third_party_modules(f) for f in folders))
    assert modules, "no imports found"
    undeclared = {m: d for m, d in _distributions(modules).items() if not d & declared}
    assert undeclared == {}, f"declare them in pyproject.toml ({' or '.join(groups)})"


def _pins() -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, version = line.partition("==")
        assert sep, f"constraints.txt pins exact versions (name==version), not {line!r}"
        pins[canonicalize_name(name)] = Version(version)
    return pins


def test_the_constraints_pin_every_declared_package_at_a_version_pyproject_accepts() -> None:
    pins = _pins()
    groups = ["dependencies", *_project()["optional-dependencies"]]
    for group in groups:
        for req in _requirements(group):
            name = canonicalize_name(req.name)
            assert name in pins, f"{req.name} ({group}) is not in constraints.txt: refresh it"
            assert req.specifier.contains(pins[name], prereleases=True), (
                f"constraints.txt pins {req.name}=={pins[name]}, which {group} refuses ({req})"
            )
    assert SELF not in pins  # the project itself is installed from the checkout
