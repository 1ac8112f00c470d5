"""Configuration from the environment, and ``python -m bot`` without a token."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path

import pytest
import yarl

from bot.config import ConfigError, apply_endpoints, dotenv_path, load_config, offset_clock

REPO = Path(__file__).resolve().parents[2]
#: A token of the right shape (three base64url parts); Discord never issued it.
TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.not-a-real-token-but-shaped-like-one_0123"


@pytest.fixture(autouse=True)
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test runs in a folder of its own, with a data folder of its own (so a database in
    the folder the tests were started from changes nothing)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)


def test_token_is_required() -> None:
    with pytest.raises(ConfigError, match=r"\.env\.example"):
        load_config({})


def test_values_and_defaults() -> None:
    config = load_config(
        {"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "42", "LOG_LEVEL": "debug"}, dotenv=False
    )
    assert config.dev_guild_id == 42 and config.log_level == "DEBUG"
    assert config.database_default and config.database_url.startswith("sqlite:////")
    assert config.api_base_url is None and config.gateway_url is None
    assert TOKEN not in repr(config) and "secret" not in repr(config)
    with pytest.raises(ConfigError, match="DEV_GUILD_ID"):
        load_config({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "x"})


def test_test_only_settings_need_test_mode(tmp_path: Path) -> None:
    env = {"DISCORD_TOKEN": TOKEN, "FP_CLOCK_FILE": str(tmp_path / "c"), "FP_SEED": "3"}
    assert load_config(env).clock_file is None
    config = load_config({**env, "FP_TEST_MODE": "1"})
    assert config.clock_file == str(tmp_path / "c") and config.seed == 3


def test_a_dead_process_timers_are_taken_over_within_a_minute_by_default() -> None:
    config = load_config({"DISCORD_TOKEN": TOKEN, "FP_TIMER_LEASE": "2"}, dotenv=False)
    assert 30 <= config.timer_lease_s + config.timer_interval_s <= 60
    short = load_config({"DISCORD_TOKEN": TOKEN, "FP_TIMER_LEASE": "2", "FP_TEST_MODE": "1"})
    assert short.timer_lease_s == 2.0  # (tests of a takeover need not wait half a minute)


def test_offset_clock(tmp_path: Path) -> None:
    path = tmp_path / "clock"
    clock = offset_clock(str(path))
    assert abs(clock() - time.time()) < 5
    path.write_text("86400")
    assert clock() - time.time() > 86000


#: The installed command (``[project.scripts]``), beside this interpreter.
SCRIPT = Path(sys.executable).with_name("flaming-pyramids")
HOW = "(the README's 'Run your own bot' says how to get one; .env.example describes every setting)"


def _typed(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``command`` run as typed in ``cwd``, with no token in its environment."""
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(REPO)
    return subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=60, check=False
    )


COMMANDS = {"python -m bot": [sys.executable, "-m", "bot"], "flaming-pyramids": [str(SCRIPT)]}


@pytest.mark.parametrize("typed", COMMANDS)
def test_without_token_one_line_names_the_dotenv_it_read_and_exits_2(
    tmp_path: Path, typed: str
) -> None:
    done = _typed(COMMANDS[typed], tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        "flaming pyramids bot: DISCORD_TOKEN is not set: it is not in the environment, and there "
        f"is no {tmp_path / '.env'} (the bot reads .env from the folder it is started from, and "
        "no other). Copy .env.example to .env there and put your bot's token after "
        f"DISCORD_TOKEN= {HOW}\n"
    )


def test_without_token_in_the_dotenv_it_read_says_that_file_has_none(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("LOG_LEVEL=INFO\n")
    done = _typed(COMMANDS["python -m bot"], tmp_path)
    assert done.returncode == 2
    assert done.stderr == (
        "flaming pyramids bot: DISCORD_TOKEN is not set: it is not in the environment, and "
        f"{tmp_path / '.env'} (the bot reads .env from the folder it is started from, and no "
        f"other) has no token. Put your bot's token after DISCORD_TOKEN= in that file {HOW}\n"
    )


def test_without_token_and_without_reading_a_dotenv_the_line_says_where_to_put_it() -> None:
    with pytest.raises(ConfigError) as caught:
        load_config({}, dotenv=False)
    assert str(caught.value) == (
        "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot's token after "
        f"DISCORD_TOKEN= {HOW}"
    )


def test_dotenv_path_is_the_dotenv_of_the_folder_it_is_started_from(tmp_path: Path) -> None:
    assert dotenv_path() == tmp_path / ".env"  # (the autouse fixture made tmp_path the cwd)


@pytest.mark.parametrize("typed", COMMANDS)
def test_version_prints_the_distribution_and_its_version(tmp_path: Path, typed: str) -> None:
    done = _typed([*COMMANDS[typed], "--version"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"flaming-pyramids-bot {version('flaming-pyramids-bot')}\n"
    assert done.stderr == ""


@pytest.mark.parametrize("typed", COMMANDS)
def test_help_names_the_command_as_typed_and_the_one_dotenv_it_reads(
    tmp_path: Path, typed: str
) -> None:
    done = _typed([*COMMANDS[typed], "--help"], tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"usage: {typed} [-h] [--version] [{{run,check}}]"
    assert f"  {tmp_path / '.env'}" in lines
    assert sum(".env" in line and ".env.example" not in line for line in lines) == 2
    assert done.stderr == ""


ENV_NAMES = (
    "DISCORD_TOKEN",
    "DATABASE_URL",
    "DEV_GUILD_ID",
    "LOG_LEVEL",
    "DISCORD_API_BASE_URL",
    "DISCORD_GATEWAY_URL",
)


def test_settings_from_a_dotenv_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ENV_NAMES:  # absent now, and removed again after the test
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    (tmp_path / ".env").write_text(
        f"DISCORD_TOKEN={TOKEN}\n"
        "DATABASE_URL=sqlite:///games.db\n"
        "DEV_GUILD_ID=77\n"
        "LOG_LEVEL=warning\n"
        "DISCORD_API_BASE_URL=http://127.0.0.1:8123/api/v10/\n"
        "DISCORD_GATEWAY_URL=ws://127.0.0.1:8123/gateway\n"
    )
    monkeypatch.chdir(tmp_path)
    config = load_config()
    assert config.token == TOKEN
    assert config.database_url == "sqlite:///games.db"
    assert config.dev_guild_id == 77 and config.log_level == "WARNING"
    assert config.api_base_url == "http://127.0.0.1:8123/api/v10/"
    assert config.gateway_url == "ws://127.0.0.1:8123/gateway"
    # The environment wins over the file.
    monkeypatch.setenv("DEV_GUILD_ID", "78")
    assert load_config().dev_guild_id == 78


def test_endpoints_point_discord_py_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    import discord.gateway
    import discord.http

    # Discord's own endpoints (other tests in this process may have pointed discord.py at the
    # local fake); restored after the test.
    monkeypatch.setattr(discord.http.Route, "BASE", "https://discord.com/api/v10")
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL("wss://gateway.discord.gg/")
    )
    apply_endpoints(load_config({"DISCORD_TOKEN": TOKEN}))  # unset: left as they are
    assert discord.http.Route.BASE == "https://discord.com/api/v10"
    config = load_config(
        {
            "DISCORD_TOKEN": TOKEN,
            "DISCORD_API_BASE_URL": "http://127.0.0.1:8123/api/v10/",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:8123/gateway",
        }
    )
    apply_endpoints(config)
    assert discord.http.Route.BASE == "http://127.0.0.1:8123/api/v10"
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:8123/gateway"


def test_python_m_bot_reads_the_dotenv_file_of_its_directory(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ENV_NAMES}
    env["PYTHONPATH"] = str(REPO)
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\nLOG_LEVEL=loud\n")
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "LOG_LEVEL" in done.stderr and "'LOUD'" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("content", [b"", b"not a database at all\n" * 100])
def test_python_m_bot_refuses_a_damaged_database_with_one_line(
    tmp_path: Path, content: bytes
) -> None:
    """An existing database file that is empty or not a database stops the bot before it
    connects: one clear line, exit status 2 (starting again finds the same file), no traceback,
    and the file left as it was."""
    db = tmp_path / "games.db"
    db.write_bytes(content)
    env = {k: v for k, v in os.environ.items() if k not in ENV_NAMES}
    env.update(PYTHONPATH=str(REPO), DISCORD_TOKEN=TOKEN, DATABASE_URL=f"sqlite:///{db}")
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    ours = done.stderr.splitlines()
    assert len(ours) == 1, done.stderr
    assert ours[0].startswith("flaming pyramids bot: ")
    assert "damaged" in ours[0] and str(db) in ours[0]
    assert "Traceback" not in done.stderr
    assert db.read_bytes() == content


PG = "postgresql://bot@db/fp"


@pytest.mark.parametrize(
    ("ids", "expected"),
    [("0-3", (0, 1, 2, 3)), ("4,5", (4, 5)), (" 0-1 , 6 ", (0, 1, 6)), ("7", (7,))],
)
def test_shard_ids_are_numbers_and_ranges(ids: str, expected: tuple[int, ...]) -> None:
    env = {"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "8", "SHARD_IDS": ids, "DATABASE_URL": PG}
    config = load_config(env)
    assert (config.shard_count, config.shard_ids) == (8, expected)
    assert not config.runs_every_shard


def test_without_shard_settings_one_process_runs_what_discord_recommends() -> None:
    config = load_config({"DISCORD_TOKEN": TOKEN})
    assert (config.shard_count, config.shard_ids) == (None, None)
    assert config.runs_every_shard


def test_a_shard_count_alone_runs_every_shard_here_even_on_sqlite() -> None:
    config = load_config({"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "3"})
    assert (config.shard_count, config.shard_ids) == (3, None)
    assert config.runs_every_shard
    every = load_config({"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "3", "SHARD_IDS": "0-2"})
    assert every.runs_every_shard


@pytest.mark.parametrize(
    ("count", "ids", "words"),
    [
        ("", "0-1", "SHARD_IDS needs SHARD_COUNT"),
        ("two", "", "SHARD_COUNT must be a whole number"),
        ("0", "", "SHARD_COUNT must be at least 1"),
        ("4", "3-5", "shard 5 does not exist with SHARD_COUNT=4"),
        ("4", "a", "SHARD_IDS must be shard numbers and ranges"),
        ("4", "2-1", "'2-1' is not a range"),
        ("4", "-1", "SHARD_IDS must be shard numbers"),
        ("4", "1,0-2", "names shard 1 twice"),
        ("4", "1,,2", "SHARD_IDS must be shard numbers"),
    ],
)
def test_bad_shard_settings_say_what_is_wrong(count: str, ids: str, words: str) -> None:
    env = {"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": count, "SHARD_IDS": ids, "DATABASE_URL": PG}
    with pytest.raises(ConfigError, match=re.escape(words)):
        load_config(env)


def test_sqlite_with_only_some_of_the_shards_is_refused() -> None:
    env = {"DISCORD_TOKEN": TOKEN, "SHARD_COUNT": "4", "SHARD_IDS": "0-1"}
    with pytest.raises(ConfigError, match="SQLite serves one process only") as refused:
        load_config(env)
    assert "postgresql://" in str(refused.value) and "SHARD_IDS=0-1" in str(refused.value)
    with pytest.raises(ConfigError, match="SQLite"):
        load_config({**env, "DATABASE_URL": "sqlite:///games.db"})


def test_python_m_bot_on_sqlite_with_some_shards_exits_2(tmp_path: Path) -> None:
    env = dict(os.environ)
    env.update(
        PYTHONPATH=str(REPO),
        DISCORD_TOKEN=TOKEN,
        DATABASE_URL=f"sqlite:///{tmp_path / 'games.db'}",
        SHARD_COUNT="4",
        SHARD_IDS="2,3",
    )
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "SQLite serves one process only" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "games.db").exists()


def test_the_default_database_is_in_the_user_data_folder_not_the_current_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)
    config = load_config({"DISCORD_TOKEN": TOKEN, "XDG_DATA_HOME": str(tmp_path / "xdg")})
    db = tmp_path / "xdg" / "flaming-pyramids" / "flaming_pyramids.db"
    assert config.database_url == f"sqlite:///{db}" and config.database_shown == str(db)
    under_systemd = load_config({"DISCORD_TOKEN": TOKEN, "STATE_DIRECTORY": "/var/lib/fp"})
    assert under_systemd.database_shown == "/var/lib/fp/flaming_pyramids.db"


def test_a_database_left_in_the_current_folder_by_an_earlier_release_is_not_silently_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "flaming_pyramids.db").write_bytes(b"old games")
    with pytest.raises(ConfigError, match="where earlier releases kept them") as refused:
        load_config({"DISCORD_TOKEN": TOKEN})
    assert str(tmp_path / "flaming_pyramids.db") in str(refused.value)
    assert f"DATABASE_URL=sqlite:///{tmp_path / 'flaming_pyramids.db'}" in str(refused.value)
    # Said where it is, it is used.
    url = f"sqlite:///{tmp_path / 'flaming_pyramids.db'}"
    named = load_config({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": url})
    assert named.database_url == url and named.old_database is None
    # Once the default database exists, the default is used, and the old file is noted.
    default = tmp_path / "xdg" / "flaming-pyramids" / "flaming_pyramids.db"
    default.parent.mkdir(parents=True)
    default.write_bytes(b"new games")
    config = load_config({"DISCORD_TOKEN": TOKEN})
    assert config.database_url == f"sqlite:///{default}"
    assert config.old_database == str(tmp_path / "flaming_pyramids.db")


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://bot:s3cret@db/fp", "postgresql://bot:***@db/fp"),
        (
            "postgresql:///fp?host=db&user=bot&password=s3cret",
            "postgresql:///fp?host=db&user=bot&password=***",
        ),
        ("postgresql://bot:s3c@r/et@db/fp", "postgresql://bot:***@db/fp"),  # not percent-encoded
        (
            "postgresql://bot:s3c%40ret@db1:5432,db2:5433/fp",
            "postgresql://bot:***@db1:5432,db2:5433/fp",
        ),
        (
            "postgres://bot:s3cr#et@db/fp?sslpassword=s3cret",
            "postgres://bot:***@db/fp?sslpassword=***",
        ),
    ],
)
def test_the_log_and_repr_show_a_postgresql_database_without_its_password(
    url: str, shown: str
) -> None:
    config = load_config({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": url})
    assert config.database_shown == shown
    assert "s3c" not in repr(config) and "et@" not in shown


@pytest.mark.parametrize(
    "token",
    [
        "MTAwMDAwMDAwMDAwMDAwMDAw.GaBcDe.not-a-real-token-but-shaped-like-one_0123",
        "fake-bot-token.Flaming.Pyramids",
    ],
)
def test_tokens_of_the_right_shape_are_accepted(token: str) -> None:
    assert load_config({"DISCORD_TOKEN": token}).token == token


@pytest.mark.parametrize(
    "url",
    [
        "https://discord.com/api/webhooks/123456789012345678/a-token_0",
        "https://discordapp.com/api/webhooks/123456789012345678/a-token_0",
        "https://canary.discord.com/api/webhooks/123456789012345678/a-token_0",
    ],
)
def test_an_error_webhook_is_a_discord_webhook_url(url: str) -> None:
    assert load_config({"DISCORD_TOKEN": TOKEN, "ERROR_WEBHOOK_URL": url}).error_webhook_url == url


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/api/webhooks/123456789012345678/a-token_0",  # not Discord's
        "https://discord.com/api/webhooks/not-a-number/a-token_0",
        "https://discord.com/api/webhooks/123456789012345678",
        "http://discord.com/api/webhooks/123456789012345678/a-token_0",
    ],
)
def test_an_error_webhook_elsewhere_or_without_its_id_and_token_is_refused(url: str) -> None:
    with pytest.raises(ConfigError, match="ERROR_WEBHOOK_URL must be a Discord webhook URL"):
        load_config({"DISCORD_TOKEN": TOKEN, "ERROR_WEBHOOK_URL": url})
