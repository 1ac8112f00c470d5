"""The bot's configuration: every setting comes from the environment (or from the ``.env`` file of
the folder the bot is started from, :func:`dotenv_path`; the environment wins).

The variables a server owner sets are listed in ``.env.example``:

- ``DISCORD_TOKEN`` (required): the bot token.
- ``DATABASE_URL``: where games are stored; unset, a SQLite file in a stable place (the unit's
  ``$STATE_DIRECTORY`` under systemd, else the user's data folder: see :mod:`data.location`).
- ``DATABASE_POOL_MIN`` / ``DATABASE_POOL_MAX`` / ``DATABASE_TIMEOUT`` / ``DATABASE_RETRY``:
  the PostgreSQL store's pool and timeouts (checked here whichever the store).
- ``DEV_GUILD_ID``: a server where slash commands are synced instantly while developing.
- ``LOG_LEVEL``: ``DEBUG``, ``INFO`` (default), ``WARNING`` or ``ERROR``.
- ``SHARD_COUNT`` / ``SHARD_IDS``: how many shards the bot has in all, and which of them this
  process runs (``0-3``, ``4,5``, ``0-1,6``); unset, one process runs the count Discord
  recommends. A process running only some of the shards needs PostgreSQL (other processes run
  the rest over the same database).
- ``DISCORD_API_BASE_URL`` / ``DISCORD_GATEWAY_URL``: another REST base URL and gateway (a REST
  proxy, or the local fake Discord of the tests); empty means Discord's own.
- ``DISCORD_TIMEOUT``: seconds Discord may take to answer the login at start (default 30).
- ``DISCORD_START_RETRY``: seconds to wait before each new login attempt when Discord cannot be
  reached or answers with an error at start (default ``5,15,45``; empty: no retry); then the
  bot stops with exit status 1, and a service manager starts it again.
- ``TURNING_POINTS``: ``on`` (default) or ``off``: whether this process works out the turning
  points of finished matches (``/fp replay``), in a process of its own with a lower priority;
  with several bot processes, each one that has it on shares the work.
- ``ERROR_WEBHOOK_URL``: a Discord webhook that errors are also posted to (at most one post a
  minute, with a count of the others; never a player's hand), through Discord's API (the
  ``DISCORD_API_BASE_URL`` when one is set, whatever host the URL names in test mode).

Test-only variables (read only when ``FP_TEST_MODE=1``; a real deployment never sets them):

- ``FP_CLOCK_FILE``: a file holding a number of seconds added to the real clock, so tests can
  make turn deadlines pass without waiting (the file may change while the bot runs).
- ``FP_TIMER_INTERVAL``: seconds between two looks at due timers (default 5).
- ``FP_TIMER_LEASE``: seconds a process's claim on a due table lasts if it never releases it
  (default 30): another process takes the table's timers over after it.
- ``FP_TEST_STATE_FILE``: a JSON engine state (``python -m engine new`` / scenario format) that
  every game started with the Start button is dealt from, to force chosen situations.
- ``FP_SEED``: the seed of every new match (default: random).
- ``FP_AI_NODE_LIMIT`` / ``FP_AI_TIME_BUDGET``: limits for the computer players' search.
- ``FP_TURNING_NODE_LIMIT`` / ``FP_TURNING_DEALS``: what the turning points' review spends on
  each decision (:data:`engine.ai.review.REVIEW_BUDGET` unless set).
- ``FP_EXTENSIONS``: the extensions to load instead of the bot's own (comma-separated).
- ``FP_ERROR_INTERVAL``: seconds between two posts to ``ERROR_WEBHOOK_URL`` (default 60).

Over 400 lines, as one job: every variable above is read, checked and explained here, so that
a wrong value stops the start with one line naming it; each helper parses one kind of value.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import yarl

from data import postgres_settings, safe_url, sqlite_path, store_kind
from data.location import OLD_DEFAULT_FILE, default_database_path
from engine.ai.review import REVIEW_BUDGET, Budget

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
#: A bot token: three parts of base64url text joined by dots (the bot's id, a time, a signature).
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+")
#: The hosts of Discord's webhook URLs (a post goes through Discord's API whichever of them).
DISCORD_HOSTS = frozenset(
    {"discord.com", "discordapp.com", "canary.discord.com", "ptb.discord.com"}
)
DISCORD_TIMEOUT_S = 30.0
START_RETRY_S = (5.0, 15.0, 45.0)
ERROR_INTERVAL_S = 60.0
EXTENSIONS = (
    "bot.cogs.tables",
    "bot.cogs.timers",
    "bot.cogs.records",
    "bot.cogs.breaks",
    "bot.cogs.help",
)


class ConfigError(Exception):
    """A setting is missing or malformed; the message says which and how to fix it."""


@dataclass(frozen=True)
class Config:
    """Everything the bot reads from its environment."""

    token: str
    #: Where the games are: ``DATABASE_URL``, or the default SQLite file (an absolute path).
    database_url: str = ""
    #: Whether ``database_url`` is the default (``DATABASE_URL`` unset).
    database_default: bool = False
    #: A database an earlier release left in the current folder (``./flaming_pyramids.db``),
    #: not the one used: the default exists already, and ``DATABASE_URL`` does not name it.
    old_database: str | None = None
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    api_base_url: str | None = None
    gateway_url: str | None = None
    test_mode: bool = False
    clock_file: str | None = None
    timer_interval_s: float = 5.0
    #: How long a claim on a due table lasts if its process never releases it (it died): the
    #: other processes take that table's timers over within this plus ``timer_interval_s``.
    timer_lease_s: float = 30.0
    test_state_file: str | None = None
    seed: int | None = None
    ai_node_limit: int | None = None
    #: Seconds a computer player searches over one decision (``None``: each level's own budget,
    #: as the arena measures it, which keeps a decision within about a second; tests set less
    #: with ``FP_AI_TIME_BUDGET``).
    ai_time_budget_s: float | None = None
    #: Shards in all (``None``: the count Discord recommends).
    shard_count: int | None = None
    #: The shards this process runs (``None``: all of them).
    shard_ids: tuple[int, ...] | None = None
    #: Seconds Discord may take to answer the login at start.
    discord_timeout_s: float = DISCORD_TIMEOUT_S
    #: Seconds to wait before each new login attempt at start.
    start_retry_s: tuple[float, ...] = START_RETRY_S
    #: A Discord webhook that errors are also posted to.
    error_webhook_url: str | None = None
    #: Seconds between two posts to the error webhook.
    error_interval_s: float = ERROR_INTERVAL_S
    #: The extensions (features) the bot loads.
    extensions: tuple[str, ...] = EXTENSIONS
    #: Whether this process works out the turning points of finished matches.
    turning_points: bool = True
    #: What the turning points' review spends on each decision.
    turning_budget: Budget = REVIEW_BUDGET

    @property
    def runs_every_shard(self) -> bool:
        """Whether this process runs the whole bot (no other process shares its database)."""
        return (
            self.shard_ids is None
            or self.shard_count is None
            or set(self.shard_ids) == set(range(self.shard_count))
        )

    @property
    def store_kind(self) -> str:
        """``"sqlite"`` or ``"postgres"``."""
        return store_kind(self.database_url)

    @property
    def database_shown(self) -> str:
        """Where the games are, for the log: the SQLite file's absolute path, or the PostgreSQL
        URL without its password."""
        try:
            kind = self.store_kind
        except ValueError:
            return "(no database)" if not self.database_url else "(an unusable DATABASE_URL)"
        if kind == "sqlite":
            return str(Path(sqlite_path(self.database_url)).absolute())
        return safe_url(self.database_url)

    def __repr__(self) -> str:  # never print the token, nor the database's password
        return (
            f"Config(token=<{len(self.token)} chars>, database={self.database_shown!r}, "
            f"dev_guild_id={self.dev_guild_id!r}, log_level={self.log_level!r}, "
            f"api_base_url={self.api_base_url!r}, gateway_url={self.gateway_url!r}, "
            f"test_mode={self.test_mode!r}, shard_count={self.shard_count!r}, "
            f"shard_ids={self.shard_ids!r})"
        )


def _int(env: Mapping[str, str], name: str) -> int | None:
    raw = (env.get(name) or "").strip()
    if not raw:
        return None
    try:
        return int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not {raw!r}") from None


def _float(env: Mapping[str, str], name: str) -> float | None:
    raw = (env.get(name) or "").strip()
    if not raw:
        return None
    try:
        return float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number, not {raw!r}") from None


MAX_SHARDS = 100_000  # far above any bot's needs; a typo such as 1e9 is refused


def parse_shard_ids(text: str, shard_count: int) -> tuple[int, ...]:
    """The shard ids of ``SHARD_IDS``: numbers and ranges separated by commas, each below
    ``shard_count``, none twice. Raises :class:`ConfigError`.

    >>> parse_shard_ids("0-2,5", 8)
    (0, 1, 2, 5)
    """
    ids: list[int] = []
    for part in text.split(","):
        part = part.strip()
        low, dash, high = part.partition("-")
        try:
            first = int(low)
            last = int(high) if dash else first
        except ValueError:
            raise ConfigError(
                f"SHARD_IDS must be shard numbers and ranges such as 0-3 or 4,5, not {text!r}"
            ) from None
        if first < 0 or last < first:
            raise ConfigError(f"SHARD_IDS: {part!r} is not a range from a low to a high number")
        if last >= shard_count:
            raise ConfigError(
                f"SHARD_IDS: shard {last} does not exist with SHARD_COUNT={shard_count} "
                f"(shards are numbered 0 to {shard_count - 1})"
            )
        ids.extend(range(first, last + 1))
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise ConfigError(f"SHARD_IDS names shard {twice[0]} twice")
    return tuple(sorted(ids))


def _shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    count = _int(env, "SHARD_COUNT")
    ids_text = (env.get("SHARD_IDS") or "").strip()
    if count is None:
        if ids_text:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT (how many shards the bot has in all)")
        return None, None
    if not 1 <= count <= MAX_SHARDS:
        raise ConfigError(f"SHARD_COUNT must be at least 1 (and at most {MAX_SHARDS}), not {count}")
    return count, parse_shard_ids(ids_text, count) if ids_text else None


def ids_text(ids: tuple[int, ...] | None) -> str:
    """``SHARD_IDS`` written back, ranges joined: ``(0, 1, 2, 5)`` -> ``0-2,5``."""
    if not ids:
        return ""
    parts: list[str] = []
    start = prev = ids[0]
    for i in (*ids[1:], None):
        if i is not None and i == prev + 1:
            prev = i
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if i is not None:
            start = prev = i
    return ",".join(parts)


def _is_sqlite(url: str) -> bool:
    return "://" not in url or url.split("://", 1)[0].lower() in ("sqlite", "sqlite3")


def check_token(token: str) -> None:
    """Raise :class:`ConfigError` if ``token`` cannot be a bot token (checked before connecting:
    a token Discord refuses is only found out after a round trip, and looks like an outage).

    >>> check_token("MTA5OTk5OTk5OTk5OTk5OTk5.GaBcDe.aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789")
    >>> # (a made-up token of the right shape)
    >>> check_token("1100000000000000000")
    Traceback (most recent call last):
    ...
    bot.config.ConfigError: DISCORD_TOKEN is not a bot token: it is a number (the application...
    """
    if token.lower().startswith(("bot ", "bearer ")):
        word = token.split(" ", 1)[0]
        raise ConfigError(
            f"DISCORD_TOKEN starts with '{word} ': put only the token itself after DISCORD_TOKEN="
        )
    if token[:1] in "\"'" and token[-1:] == token[:1]:
        raise ConfigError("DISCORD_TOKEN is in quotes: remove them")
    if TOKEN_SHAPE.fullmatch(token):
        return
    if token.isdigit():
        found = "a number (the application id?)"
    elif re.fullmatch(r"[0-9a-f]{64}", token):
        found = "64 hexadecimal digits (the application's public key?)"
    elif re.fullmatch(r"[A-Za-z0-9_-]{32}", token):
        found = "32 letters and digits without dots (the OAuth2 client secret?)"
    elif any(c.isspace() for c in token):
        found = "text with spaces in it"
    else:
        found = f"{len(token)} characters that are not three parts joined by dots"
    raise ConfigError(
        f"DISCORD_TOKEN is not a bot token: it is {found}. Copy the token from the developer "
        "portal (your application -> Bot -> Reset Token) into DISCORD_TOKEN"
    )


def _database(env: Mapping[str, str]) -> tuple[str, bool, str | None]:
    """``DATABASE_URL`` checked (and the PostgreSQL settings with it), or the default file;
    whether it is the default; the file an earlier release left in the current folder, if it
    is there and not used."""
    url = (env.get("DATABASE_URL") or "").strip()
    default = not url
    left: str | None = None
    if default:
        path = default_database_path(env)
        old = Path.cwd() / OLD_DEFAULT_FILE
        if old.exists() and old.resolve() != path.resolve():
            if not path.exists():
                raise ConfigError(
                    f"DATABASE_URL is not set, so the games are kept in {path}, but this folder "
                    f"holds {old}, where earlier releases kept them: with the bot stopped, move "
                    f"that file (and any {old.name}-wal beside it) to {path}, or set "
                    f"DATABASE_URL=sqlite:///{old}"
                )
            left = str(old)
        url = f"sqlite:///{path}"
    try:
        store_kind(url)
        postgres_settings(env)
    except ValueError as e:
        name = "DATABASE_URL" if not str(e).startswith("DATABASE_") else ""
        raise ConfigError(f"{name}: {e}" if name else str(e)) from None
    return url, default, left


def old_database_warning(config: Config) -> str | None:
    """What to say of a database an earlier release left in the current folder, which this
    start does not use (None if there is none)."""
    if config.old_database is None:
        return None
    old = Path(config.old_database)
    return (
        f"this folder holds {old}, where releases before 0.2 kept the games, but DATABASE_URL "
        f"is not set, so the games are kept in {config.database_shown}: if the games you expect "
        f"are in {old.name}, stop the bot and set DATABASE_URL=sqlite:///{old} (or move that "
        "file, with its -wal, in place of the other); else move it out of this folder"
    )


def _on_off(env: Mapping[str, str], name: str, *, default: bool) -> bool:
    raw = (env.get(name) or "").strip().lower()
    if not raw:
        return default
    if raw in ("on", "1", "true", "yes"):
        return True
    if raw in ("off", "0", "false", "no"):
        return False
    raise ConfigError(f"{name} must be on or off, not {raw!r}")


def _seconds(env: Mapping[str, str], name: str, default: float) -> float:
    value = _float(env, name)
    if value is None:
        return default
    if not 0 < value < float("inf"):
        raise ConfigError(f"{name} must be a number of seconds above 0, not {value!r}")
    return value


def _schedule(env: Mapping[str, str], name: str, default: tuple[float, ...]) -> tuple[float, ...]:
    raw = env.get(name)
    if raw is None:
        return default
    waits: list[float] = []
    for part in raw.replace(" ", "").split(","):
        if not part:
            continue
        try:
            wait = float(part)
        except ValueError:
            raise ConfigError(
                f"{name} must be seconds separated by commas, such as 5,15,45, not {raw!r}"
            ) from None
        if not 0 <= wait < 86_400:
            raise ConfigError(f"{name}: {part} is not a number of seconds from 0 to 86400")
        waits.append(wait)
    return tuple(waits)


def _endpoint(env: Mapping[str, str], name: str, schemes: tuple[str, ...]) -> str | None:
    raw = (env.get(name) or "").strip()
    if not raw:
        return None
    try:
        url: yarl.URL | None = yarl.URL(raw)
    except ValueError:
        url = None
    if url is None or url.scheme not in schemes or not url.host:
        raise ConfigError(
            f"{name} must be a {' or '.join(s + '://' for s in schemes)} URL (or empty for "
            f"Discord's own), not {raw!r}"
        )
    return raw


def _webhook(env: Mapping[str, str], test_mode: bool) -> str | None:
    raw = (env.get("ERROR_WEBHOOK_URL") or "").strip()
    if not raw:
        return None
    try:
        url = yarl.URL(raw)
    except ValueError:
        url = None
    parts = url.parts if url is not None else ()
    after = parts[parts.index("webhooks") + 1 :] if "webhooks" in parts else ()
    ok = (
        url is not None
        and url.host is not None
        and (url.host in DISCORD_HOSTS or test_mode)
        and (url.scheme == "https" or (test_mode and url.scheme == "http"))
        and len(after) >= 2
        and after[0].isdigit()
        and bool(after[1])
    )
    if not ok:
        raise ConfigError(
            "ERROR_WEBHOOK_URL must be a Discord webhook URL, "
            "https://discord.com/api/webhooks/<id>/<token> (a channel's settings -> "
            "Integrations -> Webhooks -> Copy Webhook URL)"
        )
    return raw


def dotenv_path() -> Path:
    """The ``.env`` file the bot reads: the one in the folder it is started from, and no other."""
    return Path.cwd() / ".env"


def _no_token(read: Path | None) -> str:
    """The one line that says the token is missing, and where the bot looked for it (``read``:
    the ``.env`` file it read, or None when it read none)."""
    how = (
        "(the README's 'Run your own bot' says how to get one; .env.example describes every "
        "setting)"
    )
    if read is None:
        return (
            "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot's token after "
            f"DISCORD_TOKEN= {how}"
        )
    only = "(the bot reads .env from the folder it is started from, and no other)"
    if read.is_file():
        return (
            f"DISCORD_TOKEN is not set: it is not in the environment, and {read} {only} has no "
            f"token. Put your bot's token after DISCORD_TOKEN= in that file {how}"
        )
    return (
        f"DISCORD_TOKEN is not set: it is not in the environment, and there is no {read} {only}. "
        f"Copy .env.example to .env there and put your bot's token after DISCORD_TOKEN= {how}"
    )


def load_config(env: Mapping[str, str] | None = None, *, dotenv: bool = True) -> Config:
    """Read the configuration from ``env`` (default: the process environment, after loading the
    ``.env`` file of the folder the bot is started from if there is one, :func:`dotenv_path`;
    the environment wins). Raises :class:`ConfigError`."""
    read: Path | None = None
    if env is None:
        if dotenv:
            from dotenv import load_dotenv

            read = dotenv_path()
            load_dotenv(read, override=False)
        env = os.environ
    token = (env.get("DISCORD_TOKEN") or "").strip()
    if not token:
        raise ConfigError(_no_token(read))
    check_token(token)
    level = (env.get("LOG_LEVEL") or "INFO").strip().upper()
    if level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {level!r}")
    test_mode = (env.get("FP_TEST_MODE") or "").strip() in ("1", "true", "yes")
    shard_count, shard_ids = _shards(env)
    database_url, database_default, old_database = _database(env)
    config = Config(
        token=token,
        database_url=database_url,
        database_default=database_default,
        old_database=old_database,
        discord_timeout_s=_seconds(env, "DISCORD_TIMEOUT", DISCORD_TIMEOUT_S),
        start_retry_s=_schedule(env, "DISCORD_START_RETRY", START_RETRY_S),
        error_webhook_url=_webhook(env, test_mode),
        shard_count=shard_count,
        shard_ids=shard_ids,
        dev_guild_id=_int(env, "DEV_GUILD_ID"),
        log_level=level,
        api_base_url=_endpoint(env, "DISCORD_API_BASE_URL", ("http", "https")),
        gateway_url=_endpoint(env, "DISCORD_GATEWAY_URL", ("ws", "wss")),
        test_mode=test_mode,
        turning_points=_on_off(env, "TURNING_POINTS", default=True),
    )
    if not config.runs_every_shard and _is_sqlite(database_url):
        raise ConfigError(
            f"SHARD_IDS={ids_text(shard_ids)} runs only some of the {shard_count} shards, so other "
            "processes run the rest over the same database, and SQLite serves one process only: "
            "set DATABASE_URL to a PostgreSQL database (postgresql://...), or leave SHARD_IDS "
            "unset to run every shard in this process"
        )
    if not test_mode:
        return config
    interval = _float(env, "FP_TIMER_INTERVAL")
    lease = _float(env, "FP_TIMER_LEASE")
    budget = _float(env, "FP_AI_TIME_BUDGET")
    nodes, deals = _int(env, "FP_TURNING_NODE_LIMIT"), _int(env, "FP_TURNING_DEALS")
    turning = Budget(
        nodes if nodes is not None and nodes > 0 else REVIEW_BUDGET.node_limit,
        deals if deals is not None and deals > 0 else REVIEW_BUDGET.deals,
    )
    return Config(
        **{
            **config.__dict__,
            "clock_file": (env.get("FP_CLOCK_FILE") or "").strip() or None,
            "timer_interval_s": interval if interval is not None else config.timer_interval_s,
            "timer_lease_s": lease if lease is not None else config.timer_lease_s,
            "test_state_file": (env.get("FP_TEST_STATE_FILE") or "").strip() or None,
            "seed": _int(env, "FP_SEED"),
            "ai_node_limit": _int(env, "FP_AI_NODE_LIMIT"),
            "ai_time_budget_s": budget if budget is not None else config.ai_time_budget_s,
            "error_interval_s": _seconds(env, "FP_ERROR_INTERVAL", config.error_interval_s),
            "turning_budget": turning,
            "extensions": tuple(
                e.strip() for e in (env.get("FP_EXTENSIONS") or "").split(",") if e.strip()
            )
            or config.extensions,
        }
    )


def apply_endpoints(config: Config) -> None:
    """Point discord.py at the configured REST base URL and gateway (when set)."""
    import discord.gateway
    import discord.http

    if config.api_base_url:
        discord.http.Route.BASE = config.api_base_url.rstrip("/")
    if config.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config.gateway_url)


def offset_clock(path: str) -> Callable[[], float]:
    """Test-only: real time plus the number of seconds written in ``path`` (0 if missing).

    The file is re-read when it changes (by modification time), so a test moves the bot's time
    forward by writing a bigger number into it.
    """
    cache: dict[str, float] = {"mtime": -1.0, "offset": 0.0}

    def now() -> float:
        try:
            mtime = os.stat(path).st_mtime_ns
        except FileNotFoundError:
            return time.time()
        if mtime != cache["mtime"]:
            try:
                text = Path(path).read_text().strip()
                cache["offset"] = float(text or 0)
                cache["mtime"] = mtime
            except (OSError, ValueError):
                pass  # being rewritten: keep the last offset
        return time.time() + cache["offset"]

    return now
