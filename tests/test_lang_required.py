"""Every text is written for a reader the caller names: no function of the project takes a
language by default. A parameter ``lang`` with a default (``lang: Language = ENGLISH``), or a
dataclass field ``lang`` with one, lets a forgotten argument speak English to a French player
with no type error; required, mypy finds every caller that names nobody. Read from the source,
so a new default fails here."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "render", "data", "rating", "bot", "i18n", "bench")


def defaulted_langs(path: Path, root: Path = ROOT) -> Iterator[str]:
    """``file:line name`` of each parameter or class field named ``lang`` with a default
    (``file`` relative to ``root``)."""
    where = path.relative_to(root)
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            args = node.args
            positional = [*args.posonlyargs, *args.args]
            defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
            pairs = [
                *zip(positional, defaults, strict=True),
                *zip(args.kwonlyargs, args.kw_defaults, strict=True),
            ]
            name = getattr(node, "name", "lambda")
            for arg, default in pairs:
                if arg.arg == "lang" and default is not None:
                    yield f"{where}:{arg.lineno} {name}"
        elif isinstance(node, ast.ClassDef):
            for field in node.body:
                if (
                    isinstance(field, ast.AnnAssign)
                    and isinstance(field.target, ast.Name)
                    and field.target.id == "lang"
                    and field.value is not None
                    and not is_required_field(field.value)
                ):
                    yield f"{where}:{field.lineno} {node.name}.lang"


def is_required_field(value: ast.expr) -> bool:
    """``field(kw_only=True)`` and the like: a dataclass field without a default."""
    return (
        isinstance(value, ast.Call)
        and ast.unparse(value.func) in ("field", "dataclasses.field")
        and not any(k.arg in ("default", "default_factory") for k in value.keywords)
    )


def test_no_lang_has_a_default() -> None:
    found = [
        spot
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        for spot in defaulted_langs(path)
    ]
    assert found == []


def test_the_check_sees_a_default(tmp_path: Path) -> None:
    """The check itself: each way of giving ``lang`` a default is found."""
    source = tmp_path / "sample.py"
    source.write_text(
        "def a(x, lang=ENGLISH): ...\n"
        "def b(x, *, lang: Language = ENGLISH): ...\n"
        "async def c(lang=None): ...\n"
        "class D:\n"
        "    lang: Language = ENGLISH\n"
        "class E:\n"
        "    lang: Language = field(kw_only=True)\n"
        "def f(x, lang: Language): ...\n"
    )
    found = [spot.split(" ")[1] for spot in defaulted_langs(source, tmp_path)]
    assert found == ["a", "b", "c", "D.lang"]
