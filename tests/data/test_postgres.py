"""What only the PostgreSQL store has: its migrations under a lock, a server that goes away and
comes back, the pool's settings, and the throwaway server the tests and the bench start."""

from __future__ import annotations

import asyncio
import os
import random
import socket
from pathlib import Path

import asyncpg
import pytest

from data import open_store, postgres_settings
from data.pgmigrate import latest_version
from data.postgres import PostgresStore
from data.store import DatabaseDamaged, StoreError, Table, TableOptions
from tests.data.test_contract import NOW, SEATS, one_move, started
from tests.pgserver import PgServer, PgServerUnavailable


async def versions(url: str) -> list[int]:
    conn = await asyncpg.connect(url)
    try:
        return [r[0] for r in await conn.fetch("SELECT version FROM schema_version ORDER BY 1")]
    finally:
        await conn.close()


async def test_stores_starting_together_on_an_empty_database_apply_each_migration_once(
    pg_empty_url: str,
) -> None:
    stores = [PostgresStore(pg_empty_url, pool_min=1, pool_max=2) for _ in range(5)]
    try:
        await asyncio.gather(*(s.open() for s in stores))
        assert await versions(pg_empty_url) == list(range(1, latest_version() + 1))
        table = await stores[0].create_table(1, 2, 3, TableOptions(), SEATS, NOW)
        assert (await stores[4].get_table(table.id)).seats == SEATS
    finally:
        for s in stores:
            await s.close()


async def test_a_database_holding_someone_elses_tables_is_refused(pg_empty_url: str) -> None:
    conn = await asyncpg.connect(pg_empty_url)
    try:
        await conn.execute("CREATE TABLE tables (id int)")
    finally:
        await conn.close()
    store = PostgresStore(pg_empty_url)
    with pytest.raises(DatabaseDamaged, match="not a Flaming Pyramids database"):
        await store.open()
    await store.close()
    conn = await asyncpg.connect(pg_empty_url)
    try:
        assert await conn.fetchval("SELECT to_regclass('schema_version')") is None
    finally:
        await conn.close()


async def test_a_server_restarted_under_a_running_store_is_waited_for(
    pg_server: PgServer, pg_url: str
) -> None:
    rnd = random.Random(3)
    async with PostgresStore(pg_url, pool_min=2, pool_max=4, retry_s=30) as store:
        table, game = await started(store, 10)
        table = await one_move(store, table, game, rnd)
        pg_server.halt()
        try:
            moving = asyncio.ensure_future(one_move(store, table, game, rnd))
            reading = asyncio.ensure_future(store.open_tables())
            await asyncio.sleep(1.0)
            assert not moving.done() and not reading.done()  # waiting, not failing
        finally:
            pg_server.launch()
        table = await moving
        assert [t.id for t in await reading] == [table.id]
        back = await store.get_table(table.id)
        assert back.version == table.version and back.state == game.to_dict()
        assert await store.check() == []


async def test_a_server_that_stays_away_fails_clearly_instead_of_hanging(
    pg_server: PgServer, pg_url: str
) -> None:
    rnd = random.Random(4)
    async with PostgresStore(pg_url, pool_min=1, pool_max=2, retry_s=1.0) as store:
        table, game = await started(store, 11)
        pg_server.halt()
        try:
            with pytest.raises(StoreError, match=r"did not come back|cannot reach"):
                await one_move(store, table, game, rnd)
            with pytest.raises(StoreError, match=r"did not come back|cannot reach"):
                await store.open_tables()
        finally:
            pg_server.launch()
        assert (await store.get_table(table.id)).version == table.version  # nothing written


async def test_the_lock_of_a_kept_message_fails_as_a_store_error_while_the_server_is_away(
    pg_server: PgServer, pg_url: str
) -> None:
    # (The show side takes it to edit a table's message after a move; whoever asked for the
    # move is told the database is out of reach, as for any other failing read or write.)
    async with PostgresStore(pg_url, pool_min=1, pool_max=2, retry_s=1.0) as store:
        table, _ = await started(store, 13)
        pg_server.halt()
        try:
            await asyncio.sleep(0.2)  # the pool's connections see the server go
            with pytest.raises(StoreError, match=r"cannot reach"):
                async with store.message_edit(table.id, "board", table.version):
                    pass
        finally:
            pg_server.launch()
        async with store.message_edit(table.id, "board", table.version) as go:
            assert go


async def test_a_connection_cut_between_moves_is_replaced_and_the_move_goes_through(
    pg_url: str,
) -> None:
    rnd = random.Random(5)
    async with PostgresStore(pg_url, pool_min=2, pool_max=2) as store:
        table, game = await started(store, 12)
        for _ in range(3):
            admin = await asyncpg.connect(pg_url)
            try:
                cut = await admin.fetchval(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE application_name = 'flaming-pyramids' AND datname = current_database()"
                )
            finally:
                await admin.close()
            # every connection the pool has is cut (it may not have reopened its second yet)
            assert cut >= 1
            table = await one_move(store, table, game, rnd)
        assert len(await store.action_log(table.id)) == 3
        assert await store.check() == []


async def test_a_store_that_was_never_opened_says_so(pg_url: str) -> None:
    with pytest.raises(StoreError, match="not open"):
        await PostgresStore(pg_url).get_table(1)


async def test_a_database_that_does_not_exist_is_named_in_the_error(pg_server: PgServer) -> None:
    store = PostgresStore(pg_server.url("no_such_database"), retry_s=1)
    with pytest.raises(StoreError, match="no_such_database"):
        await store.open()


@pytest.mark.parametrize("scheme", ["postgresql", "postgres"])
def test_a_postgres_url_opens_the_postgresql_store(
    scheme: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"{scheme}://bot:secret@db.example/games")
    monkeypatch.setenv("DATABASE_POOL_MIN", "3")
    monkeypatch.setenv("DATABASE_POOL_MAX", "12")
    store = open_store()
    assert isinstance(store, PostgresStore)
    assert (store.pool_min, store.pool_max) == (3, 12)
    assert "secret" not in repr(store)


def test_pool_settings_default_and_refuse_what_does_not_fit() -> None:
    assert postgres_settings({}) == {
        "pool_min": 2,
        "pool_max": 10,
        "timeout_s": 30.0,
        "retry_s": 15.0,
    }
    assert postgres_settings({"DATABASE_POOL_MAX": "1"})["pool_min"] == 1
    assert postgres_settings({"DATABASE_TIMEOUT": "2.5"})["timeout_s"] == 2.5
    for env, problem in [
        ({"DATABASE_POOL_MAX": "many"}, "DATABASE_POOL_MAX must be a number"),
        ({"DATABASE_POOL_MAX": "0"}, "at least 1"),
        ({"DATABASE_POOL_MIN": "5", "DATABASE_POOL_MAX": "4"}, "not be above"),
        ({"DATABASE_RETRY": "-1"}, "must not be negative"),
    ]:
        with pytest.raises(ValueError, match=problem):
            postgres_settings(env)


def test_without_server_binaries_the_starter_says_how_to_install_postgresql(
    tmp_path: Path,
) -> None:
    with pytest.raises(PgServerUnavailable, match="apt-get install postgresql"):
        PgServer.start(bindir=tmp_path)


def test_the_test_server_runs_unprivileged(pg_server: PgServer) -> None:
    owner = pg_server.datadir.stat().st_uid
    assert owner != 0 or os.geteuid() != 0
    assert pg_server.process is not None and pg_server.process.poll() is None


async def test_a_caller_waits_for_a_busy_pool_no_longer_than_its_limits(pg_url: str) -> None:
    async with PostgresStore(pg_url, pool_min=1, pool_max=1, timeout_s=0.5, retry_s=0.5) as store:
        table = await store.create_table(1, 2, 3, TableOptions(), SEATS, NOW)
        async with store.connection():  # the only connection, held
            with pytest.raises(StoreError, match="no database connection came free"):
                await store.get_table(table.id)
        assert (await store.get_table(table.id)).id == table.id  # and then served again


async def test_a_move_held_up_by_a_lock_fails_clearly_after_the_timeout_and_writes_nothing(
    pg_url: str,
) -> None:
    async with PostgresStore(pg_url, pool_min=1, pool_max=2, timeout_s=0.5) as store:
        table, game = await started(store, 13)
        assert game.pending is not None
        seat = game.pending.player
        action = game.legal_actions()[0]
        game.apply(action, seat)

        async def move() -> Table:
            return await store.apply_action(
                table.id,
                table.version,
                seat=seat,
                user_id=None,
                action=action.to_dict(),
                state=game.to_dict(),
                deadline=None,
                reminder_at=None,
                now=NOW,
            )

        admin = await asyncpg.connect(pg_url)
        try:
            locker = admin.transaction()
            await locker.start()
            await admin.execute("SELECT 1 FROM tables WHERE id = $1 FOR UPDATE", table.id)
            with pytest.raises(StoreError, match=r"did not answer within 0\.5 s.*nothing was"):
                await move()
            await locker.rollback()
        finally:
            await admin.close()
        assert (await store.get_table(table.id)).version == table.version
        assert await store.action_log(table.id) == []
        assert (await move()).version == table.version + 1  # the lock gone, it goes through
        assert await store.check() == []


async def test_the_waits_for_a_database_that_is_away_are_doubled_with_a_random_part(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Half to all of each doubled wait, at random: processes that lost the database together
    do not all knock at the same instant when it comes back."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there
    store = PostgresStore(f"postgresql://bot@127.0.0.1:{port}/fp", retry_s=2.0)
    with caplog.at_level("WARNING", logger="data.pg_db"), pytest.raises(StoreError):
        await store.open()
    waits = [float(r.args[1]) for r in caplog.records if "trying again in" in r.msg]  # type: ignore[arg-type,index]
    assert len(waits) >= 4, waits
    delays = [min(0.05 * 2**i, 1.0) for i in range(len(waits))]
    assert all(d / 2 <= w <= d for w, d in zip(waits, delays, strict=True)), (waits, delays)
    assert waits != delays
