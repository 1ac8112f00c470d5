"""``python -m bot`` (or ``flaming-pyramids``): run the Flaming Pyramids bot with the
configuration from the environment; ``python -m bot check``: check the configuration and the
database without connecting to Discord.

Whatever stops it at start is one line on stderr, with exit status 2 when the settings or the
machine must change first and 1 when starting again later may work (see :mod:`bot.startup`).
SIGINT (Ctrl+C) and SIGTERM stop it cleanly at any moment, with exit status 0. (So this module
imports only the standard library at its top: the signal handlers are installed before the slow
imports of discord.py and the rest, which the functions below make.)
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.config import Config
    from bot.startup import Stopper

PREFIX = "flaming pyramids bot: "
#: Masks the settings' secrets in what is printed (set once the settings are read).
_redact: Callable[[str], str] = str


class _Stopped(BaseException):
    """A signal came before the event loop took the signals over (while importing, say)."""


def _stop_early(signum: int, frame: FrameType | None) -> None:
    raise _Stopped(signum)


def _ignore(signum: int, frame: FrameType | None) -> None:
    """After the event loop: the bot is already stopping."""


def say(line: str) -> None:
    """One line for the operator, on stderr (never with a secret of the settings)."""
    print(f"{PREFIX}{_redact(line)}", file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; returns the exit status."""
    # First of all, before the slow imports: a Ctrl+C or SIGTERM from now on stops the bot
    # cleanly instead of printing a traceback (or being lost).
    # (A signal ignored when the bot was started, as nohup does, stays ignored.)
    for sig in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(sig) is not signal.SIG_IGN:
            signal.signal(sig, _stop_early)
    try:
        return _main(list(sys.argv[1:] if argv is None else argv))
    except (_Stopped, KeyboardInterrupt) as e:
        sig = e.args[0] if isinstance(e, _Stopped) else signal.SIGINT
        say(f"stopped by {signal.Signals(sig).name} before it started")
        return 0
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, _ignore)


def command_name(argv0: str) -> str:
    """How the bot was typed, for ``--help``: the installed command's name, or
    ``python -m bot``.

    >>> command_name("/opt/flaming-pyramids/.venv/bin/flaming-pyramids")
    'flaming-pyramids'
    >>> command_name("/opt/flaming-pyramids/bot/__main__.py")
    'python -m bot'
    """
    name = Path(argv0).name
    return "python -m bot" if name in ("__main__.py", "-c", "") else name


def _main(argv: list[str]) -> int:
    import argparse

    from bot import DISTRIBUTION, __version__
    from bot.config import dotenv_path

    parser = argparse.ArgumentParser(
        prog=command_name(sys.argv[0]),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Run the Flaming Pyramids Discord bot.\n\n"
        "Its settings come from the environment, then from the .env file of the folder it is\n"
        f"started from, and no other one:\n  {dotenv_path()}\n"
        "(the environment wins). .env.example describes every setting.",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"{DISTRIBUTION} {__version__}",
        help="print the installed package's name and version, and exit",
    )
    parser.add_argument(
        "command",
        nargs="?",
        choices=["run", "check"],
        default="run",
        help="run (default) the bot, or check the configuration and the database without "
        "connecting to Discord",
    )
    args = parser.parse_args(argv)

    import asyncio
    import logging
    import os

    from bot.config import ConfigError, apply_endpoints, load_config
    from bot.redact import Redactor

    global _redact
    try:
        config = load_config()
    except ConfigError as err:
        _redact = Redactor.from_env(os.environ)  # (with the .env file's settings)
        said = str(err)
        say(
            said
            if ".env.example" in said
            else f"{said} (every setting is described in .env.example)"
        )
        return 2
    _redact = Redactor.from_env(os.environ)
    setup_logging("WARNING" if args.command == "check" else config.log_level, _redact)
    apply_endpoints(config)
    if config.test_mode:
        logging.getLogger("bot").warning("FP_TEST_MODE is on: test-only settings are honoured")
    if args.command == "check":
        return asyncio.run(check(config))
    return asyncio.run(run(config))


def setup_logging(level: str, redact: Callable[[str], str]) -> None:
    """Log lines on stderr, at ``level``; ``redact`` masks the settings' secrets in them."""
    import logging

    from bot.redact import RedactingFormatter

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        RedactingFormatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s", redact)
    )
    logging.basicConfig(level=level, handlers=[handler])
    if level != "DEBUG":
        logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLevelName(level)))
        logging.getLogger("discord.gateway").setLevel(logging.WARNING)


async def run(config: Config) -> int:
    """Start the bot and run it until it is stopped; the exit status."""
    import asyncio
    import logging

    from bot.alerts import WebhookReporter
    from bot.startup import Fatal, Stopper

    log = logging.getLogger("bot")
    task = asyncio.current_task()
    assert task is not None
    stopper = Stopper(task)
    stopper.install(asyncio.get_running_loop())
    reporter: WebhookReporter | None = None
    if config.error_webhook_url:
        reporter = WebhookReporter(
            config.error_webhook_url, interval_s=config.error_interval_s, redact=_redact
        )
        logging.getLogger().addHandler(reporter)
        reporter.start()
    stopped: Fatal | None = None
    try:
        await serve(config, stopper)
        return 0
    except asyncio.CancelledError:
        if not stopper.requested:
            raise
        task.uncancel()
        return 0
    except Fatal as fatal:
        stopped = fatal
        if reporter is not None:
            reporter.send_now(f"**The bot stopped at start**: {fatal.message}")
        return fatal.status
    except Exception:
        log.critical("the bot stopped on an unexpected error", exc_info=True)
        return 1
    finally:
        if reporter is not None:
            await reporter.stop()
            logging.getLogger().removeHandler(reporter)
        if stopped is not None:
            say(stopped.message)  # the last line, after whatever posting the report logged


async def serve(config: Config, stopper: Stopper) -> None:
    """Open the store, reach Discord, log in (extensions, command sync) and run; raises
    :class:`~bot.startup.Fatal` for what stops the start."""
    import logging
    from pathlib import Path

    import discord.http

    from bot.app import Bot
    from bot.config import old_database_warning
    from bot.startup import (
        ExtensionsFailed,
        extension_failure,
        login_failure,
        store_failure,
        version,
        wait_for_discord,
    )
    from data import open_store, sqlite_path
    from data.store import StoreError

    log = logging.getLogger("bot")
    where = config.database_shown
    old = old_database_warning(config)
    if old is not None:
        log.warning("%s", old)
    new = config.store_kind == "sqlite" and not Path(sqlite_path(config.database_url)).exists()
    store = open_store(config.database_url)
    try:
        await store.open()
        if new:
            log.warning("created a new database at %s (no games yet)", where)
        count = await store.open_table_count()
    except StoreError as e:
        await store.close()
        raise store_failure(e) from None
    except BaseException:
        await store.close()
        raise
    log.info(
        "Flaming Pyramids %s (discord.py %s): %s; games in %s %s%s, %d open table%s%s",
        version(),
        discord.__version__,
        shards_text(config),
        "SQLite" if config.store_kind == "sqlite" else "PostgreSQL",
        where,
        " (the default place)" if config.database_default else "",
        count,
        "" if count == 1 else "s",
        "; errors also go to ERROR_WEBHOOK_URL" if config.error_webhook_url else "",
    )
    try:
        bot = Bot(config, store=store)
    except BaseException:
        await store.close()
        raise
    async with bot:  # (its exit closes the connection and the store)
        await wait_for_discord(config, discord.http.Route.BASE)
        try:
            await bot.login(config.token)
        except ExtensionsFailed as e:
            raise extension_failure(e) from None
        except StoreError as e:
            raise store_failure(e) from None
        except Exception as e:
            fatal = login_failure(e)
            if fatal is None:
                raise
            raise fatal from None
        stopper.close = bot.close
        try:
            await bot.connect()
        except Exception as e:
            fatal = login_failure(e)
            if fatal is None or stopper.requested:
                raise
            raise fatal from None


def shards_text(config: Config) -> str:
    """The shards this process runs, in words."""
    from bot.config import ids_text

    if config.shard_count is None:
        return "the shard count Discord recommends, all in this process"
    if config.runs_every_shard:
        return f"all {config.shard_count} shards in this process"
    return f"shards {ids_text(config.shard_ids)} of {config.shard_count}"


async def check(config: Config) -> int:
    """``python -m bot check``: the configuration (already read) and the database, without
    Discord; prints what it found, and returns the exit status."""
    from bot.config import old_database_warning
    from bot.startup import Fatal, store_failure, version
    from data.store import StoreError

    print(f"configuration: ok (Flaming Pyramids {version()}; {shards_text(config)})")
    try:
        line = await check_database(config)
    except StoreError as e:
        fatal = store_failure(e)
        say(fatal.message)
        return fatal.status
    except Fatal as fatal:
        say(fatal.message)
        return fatal.status
    print(line)
    old = old_database_warning(config)
    if old is not None:
        print(f"warning: {old}")
    if config.error_webhook_url:
        print("errors are also posted to ERROR_WEBHOOK_URL (not tried: no connection is made)")
    return 0


async def check_database(config: Config) -> str:
    """The database's line of ``check``: read, never changed (nor made)."""
    import os
    from pathlib import Path

    from bot.startup import EXIT_SETTINGS, Fatal
    from data import migrate, postgres_settings, sqlite_path
    from data.sqlite import SqliteStore
    from data.store import StorageUnusable, Store

    store: Store
    where = config.database_shown
    if config.store_kind == "sqlite":
        path = Path(sqlite_path(config.database_url)).absolute()
        folder = path.parent
        while not folder.exists():
            folder = folder.parent
        if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
            raise StorageUnusable(
                f"the database {path} cannot be written there (no permission, or a read-only "
                "file system): set DATABASE_URL to a file in a writable folder"
            )
        if not path.exists():
            return f"database: none yet at {path}: the bot will create it at start"
        store = SqliteStore(path, migrate_schema=False, read_only=True)
        latest = migrate.latest_version()
    else:
        from data import pgmigrate
        from data.postgres import PostgresStore

        settings = postgres_settings(os.environ)
        store = PostgresStore(
            config.database_url,
            pool_min=1,
            pool_max=1,
            timeout_s=settings["timeout_s"],
            retry_s=settings["retry_s"],
            migrate_schema=False,
        )
        latest = pgmigrate.latest_version()
    await store.open()
    try:
        found = await store.schema_version()
        if found == 0 and config.store_kind == "sqlite":
            raise Fatal(
                f"cannot use the database: {where} is a SQLite file but not a Flaming Pyramids "
                "database: set DATABASE_URL to the bot's own database file",
                EXIT_SETTINGS,
            )
        count = await store.open_table_count() if found == latest else None
    finally:
        await store.close()
    kind = "SQLite" if config.store_kind == "sqlite" else "PostgreSQL"
    if found < latest:
        return (
            f"database: {kind} {where}, schema version {found}: the bot will migrate it to "
            f"version {latest} at start"
        )
    return f"database: {kind} {where}, schema version {found}, {count} open tables: ok"


if __name__ == "__main__":
    sys.exit(main())
