"""Every file the bot attaches carries its description, the alt text a screen reader reads for
it: files are made in one place, :func:`bot.show.message.attachment`, which always gives one and
keeps it within Discord's 1,024 characters. Read from the source, so a ``discord.File`` made
anywhere else (without a description, or with a fixed one) fails here."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.show.message import attachment
from render import alttext

ROOT = Path(__file__).resolve().parents[2]


def files_made() -> list[str]:
    """``path:function`` of every ``discord.File(...)`` (or ``File(...)``) built in ``bot/``."""
    found = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(func):
                if isinstance(node, ast.Call) and ast.unparse(node.func) in (
                    "discord.File",
                    "File",
                ):
                    found.append(f"{path.relative_to(ROOT)}:{func.name}")
    return found


def test_every_file_the_bot_sends_is_made_with_its_description() -> None:
    assert files_made() == ["bot/show/message.py:attachment"]


def test_a_description_is_kept_within_discords_limit() -> None:
    long = attachment(b"x", "pyramid.png", "Row 1: " + "yellow 40, " * 200)
    assert long.description is not None and len(long.description) == alttext.LIMIT
    assert long.description.endswith("…")
    short = attachment(b"x", "pyramid.png", "Row 1: spot A.")
    assert (short.filename, short.description) == ("pyramid.png", "Row 1: spot A.")
