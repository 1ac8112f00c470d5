"""``python -m bot`` as a process, started the ways an operator gets wrong and the ways the world
fails it: every problem is one line on stderr naming it and what to do, with exit status 2 when
the settings or the machine must change and 1 when starting again may work; Ctrl+C and SIGTERM
stop it cleanly at any moment; ``python -m bot check`` checks without connecting."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import resource
import signal
import socket
import sqlite3
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import yarl

import bot
from bot.config import Config
from bot.startup import Fatal, Unreachable, wait_for_discord
from tests.alerts import AlertChannel
from tests.fakediscord.fixtures import running_world
from tests.mounts import fill, make_read_only, private_mounts, tmpfs

REPO = Path(__file__).resolve().parents[2]
#: A token of the right shape (three base64url parts) that Discord never issued.
TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.not-a-real-token-but-shaped-like-one_0123"
PREFIX = "flaming pyramids bot: "
#: Every variable the bot reads, removed from the test process's environment for the bot's.
SETTINGS = (
    "DISCORD_TOKEN",
    "DATABASE_URL",
    "DATABASE_POOL_MIN",
    "DATABASE_POOL_MAX",
    "DATABASE_TIMEOUT",
    "DATABASE_RETRY",
    "DEV_GUILD_ID",
    "LOG_LEVEL",
    "SHARD_COUNT",
    "SHARD_IDS",
    "DISCORD_API_BASE_URL",
    "DISCORD_GATEWAY_URL",
    "DISCORD_TIMEOUT",
    "DISCORD_START_RETRY",
    "ERROR_WEBHOOK_URL",
    "STATE_DIRECTORY",
    "FP_TEST_MODE",
    "FP_EXTENSIONS",
)


@dataclass
class Done:
    """A finished bot process."""

    status: int
    out: str
    err: str

    @property
    def ours(self) -> list[str]:
        """The bot's one-line reports on stderr (not its log lines)."""
        return [ln for ln in self.err.splitlines() if ln.startswith(PREFIX)]

    def one_line(self) -> str:
        """The one report, checked to be the only one and the last line, with no traceback."""
        assert "Traceback" not in self.err, self.err
        assert len(self.ours) == 1, self.err
        assert self.err.strip().splitlines()[-1] == self.ours[0], self.err
        return self.ours[0][len(PREFIX) :]


def bot_env(tmp_path: Path, **settings: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    env.update(
        PYTHONPATH=str(REPO),
        PYTHONUNBUFFERED="1",
        XDG_DATA_HOME=str(tmp_path / "xdg"),
        DISCORD_TOKEN=TOKEN,
        DATABASE_URL=f"sqlite:///{tmp_path / 'games.db'}",
        DISCORD_START_RETRY="",
    )
    env.update(settings)
    return {k: v for k, v in env.items() if v is not None}


async def start(tmp_path: Path, *args: str, **settings: str) -> asyncio.subprocess.Process:
    cwd = tmp_path / "cwd"
    cwd.mkdir(exist_ok=True)
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        cwd=cwd,
        env=bot_env(tmp_path, **settings),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def finish(proc: asyncio.subprocess.Process, timeout: float = 60) -> Done:
    try:
        out, err = await asyncio.wait_for(proc.communicate(), timeout)
    except TimeoutError:
        proc.kill()
        out, err = await proc.communicate()
        raise AssertionError(f"the bot did not stop:\n{err.decode()}") from None
    assert proc.returncode is not None
    return Done(proc.returncode, out.decode(), err.decode())


async def run_bot(tmp_path: Path, *args: str, **settings: str) -> Done:
    return await finish(await start(tmp_path, *args, **settings))


async def wait_for_line(proc: asyncio.subprocess.Process, words: str, seen: list[str]) -> None:
    """Read stderr until a line holds ``words`` (lines read are kept in ``seen``)."""
    assert proc.stderr is not None
    while True:
        line = (await asyncio.wait_for(proc.stderr.readline(), 60)).decode()
        if not line:
            raise AssertionError(f"the bot ended before {words!r}:\n{''.join(seen)}")
        seen.append(line)
        if words in line:
            return


@contextlib.contextmanager
def closed_port() -> Iterator[int]:
    """A local port nothing listens on (connections are refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    yield port


@contextlib.contextmanager
def silent_server() -> Iterator[int]:
    """A local port that accepts connections and never answers."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(16)
        yield s.getsockname()[1]


# --- configuration: exit 2 before anything is opened -------------------------------------------

BAD_SETTINGS = [
    ({"DISCORD_TOKEN": "abc"}, "DISCORD_TOKEN is not a bot token"),
    ({"DISCORD_TOKEN": f"Bot {TOKEN}"}, "DISCORD_TOKEN starts with 'Bot '"),
    ({"DISCORD_TOKEN": "1100000000000000000"}, "the application id?"),
    ({"DISCORD_TOKEN": "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF"}, "client secret?"),
    ({"DATABASE_URL": "mysql://bot@db/fp"}, "unknown database URL scheme 'mysql://'"),
    ({"DATABASE_URL": "sqlite://x.db"}, "sqlite:///path (three slashes)"),
    ({"DATABASE_POOL_MAX": "ten"}, "DATABASE_POOL_MAX must be a number, not 'ten'"),
    ({"DATABASE_RETRY": "abc"}, "DATABASE_RETRY must be a number, not 'abc'"),
    ({"DATABASE_TIMEOUT": "-1"}, "DATABASE_TIMEOUT must not be negative"),
    ({"DISCORD_TIMEOUT": "0"}, "DISCORD_TIMEOUT must be a number of seconds above 0"),
    ({"DISCORD_START_RETRY": "5,soon"}, "DISCORD_START_RETRY must be seconds separated"),
    ({"ERROR_WEBHOOK_URL": "https://example.com/hook"}, "ERROR_WEBHOOK_URL must be a Discord"),
    ({"DISCORD_API_BASE_URL": "discord.com/api"}, "DISCORD_API_BASE_URL must be a http://"),
]


@pytest.mark.parametrize("command", [(), ("check",)], ids=["run", "check"])
@pytest.mark.parametrize(("settings", "words"), BAD_SETTINGS)
async def test_a_wrong_setting_is_one_line_and_exit_2(
    tmp_path: Path, command: tuple[str, ...], settings: dict[str, str], words: str
) -> None:
    done = await run_bot(tmp_path, *command, **settings)
    assert done.status == 2
    line = done.one_line()
    assert words in line
    assert ".env.example" in line
    assert not (tmp_path / "games.db").exists()


async def test_postgresql_without_its_driver_says_which_extra_to_install(tmp_path: Path) -> None:
    """(asyncpg made unimportable in the bot's process, as on a host installed without the
    ``postgres`` extra.)"""
    code = (
        "import runpy, sys; sys.modules['asyncpg'] = None; sys.argv = ['bot']; "
        "runpy.run_module('bot', run_name='__main__', alter_sys=True)"
    )
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        code,
        env=bot_env(tmp_path, DATABASE_URL="postgresql://bot:secret@db.example/fp"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    done = await finish(proc)
    assert done.status == 2
    line = done.one_line()
    assert "pip install -e '.[postgres]' in the bot's checkout" in line
    assert "secret" not in done.err


# --- the database's place: read-only, full, damaged ----------------------------------------------


@pytest.mark.parametrize("command", [(), ("check",)], ids=["run", "check"])
async def test_a_database_on_a_read_only_file_system_is_one_line_and_exit_2(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    with tmpfs(tmp_path / "ro", 512) as ro:
        make_read_only(ro)
        done = await run_bot(tmp_path, *command, DATABASE_URL=f"sqlite:///{ro}/games.db")
    assert done.status == 2
    line = done.one_line()
    assert str(tmp_path / "ro" / "games.db") in line
    assert "read-only file system" in line and "DATABASE_URL" in line


async def test_a_database_on_a_full_disk_is_one_line_and_exit_2(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "disk", 64) as disk:
        fill(disk)
        done = await run_bot(tmp_path, DATABASE_URL=f"sqlite:///{disk}/games.db")
        left = sorted(p.name for p in disk.iterdir())
    assert done.status == 2
    line = done.one_line()
    assert "full" in line and str(disk / "games.db") in line
    assert left == ["filler"]


@pytest.mark.parametrize("command", [(), ("check",)], ids=["run", "check"])
async def test_an_existing_database_on_a_disk_with_8_kib_free_is_one_line_and_exit_2(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    """A real full disk (a small tmpfs, filled), in a mount namespace of the test's own: SQLite
    says "disk I/O error" when the write-ahead log's index cannot grow."""
    games = tmp_path / "games.db"
    made = await run_bot_data(tmp_path, "migrate", str(games))
    assert made.status == 0, made.err
    disk, report = tmp_path / "disk", tmp_path / "report.json"
    (tmp_path / "cwd").mkdir()
    with closed_port() as port:
        proc = await asyncio.create_subprocess_exec(
            *private_mounts(),
            sys.executable,
            "-m",
            "tests.small_disk",
            str(disk),
            "--size-kb=1024",
            "--free-bytes=8192",
            f"--copy={games}",
            f"--report={report}",
            "--",
            sys.executable,
            "-m",
            "bot",
            *command,
            cwd=tmp_path / "cwd",
            env=bot_env(
                tmp_path,
                DATABASE_URL=f"sqlite:///{disk / 'games.db'}",
                DISCORD_API_BASE_URL=f"http://127.0.0.1:{port}/api/v10",
            ),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        done = await finish(proc)
    assert done.status == 2, done.err
    line = done.one_line()
    assert f"the disk holding the database {disk / 'games.db'} is full" in line, line
    assert "Free some space there" in line
    left = json.loads(report.read_text())["files"]
    assert left["games.db"]["sha256"] == hashlib.sha256(games.read_bytes()).hexdigest()


async def test_a_file_size_limit_too_small_for_the_database_is_one_line_and_exit_2(
    tmp_path: Path,
) -> None:
    """``ulimit -f`` (``RLIMIT_FSIZE``; systemd's ``LimitFSIZE=``): the writes fail as on a full
    disk, and it is the limit that must change."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (16384, 16384))

    (tmp_path / "cwd").mkdir()
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path / "cwd",
        env=bot_env(tmp_path),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        preexec_fn=limit,
    )
    done = await finish(proc)
    assert done.status == 2, done.err
    line = done.one_line()
    assert "may not write files over 16384 bytes" in line and "ulimit -f" in line
    assert not (tmp_path / "games.db").exists()  # a new database appears whole, or not at all


async def test_check_reports_a_damaged_database_with_exit_2(tmp_path: Path) -> None:
    (tmp_path / "games.db").write_bytes(b"not a database\n" * 100)
    done = await run_bot(tmp_path, "check")
    assert done.status == 2
    assert "damaged" in done.one_line()


async def test_check_reads_the_database_and_never_changes_it(tmp_path: Path) -> None:
    missing = await run_bot(tmp_path, "check")
    assert missing.status == 0, missing.err
    assert f"none yet at {tmp_path / 'games.db'}" in missing.out
    assert not (tmp_path / "games.db").exists()

    made = await run_bot_data(tmp_path, "migrate", str(tmp_path / "games.db"))
    assert made.status == 0, made.err
    before = (tmp_path / "games.db").read_bytes()
    done = await run_bot(tmp_path, "check")
    assert done.status == 0, done.err
    assert "configuration: ok" in done.out
    assert f"SQLite {tmp_path / 'games.db'}" in done.out and "0 open tables: ok" in done.out
    assert (tmp_path / "games.db").read_bytes() == before

    conn = sqlite3.connect(tmp_path / "games.db")
    conn.execute("INSERT INTO schema_version (version, name, applied_at) VALUES (99, 'x', 0)")
    conn.commit()
    conn.close()
    newer = await run_bot(tmp_path, "check")
    assert newer.status == 2
    assert "newer release" in newer.one_line()


async def run_bot_data(tmp_path: Path, *args: str) -> Done:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "data",
        *args,
        env=bot_env(tmp_path),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    return await finish(proc)


# --- Discord unreachable, failing, silent, refusing ----------------------------------------------


async def test_discord_refusing_connections_is_retried_then_one_line_and_exit_1(
    tmp_path: Path,
) -> None:
    with closed_port() as port:
        done = await run_bot(
            tmp_path,
            DISCORD_API_BASE_URL=f"http://127.0.0.1:{port}/api/v10",
            DISCORD_START_RETRY="0.1,0.2",
        )
    assert done.status == 1
    line = done.one_line()
    assert f"cannot connect to 127.0.0.1:{port}" in line and "gave up after 3 attempts" in line
    # The log says what it waits for, attempt by attempt.
    assert "attempt 1 of 3" in done.err and "(DISCORD_START_RETRY: 0.1 s" in done.err
    assert "(DISCORD_START_RETRY: 0.2 s" in done.err


async def test_a_discord_host_that_does_not_resolve_is_one_line_and_exit_1(
    tmp_path: Path,
) -> None:
    done = await run_bot(tmp_path, DISCORD_API_BASE_URL="http://fp-no-such-host.invalid/api/v10")
    assert done.status == 1
    assert "cannot find fp-no-such-host.invalid" in done.one_line()


async def test_discord_accepting_and_never_answering_is_bounded(tmp_path: Path) -> None:
    with silent_server() as port:
        done = await run_bot(
            tmp_path,
            DISCORD_API_BASE_URL=f"http://127.0.0.1:{port}/api/v10",
            DISCORD_TIMEOUT="0.5",
            DISCORD_START_RETRY="0.1",
        )
    assert done.status == 1
    line = done.one_line()
    assert f"127.0.0.1:{port} did not answer the login within 0.5 s (DISCORD_TIMEOUT)" in line
    assert "waiting up to 0.5 s for an answer" in done.err


async def test_discord_answering_502_is_one_line_and_exit_1(tmp_path: Path) -> None:
    async with running_world() as world:
        world.fake.faults.server_error("GET /users/@me", status=502, times=None)
        done = await run_bot(tmp_path, **world.fake.env(), DISCORD_START_RETRY="0.1")
        logins = len(world.fake.requests_to("GET /users/@me"))
    assert done.status == 1
    assert "Discord answers 502 Bad Gateway" in done.one_line()
    assert logins == 2  # one attempt and one retry, without discord.py's own silent retries


async def test_discord_answering_502_once_is_waited_for_and_the_bot_starts(
    tmp_path: Path,
) -> None:
    async with running_world() as world:
        world.fake.faults.server_error("GET /users/@me", status=502, times=1)
        proc = await start(tmp_path, **world.fake.env(), DISCORD_START_RETRY="0.1")
        seen: list[str] = []
        await wait_for_line(proc, "connected as", seen)
        proc.send_signal(signal.SIGTERM)
        done = await finish(proc)
    assert done.status == 0, done.err
    log = "".join(seen)
    assert "Discord answers 502 Bad Gateway" in log and "(DISCORD_START_RETRY: 0.1 s" in log


async def test_a_token_discord_refuses_is_exit_2_so_it_is_not_restarted(tmp_path: Path) -> None:
    async with running_world() as world:
        env = {**world.fake.env(), "DISCORD_TOKEN": TOKEN}  # not the fake's token
        done = await run_bot(tmp_path, **env, DISCORD_START_RETRY="0.1,0.1")
        logins = len(world.fake.requests_to("GET /users/@me"))
    assert done.status == 2
    assert "Discord refused the token" in done.one_line()
    assert logins == 1  # a refused token is not tried again


# --- extensions ----------------------------------------------------------------------------------


async def test_an_extension_that_fails_to_load_stops_the_start_before_any_command_sync(
    tmp_path: Path,
) -> None:
    """And the operator's webhook hears of it."""
    async with running_world() as world:
        alerts = AlertChannel.of(world)
        done = await run_bot(
            tmp_path, **alerts.env(), FP_EXTENSIONS="bot.cogs.tables,bot.cogs.no_such_feature"
        )
        synced = world.fake.requests_to("PUT /applications/{application_id}/commands")
        synced += world.fake.requests_to(
            "PUT /applications/{application_id}/guilds/{guild_id}/commands"
        )
        commands = world.fake.commands()
        posted = alerts.contents
    assert done.status == 2
    line = done.one_line()
    assert "the extension bot.cogs.no_such_feature did not load" in line
    assert synced == [] and commands == []
    assert len(posted) == 1
    assert "bot.cogs.no_such_feature did not load" in posted[0]


# --- a good start, what it says, and stopping ----------------------------------------------------


async def test_a_start_says_what_it_runs_with_makes_the_database_where_stated_and_stops(
    tmp_path: Path,
) -> None:
    state = tmp_path / "state"
    async with running_world() as world:
        settings = {**world.fake.env(), "DATABASE_URL": None, "STATE_DIRECTORY": str(state)}
        proc = await start(tmp_path, **settings)  # type: ignore[arg-type]
        seen: list[str] = []
        await wait_for_line(proc, "connected as", seen)
        proc.send_signal(signal.SIGTERM)
        first = await finish(proc)
        # Started again from another folder: the same database, not a new one.
        (tmp_path / "elsewhere").mkdir()
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=tmp_path / "elsewhere",
            env=bot_env(tmp_path, **settings),  # type: ignore[arg-type]
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        again: list[str] = []
        await wait_for_line(proc, "connected as", again)
        proc.send_signal(signal.SIGINT)
        second = await finish(proc)
    db = state / "flaming_pyramids.db"
    log = "".join(seen) + first.err
    assert first.status == 0 and second.status == 0, log
    assert f"created a new database at {db} (no games yet)" in log
    assert f"games in SQLite {db} (the default place), 0 open tables" in log
    assert f"Flaming Pyramids {bot.__version__} " in log and "discord.py 2." in log
    assert "the shard count Discord recommends" in log
    assert "voice" not in log.lower()  # no PyNaCl / davey warnings: the bot has no voice
    assert "Traceback" not in log and "SIGTERM: stopping" in log
    later = "".join(again) + second.err
    assert "created a new database" not in later and f"games in SQLite {db}" in later
    assert "Traceback" not in later and "SIGINT: stopping" in later


async def test_an_old_database_in_the_current_folder_is_mentioned_at_every_start(
    tmp_path: Path,
) -> None:
    """DATABASE_URL unset, the default database exists, and the folder the bot starts from holds
    the file releases before 0.2 kept their games in: the bot runs on the default, and says
    so (a start with no default database yet refuses instead: see the configuration tests)."""
    default = tmp_path / "xdg" / "flaming-pyramids" / "flaming_pyramids.db"
    old = tmp_path / "cwd" / "flaming_pyramids.db"
    old.parent.mkdir()
    for db in (default, old):
        made = await run_bot_data(tmp_path, "migrate", str(db))
        assert made.status == 0, made.err
    async with running_world() as world:
        settings = {**world.fake.env(), "DATABASE_URL": None}
        logs = []
        for _ in range(2):
            proc = await start(tmp_path, **settings)  # type: ignore[arg-type]
            seen: list[str] = []
            await wait_for_line(proc, "connected as", seen)
            proc.send_signal(signal.SIGTERM)
            done = await finish(proc)
            assert done.status == 0, done.err
            logs.append("".join(seen) + done.err)
    checked = await run_bot(tmp_path, "check", DATABASE_URL=None)  # type: ignore[arg-type]
    assert checked.status == 0, checked.err
    for log in logs:
        warning = next(ln for ln in log.splitlines() if "WARNING" in ln and str(old) in ln)
        assert f"games are kept in {default}" in warning
        assert f"DATABASE_URL=sqlite:///{old}" in warning
        assert f"games in SQLite {default} (the default place)" in log
    assert f"warning: this folder holds {old}" in checked.out


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
async def test_a_signal_during_a_login_that_hangs_stops_cleanly(
    tmp_path: Path, sig: signal.Signals
) -> None:
    with silent_server() as port:
        proc = await start(tmp_path, DISCORD_API_BASE_URL=f"http://127.0.0.1:{port}/api/v10")
        seen: list[str] = []
        await wait_for_line(proc, "logging in to Discord", seen)
        proc.send_signal(sig)
        done = await finish(proc, timeout=20)
    assert done.status == 0, done.err
    assert "Traceback" not in done.err
    assert f"{sig.name}: stopping" in done.err


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
async def test_a_signal_while_the_bot_is_still_loading_stops_it_at_once(
    tmp_path: Path, sig: signal.Signals
) -> None:
    """Sent as soon as the process shows it runs our code (a second, third of the way in):
    it never goes on to open the database or log in."""
    with silent_server() as port:
        proc = await start(
            tmp_path,
            DISCORD_API_BASE_URL=f"http://127.0.0.1:{port}/api/v10",
            PYTHONPROFILEIMPORTTIME="1",  # (a line per import on stderr: we see it loading)
        )
        seen: list[str] = []
        await wait_for_line(proc, "| bot.config", seen)
        proc.send_signal(sig)
        done = await finish(proc, timeout=20)
    assert done.status == 0
    err = "".join(seen) + done.err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert "logging in to Discord" not in err
    assert f"stopped by {sig.name}" in err or f"{sig.name}: stopping" in err


def test_the_console_script_runs_the_same_main() -> None:
    from importlib.metadata import entry_points

    from bot.__main__ import main

    (script,) = entry_points(group="console_scripts", name="flaming-pyramids")
    assert script.load() is main


# --- PostgreSQL -------------------------------------------------------------------------------


async def test_check_reads_a_postgresql_database_and_shows_no_password(
    tmp_path: Path, pg_url: str
) -> None:
    done = await run_bot(tmp_path, "check", DATABASE_URL=pg_url)
    assert done.status == 0, done.err
    assert "database: PostgreSQL postgresql://" in done.out and "0 open tables: ok" in done.out


async def test_a_postgresql_database_that_does_not_exist_is_exit_2(
    tmp_path: Path, pg_url: str
) -> None:
    real = yarl.URL(pg_url)
    url = str(real.with_path("/no_such_database").with_query(real.query))
    for command in ((), ("check",)):
        done = await run_bot(tmp_path, *command, DATABASE_URL=url, DATABASE_RETRY="0.5")
        assert done.status == 2, done.err
        line = done.one_line()
        assert "no_such_database" in line and "DATABASE_URL" in line


async def test_a_postgresql_server_that_is_down_is_exit_1(tmp_path: Path) -> None:
    with closed_port() as port:
        url = f"postgresql://bot:s3cret@127.0.0.1:{port}/fp"
        done = await run_bot(tmp_path, DATABASE_URL=url, DATABASE_RETRY="0.3")
    assert done.status == 1
    line = done.one_line()
    assert f"cannot reach the PostgreSQL database postgresql://bot:***@127.0.0.1:{port}/fp" in line
    assert "s3cret" not in done.err


SECRET = "S3cretPassw0rd"
"""A database password that must not be shown anywhere."""


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://bot:{secret}@127.0.0.1:{port}/fp",
        "postgresql:///fp?host=127.0.0.1&port={port}&user=bot&password={secret}",
        "postgresql://bot:{secret}@w/rd@127.0.0.1:{port}/fp",  # '@' and '/' not percent-encoded
        "postgresql://bot:{secret}@127.0.0.1:{port},127.0.0.1:{port}/fp",  # two hosts
    ],
    ids=["user part", "parameter", "not encoded", "two hosts"],
)
@pytest.mark.parametrize("command", [(), ("check",)], ids=["run", "check"])
async def test_a_database_password_is_never_logged_nor_alerted(
    tmp_path: Path, url: str, command: tuple[str, ...]
) -> None:
    """Even with every log line (DEBUG) and the start's failure posted to the operator."""
    async with running_world() as world:
        alerts = AlertChannel.of(world)
        with closed_port() as port:
            database = url.format(secret=SECRET, port=port)
            done = await run_bot(
                tmp_path,
                *command,
                **alerts.env(),
                DATABASE_URL=database,
                DATABASE_RETRY="0.3",
                LOG_LEVEL="DEBUG",
            )
        posted = alerts.contents
    assert done.status == 1, done.err
    line = done.one_line()
    assert "cannot reach the PostgreSQL database" in line and "***" in line
    assert SECRET not in done.err + done.out
    assert "w/rd" not in done.err + done.out
    assert alerts.hook.token not in done.err  # (discord.py logs the webhook's URL at DEBUG)
    if not command:
        assert len(posted) == 1 and "***" in posted[0]
        assert SECRET not in posted[0] and "w/rd" not in posted[0]


async def test_the_waits_between_login_attempts_are_the_set_ones_and_a_random_part(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Never shorter than set, nor than Discord asked (a 429's Retry-After); up to a quarter
    longer at random, so that bots an outage stopped together do not all knock at once."""
    config = Config(token=TOKEN, start_retry_s=(0.01,) * 6)
    asked = iter([0.0, 0.03, 0.0, 0.0, 0.0, 0.0, 0.0])

    async def unreachable(base_url: str, token: str, timeout_s: float) -> None:
        raise Unreachable("Discord answers 503", retry_after=next(asked))

    with caplog.at_level(logging.WARNING, logger="bot"), pytest.raises(Fatal):
        await wait_for_discord(config, "http://127.0.0.1:9/api/v10", ask=unreachable)
    waits = [float(r.args[1]) for r in caplog.records if "trying again in" in str(r.msg)]  # type: ignore[index]
    floors = [0.01, 0.03, 0.01, 0.01, 0.01, 0.01]
    assert len(waits) == len(floors)
    assert all(f <= w <= f * 1.25 for w, f in zip(waits, floors, strict=True)), waits
    assert len(set(waits)) > 2
