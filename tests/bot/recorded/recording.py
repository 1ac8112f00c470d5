"""A recording outbox and a click, to drive the desk and the show side without Discord.

:class:`RecordingOutbox` has the interface of :class:`bot.show.outbox.Outbox` (sends, edits, kept
edits through the real ledger, direct-message channels, background tasks) and records what would
have gone to Discord instead of sending it; it can be told to refuse posts in a channel, as
Discord does when the bot lost its permission there. :class:`Click` is the interaction of one
button press (or command), recording the answers given through it.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

from bot import budget
from bot.background import Background
from bot.kept import Kept
from bot.locks import Locks
from bot.show import Show, pictures
from bot.show.ledger import Ledger
from bot.show.message import Message
from data.store import Store

DM_BASE = 500_000
"""A user's direct-message channel id is this plus their id."""
_ids = itertools.count(900_000)


def next_id() -> int:
    """A new message id (growing, as Discord's do)."""
    return next(_ids)


def dm_of(user_id: int) -> int:
    """The id of the direct-message channel with ``user_id``."""
    return DM_BASE + user_id


@dataclass
class Sent:
    """A new message."""

    channel_id: int
    id: int
    message: Message

    @property
    def content(self) -> str:
        return self.message.content or ""


@dataclass
class Edit:
    """An edit of a message (by the bot's token, or through a click's answer)."""

    channel_id: int | None
    message_id: int
    fields: dict[str, Any]

    @property
    def content(self) -> str:
        return str(self.fields.get("content") or "")


class Target:
    """One of the bot's messages (``discord.PartialMessage``'s ``edit``)."""

    def __init__(self, outbox: RecordingOutbox, channel_id: int, message_id: int) -> None:
        self.outbox, self.channel_id, self.id = outbox, channel_id, message_id

    async def edit(self, **fields: Any) -> None:
        self.outbox.edits.append(Edit(self.channel_id, self.id, fields))


class Channel:
    """A channel (``discord.PartialMessageable``'s ``get_partial_message``)."""

    def __init__(self, outbox: RecordingOutbox, channel_id: int) -> None:
        self.outbox, self.id = outbox, channel_id

    def get_partial_message(self, message_id: int) -> Target:
        return Target(self.outbox, self.id, message_id)


class RecordingOutbox:
    """The outbox's interface, recording instead of sending."""

    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self.ledger = Ledger(store, clock)
        self.budget = budget.Budget()
        self.renderer = pictures.Renderer(workers=1)
        self.sent: list[Sent] = []
        self.edits: list[Edit] = []
        self.refusing: set[int] = set()
        """Channels where posting fails (the network, or Discord refusing)."""
        self.closing = False
        self.background = Background(self.is_closed)

    # --- the interface ----------------------------------------------------------------------------

    def is_closed(self) -> bool:
        return self.closing

    def channel(self, channel_id: int, guild_id: int | None = None) -> Channel:
        return Channel(self, channel_id)

    def message(self, channel_id: int, message_id: int, guild_id: int | None = None) -> Target:
        return Target(self, channel_id, message_id)

    async def send(
        self,
        channel_id: int,
        message: Message,
        guild_id: int | None = None,
        *,
        priority: int = budget.NOTICE,
    ) -> Sent:
        if channel_id in self.refusing:
            raise OSError(f"channel {channel_id} refuses posts")
        sent = Sent(channel_id, next(_ids), message)
        self.sent.append(sent)
        return sent

    async def edit(
        self, target: Target, message: Message, *, priority: int = budget.NOTICE
    ) -> None:
        await target.edit(**message.to_edit())

    async def edit_kept(
        self,
        table_id: int,
        kept: Kept,
        version: int,
        target: Target,
        message: Message,
        *,
        priority: int = budget.NOTICE,
    ) -> bool:
        async with self.ledger.edit(table_id, kept, version) as go:
            if go:
                await target.edit(**message.to_edit())
        return go

    async def edit_kept_unversioned(
        self, table_id: int, kept: Kept, version: int, target: Target, message: Message
    ) -> bool:
        async with self.ledger.edit(table_id, kept, version) as go:
            if go or await self.ledger.still_at(table_id, version):
                await target.edit(**message.to_edit())
                return True
        return False

    async def dm_channel_id(self, user_id: int) -> int:
        return dm_of(user_id)

    async def guild_name(self, guild_id: int) -> str | None:
        return "The Server"

    def spawn(self, coro: Any, table_id: int) -> asyncio.Task[Any]:
        return self.background.spawn(coro, table_id)

    async def close(self) -> None:
        self.closing = True
        await self.background.cancel_all()
        await self.renderer.close()

    # --- for the tests ----------------------------------------------------------------------------

    def posts_in(self, channel_id: int) -> list[Sent]:
        """The new messages of one channel (a user's DMs: :func:`dm_of`)."""
        return [s for s in self.sent if s.channel_id == channel_id]

    def edits_of(self, message_id: int) -> list[Edit]:
        return [e for e in self.edits if e.message_id == message_id]


def make_show(outbox: RecordingOutbox, clock: Callable[[], float], locks: Locks) -> Show:
    """The real show side over a recording outbox (quick retries for held-up screens)."""
    return Show(outbox, locks, clock, retry=(0.01, 0.05))  # type: ignore[arg-type]


@dataclass
class Clicked:
    """The message a click was on."""

    id: int
    components: list[Any] = field(default_factory=list)
    flags: Any = field(default_factory=lambda: SimpleNamespace(ephemeral=True))


class Followup:
    def __init__(self, click: Click) -> None:
        self.click = click

    async def send(self, content: str | None = None, **fields: Any) -> Any:
        message_id = next(_ids)
        shown = Message(content, files=list(fields.get("files") or []))
        self.click.answers.append(Sent(self.click.channel_id or 0, message_id, shown))

        async def edit(**later: Any) -> None:
            self.click.edits.append(Edit(self.click.channel_id, message_id, later))

        return SimpleNamespace(id=message_id, edit=edit, jump_url="https://discord.com/x")


class Response:
    def __init__(self, click: Click) -> None:
        self.click = click
        self.done = True  # the cogs acknowledge before the desk runs

    def is_done(self) -> bool:
        return self.done

    async def send_message(self, content: str | None = None, **fields: Any) -> None:
        self.click.answers.append(Sent(self.click.channel_id or 0, 0, Message(content)))

    async def defer(self, **fields: Any) -> None:
        self.done = True


class Click:
    """One press of a button by ``user_id`` on message ``message_id`` (``guild_id`` None: in
    direct messages): an interaction recording what is answered through it."""

    def __init__(
        self,
        user_id: int,
        *,
        guild_id: int | None,
        channel_id: int | None,
        message_id: int | None = None,
        custom_id: str = "",
    ) -> None:
        self.user = SimpleNamespace(id=user_id, display_name=f"user{user_id}")
        self.id = next(_ids)
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.locale = "en-US"
        self.message = Clicked(message_id) if message_id is not None else None
        self.data = {"custom_id": custom_id}
        self.created_at = datetime.now(UTC)
        self.client = SimpleNamespace(is_closed=lambda: False)
        self.followup = Followup(self)
        self.response = Response(self)
        self.edits: list[Edit] = []
        """Edits of the clicked message through the click's answer."""
        self.answers: list[Sent] = []
        """New messages answering the click (private ones: ``followup.send``)."""

    async def edit_original_response(self, **fields: Any) -> None:
        message_id = self.message.id if self.message is not None else 0
        self.edits.append(Edit(self.channel_id, message_id, fields))
