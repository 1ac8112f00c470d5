"""The documents a newcomer reads: the README's quick start is the commands CI runs, the rules
live in the repository, every link between the documents leads somewhere, the slash commands
and schema versions they name are the bot's, and the commands they tell people to type run as
typed (here, where they can: in a folder of their own, with the bot's data folder there too;
those that need Discord, a PostgreSQL server of yours or minutes of CPU are named with the test
that covers them instead)."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from discord import app_commands

from bot.cogs import breaks as breaks_cog
from bot.cogs import help as help_cog
from bot.cogs import records as records_cog
from bot.cogs.tables import Tables
from data import migrate, pgmigrate
from tests.fakediscord.fixtures import *  # noqa: F403 - fake_world, start_bot (the README's example)
from tests.fakediscord.fixtures import StartBot, World

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: Every document that tells people what to type (the changelog tells what changed: not here).
GUIDES = [
    *DOCS,
    *(ROOT / p / "README.md" for p in ("bot", "data", "render", "engine/ai", "tests/fakediscord")),
]
VENV = "python3 -m venv .venv && . .venv/bin/activate && "
RUN_BOT = VENV + "pip install -e . && python -m bot"
RUN_TESTS = VENV + "pip install -e '.[test]' && python -m pytest -q -n auto"
#: A token of the right shape (three base64url parts); Discord never issued it.
TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.not-a-real-token-but-shaped-like-one_0123"


def _anchors(path: Path) -> set[str]:
    """GitHub's anchors for the headings of ``path``."""
    heads = re.findall(r"^#+ (.+)$", path.read_text(), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in heads}


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    level = heading.split(" ", 1)[0]
    end = text.find(f"\n{level} ", start + 1)
    return text[start : end if end >= 0 else len(text)]


def _code_blocks(path: Path, language: str = "") -> list[str]:
    """The fenced code blocks of ``path`` (of ``language`` if given), indented ones too."""
    blocks = re.findall(r"^ *```(\w*)\n(.*?)^ *```", path.read_text(), re.MULTILINE | re.DOTALL)
    return [code for lang, code in blocks if not language or lang == language]


def documented_commands() -> set[str]:
    """Every command line in the guides' code blocks, without its comment, and each command of
    a line that chains several with ``&&``."""
    lines = {
        line.split("  #", 1)[0].strip()
        for path in GUIDES
        for block in _code_blocks(path)
        for line in block.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    }
    return lines | {part.strip() for line in lines for part in line.split(" && ")}


def test_the_quick_start_runs_the_bot_and_the_tests_as_ci_does() -> None:
    quick = _section((ROOT / "README.md").read_text(), "## Quick start")
    commands = [
        line.strip()
        for block in re.findall(r"```sh\n(.*?)```", quick, re.DOTALL)
        for line in block.splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert commands == [RUN_BOT, RUN_TESTS]
    # CI's last step is the README's test command, word for word.
    ci = [line for line in (ROOT / ".ci" / "run").read_text().splitlines() if line.strip()]
    assert ci[-1] == RUN_TESTS


def test_the_checks_the_readme_lists_are_the_ones_ci_runs() -> None:
    development = _section((ROOT / "README.md").read_text(), "## Development")
    (checks,) = (b for b in re.findall(r"```sh\n(.*?)```", development, re.DOTALL) if "ruff" in b)
    listed = [line.split("  #", 1)[0].strip() for line in checks.splitlines() if line.strip()]
    ci = [
        line.strip()
        for line in (ROOT / ".ci" / "run").read_text().splitlines()
        if line.startswith(("ruff ", "mypy "))
    ]
    assert listed == [*ci, "python -m pytest -q -n auto"]
    assert RUN_TESTS.endswith(listed[-1])


def test_constraints_hold_only_what_the_readmes_refresh_command_writes() -> None:
    refresh = "pip install '.[dev]' && pip freeze --exclude flaming-pyramids-bot > constraints.txt"
    assert refresh in (ROOT / "README.md").read_text()
    lines = (ROOT / "constraints.txt").read_text().splitlines()
    # pip freeze writes name==version lines and nothing else: a header would not survive it.
    assert all(re.fullmatch(r"[A-Za-z0-9._-]+==\S+", line) for line in lines), lines


def test_the_readme_points_to_the_rules_in_the_repository_not_to_a_missing_file() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "RULES.md" not in readme
    assert "](docs/rules.md)" in readme
    rules = (ROOT / "docs" / "rules.md").read_text()
    for n in range(1, 9):
        assert re.search(rf"^## {n}\. ", rules, re.MULTILINE), f"rules section {n}"


@pytest.mark.parametrize("doc", GUIDES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_heading_that_exist(doc: Path) -> None:
    for link in re.findall(r"\]\(([^)\s]+)\)", doc.read_text()):
        if re.match(r"[a-z]+:", link):
            continue
        path, _, anchor = link.partition("#")
        target = (doc.parent / path).resolve() if path else doc
        assert target.exists(), f"{doc.name}: {link}"
        if anchor and target.suffix == ".md":
            assert anchor in _anchors(target), f"{doc.name}: {link}"


# --- what the documents name ----------------------------------------------------------------------


def _slash_commands() -> dict[str, set[str]]:
    """The bot's slash commands as people type them (``fp new``, ``fp-settings``), each with
    its options."""
    found: dict[str, set[str]] = {}
    added = [  # (into /fp at load)
        *records_cog.SLASH_COMMANDS,
        *breaks_cog.SLASH_COMMANDS,
        *help_cog.SLASH_COMMANDS,
    ]
    for command in Tables.__cog_app_commands__:
        if isinstance(command, app_commands.Group):
            for sub in [*command.commands, *added]:
                assert isinstance(sub, app_commands.Command)
                found[f"{command.name} {sub.name}"] = {p.name for p in sub.parameters}
        else:
            found[command.name] = {p.name for p in command.parameters}
    return found


def test_every_slash_command_the_guides_name_is_the_bots_with_its_options() -> None:
    commands = _slash_commands()
    assert "fp-settings" in commands and "fp settings" not in commands
    named = 0
    for doc in GUIDES:
        text = doc.read_text()
        # The server's settings moved from /fp settings to /fp-settings, in every form.
        assert not re.search(r"/fp settings\b", text), f"{doc.name}: /fp settings"
        for typed in re.findall(r"`/(fp[^`]*)`", text):
            words = typed.split()
            if words == ["fp"]:
                continue
            name = " ".join(words[:2]) if words[0] == "fp" else words[0]
            assert name in commands, f"{doc.name}: /{typed}"
            for option in words[len(name.split()) :]:
                option = option.strip("[]").split(":", 1)[0]
                assert option in commands[name], f"{doc.name}: /{typed}: no option {option}"
            named += 1
    assert named > 20


def test_the_schema_versions_the_documents_give_are_this_releases() -> None:
    sqlite, postgres = migrate.latest_version(), pgmigrate.latest_version()
    operating = (ROOT / "docs" / "operating.md").read_text()
    assert f"The schema versions of this release: SQLite {sqlite}, PostgreSQL {postgres}" in (
        " ".join(operating.split())
    )
    assert re.findall(r"schema version (\d+)", operating) == [str(sqlite)]
    data = " ".join((ROOT / "data" / "README.md").read_text().split())
    assert f"This release's SQLite schema is version {sqlite} (`{sqlite:04d}_" in data
    assert f"to this release's version {postgres}, `{postgres:04d}_" in data


# --- the commands, as typed -----------------------------------------------------------------------

#: Documented commands this file does not run, and where they are covered instead.
ELSEWHERE = {
    "python -m engine.ai arena hard normal --players 4 --games 100 --seed 1": "tests/ai (minutes)",
    "python -m engine.ai arena LEVEL_A LEVEL_B --players N --games G --seed S [--json]": (
        "a usage line, not a command: tests/ai/test_arena.py"
    ),
    "python -m engine.ai review match-12.json [--node-limit 2000] [--deals 24] "
    "[--time-budget inf] [--nice 19]": "a usage line, not a command: tests/ai/test_review.py",
    "python -m data copy ~/.local/share/flaming-pyramids/flaming_pyramids.db "
    "postgresql://bot@db/fp": "tests/data/test_copy.py (needs a PostgreSQL server)",
    "python -m data copy /var/lib/flaming-pyramids/flaming_pyramids.db "
    "postgresql://bot:secret@db.example/flaming_pyramids": "tests/data/test_copy.py",
    "python -m tests.fakediscord.contract.derive --git <a clone of discord/discord-api-spec>": (
        "needs a clone of Discord's spec: tests/fake/test_contract.py"
    ),
    "python -m pytest tests/bot tests/e2e": "the suite itself",
    "python -m pytest -q -n auto": "the suite itself, as CI runs it (.ci/run)",
    "python bench/load.py --tables 200": "tests/test_bench.py (two tables)",
    "python bench/load.py --processes 3 --store postgres --tables 200": "-m slow (load smoke)",
    "python bench/table_counts.py": "tests/e2e/test_table_counts.py",
    "python bench/table_counts.py --wait": "tests/e2e/test_table_counts.py (waited_counts)",
    "python bench/table_counts.py --private bob": "tests/e2e/test_table_counts.py",
    "python bench/table_counts.py --players 2 --curse --rounds 2 --private alice": (
        "tests/e2e/test_table_counts.py"
    ),
    "python bench/table_counts.py --french --transcript game.txt": (
        "tests/e2e/test_table_counts.py (private_counts)"
    ),
    "python bench/table_counts.py --hints alice": "tests/e2e/test_table_counts.py (hinted_counts)",
    "python bench/taps.py": "tests/test_bench.py (one table per gap)",
    "python bench/taps.py --second place": "tests/test_bench.py (one table per gap)",
    "flaming-pyramids": "needs Discord: tests/bot/test_startup.py against a local one",
}


def _typed(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``command`` as a reader types it in ``cwd``: ``python`` is this interpreter and
    ``flaming-pyramids`` its installed script; the bot's data folder and settings are the
    test's own (no token unless the test gives one)."""
    assert command in documented_commands(), f"not in the documents: {command}"
    argv = shlex.split(command)
    if argv[0] == "python":
        argv[0] = sys.executable
    elif argv[0] == "flaming-pyramids":
        argv[0] = str(Path(sys.executable).with_name("flaming-pyramids"))
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL")}
    env["STATE_DIRECTORY"] = str(cwd / "state")
    return subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False
    )


def test_the_quick_start_bot_command_without_a_token_says_so_in_one_line(tmp_path: Path) -> None:
    done = _typed("python -m bot", tmp_path)  # the end of RUN_BOT, once installed
    assert RUN_BOT.endswith(" && python -m bot")
    assert done.returncode == 2
    assert done.stdout == "" and len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith("flaming pyramids bot: DISCORD_TOKEN is not set: ")
    assert f"there is no {tmp_path / '.env'} " in done.stderr and ".env.example" in done.stderr


def test_the_engine_commands_deal_and_run_a_scenario(tmp_path: Path) -> None:
    dealt = _typed("python -m engine new --players 3 --seed 7 --curse", tmp_path)
    assert dealt.returncode == 0, dealt.stderr
    state = json.loads(dealt.stdout)
    assert state["players"] == 3 and state["options"]["curse"] is True
    (tmp_path / "scenario.json").write_text(json.dumps({**state, "actions": []}))
    ran = _typed("python -m engine run scenario.json", tmp_path)
    assert ran.returncode == 0, ran.stderr
    assert json.loads(ran.stdout)["hands"] == state["hands"]


def test_the_engine_bench_plays_its_games_and_prints_its_figures(tmp_path: Path) -> None:
    done = _typed("python -m engine bench --players 4 --games 2000 --seed 1", tmp_path)
    assert done.returncode == 0, done.stderr
    assert re.search(r"^\s*capped games\s+0 ", done.stdout, re.MULTILINE), done.stdout
    assert "turns per game" in done.stdout


def test_the_rules_scenario_command_deals_with_the_fire_die(tmp_path: Path) -> None:
    done = _typed("python -m engine new --players 3 --seed 7 --curse --fire-die", tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["options"] == {"curse": True, "fire_die": True}


def test_the_data_commands_migrate_and_check_the_default_database(tmp_path: Path) -> None:
    default = tmp_path / "state" / "flaming_pyramids.db"
    (tmp_path / "state").mkdir()
    migrated = _typed("python -m data migrate", tmp_path)
    assert migrated.returncode == 0, migrated.stderr
    assert migrated.stdout == f"{default}: schema version {migrate.latest_version()}\n"
    checked = _typed("python -m data check", tmp_path)
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.startswith("ok: 0 tables checked")


def test_flaming_pyramids_check_says_what_the_operating_guide_shows(tmp_path: Path) -> None:
    (tmp_path / "state").mkdir()
    assert _typed("python -m data migrate", tmp_path).returncode == 0
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\n")  # as the guide's cp .env.example
    done = _typed("flaming-pyramids check", tmp_path)
    assert done.returncode == 0, done.stderr
    shown = [b for b in _code_blocks(ROOT / "docs" / "operating.md") if "configuration: ok" in b]
    assert len(shown) == 1
    expected = shown[0].strip().splitlines()
    got = done.stdout.strip().splitlines()
    assert [ln.split(" ", 1)[0] for ln in got] == [ln.split(" ", 1)[0] for ln in expected]
    assert got[0] == expected[0]  # the same version, the same shards
    # The guide's example differs in the path and the tables only, never in the schema version.
    assert f"schema version {migrate.latest_version()}," in expected[1]
    assert got[1] == f"database: SQLite {tmp_path / 'state' / 'flaming_pyramids.db'}, " + (
        f"schema version {migrate.latest_version()}, 0 open tables: ok"
    )


@pytest.mark.parametrize(
    "command", ["python -m render demo pictures/", "python -m render demo pictures-fr/ --lang fr"]
)
def test_the_render_demo_writes_its_pictures(tmp_path: Path, command: str) -> None:
    done = _typed(command, tmp_path)
    assert done.returncode == 0, done.stderr
    folder = tmp_path / shlex.split(command)[4]
    assert len(list(folder.glob("*.png"))) >= 5 and list(folder.glob("*.gif"))


def test_every_documented_python_command_is_run_here_or_named_with_its_test() -> None:
    here = Path(__file__).read_text()
    runnable = re.compile(r"^(python -m |python bench/|flaming-pyramids)")
    unrun = sorted(
        c
        for c in documented_commands()
        if runnable.match(c) and c not in ELSEWHERE and f'"{c}"' not in here
    )
    assert unrun == []
    stale = sorted(c for c in ELSEWHERE if c not in documented_commands())
    assert stale == []


async def test_the_fake_discords_readme_example_runs(
    fake_world: World, start_bot: StartBot, tmp_path: Path
) -> None:
    (example,) = (
        block
        for block in _code_blocks(ROOT / "tests" / "fakediscord" / "README.md", "python")
        if "async def test_new_game" in block
    )
    scope: dict[str, object] = {}
    exec(compile(example, "tests/fakediscord/README.md", "exec"), scope)
    await scope["test_new_game"](fake_world, start_bot, tmp_path)  # type: ignore[operator]
