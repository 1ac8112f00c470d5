"""The fake Discord server: REST API v10 + gateway on 127.0.0.1, with test-side controls.

Typical use::

    async with FakeDiscord() as fake:
        guild = fake.create_guild("Pyramid Club")
        games = fake.create_text_channel(guild, "games")
        alice = fake.create_user("alice", guilds=[guild])
        point_discord_py_at(fake.base_url, fake.gateway_url)   # or run the bot as a subprocess
        ...
        ix = await alice.slash("fp new", games, curse=True)
        reply = await ix.wait_response()
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from aiohttp import web

from .errors import FakeUserError, Refusal
from .faults import Faults
from .gateway import PRIVILEGED_INTENTS, Gateway, Sharding
from .models import (
    DEFAULT_BOT_PERMISSIONS,
    Account,
    Channel,
    Command,
    Guild,
    Interaction,
    Message,
    MiB,
    Notifier,
    Role,
    Webhook,
)
from .ratelimit import RateLimitConfig, RateLimiter
from .rest import API_PREFIX, RequestRecord, RestApi
from .state import State

if TYPE_CHECKING:
    from .users import FakeUser

log = logging.getLogger("fakediscord")

T = TypeVar("T")

DEFAULT_TOKEN = "fake-bot-token.Flaming.Pyramids"


class FakeDiscord:
    """A local Discord (REST + gateway) that a real, unmodified discord.py bot can run against.

    :param token: the bot token the fake accepts (REST ``Authorization: Bot ...`` and IDENTIFY).
    :param ack_deadline: seconds a bot has to acknowledge an interaction (Discord: 3).
    :param heartbeat_interval: seconds announced in HELLO.
    :param reaction_delay: seconds a fake user waits, after the bot's request that created or
        edited a message returned, before clicking on it (a person's reaction time).
    :param max_attachment_size: upload limit per request in bytes (larger: 413, code 40005).
    :param rate_limits: ``True`` (or a :class:`RateLimitConfig`) to emulate Discord's limits.
    :param allowed_intents: privileged intents the application may request (else close 4014).
    :param sharding: what ``GET /gateway/bot`` announces (recommended shards, session start
        limit) and the gateway enforces (shards, guilds per shard, the identify rate).
    """

    def __init__(
        self,
        *,
        token: str = DEFAULT_TOKEN,
        bot_name: str = "Flaming Pyramids",
        ack_deadline: float = 3.0,
        heartbeat_interval: float = 41.25,
        reaction_delay: float = 0.03,
        max_attachment_size: int = 10 * MiB,
        rate_limits: bool | RateLimitConfig = False,
        allowed_intents: int = PRIVILEGED_INTENTS,
        sharding: Sharding | None = None,
        host: str = "127.0.0.1",
    ) -> None:
        self.token = token
        self.host = host
        self.ack_deadline = ack_deadline
        self.reaction_delay = reaction_delay
        #: How long an interaction token accepts followups and edits (Discord: 15 minutes),
        #: measured on the fake's own clock (:meth:`now`, moved by :meth:`advance_time`).
        self.token_lifetime = 15 * 60.0
        self.clock_offset = 0.0
        #: Requests refused as Discord would (invalid bodies, files too large, expired
        #: interaction tokens), oldest first; see :meth:`expect_refusal`.
        self.refusals: list[Refusal] = []
        self._expected: list[ExpectedRefusal] = []
        self.notifier = Notifier()
        self.state = State(
            notifier=self.notifier, bot_name=bot_name, max_attachment_size=max_attachment_size
        )
        self.state.now = self.now
        self.gateway = Gateway(
            self.state,
            self.notifier,
            token=token,
            heartbeat_interval=heartbeat_interval,
            allowed_intents=allowed_intents,
        )
        if sharding is not None:
            self.gateway.sharding = sharding
        self.state.dispatch = self.gateway.dispatch
        self.faults = Faults()
        self.limiter: RateLimiter | None = None
        if rate_limits:
            self.enable_rate_limits(
                rate_limits if isinstance(rate_limits, RateLimitConfig) else None
            )
        self.rest = RestApi(self)
        self.faults.known_routes = self.rest.route_names
        #: Every REST request the bot made, oldest first.
        self.requests: list[RequestRecord] = []
        #: Requests to routes the fake does not implement ("METHOD /path").
        self.unknown_routes: list[str] = []
        #: Internal errors of the fake itself (should always be empty).
        self.errors: list[str] = []
        self._runner: web.AppRunner | None = None
        self._deadline_handles: list[asyncio.TimerHandle] = []
        self.port = 0

    # ------------------------------------------------------------------ lifecycle
    async def start(self, port: int = 0) -> FakeDiscord:
        """Listen on ``host`` (a random free port unless ``port`` is given)."""
        app = web.Application(middlewares=[self.rest.middleware], client_max_size=256 * MiB)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/resume-gateway", self.gateway.handle)
        self.rest.install(app)
        self._runner = web.AppRunner(
            app, access_log=None, handle_signals=False, shutdown_timeout=0.5
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, port)
        await site.start()
        server = site._server
        assert server is not None
        sockets = getattr(server, "sockets", None) or []
        self.port = int(sockets[0].getsockname()[1])
        self.state.cdn_base = self.url
        self.gateway.resume_url = f"ws://{self.host}:{self.port}/resume-gateway"
        log.info("fake discord listening on %s", self.url)
        return self

    async def stop(self) -> None:
        """Close every gateway connection and stop listening."""
        for h in self._deadline_handles:
            h.cancel()
        await self.gateway.shutdown()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def base_url(self) -> str:
        """What ``discord.http.Route.BASE`` must be: ``http://127.0.0.1:PORT/api/v10``."""
        return self.url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """The gateway URL for ``DiscordWebSocket.DEFAULT_GATEWAY``."""
        return f"ws://{self.host}:{self.port}/gateway"

    @property
    def gateway_root(self) -> str:
        return self.gateway_url

    def env(self) -> dict[str, str]:
        """Environment variables pointing a bot process at this fake."""
        return {
            "DISCORD_TOKEN": self.token,
            "DISCORD_API_BASE_URL": self.base_url,
            "DISCORD_GATEWAY_URL": self.gateway_url,
        }

    # ------------------------------------------------------------------ the world
    @property
    def bot(self) -> Account:
        """The bot's own account."""
        return self.state.bot

    @property
    def application_id(self) -> int:
        return self.state.application_id

    def create_guild(
        self,
        name: str,
        *,
        bot_permissions: int = DEFAULT_BOT_PERMISSIONS,
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """Create a guild the bot is in (via a managed role with ``bot_permissions``);
        ``shard=(shard_id, shard_count)`` gives it an id whose events go to that shard."""
        guild = self.state.create_guild(name, bot_permissions=bot_permissions, shard=shard)
        for session in self.gateway.sessions.values():
            if self.gateway.receives(session, guild.id):
                self.gateway._dispatch_to(session, "GUILD_CREATE", guild.payload(full=True))
        return guild

    def create_text_channel(self, guild: Guild, name: str, *, topic: str | None = None) -> Channel:
        """Create a text channel (dispatches CHANNEL_CREATE to a connected bot)."""
        return self.state.create_text_channel(guild, name, topic=topic)

    def create_webhook(self, channel: Channel, name: str = "Alerts") -> Webhook:
        """An incoming webhook of ``channel`` (as its settings make one); ``hook.url(
        fake.base_url)`` is the URL to post to, its messages are ``fake.messages(channel)``."""
        return self.state.create_webhook(channel, name)

    def create_role(self, guild: Guild, name: str, permissions: int = 0) -> Role:
        """Create a role in ``guild``."""
        return self.state.create_role(guild, name, permissions)

    def create_user(
        self,
        name: str,
        *,
        global_name: str | None = None,
        dms_open: bool = True,
        guilds: list[Guild] | None = None,
        roles: list[Role] | None = None,
        locale: str = "en-US",
    ) -> FakeUser:
        """Create a person who can use the bot. ``guilds``: guilds the user is a member of;
        ``locale``: their Discord client's language (settable later: ``user.locale = "fr"``)."""
        from .users import FakeUser

        account = self.state.create_account(name, global_name=global_name)
        account.dms_open = dms_open
        user = FakeUser(self, account)
        user.locale = locale
        for guild in guilds or []:
            guild_roles = [r for r in roles or [] if r.guild_id == guild.id]
            self.state.add_member(guild, account, guild_roles)
        return user

    def add_member(
        self, guild: Guild, user: FakeUser | Account, roles: list[Role] | None = None
    ) -> None:
        """Make ``user`` join ``guild`` (GUILD_MEMBER_ADD is dispatched with the members intent)."""
        self.state.add_member(guild, _account(user), roles)

    def remove_member(self, guild: Guild, user: FakeUser | Account) -> None:
        """Make ``user`` leave ``guild`` (GUILD_MEMBER_REMOVE with the members intent). Once they
        share no server with the bot, its DMs to them fail with 403 50278."""
        self.state.remove_member(guild, _account(user))

    def set_permissions(
        self,
        channel: Channel,
        target: Role | FakeUser | Account | str,
        *,
        allow: int = 0,
        deny: int = 0,
    ) -> None:
        """Set a channel permission overwrite. ``target`` may be a role, a user, ``"bot"`` or
        ``"everyone"``; allow=deny=0 removes it. The bot gets a CHANNEL_UPDATE."""
        if channel.guild is None:
            raise ValueError("DM channels have no permission overwrites")
        if isinstance(target, Role):
            tid, ttype = target.id, 0
        elif target == "everyone":
            tid, ttype = channel.guild.id, 0
        elif target == "bot":
            tid, ttype = self.bot.id, 1
        elif isinstance(target, str):
            raise ValueError(f"unknown overwrite target {target!r}")
        else:
            tid, ttype = _account(target).id, 1
        self.state.set_overwrite(channel, tid, ttype, allow, deny)

    def set_guild_locale(self, guild: Guild, locale: str) -> None:
        """Set the server's language (``guild_locale`` in its interactions; Discord's locale
        tags: ``"fr"``, ``"en-US"``, ...); the bot gets a GUILD_UPDATE."""
        self.state.set_guild_locale(guild, locale)

    def set_dms_open(self, user: FakeUser | Account, is_open: bool) -> None:
        """Open or close a user's DMs to the bot (closed: the bot's DMs fail with 50007)."""
        _account(user).dms_open = is_open

    # ------------------------------------------------------------------ rate limits
    def enable_rate_limits(self, config: RateLimitConfig | None = None) -> RateLimiter:
        """Start emulating Discord's rate limits (global 50/s, per-route buckets)."""
        self.limiter = RateLimiter(config or RateLimitConfig())
        return self.limiter

    def disable_rate_limits(self) -> None:
        self.limiter = None

    # ------------------------------------------------------------------ threads
    def threads(self, channel: Channel) -> list[Channel]:
        """The threads started in ``channel``, newest first."""
        assert channel.guild is not None
        found = [t for t in channel.guild.threads.values() if t.parent is channel]
        return sorted(found, key=lambda t: t.id, reverse=True)

    def thread_archived(self, thread: Channel) -> bool:
        """Whether ``thread`` is archived now (on the fake's clock)."""
        return self.state.thread_archived(thread)

    # ------------------------------------------------------------------ clock
    def now(self) -> float:
        """The fake's clock: the event loop's time plus every :meth:`advance_time`."""
        return asyncio.get_running_loop().time() + self.clock_offset

    def advance_time(self, seconds: float) -> None:
        """Move the fake's clock forward, e.g. past the 15 minutes an interaction token lives
        (followups and edits through it then get 401, code 50027). Only token expiry reads this
        clock; the 3-second acknowledgement deadline and rate limits keep real time."""
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        self.clock_offset += seconds

    # ------------------------------------------------------------------ refusals
    def record_refusal(self, refusal: Refusal) -> None:
        for expectation in self._expected:
            if expectation.matches(refusal):
                refusal.expected = True
                expectation.seen.append(refusal)
                break
        else:
            log.error("FAKE DISCORD REFUSED: %s", refusal.reason)
        self.refusals.append(refusal)

    @contextmanager
    def expect_refusal(
        self, code: int | str | None = None, *, status: int | None = None
    ) -> Iterator[list[Refusal]]:
        """Refusals inside the block that match are expected (they fail no test); the block
        must see at least one. ``code``: Discord's code (``50035``) or a field error code
        (``"BUTTON_COMPONENT_INVALID_EMOJI"``); ``None`` matches any refusal::

            with fake.expect_refusal("BUTTON_COMPONENT_INVALID_EMOJI") as seen:
                await ...
            assert seen[0].route == "POST /channels/{channel_id}/messages"
        """
        expectation = ExpectedRefusal(code, status)
        self._expected.append(expectation)
        try:
            yield expectation.seen
        finally:
            self._expected.remove(expectation)
        if not expectation.seen:
            raise AssertionError(f"expected a refusal {expectation.describe()}, none came")

    def unexpected_refusals(self) -> list[Refusal]:
        return [r for r in self.refusals if not r.expected]

    def assert_no_refusals(self) -> None:
        """Fail, with the fake's reasons, if a request was refused that no test expected."""
        refused = self.unexpected_refusals()
        if refused:
            lines = "\n  ".join(r.reason for r in refused)
            raise AssertionError(
                f"Discord would have refused {len(refused)} request(s) of the bot:\n  {lines}"
            )

    # ------------------------------------------------------------------ queries
    def messages(
        self, channel: Channel, *, viewer: FakeUser | Account | None = None
    ) -> list[Message]:
        """Messages in ``channel``, newest first, as ``viewer`` sees them (ephemeral messages
        are only visible to their user; without a viewer only public messages)."""
        return self.state.visible_messages(
            channel, _account(viewer) if viewer is not None else None
        )

    def latest_message(
        self, channel: Channel, *, viewer: FakeUser | Account | None = None
    ) -> Message:
        msgs = self.messages(channel, viewer=viewer)
        if not msgs:
            raise LookupError(f"no messages in #{channel.name}")
        return msgs[0]

    def message(self, message_id: int) -> Message:
        return self.state.messages[message_id]

    def dm_messages(self, user: FakeUser | Account) -> list[Message]:
        """Messages in the DM channel between the bot and ``user``, newest first."""
        account = _account(user)
        channel = self.state.dm_channels.get(account.id)
        return self.state.visible_messages(channel, account) if channel is not None else []

    @property
    def interactions(self) -> list[Interaction]:
        """Every interaction started by fake users, oldest first."""
        return list(self.state.interactions)

    def failed_interactions(self) -> list[Interaction]:
        """Interactions the bot did not acknowledge within the deadline."""
        return [ix for ix in self.state.interactions if ix.failed]

    def assert_no_failed_interactions(self) -> None:
        """Fail (AssertionError) if any interaction was not acknowledged in time."""
        failed = self.failed_interactions()
        if failed:
            lines = "\n  ".join(repr(ix) for ix in failed)
            raise AssertionError(f"{len(failed)} interaction(s) failed:\n  {lines}")

    def commands(self, guild: Guild | None = None) -> list[Command]:
        """Commands the bot registered, globally or for ``guild``."""
        return list(self.state.commands_for(guild.id if guild is not None else None).values())

    def requests_to(self, route: str) -> list[RequestRecord]:
        """Requests for a route template, e.g. ``"POST /channels/{channel_id}/messages"``."""
        return [r for r in self.requests if r.route == route]

    def outside_contract(self) -> list[RequestRecord]:
        """Requests outside Discord's published contract (refused with 400 50035)."""
        return [r for r in self.requests if r.outside_contract]

    def unchecked_requests(self) -> list[RequestRecord]:
        """Requests not checked against the contract (none, unless a route was unknown)."""
        return [r for r in self.requests if not r.contract_checked]

    def assert_healthy(self) -> None:
        """Fail if the fake hit an internal error or the bot used a route the fake lacks."""
        problems = [f"internal error: {e}" for e in self.errors]
        problems += [f"unknown route: {r}" for r in self.unknown_routes]
        if problems:
            raise AssertionError("fake discord problems:\n  " + "\n  ".join(problems))

    # ------------------------------------------------------------------ waiting
    async def wait_for(
        self, predicate: Callable[[], T | None], timeout: float = 5.0, what: str = "condition"
    ) -> T:
        """Wait until ``predicate()`` is truthy (re-checked on every state change); return it."""
        result: T = await self.notifier.wait_for(predicate, timeout, what)
        return result

    async def wait_for_message(
        self,
        channel: Channel,
        predicate: Callable[[Message], bool] | None = None,
        *,
        viewer: FakeUser | Account | None = None,
        newer_than: Message | int | None = None,
        timeout: float = 5.0,
    ) -> Message:
        """Wait for a message in ``channel`` (newest matching one) and return it."""
        floor = newer_than.id if isinstance(newer_than, Message) else (newer_than or 0)

        def find() -> Message | None:
            for m in self.messages(channel, viewer=viewer):
                if m.id > floor and (predicate is None or predicate(m)):
                    return m
            return None

        return await self.wait_for(find, timeout, f"a message in #{channel.name}")

    async def wait_for_commands(
        self, *names: str, guild: Guild | None = None, timeout: float = 10.0
    ) -> None:
        """Wait until the bot registered commands with these names (any scope if guild is None)."""

        def ok() -> bool:
            registered = {c.name for c in self.commands(guild)}
            if guild is None:
                for table in self.state.guild_commands.values():
                    registered |= {c.name for c in table.values()}
            return set(names) <= registered

        await self.wait_for(ok, timeout, f"commands {names} to be synced")

    # ------------------------------------------------------------------ interactions
    def start_interaction(self, ix: Interaction) -> None:
        """Dispatch INTERACTION_CREATE and start the acknowledgement deadline clock."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        ix.created_at = now
        ix.token_issued_at = self.now()
        ix.deadline = now + self.ack_deadline
        payload = ix.payload(
            app_permissions=self.state.bot_permissions(ix.channel),
            attachment_size_limit=self.state.max_attachment_size,
        )
        ix.sent_message = payload.get("message")
        self.gateway.dispatch("INTERACTION_CREATE", payload)
        ix.dispatched = True
        self._deadline_handles = [h for h in self._deadline_handles if not h.cancelled()]
        self._deadline_handles.append(loop.call_at(ix.deadline, self._check_deadline, ix))
        self.notifier.changed()

    def _check_deadline(self, ix: Interaction) -> None:
        if not ix.acknowledged:
            self._fail_interaction(ix)

    def _fail_interaction(self, ix: Interaction) -> None:
        if not ix.failed:
            ix.failed = True
            log.warning(
                "fake discord: %s was not acknowledged in %.1fs", ix.describe(), self.ack_deadline
            )
            self.notifier.changed()

    # ------------------------------------------------------------------ gateway faults
    async def gateway_reconnect(self) -> int:
        """Send op 7 RECONNECT; discord.py reconnects and RESUMEs."""
        return await self.gateway.send_reconnect()

    async def gateway_invalidate_session(self, resumable: bool = False) -> int:
        """Send op 9 INVALID_SESSION (``resumable`` is its ``d``)."""
        return await self.gateway.invalidate_session(resumable)

    async def gateway_close(self, code: int = 4000, reason: str = "") -> int:
        """Close gateway connections with a close code (4000 resumable, 4004 fatal, ...)."""
        return await self.gateway.close_connections(code, reason)

    async def gateway_drop(self) -> int:
        """Abruptly drop gateway connections (no close frame)."""
        return await self.gateway.drop_connections()

    def gateway_zombie(self, *, ack: bool = True, dispatch: bool = True) -> int:
        """Make the current gateway connections silent (no ACKs / no events)."""
        return self.gateway.zombify(ack=ack, dispatch=dispatch)

    async def wait_for_resume(self, count: int = 1, timeout: float = 10.0) -> None:
        """Wait until the gateway accepted ``count`` RESUMEs in total."""
        await self.wait_for(
            lambda: self.gateway.resumes >= count, timeout, f"{count} gateway RESUME(s)"
        )

    async def wait_for_identify(self, count: int = 1, timeout: float = 10.0) -> None:
        """Wait until the gateway accepted ``count`` IDENTIFYs in total."""
        await self.wait_for(
            lambda: self.gateway.identifies >= count, timeout, f"{count} IDENTIFY(s)"
        )


@dataclass
class ExpectedRefusal:
    """What :meth:`FakeDiscord.expect_refusal` waits for."""

    code: int | str | None
    status: int | None
    seen: list[Refusal] = field(default_factory=list)

    def matches(self, refusal: Refusal) -> bool:
        if self.status is not None and refusal.status != self.status:
            return False
        if isinstance(self.code, int):
            return refusal.code == self.code
        if isinstance(self.code, str):
            return self.code in refusal.field_codes()
        return True

    def describe(self) -> str:
        parts = [str(p) for p in (self.status, self.code) if p is not None]
        return " ".join(parts) or "of any kind"


def _account(user: Any) -> Account:
    if isinstance(user, Account):
        return user
    account = getattr(user, "account", None)
    if isinstance(account, Account):
        return account
    raise FakeUserError(f"not a user: {user!r}")
