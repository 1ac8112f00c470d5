"""Starting the bot so that it works whole or stops with one line: its one job is to turn every
way a start can fail into a :class:`Fatal` (what is wrong, what to do, and the exit status), and
to wait for Discord within stated bounds.

- Exit status 2: the settings or the machine must change first (a refused token, a full disk, a
  database newer than the code, an extension that does not load); a service manager should not
  start the bot again (the unit's ``RestartPreventExitStatus=2``).
- Exit status 1: starting again later may work (Discord or the database unreachable for now).
"""

from __future__ import annotations

import asyncio
import logging
import random
import signal
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from importlib import metadata
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
import yarl

from data.store import DatabaseDamaged, SchemaTooNew, StorageUnusable, StoreError

if TYPE_CHECKING:
    from bot.config import Config

log = logging.getLogger("bot")

#: A restart cannot fix it: the settings, the install or the machine must change first.
EXIT_SETTINGS = 2
#: Starting again later may work.
EXIT_RETRY = 1
#: A wait before a new login attempt is longer than the one set by up to this part, at random:
#: bots (or processes of one bot) that a Discord outage stopped together do not all knock again
#: at the same instant. Never shorter: a wait Discord asked for (429) is honoured.
START_JITTER = 0.25


class Fatal(Exception):
    """Start-up cannot go on: ``message`` is the one line for the operator, ``status`` the exit
    status (:data:`EXIT_SETTINGS` or :data:`EXIT_RETRY`)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class ExtensionsFailed(Exception):
    """An extension did not load: the bot must not register a command list without it."""

    def __init__(self, name: str, error: BaseException) -> None:
        cause = error.__cause__ or getattr(error, "original", None) or error
        super().__init__(f"the extension {name} did not load ({type(cause).__name__}: {cause})")
        self.name = name
        self.cause = cause


def version() -> str:
    """This release's version (as installed)."""
    try:
        return metadata.version("flaming-pyramids-bot")
    except metadata.PackageNotFoundError:
        return "unknown (not installed)"


def store_failure(e: StoreError) -> Fatal:
    """The :class:`Fatal` a store that does not open stands for."""
    if isinstance(e, DatabaseDamaged | SchemaTooNew | StorageUnusable):
        return Fatal(f"cannot use the database: {e}", EXIT_SETTINGS)
    return Fatal(
        f"cannot use the database: {e}. Once it is reachable again, start the bot again",
        EXIT_RETRY,
    )


def extension_failure(e: ExtensionsFailed) -> Fatal:
    """An extension that did not load: no command was registered; exit 2 for a broken install
    (a restart loads the same code), 1 for anything else."""
    from discord.ext import commands

    broken = isinstance(
        e.cause,
        ImportError
        | SyntaxError
        | AttributeError
        | NameError
        | commands.ExtensionNotFound
        | commands.NoEntryPointError,
    )
    what = (
        "the install is broken: reinstall the bot (pip install --force-reinstall ...)"
        if broken
        else "nothing was registered with Discord; start the bot again"
    )
    return Fatal(f"{e}: {what}", EXIT_SETTINGS if broken else EXIT_RETRY)


# --- waiting for Discord -------------------------------------------------------------------------


@dataclass(frozen=True)
class Unreachable(Exception):
    """Discord could not be reached or answered with an error: trying again may work."""

    problem: str
    #: Seconds Discord asked to wait (a 429), if it did.
    retry_after: float = 0.0

    def __str__(self) -> str:
        return self.problem


def _where(url: str) -> str:
    parsed = yarl.URL(url)
    return f"{parsed.host}:{parsed.port}" if parsed.port else str(parsed.host)


async def probe(base_url: str, token: str, timeout_s: float) -> None:
    """Ask Discord who the token belongs to (``GET /users/@me``, what the login asks), with no
    retry of its own, within ``timeout_s``. Raises :class:`Unreachable` for what may pass,
    :class:`Fatal` for a refused token or a URL that is not Discord's API."""
    url = f"{base_url.rstrip('/')}/users/@me"
    where = _where(url)
    headers = {
        "Authorization": f"Bot {token}",
        "User-Agent": f"DiscordBot (flaming-pyramids-bot, {version()})",
    }
    try:
        async with (
            aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=timeout_s)) as session,
            session.get(url, headers=headers) as response,
        ):
            status, reason = response.status, response.reason or ""
            retry_after = response.headers.get("Retry-After", "")
            await response.read()
    except TimeoutError:
        raise Unreachable(
            f"{where} did not answer the login within {timeout_s:g} s (DISCORD_TIMEOUT)"
        ) from None
    except aiohttp.ClientConnectorDNSError as e:
        raise Unreachable(f"cannot find {e.host} (DNS: {e.os_error.strerror or e.os_error})") from e
    except aiohttp.ClientConnectorError as e:
        why = e.os_error.strerror or str(e.os_error) or type(e.os_error).__name__
        raise Unreachable(f"cannot connect to {where} ({why})") from e
    except (aiohttp.ClientError, OSError) as e:
        raise Unreachable(f"the connection to {where} failed ({type(e).__name__}: {e})") from e
    if 200 <= status < 300:
        return
    if status == 401:
        raise Fatal(
            "Discord refused the token (401 Unauthorized): DISCORD_TOKEN is wrong or was reset. "
            "Copy the current one from the developer portal (your application -> Bot -> Reset "
            "Token) into DISCORD_TOKEN",
            EXIT_SETTINGS,
        )
    if status == 429 or status >= 500:
        try:
            wait = float(retry_after) if retry_after else 0.0
        except ValueError:
            wait = 0.0
        raise Unreachable(f"Discord answers {status} {reason} at {where}", retry_after=wait)
    raise Fatal(
        f"{url} answered {status} {reason} to the login: is it Discord's API? Check "
        "DISCORD_API_BASE_URL (empty for Discord's own)",
        EXIT_SETTINGS,
    )


async def wait_for_discord(
    config: Config,
    base_url: str,
    *,
    ask: Callable[[str, str, float], Awaitable[None]] = probe,
) -> None:
    """Reach Discord for the login, trying again after each wait of ``DISCORD_START_RETRY``
    (saying in the log what failed and how long it waits); raises :class:`Fatal` (exit 1) when
    the waits are used up."""
    waits = list(config.start_retry_s)
    attempts = len(waits) + 1
    began = time.monotonic()
    for attempt in range(1, attempts + 1):
        log.info(
            "logging in to Discord at %s (attempt %d of %d, waiting up to %g s for an answer)",
            _where(base_url),
            attempt,
            attempts,
            config.discord_timeout_s,
        )
        try:
            await ask(base_url, config.token, config.discord_timeout_s)
            return
        except Unreachable as e:
            if attempt == attempts:
                took = time.monotonic() - began
                raise Fatal(
                    f"{e}; gave up after {attempts} attempt{'s' if attempts > 1 else ''} in "
                    f"{took:.0f} s. Check this machine's network and https://discordstatus.com; "
                    "started again (a service manager does it), the bot tries again",
                    EXIT_RETRY,
                ) from None
            base = max(waits[attempt - 1], e.retry_after)
            wait = base * random.uniform(1.0, 1 + START_JITTER)
            log.warning(
                "%s; trying again in %.1f s (DISCORD_START_RETRY: %g s, and a random part)",
                e,
                wait,
                base,
            )
            await asyncio.sleep(wait)


def login_failure(e: BaseException) -> Fatal | None:
    """The :class:`Fatal` an error of discord.py's login (after a successful :func:`probe`)
    stands for, if it is one of Discord's or the network's."""
    if isinstance(e, discord.LoginFailure):
        return Fatal(
            "Discord refused the token: DISCORD_TOKEN is wrong or was reset. Copy the current "
            "one from the developer portal (your application -> Bot -> Reset Token)",
            EXIT_SETTINGS,
        )
    if isinstance(e, discord.PrivilegedIntentsRequired):
        return Fatal(f"Discord refused the connection: {e}", EXIT_SETTINGS)
    if isinstance(e, discord.ConnectionClosed):
        if e.code == 4004:  # authentication failed
            return login_failure(discord.LoginFailure())
        return Fatal(
            f"Discord closed the connection (code {e.code}: {e.reason or 'no reason given'}); "
            "start the bot again",
            EXIT_SETTINGS if e.code in (4010, 4011, 4012, 4013, 4014) else EXIT_RETRY,
        )
    if isinstance(e, discord.HTTPException):
        return Fatal(
            f"Discord answered {e.status} during the login ({e.text or 'no details'}); "
            "start the bot again",
            EXIT_RETRY,
        )
    if isinstance(e, aiohttp.ClientError | OSError | TimeoutError | discord.GatewayNotFound):
        return Fatal(
            f"lost Discord during the login ({type(e).__name__}: {e}); start the bot again",
            EXIT_RETRY,
        )
    return None


# --- stopping ------------------------------------------------------------------------------------


class Stopper:
    """What SIGINT and SIGTERM do once the event loop runs: the first one stops the bot (a bot
    that is running closes, a start in progress is cancelled where it waits); later ones are
    noted and ignored while it stops."""

    def __init__(self, task: asyncio.Task[Any]) -> None:
        self.task = task
        self.signal: int | None = None
        #: Called instead of cancelling once the bot runs (its ``close``).
        self.close: Callable[[], Awaitable[None]] | None = None
        self._closing: asyncio.Future[None] | None = None

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        for sig in (signal.SIGINT, signal.SIGTERM):
            if signal.getsignal(sig) is not signal.SIG_IGN:
                loop.add_signal_handler(sig, self.request, sig)

    def request(self, sig: int) -> None:
        name = signal.Signals(sig).name
        if self.signal is not None:
            log.info("%s: already stopping", name)
            return
        self.signal = sig
        log.info("%s: stopping", name)
        if self.close is not None:
            self._closing = asyncio.ensure_future(self.close())
        else:
            self.task.cancel()

    @property
    def requested(self) -> bool:
        return self.signal is not None
