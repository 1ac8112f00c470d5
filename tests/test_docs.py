"""The documents a newcomer reads: the README's quick start is the commands CI runs, the rules
live in the repository, and every link between the documents leads somewhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
RUN_BOT = "pip install -e . && python -m bot"
RUN_TESTS = "pip install -e '.[test]' && python -m pytest -q -n auto"


def _anchors(path: Path) -> set[str]:
    """GitHub's anchors for the headings of ``path``."""
    heads = re.findall(r"^#+ (.+)$", path.read_text(), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in heads}


def test_the_quick_start_runs_the_bot_and_the_tests_as_ci_does() -> None:
    readme = (ROOT / "README.md").read_text()
    quick = readme[
        readme.index("## Quick start") : readme.index("\n## ", readme.index("## Quick start") + 1)
    ]
    assert RUN_BOT in quick and RUN_TESTS in quick
    assert RUN_TESTS in (ROOT / ".ci" / "run").read_text()


def test_the_readme_points_to_the_rules_in_the_repository_not_to_a_missing_file() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "RULES.md" not in readme
    assert "](docs/rules.md)" in readme
    rules = (ROOT / "docs" / "rules.md").read_text()
    for n in range(1, 9):
        assert re.search(rf"^## {n}\. ", rules, re.MULTILINE), f"rules section {n}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_relative_link_leads_to_a_file_and_heading_that_exist(doc: Path) -> None:
    for link in re.findall(r"\]\(([^)\s]+)\)", doc.read_text()):
        if re.match(r"[a-z]+:", link):
            continue
        path, _, anchor = link.partition("#")
        target = (doc.parent / path).resolve() if path else doc
        assert target.exists(), f"{doc.name}: {link}"
        if anchor and target.suffix == ".md":
            assert anchor in _anchors(target), f"{doc.name}: {link}"
