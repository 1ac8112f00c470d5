"""Run a discord.py bot against the fake: in the test's event loop, or as a subprocess.

In-process::

    point_discord_py_at(fake.base_url, fake.gateway_url)
    async with InProcessBot(fake, MyBot()) as running:
        ...

Subprocess (the bot module reads ``DISCORD_TOKEN``, ``DISCORD_API_BASE_URL`` and
``DISCORD_GATEWAY_URL``)::

    proc = BotProcess(fake, "bot")            # python -m bot
    await proc.start()
    await proc.kill(); await proc.start()     # or: await proc.restart()
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import discord

    from .server import FakeDiscord

REPO_ROOT = Path(__file__).resolve().parents[2]


def point_discord_py_at(base_url: str, gateway_url: str) -> None:
    """Make discord.py (in this process) talk to another REST base URL and gateway.

    Sets ``discord.http.Route.BASE`` (REST, interaction callbacks and followups all use it)
    and ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY``. discord.py appends
    ``?v=10&encoding=json&compress=...`` to the gateway URL itself and RESUMEs through the
    ``resume_gateway_url`` it got in READY.
    """
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = base_url.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def point_discord_py_from_env(environ: dict[str, str] | None = None) -> bool:
    """Apply ``DISCORD_API_BASE_URL`` / ``DISCORD_GATEWAY_URL`` if set; return whether any was."""
    env = os.environ if environ is None else environ
    base = env.get("DISCORD_API_BASE_URL") or ""
    gateway = env.get("DISCORD_GATEWAY_URL") or ""
    if not base and not gateway:
        return False
    import discord.gateway
    import discord.http
    import yarl

    if base:
        discord.http.Route.BASE = base.rstrip("/")
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    return True


def configure_for_tests(
    bot: discord.Client,
    *,
    guild_ready_timeout: float | None = 0.05,
    heartbeat_timeout: float | None = None,
    fast_reidentify: bool = True,
) -> None:
    """Speed a bot object up for tests without changing its code.

    - ``guild_ready_timeout``: discord.py waits this long after the last GUILD_CREATE before
      ``on_ready`` (default 2 s).
    - ``heartbeat_timeout``: seconds of gateway silence before discord.py reconnects (default
      60 s); only shorten it together with a short ``FakeDiscord(heartbeat_interval=...)``.
    - ``fast_reidentify``: skip the 5 s sleep of ``before_identify_hook`` before re-IDENTIFY.
    """
    state = bot._connection
    if guild_ready_timeout is not None:
        state.guild_ready_timeout = guild_ready_timeout
    if heartbeat_timeout is not None:
        state.heartbeat_timeout = heartbeat_timeout
    if fast_reidentify:

        async def before_identify_hook(shard_id: int | None, *, initial: bool = False) -> None:
            return None

        bot.before_identify_hook = before_identify_hook  # type: ignore[method-assign]


class InProcessBot:
    """Runs a ``discord.Client`` / ``commands.Bot`` object in the current event loop."""

    def __init__(
        self,
        fake: FakeDiscord,
        bot: discord.Client,
        *,
        guild_ready_timeout: float | None = 0.05,
        heartbeat_timeout: float | None = None,
        fast_reidentify: bool = True,
    ) -> None:
        self.fake = fake
        self.bot = bot
        self.task: asyncio.Task[None] | None = None
        self._options: dict[str, Any] = {
            "guild_ready_timeout": guild_ready_timeout,
            "heartbeat_timeout": heartbeat_timeout,
            "fast_reidentify": fast_reidentify,
        }

    async def start(self, timeout: float = 15.0) -> InProcessBot:
        """Log in, connect, and wait until the bot is ready (``on_ready`` fired)."""
        point_discord_py_at(self.fake.base_url, self.fake.gateway_url)
        configure_for_tests(self.bot, **self._options)
        self.task = asyncio.create_task(self.bot.start(self.fake.token), name="bot-under-test")
        ready = asyncio.create_task(self.bot.wait_until_ready())
        done, _ = await asyncio.wait(
            {self.task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in done:
            ready.cancel()
            if self.task in done:
                self.task.result()  # re-raise the bot's startup error
                raise RuntimeError("the bot stopped before becoming ready")
            raise TimeoutError(f"the bot was not ready after {timeout:.0f}s")
        return self

    async def stop(self) -> None:
        """Close the bot and wait for its task."""
        with contextlib.suppress(Exception):
            await self.bot.close()
        if self.task is not None:
            try:
                await asyncio.wait_for(self.task, 5.0)
            except BaseException:
                self.task.cancel()
            self.task = None

    async def restart(self, new_bot: discord.Client, timeout: float = 15.0) -> InProcessBot:
        """Stop this bot and start ``new_bot`` (a fresh object: a closed Client can't restart)."""
        await self.stop()
        self.bot = new_bot
        return await self.start(timeout)

    async def __aenter__(self) -> InProcessBot:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()


class BotProcess:
    """Runs ``python -m <module>`` with the fake's environment; can kill and restart it.

    The fake server (and so every message, interaction and registered command) lives in the
    test process, so it survives bot restarts like Discord does.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        module: str,
        *,
        args: list[str] | None = None,
        env: dict[str, str] | None = None,
        cwd: str | Path | None = None,
        ready: Callable[[], bool] | None = None,
    ) -> None:
        self.fake = fake
        self.module = module
        self.args = list(args or [])
        self.extra_env = dict(env or {})
        self.cwd = Path(cwd) if cwd is not None else REPO_ROOT
        self.ready = ready
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0
        self._output: list[str] = []
        self._reader: asyncio.Task[None] | None = None

    @property
    def output(self) -> str:
        """Everything the process(es) printed so far (stdout and stderr)."""
        return "".join(self._output)

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def _read(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        while True:
            line = await proc.stdout.readline()
            if not line:
                return
            self._output.append(line.decode(errors="replace"))

    async def start(self, *, wait_ready: bool = True, timeout: float = 30.0) -> BotProcess:
        """Start the process; by default wait until it IDENTIFYed and is connected (and the
        ``ready`` predicate, if given, holds)."""
        if self.running:
            raise RuntimeError("bot process already running")
        env = dict(os.environ)
        env.update(self.fake.env())
        env["PYTHONUNBUFFERED"] = "1"
        env.update(self.extra_env)
        before = self.fake.gateway.identifies
        self.starts += 1
        self._output.append(f"--- start #{self.starts}: python -m {self.module}\n")
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            self.module,
            *self.args,
            cwd=str(self.cwd),
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        self._reader = asyncio.create_task(self._read(self.proc))
        if wait_ready:
            proc = self.proc

            def ok() -> bool:
                if proc.returncode is not None:
                    return True
                connected = (
                    self.fake.gateway.identifies > before and self.fake.gateway.is_connected()
                )
                return connected and (self.ready is None or self.ready())

            try:
                await self.fake.wait_for(ok, timeout, f"bot process {self.module} to connect")
            except TimeoutError as e:
                raise TimeoutError(f"{e}\n--- bot output ---\n{self.output}") from None
            if proc.returncode is not None:
                await self._drain()
                raise RuntimeError(
                    f"bot process exited with {proc.returncode}\n--- bot output ---\n{self.output}"
                )
        return self

    async def _drain(self) -> None:
        if self._reader is not None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._reader, 2.0)

    async def kill(self) -> None:
        """SIGKILL the process (like a crash or an OOM kill) and wait for it."""
        await self._signal(signal.SIGKILL)

    async def stop(self, timeout: float = 5.0) -> None:
        """SIGTERM, then SIGKILL after ``timeout`` seconds."""
        proc = self.proc
        if proc is None or proc.returncode is not None:
            return
        proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(proc.wait(), timeout)
        except TimeoutError:
            proc.kill()
            await proc.wait()
        await self._drain()

    async def _signal(self, sig: int) -> None:
        proc = self.proc
        if proc is None or proc.returncode is not None:
            return
        proc.send_signal(sig)
        await proc.wait()
        await self._drain()

    async def restart(self, *, kill: bool = True, timeout: float = 30.0) -> BotProcess:
        """Kill (or stop) the process, then start it again and wait until it is connected."""
        if kill:
            await self.kill()
        else:
            await self.stop()
        return await self.start(timeout=timeout)

    async def __aenter__(self) -> BotProcess:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.kill()
