"""Properties over many generated cases: JSON round trips, and versions under any interleaving."""

from __future__ import annotations

import asyncio
import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from data.rows import JsonRangeError, dumps, loads
from data.sqlite import SqliteStore
from data.store import Seat, Table, TableOptions, VersionConflict
from engine import Game
from tests.data.helpers import NOW, move, random_move, start_table

INT64 = st.integers(min_value=-(2**63), max_value=2**64 - 1)
JSON = st.recursive(
    st.none()
    | st.booleans()
    | INT64
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
OPTIONS = st.builds(
    TableOptions,
    curse=st.booleans(),
    fire_die=st.booleans(),
    rounds=st.integers(1, 10),
    turn_limit_s=st.integers(60, 14 * 86400),
    reminder_s=st.integers(0, 86400),
    max_seats=st.integers(2, 6),
    thread=st.booleans(),
    preview=st.booleans(),
    hints=st.booleans(),
)
SEATS = st.lists(
    st.builds(
        Seat,
        st.none() | st.integers(min_value=0, max_value=2**63 - 1),
        st.text(),
        st.none() | st.sampled_from(["easy", "normal", "hard"]),
    ),
    max_size=4,
).map(tuple)


@given(JSON)
def test_json_round_trip(value: Any) -> None:
    assert loads(dumps(value)) == value


BEYOND_64_BITS = st.integers(max_value=-(2**63) - 1) | st.integers(min_value=2**64)
DIGITS = st.text("-0123456789", min_size=18, max_size=30)


@given(JSON, BEYOND_64_BITS, st.integers(min_value=0, max_value=4))
def test_an_integer_beyond_64_bits_is_refused_wherever_it_is(
    value: Any, big: int, depth: int
) -> None:
    nested: Any = big
    for i in range(depth):
        nested = [value, nested] if i % 2 else {"k": nested, "v": value}
    with pytest.raises(JsonRangeError):
        dumps(nested)


@given(DIGITS, st.integers(min_value=-(2**63), max_value=2**64 - 1))
def test_long_runs_of_digits_in_strings_and_64_bit_integers_are_stored(
    digits: str, number: int
) -> None:
    value = {digits: [digits, number, f"x{digits}y"], "n": -number}
    if -number < -(2**63):
        value["n"] = number
    assert loads(dumps(value)) == value


def test_edges_of_the_64_bit_range() -> None:
    for ok in (-(2**63), 2**64 - 1, 10**19, -(10**18), "1" * 5000):
        assert loads(dumps([ok])) == [ok]
    for bad in (-(2**63) - 1, 2**64, 10**20, -(10**19), 10**5000):
        with pytest.raises(JsonRangeError):
            dumps({"a": [bad]})


@settings(max_examples=25, deadline=None)
@given(OPTIONS, SEATS)
def test_lobby_round_trip(options: TableOptions, seats: tuple[Seat, ...]) -> None:
    async def run(folder: str) -> None:
        async with SqliteStore(Path(folder) / "p.db") as store:
            created = await store.create_table(1, 2, 3, options, seats, NOW)
            assert created.options == options and created.seats == seats
            assert await store.get_table(created.id) == created
            assert await store.open_tables() == [created]

    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(folder))


@settings(max_examples=15, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2)), min_size=1, max_size=40))
def test_versions_under_any_interleaving(ops: list[tuple[int, int]]) -> None:
    """Each op: a table and how many versions behind the writer is (0: up to date). A write
    wins exactly when it is up to date; the log then holds exactly the winning moves."""

    async def run(folder: str) -> None:
        async with SqliteStore(Path(folder) / "p.db") as store:
            rnd = random.Random(0)
            tables: list[Table] = []
            games: list[Game] = []
            history: list[list[Table]] = []
            for ch in range(3):
                table, game = await start_table(store, ch, players=2, seed=ch)
                tables.append(table)
                games.append(game)
                history.append([table])
            wins = [0, 0, 0]
            for index, behind in ops:
                game = games[index]
                if game.pending is None:
                    continue
                seen = history[index][max(0, len(history[index]) - 1 - behind)]
                trial = game.copy()
                seat, action = random_move(trial, rnd)
                try:
                    table = await move(store, seen, seat, action, trial.to_dict())
                except VersionConflict:
                    assert behind > 0 and len(history[index]) > 1
                    continue
                assert seen.version == tables[index].version
                games[index] = trial
                tables[index] = table
                history[index].append(table)
                wins[index] += 1
            for i, table in enumerate(tables):
                stored = await store.get_table(table.id)
                assert stored.version == table.version == 2 + wins[i]
                assert stored.state == games[i].to_dict()
                assert len(await store.action_log(table.id)) == wins[i]
            assert await store.check() == []

    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(folder))
