"""Fixtures for the table service tests: a real SQLite store on a temporary file and a clock
the test moves by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.service import SpotChoice, Step, TableService, first_legal
from data.store import Store, TableDefaults
from engine import Game
from tests.conftest import SQLITE_FILE

GUILD = 1000
CHANNEL = 2000
ALICE, BOB, CAROL, DAVE = 11, 12, 13, 14
START = 1_700_000_000.0


class ManualClock:
    """Unix time that only moves when the test says so."""

    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """The SQLite file the ``store`` fixture uses (asking for it makes the test SQLite-only)."""
    return tmp_path / SQLITE_FILE


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def store(backend_store: Store) -> Store:
    """A real store on each backend in turn (see ``tests/conftest.py``): the table service
    behaves the same on SQLite and PostgreSQL. A test that asks for ``db_path`` runs on SQLite
    only."""
    return backend_store


def make_service(store: Store, clock: ManualClock, **kwargs: Any) -> TableService:
    """A service whose computer players play the first legal action (fast and deterministic)
    and whose matches are dealt from seed 7."""
    kwargs.setdefault("ai", lambda level, view, seed: first_legal(view))
    kwargs.setdefault("seed_source", lambda: 7)
    return TableService(store, clock=clock, **kwargs)


@pytest.fixture
def service(store: Store, clock: ManualClock) -> TableService:
    return make_service(store, clock)


async def lobby(service: TableService, *users: int, **options: Any) -> int:
    """A lobby in CHANNEL hosted by the first user, the others seated; returns its id. Its
    turns are handed on at once (no undo window) unless ``undo_s`` says otherwise: the undo
    window's own tests ask for one."""
    options.setdefault("undo_s", 0)
    board = await service.new_table(
        GUILD, CHANNEL, users[0], f"user{users[0]}", TableDefaults(**options)
    )
    for u in users[1:]:
        board = await service.join(board.table_id, u, f"user{u}")
    return board.table_id


def state(**overrides: Any) -> dict[str, Any]:
    """A scenario-format state (RULES 8) with defaults for three players."""
    base: dict[str, Any] = {
        "players": 3,
        "options": {"curse": False, "fire_die": False},
        "pyramid": {"0,0": "Y30", "0,2": "R10"},
        "hands": [["Y40", "B2"], ["R2", "G2"], ["B4", "Y4"]],
        "piles": [["R20"], ["G20"], ["B10"]],
        "active": 0,
    }
    base.update(overrides)
    return base


def with_rounds(s: dict[str, Any], rounds: int) -> dict[str, Any]:
    """The same state as a saved game of a ``rounds``-round match."""
    game = Game.from_dict(s)
    game.rounds = rounds
    return game.to_dict()


async def play_tile(
    service: TableService, table_id: int, user_id: int, tile: str, digest: str, spot: int = 0
) -> Step:
    """A tile press then a spot press (the spot step always comes, even with one spot)."""
    choice = await service.play(table_id, user_id, tile, digest)
    assert isinstance(choice, SpotChoice), choice
    return await service.choose_spot(table_id, choice.version, user_id, tile, choice.spots[spot][1])
