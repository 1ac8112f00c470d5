"""The fake gateway: a websocket speaking Discord's gateway v10 protocol (JSON text frames).

Supports HELLO, IDENTIFY (READY then one GUILD_CREATE per guild), heartbeats and their ACKs,
RESUME (RESUMED after replaying the dispatches the client missed), REQUEST_GUILD_MEMBERS, and
faults on demand: op 7 RECONNECT, op 9 INVALID_SESSION, close codes, abrupt socket loss and a
silent "zombie" connection.

Sharding as Discord does it (gateway.mdx, "Sharding"): IDENTIFY may carry ``[shard_id,
shard_count]`` (none means ``[0, 1]``); a guild's events go to the sessions of the shard
``(guild_id >> 22) % shard_count``, events without a guild (direct messages and their clicks) to
shard 0 only; an invalid shard is closed with 4010, a shard that would hold more than
``max_guilds_per_shard`` guilds with 4011; with ``identify_limit`` on, a second IDENTIFY within 5
seconds in one rate-limit key (``shard_id % max_concurrency``) is answered with op 9
INVALID_SESSION, as gateway.mdx "Rate Limiting" says.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import deque
from dataclasses import dataclass, field

from aiohttp import WSMsgType, web

from .models import JSON, Notifier
from .state import INTENT_MESSAGE_CONTENT, State

log = logging.getLogger("fakediscord.gateway")

OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_PRESENCE_UPDATE = 3
OP_VOICE_STATE_UPDATE = 4
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_GUILD_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11

PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)

#: Events that name their guild by ``id`` rather than ``guild_id``.
GUILD_OBJECT_EVENTS = ("GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE")


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives a guild's events (gateway.mdx, "Sharding Formula")."""
    return (guild_id >> 22) % shard_count


def event_guild(event: str, data: JSON) -> int | None:
    """The guild a dispatch belongs to, or ``None`` (a direct message: shard 0's)."""
    raw = data.get("id") if event in GUILD_OBJECT_EVENTS else data.get("guild_id")
    return int(raw) if raw is not None else None


@dataclass
class Sharding:
    """What ``GET /gateway/bot`` announces and the gateway enforces about shards and starts."""

    #: The shard count ``GET /gateway/bot`` recommends.
    recommended_shards: int = 1
    #: Shards that may IDENTIFY at once: one per rate-limit key ``shard_id % max_concurrency``.
    max_concurrency: int = 1
    #: Session starts allowed per day (``session_start_limit.total``).
    session_start_total: int = 1000
    #: Milliseconds until the day's session starts reset (``session_start_limit.reset_after``).
    session_reset_after_ms: int = 14_400_000
    #: Guilds one shard may hold; more closes the connection with 4011 (Discord: 2500).
    max_guilds_per_shard: int = 2500
    #: Enforce one IDENTIFY per rate-limit key per ``identify_window_s`` (off by default: most
    #: tests re-identify at once to stay fast).
    identify_limit: bool = False
    identify_window_s: float = 5.0


@dataclass(eq=False)
class GatewaySession:
    """A gateway session (what READY's ``session_id`` names); survives reconnections."""

    id: str
    intents: int
    shard: list[int] | None
    #: ``(shard_id, shard_count)``; ``(0, 1)`` when IDENTIFY carried no shard.
    shard_key: tuple[int, int] = (0, 1)
    seq: int = 0
    buffer: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=5000))
    conn: GatewayConnection | None = None
    alive: bool = True
    presence: JSON | None = None
    created_at: float = field(default_factory=time.monotonic)

    @property
    def connected(self) -> bool:
        return self.conn is not None and self.conn.ready and not self.conn.zombie_dispatch


@dataclass(eq=False)
class GatewayConnection:
    """One websocket connection from a bot."""

    ws: web.WebSocketResponse
    request: web.Request
    url: str
    session: GatewaySession | None = None
    ready: bool = False
    zombie_ack: bool = False
    zombie_dispatch: bool = False
    heartbeats: int = 0
    closed_by_server: bool = False
    queue: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    writer: asyncio.Task[None] | None = None
    closed: bool = False

    def send(self, payload: JSON | str) -> None:
        if self.closed:
            return
        text = payload if isinstance(payload, str) else json.dumps(payload)
        self.queue.put_nowait(text)

    async def _write_loop(self) -> None:
        while True:
            text = await self.queue.get()
            try:
                await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return

    def start(self) -> None:
        self.writer = asyncio.create_task(self._write_loop(), name="fakediscord-gateway-writer")

    async def flush(self, timeout: float = 2.0) -> None:
        """Wait until everything queued so far was written to the socket."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not self.queue.empty() and not self.closed and loop.time() < end:
            await asyncio.sleep(0.005)

    async def close(self, code: int = 1000, message: str = "") -> None:
        await self.flush()
        self.closed = True
        self.closed_by_server = True
        with contextlib.suppress(Exception):
            await self.ws.close(code=code, message=message.encode())

    def abort(self) -> None:
        """Drop the TCP connection without a websocket close frame."""
        self.closed = True
        self.closed_by_server = True
        transport = self.request.transport
        if transport is not None:
            transport.abort()


@dataclass
class GatewayEvent:
    """A line of the gateway's activity log (handy when a test fails)."""

    at: float
    kind: str
    detail: str


class Gateway:
    """Gateway state and websocket handler (owned by ``FakeDiscord``)."""

    def __init__(
        self,
        state: State,
        notifier: Notifier,
        *,
        token: str,
        heartbeat_interval: float = 41.25,
        allowed_intents: int = PRIVILEGED_INTENTS,
    ) -> None:
        self.state = state
        self.notifier = notifier
        self.token = token
        #: Seconds announced in HELLO (tests shorten it to make zombie detection fast).
        self.heartbeat_interval = heartbeat_interval
        #: Privileged intents the application is allowed; others give close code 4014.
        self.allowed_intents = allowed_intents
        self.resume_url = ""
        self.sessions: dict[str, GatewaySession] = {}
        self.connections: list[GatewayConnection] = []
        self.identifies = 0
        self.resumes = 0
        self.failed_resumes = 0
        self.connections_opened = 0
        self.heartbeats = 0
        self.sharding = Sharding()
        #: IDENTIFYs refused for breaking the identify rate (answered with op 9).
        self.identify_rate_refusals = 0
        #: Shards identified, in order (``(shard_id, shard_count)`` per successful IDENTIFY).
        self.identified_shards: list[tuple[int, int]] = []
        self._last_identify: dict[int, float] = {}
        self.urls: list[str] = []
        self.log: list[GatewayEvent] = []

    # ------------------------------------------------------------------ helpers
    def _event(self, kind: str, detail: str = "") -> None:
        self.log.append(GatewayEvent(time.monotonic(), kind, detail))
        log.debug("gateway %s %s", kind, detail)
        self.notifier.changed()

    @property
    def connected_sessions(self) -> list[GatewaySession]:
        """Sessions with a live, ready, non-zombie connection."""
        return [s for s in self.sessions.values() if s.connected]

    def is_connected(self) -> bool:
        return bool(self.connected_sessions)

    def sessions_of_shard(self, shard_id: int, shard_count: int) -> list[GatewaySession]:
        """Connected sessions identified as ``[shard_id, shard_count]``."""
        return [s for s in self.connected_sessions if s.shard_key == (shard_id, shard_count)]

    @staticmethod
    def receives(session: GatewaySession, guild_id: int | None) -> bool:
        """Whether ``session`` gets the events of ``guild_id`` (``None``: shard 0's events)."""
        shard_id, count = session.shard_key
        if guild_id is None:
            return shard_id == 0
        return shard_of(guild_id, count) == shard_id

    def session_starts_remaining(self) -> int:
        return max(0, self.sharding.session_start_total - self.identifies)

    async def wait_connected(self, timeout: float = 10.0) -> GatewaySession:
        """Wait until some bot session is connected and ready; return it."""
        result: GatewaySession = await self.notifier.wait_for(
            lambda: self.connected_sessions[-1] if self.connected_sessions else None,
            timeout,
            "a connected bot session",
        )
        return result

    # ------------------------------------------------------------------ dispatch
    def dispatch(
        self, event: str, data: JSON, *, intent: int | None = None, content_intent: bool = False
    ) -> None:
        """Send a DISPATCH to every live session of the shard that owns the event's guild
        (buffered for replay while disconnected)."""
        guild_id = event_guild(event, data)
        for session in list(self.sessions.values()):
            if not session.alive or not self.receives(session, guild_id):
                continue
            if intent is not None and not session.intents & intent:
                continue
            payload = data
            if content_intent and not session.intents & INTENT_MESSAGE_CONTENT:
                payload = dict(data, content="", embeds=[], attachments=[], components=[])
            self._dispatch_to(session, event, payload)

    def _dispatch_to(self, session: GatewaySession, event: str, data: JSON) -> int:
        session.seq += 1
        text = json.dumps({"op": OP_DISPATCH, "t": event, "s": session.seq, "d": data})
        session.buffer.append((session.seq, text))
        conn = session.conn
        if conn is not None and not conn.zombie_dispatch:
            conn.send(text)
        return session.seq

    # ------------------------------------------------------------------ websocket handler
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        url = request.path_qs
        conn = GatewayConnection(ws=ws, request=request, url=url)
        conn.start()
        self.connections.append(conn)
        self.connections_opened += 1
        self.urls.append(url)
        self._event("connect", url)
        conn.send(
            {"op": OP_HELLO, "d": {"heartbeat_interval": int(self.heartbeat_interval * 1000)}}
        )
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._on_text(conn, msg.data)
                elif msg.type == WSMsgType.BINARY:
                    await conn.close(4002, "Decode error")
                elif msg.type == WSMsgType.ERROR:
                    break
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            conn.closed = True
            if conn.writer is not None:
                conn.writer.cancel()
            session = conn.session
            if session is not None and session.conn is conn:
                session.conn = None
                if not conn.closed_by_server and ws.close_code in (1000, 1001):
                    # Discord invalidates a session its client closed with 1000/1001.
                    session.alive = False
                    self.sessions.pop(session.id, None)
            if conn in self.connections:
                self.connections.remove(conn)
            self._event("disconnect", f"code={ws.close_code}")
        return ws

    async def _on_text(self, conn: GatewayConnection, text: str) -> None:
        try:
            msg = json.loads(text)
            op = msg["op"]
        except (ValueError, KeyError, TypeError):
            await conn.close(4002, "Error while decoding payload.")
            return
        data = msg.get("d")
        if op == OP_HEARTBEAT:
            conn.heartbeats += 1
            self.heartbeats += 1
            if not conn.zombie_ack:
                conn.send({"op": OP_HEARTBEAT_ACK})
        elif op == OP_IDENTIFY:
            await self._identify(conn, data or {})
        elif op == OP_RESUME:
            await self._resume(conn, data or {})
        elif op == OP_PRESENCE_UPDATE:
            if conn.session is not None:
                conn.session.presence = data
        elif op == OP_REQUEST_GUILD_MEMBERS:
            self._request_members(conn, data or {})
        elif op == OP_VOICE_STATE_UPDATE:
            pass
        else:
            log.warning("fake gateway: unknown opcode %r", op)
            await conn.close(4001, "Unknown opcode.")

    async def _identify(self, conn: GatewayConnection, data: JSON) -> None:
        if conn.session is not None:
            await conn.close(4005, "Already authenticated.")
            return
        if data.get("token") != self.token:
            self._event("identify-rejected", "bad token")
            await conn.close(4004, "Authentication failed.")
            return
        intents = data.get("intents")
        if not isinstance(intents, int):
            await conn.close(4013, "Invalid intent(s).")
            return
        if intents & PRIVILEGED_INTENTS & ~self.allowed_intents:
            await conn.close(4014, "Disallowed intent(s).")
            return
        shard_key = self._shard_key(data.get("shard"))
        if shard_key is None:
            self._event("identify-rejected", f"invalid shard {data.get('shard')!r}")
            await conn.close(4010, "Invalid shard.")
            return
        if not self._identify_allowed(shard_key[0]):
            self.identify_rate_refusals += 1
            self._event("identify-rejected", f"identify rate, shard {shard_key}")
            conn.send({"op": OP_INVALID_SESSION, "d": False})
            return
        state = self.state
        guilds = [
            g
            for g in state.guilds.values()
            if state.bot.id in g.members and shard_of(g.id, shard_key[1]) == shard_key[0]
        ]
        if len(guilds) > self.sharding.max_guilds_per_shard:
            self._event("identify-rejected", f"sharding required, shard {shard_key}")
            await conn.close(4011, "Sharding required.")
            return
        session = GatewaySession(
            id=secrets.token_hex(16),
            intents=intents,
            shard=data.get("shard"),
            shard_key=shard_key,
        )
        self.sessions[session.id] = session
        conn.session = session
        session.conn = conn
        self.identifies += 1
        self.identified_shards.append(shard_key)
        me = state.bot.payload()
        me.update({"verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"})
        ready: JSON = {
            "v": 10,
            "user": me,
            "user_settings": {},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.resume_url,
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["local"],
            "application": {"id": str(state.application_id), "flags": 0},
            "auth": {},
        }
        if session.shard is not None:
            ready["shard"] = session.shard
        self._dispatch_to(session, "READY", ready)
        for g in guilds:
            self._dispatch_to(session, "GUILD_CREATE", g.payload(full=True))
        conn.ready = True
        self._event("identify", session.id)

    @staticmethod
    def _shard_key(raw: object) -> tuple[int, int] | None:
        """``(shard_id, shard_count)`` of IDENTIFY's ``shard`` field, or ``None`` if invalid."""
        if raw is None:
            return (0, 1)
        if not isinstance(raw, list) or len(raw) != 2:
            return None
        shard_id, count = raw
        if type(shard_id) is not int or type(count) is not int:
            return None
        if count < 1 or not 0 <= shard_id < count:
            return None
        return (shard_id, count)

    def _identify_allowed(self, shard_id: int) -> bool:
        """One IDENTIFY per rate-limit key per window, when the limit is on (gateway.mdx,
        "Max Concurrency" and "Rate Limiting"); counts this one if allowed."""
        rules = self.sharding
        if not rules.identify_limit:
            return True
        key = shard_id % rules.max_concurrency
        now = time.monotonic()
        last = self._last_identify.get(key)
        if last is not None and now - last < rules.identify_window_s:
            return False
        self._last_identify[key] = now
        return True

    async def _resume(self, conn: GatewayConnection, data: JSON) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        seq = data.get("seq")
        ok = (
            session is not None
            and session.alive
            and data.get("token") == self.token
            and isinstance(seq, int)
            and seq <= session.seq
            and (seq == session.seq or (bool(session.buffer) and seq >= session.buffer[0][0] - 1))
        )
        if not ok or session is None or not isinstance(seq, int):
            self.failed_resumes += 1
            self._event("resume-rejected", str(data.get("session_id")))
            conn.send({"op": OP_INVALID_SESSION, "d": False})
            return
        old = session.conn
        if old is not None and old is not conn:
            old.session = None
            await old.close(4000, "Session resumed elsewhere")
        session.conn = conn
        conn.session = session
        missed = [text for s, text in session.buffer if s > seq]
        for text in missed:
            conn.send(text)
        self._dispatch_to(session, "RESUMED", {})
        conn.ready = True
        self.resumes += 1
        self._event("resume", f"{session.id} replayed={len(missed)}")

    def _request_members(self, conn: GatewayConnection, data: JSON) -> None:
        session = conn.session
        if session is None:
            return
        guild = self.state.guilds.get(int(data.get("guild_id", 0)))
        if guild is None:
            return
        members = list(guild.members.values())
        user_ids = data.get("user_ids")
        if user_ids:
            wanted = {int(u) for u in (user_ids if isinstance(user_ids, list) else [user_ids])}
            members = [m for m in members if m.account.id in wanted]
        query = data.get("query")
        if query:
            members = [
                m for m in members if m.account.username.lower().startswith(str(query).lower())
            ]
        limit = int(data.get("limit") or 0)
        if limit:
            members = members[:limit]
        chunk: JSON = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        self._dispatch_to(session, "GUILD_MEMBERS_CHUNK", chunk)

    # ------------------------------------------------------------------ faults
    def _live(self) -> list[GatewayConnection]:
        return [c for c in self.connections if not c.closed]

    async def send_reconnect(self) -> int:
        """Send op 7 RECONNECT on every connection (discord.py closes and RESUMEs)."""
        conns = self._live()
        for c in conns:
            c.send({"op": OP_RECONNECT, "d": None})
        self._event("fault", f"RECONNECT x{len(conns)}")
        return len(conns)

    async def invalidate_session(self, resumable: bool = False) -> int:
        """Send op 9 INVALID_SESSION. Not resumable: the session is forgotten, so the bot must
        IDENTIFY again (discord.py calls ``before_identify_hook`` first)."""
        conns = self._live()
        for c in conns:
            c.send({"op": OP_INVALID_SESSION, "d": resumable})
            if not resumable and c.session is not None:
                c.session.alive = False
                self.sessions.pop(c.session.id, None)
        self._event("fault", f"INVALID_SESSION resumable={resumable} x{len(conns)}")
        return len(conns)

    async def close_connections(self, code: int = 4000, reason: str = "") -> int:
        """Close every connection with a websocket close code (4000 is resumable)."""
        conns = self._live()
        for c in conns:
            await c.close(code, reason)
        self._event("fault", f"close code={code} x{len(conns)}")
        return len(conns)

    async def drop_connections(self) -> int:
        """Abruptly lose every connection (TCP reset, no close frame)."""
        conns = self._live()
        for c in conns:
            await c.flush()
            c.abort()
        self._event("fault", f"abrupt drop x{len(conns)}")
        return len(conns)

    def zombify(self, *, ack: bool = True, dispatch: bool = True) -> int:
        """Make current connections silent: no heartbeat ACKs (``ack``) and no events
        (``dispatch``; they are kept for the RESUME). New connections behave normally."""
        conns = self._live()
        for c in conns:
            c.zombie_ack = c.zombie_ack or ack
            c.zombie_dispatch = c.zombie_dispatch or dispatch
        self._event("fault", f"zombie ack={ack} dispatch={dispatch} x{len(conns)}")
        return len(conns)

    async def shutdown(self) -> None:
        for c in list(self.connections):
            await c.close(1001, "Server shutting down")
