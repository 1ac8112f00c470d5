"""A file of ``bot/`` holds one job, and past 400 lines it says why it is still one: its module
docstring (its opening comment) contains the words "Over 400 lines" followed by the reason
(``bot/README.md``, "Big files"). Read from the source, so a file that grows past the limit
fails here until it is cut along its jobs or its reason is written."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 400
REASON = re.compile(r"over 400 lines\W+(\w+\W+){5,}", re.IGNORECASE)
"""The marker, then a reason of at least a few words."""


def long_files_without_reason() -> list[str]:
    out = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        text = path.read_text()
        if len(text.splitlines()) <= LIMIT:
            continue
        doc = ast.get_docstring(ast.parse(text, str(path))) or ""
        if not REASON.search(" ".join(doc.split())):
            out.append(str(path.relative_to(ROOT)))
    return out


def test_a_file_of_bot_over_400_lines_says_why_in_its_opening_comment() -> None:
    assert long_files_without_reason() == []


def test_the_reason_is_the_marker_then_words() -> None:
    assert REASON.search("Over 400 lines, as one job: one short class per button, read together.")
    assert not REASON.search("Over 400 lines.")
    assert not REASON.search("The file is longer than most, on purpose.")
