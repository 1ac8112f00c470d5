"""State objects of the fake Discord: accounts, guilds, channels, messages, interactions.

Everything here is plain data plus the JSON payload builders that mirror what Discord's
API v10 sends. No aiohttp in this module: the REST and gateway layers use these objects.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import enum
import io
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import FakeUserError

if TYPE_CHECKING:
    from PIL import Image

JSON = dict[str, Any]
T = TypeVar("T")

DISCORD_EPOCH_MS = 1420070400000
MiB = 1024 * 1024


class Perm(enum.IntFlag):
    """Discord permission bits (the subset a game bot cares about, plus common ones)."""

    CREATE_INSTANT_INVITE = 1 << 0
    KICK_MEMBERS = 1 << 1
    BAN_MEMBERS = 1 << 2
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_AUDIT_LOG = 1 << 7
    PRIORITY_SPEAKER = 1 << 8
    STREAM = 1 << 9
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    SEND_TTS_MESSAGES = 1 << 12
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    VIEW_GUILD_INSIGHTS = 1 << 19
    CONNECT = 1 << 20
    SPEAK = 1 << 21
    CHANGE_NICKNAME = 1 << 26
    MANAGE_NICKNAMES = 1 << 27
    MANAGE_ROLES = 1 << 28
    MANAGE_WEBHOOKS = 1 << 29
    USE_APPLICATION_COMMANDS = 1 << 31
    CREATE_PUBLIC_THREADS = 1 << 35
    SEND_MESSAGES_IN_THREADS = 1 << 38


ALL_PERMISSIONS = (1 << 53) - 1

#: What @everyone gets in a freshly created guild (close to Discord's default).
DEFAULT_EVERYONE_PERMISSIONS = int(
    Perm.CREATE_INSTANT_INVITE
    | Perm.ADD_REACTIONS
    | Perm.STREAM
    | Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.EMBED_LINKS
    | Perm.ATTACH_FILES
    | Perm.READ_MESSAGE_HISTORY
    | Perm.USE_EXTERNAL_EMOJIS
    | Perm.CONNECT
    | Perm.SPEAK
    | Perm.CHANGE_NICKNAME
    | Perm.USE_APPLICATION_COMMANDS
    | Perm.CREATE_PUBLIC_THREADS
    | Perm.SEND_MESSAGES_IN_THREADS
)

#: What the bot's managed role gets when it is "invited" to a guild.
DEFAULT_BOT_PERMISSIONS = int(
    Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.EMBED_LINKS
    | Perm.ATTACH_FILES
    | Perm.READ_MESSAGE_HISTORY
    | Perm.ADD_REACTIONS
    | Perm.USE_APPLICATION_COMMANDS
)


class MessageFlag(enum.IntFlag):
    """Message flag bits used by the fake."""

    SUPPRESS_EMBEDS = 1 << 2
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    SUPPRESS_NOTIFICATIONS = 1 << 12
    IS_COMPONENTS_V2 = 1 << 15


class ChannelType(enum.IntEnum):
    GUILD_TEXT = 0
    DM = 1
    PUBLIC_THREAD = 11


#: The inactivity periods (minutes) a thread may archive after (``resources/channel.mdx``).
AUTO_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)


class InteractionType(enum.IntEnum):
    PING = 1
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    APPLICATION_COMMAND_AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class CallbackType(enum.IntEnum):
    """Interaction callback (response) types."""

    PONG = 1
    CHANNEL_MESSAGE_WITH_SOURCE = 4
    DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    APPLICATION_COMMAND_AUTOCOMPLETE_RESULT = 8
    MODAL = 9
    PREMIUM_REQUIRED = 10
    LAUNCH_ACTIVITY = 12


def iso(ts: float | None = None) -> str:
    """An ISO 8601 timestamp as Discord writes them."""
    when = dt.datetime.fromtimestamp(time.time() if ts is None else ts, dt.UTC)
    return when.isoformat(timespec="microseconds")


class Snowflakes:
    """Generates increasing snowflake ids whose embedded timestamp is the current time."""

    def __init__(self, worker: int = 1, process: int = 7) -> None:
        self._worker = worker & 0x1F
        self._process = process & 0x1F
        self._last_ms = 0
        self._increment = 0
        self._lock = threading.Lock()

    def next(self) -> int:
        """Return a new unique id (thread safe)."""
        with self._lock:
            ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
            if ms <= self._last_ms:
                ms = self._last_ms
                self._increment += 1
                if self._increment > 0xFFF:
                    ms += 1
                    self._increment = 0
            else:
                self._increment = 0
            self._last_ms = ms
            return (ms << 22) | (self._worker << 17) | (self._process << 12) | self._increment

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """A new unique id whose guild events go to ``shard_id`` of ``shard_count`` (its
        timestamp is the first millisecond from now on with ``ms % shard_count == shard_id``)."""
        with self._lock:
            ms = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, self._last_ms + 1)
            ms += (shard_id - ms) % shard_count
            self._last_ms, self._increment = ms, 0
            return (ms << 22) | (self._worker << 17) | (self._process << 12)


class Notifier:
    """Lets coroutines wait for a condition on the fake's state without polling sleeps.

    Every state change calls :meth:`changed`; :meth:`wait_for` re-checks its predicate after
    each change (and at most every ``poll`` seconds, for conditions that depend on time).
    """

    def __init__(self) -> None:
        self._waiters: list[asyncio.Future[None]] = []

    def changed(self) -> None:
        """Wake every waiter so it re-checks its condition."""
        waiters, self._waiters = self._waiters, []
        for fut in waiters:
            if not fut.done():
                fut.set_result(None)

    async def wait_for(
        self,
        predicate: Callable[[], T | None],
        timeout: float = 5.0,
        what: str = "condition",
        poll: float = 0.05,
    ) -> T:
        """Wait until ``predicate()`` returns a truthy value and return that value.

        Raises :class:`TimeoutError` with ``what`` in the message after ``timeout`` seconds.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout:.1f}s waiting for {what}")
            fut: asyncio.Future[None] = loop.create_future()
            self._waiters.append(fut)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(fut), timeout=min(remaining, poll))


# --------------------------------------------------------------------------- accounts


@dataclass(eq=False)
class Account:
    """A Discord user account (a person or the bot)."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    dms_open: bool = True
    avatar: str | None = None
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": self.avatar,
            "avatar_decoration_data": None,
            "banner": None,
            "accent_color": None,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": None,
            "collectibles": None,
        }
        if self.bot:
            data["bot"] = True
        return data

    def __repr__(self) -> str:
        return f"<Account {self.username} id={self.id}>"


@dataclass(eq=False)
class Webhook:
    """An incoming webhook of a channel (``resources/webhook.mdx``, type 1): anyone holding its
    URL posts in the channel under the webhook's name, without a bot token."""

    id: int
    token: str
    channel: Channel
    name: str

    def url(self, base_url: str) -> str:
        """The URL Discord's client copies ("Copy Webhook URL"), on the fake's API base."""
        return f"{base_url}/webhooks/{self.id}/{self.token}"

    def author(self, username: str | None) -> Account:
        """Who its messages are from: the webhook itself, under ``username`` if given."""
        return Account(id=self.id, username=username or self.name, bot=True)


@dataclass(eq=False)
class Role:
    """A guild role."""

    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    color: int = 0
    hoist: bool = False
    mentionable: bool = False
    bot_id: int | None = None

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "name": self.name,
            "description": None,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": self.color,
            "colors": {
                "primary_color": self.color,
                "secondary_color": None,
                "tertiary_color": None,
            },
            "hoist": self.hoist,
            "managed": self.managed,
            "mentionable": self.mentionable,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data


@dataclass(eq=False)
class Member:
    """An account's membership in a guild."""

    account: Account
    guild_id: int
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso)

    def payload(self, *, with_user: bool = True) -> JSON:
        data: JSON = {
            "roles": [str(r) for r in self.role_ids],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
            "avatar_decoration_data": None,
        }
        if with_user:
            data["user"] = self.account.payload()
        return data


@dataclass
class Overwrite:
    """A channel permission overwrite (type 0 = role, 1 = member)."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclass(eq=False)
class Channel:
    """A guild text channel or a DM channel between the bot and one user."""

    id: int
    name: str
    type: ChannelType
    guild: Guild | None = None
    position: int = 0
    topic: str | None = None
    overwrites: dict[int, Overwrite] = field(default_factory=dict)
    recipient: Account | None = None
    last_message_id: int | None = None
    #: Threads: the channel it was started in, who started it, and its archive state.
    parent: Channel | None = None
    owner_id: int | None = None
    auto_archive_duration: int = 1440
    archived: bool = False
    locked: bool = False
    #: Threads: the fake's clock (``FakeDiscord.now``) at the last activity (creation, a
    #: message, unarchiving); the thread archives ``auto_archive_duration`` minutes later.
    last_activity: float = 0.0
    archive_timestamp: str = field(default_factory=lambda: iso())
    message_count: int = 0

    @property
    def is_dm(self) -> bool:
        return self.type == ChannelType.DM

    @property
    def is_thread(self) -> bool:
        return self.type == ChannelType.PUBLIC_THREAD

    @property
    def parent_id(self) -> int | None:
        return self.parent.id if self.parent is not None else None

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self) -> JSON:
        if self.type == ChannelType.DM:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": int(self.type),
                "last_message_id": str(self.last_message_id) if self.last_message_id else None,
                "flags": 0,
                "recipients": [self.recipient.payload()],
            }
        assert self.guild is not None
        if self.is_thread:
            assert self.parent is not None
            return {
                "id": str(self.id),
                "type": int(self.type),
                "guild_id": str(self.guild.id),
                "parent_id": str(self.parent.id),
                "owner_id": str(self.owner_id),
                "name": self.name,
                "last_message_id": str(self.last_message_id) if self.last_message_id else None,
                "message_count": self.message_count,
                "member_count": 1,
                "total_message_sent": self.message_count,
                "rate_limit_per_user": 0,
                "flags": 0,
                "thread_metadata": {
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": self.archive_timestamp,
                    "locked": self.locked,
                },
            }
        return {
            "id": str(self.id),
            "type": int(self.type),
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [o.payload() for o in self.overwrites.values()],
            "topic": self.topic,
            "nsfw": False,
            "parent_id": None,
            "rate_limit_per_user": 0,
            "last_message_id": str(self.last_message_id) if self.last_message_id else None,
            "flags": 0,
        }

    def __repr__(self) -> str:
        return f"<Channel #{self.name} id={self.id}>"


@dataclass(eq=False)
class Guild:
    """A guild (server) with its roles, channels and members."""

    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    threads: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    created_at: str = field(default_factory=iso)
    bot_role_id: int | None = None
    locale: str = "en-US"
    """The server's language (``preferred_locale``; ``guild_locale`` in interactions)."""

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]

    def channel(self, name: str) -> Channel:
        """Look a channel up by name (with or without the leading ``#``)."""
        name = name.lstrip("#")
        for ch in self.channels.values():
            if ch.name == name:
                return ch
        raise KeyError(f"no channel #{name} in guild {self.name!r}")

    def role(self, name: str) -> Role:
        """Look a role up by name."""
        for role in self.roles.values():
            if role.name == name:
                return role
        raise KeyError(f"no role {name!r} in guild {self.name!r}")

    def base_permissions(self, member: Member) -> int:
        """Guild-level permissions of a member (owner and ADMINISTRATOR get everything)."""
        if member.account.id == self.owner_id:
            return ALL_PERMISSIONS
        perms = self.everyone.permissions
        for rid in member.role_ids:
            role = self.roles.get(rid)
            if role is not None:
                perms |= role.permissions
        if perms & Perm.ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    def permissions_in(self, member: Member, channel: Channel) -> int:
        """Channel permissions of a member, computed the way Discord documents it (a thread
        has those of the channel it was started in)."""
        if channel.parent is not None:
            channel = channel.parent
        perms = self.base_permissions(member)
        if perms == ALL_PERMISSIONS:
            return perms
        everyone = channel.overwrites.get(self.id)
        if everyone is not None:
            perms &= ~everyone.deny
            perms |= everyone.allow
        allow = deny = 0
        for rid in member.role_ids:
            ow = channel.overwrites.get(rid)
            if ow is not None and ow.type == 0:
                allow |= ow.allow
                deny |= ow.deny
        perms &= ~deny
        perms |= allow
        own = channel.overwrites.get(member.account.id)
        if own is not None and own.type == 1:
            perms &= ~own.deny
            perms |= own.allow
        if not perms & Perm.VIEW_CHANNEL:
            return 0
        return perms

    def payload(self, *, full: bool = False) -> JSON:
        """The guild object; ``full`` gives the GUILD_CREATE variant with channels and members."""
        data: JSON = {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "max_members": 500000,
            "max_video_channel_users": 25,
        }
        if full:
            data.update(
                {
                    "joined_at": self.created_at,
                    "large": False,
                    "unavailable": False,
                    "member_count": len(self.members),
                    "voice_states": [],
                    "members": [m.payload() for m in self.members.values()],
                    "channels": [c.payload() for c in self.channels.values()],
                    "threads": [
                        t.payload()
                        for t in self.threads.values()
                        if not t.archived  # archived threads are not synced up front
                    ],
                    "presences": [],
                    "stage_instances": [],
                    "guild_scheduled_events": [],
                    "soundboard_sounds": [],
                    "lazy": True,
                }
            )
        return data

    def __repr__(self) -> str:
        return f"<Guild {self.name!r} id={self.id}>"


# --------------------------------------------------------------------------- messages


@dataclass(eq=False)
class Attachment:
    """A file attached to a message; ``data`` holds the uploaded bytes."""

    id: int
    filename: str
    data: bytes
    content_type: str | None
    url: str
    description: str | None = None
    width: int | None = None
    height: int | None = None
    ephemeral: bool = False

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def is_image(self) -> bool:
        return self.width is not None or (self.content_type or "").startswith("image/")

    def image(self) -> Image.Image:
        """Decode the attachment with Pillow (the image is fully loaded)."""
        from PIL import Image

        img = Image.open(io.BytesIO(self.data))
        img.load()
        return img

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "placeholder": None,
        }
        if self.description is not None:
            data["description"] = self.description
        if self.width is not None and self.height is not None:
            data["width"] = self.width
            data["height"] = self.height
        if self.ephemeral:
            data["ephemeral"] = True
        return data


@dataclass
class Revision:
    """One version of a message's content (the first is the original, later ones are edits)."""

    content: str
    embeds: list[JSON]
    components: list[JSON]
    attachments: list[Attachment]
    flags: int
    at: float
    edited_timestamp: str | None = None


Place = tuple[int, int]
"""Where a button is on a message, as a finger finds it: ``(row, column)``, the row counted
among the message's action rows in display order, the column within that row."""


def button_places(components: list[JSON]) -> dict[Place, JSON]:
    """Every button in an action row of ``components``, by its place (see :data:`Place`)."""
    rows = [c for c in iter_components(components) if c.get("type") == 1]
    return {
        (r, col): button
        for r, row in enumerate(rows)
        for col, button in enumerate(row.get("components") or [])
        if button.get("type") == 2
    }


def iter_components(components: list[JSON]) -> Iterator[JSON]:
    """Walk every component, including those nested in rows, sections and containers."""
    for comp in components:
        yield comp
        children = comp.get("components")
        if isinstance(children, list):
            yield from iter_components(children)
        accessory = comp.get("accessory")
        if isinstance(accessory, dict):
            yield from iter_components([accessory])


@dataclass(eq=False)
class Message:
    """A message as the fake stores it; attributes always show the newest revision."""

    id: int
    channel: Channel
    author: Account
    type: int
    revisions: list[Revision]
    timestamp: str
    ephemeral_for: Account | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction: Interaction | None = None
    reference: JSON | None = None
    deleted: bool = False
    tts: bool = False
    nonce: str | int | None = None
    #: Emoji the bot reacted with.
    reactions: list[str] = field(default_factory=list)
    #: Number of REST requests touching this message that have not returned yet.
    pending_requests: int = 0
    #: Loop time when the last request that created or edited this message returned.
    settled_at: float | None = None
    #: Users this message notified when it was created (a ping): mentioned in the content,
    #: allowed by ``allowed_mentions``, not ephemeral, without SUPPRESS_NOTIFICATIONS. Edits
    #: never notify.
    notified: list[int] = field(default_factory=list)
    #: The thread started from this message (its id is the message's id).
    thread: Channel | None = None

    # ---- newest content
    @property
    def current(self) -> Revision:
        return self.revisions[-1]

    @property
    def content(self) -> str:
        return self.current.content

    @property
    def embeds(self) -> list[JSON]:
        return self.current.embeds

    @property
    def components(self) -> list[JSON]:
        return self.current.components

    @property
    def attachments(self) -> list[Attachment]:
        return self.current.attachments

    @property
    def flags(self) -> int:
        return self.current.flags

    @property
    def edited(self) -> bool:
        return len(self.revisions) > 1

    @property
    def history(self) -> list[Revision]:
        """Every revision, oldest first (the last one is the current content)."""
        return list(self.revisions)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MessageFlag.EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while this is a deferred ("Bot is thinking...") response not yet filled in."""
        return bool(self.flags & MessageFlag.LOADING)

    @property
    def settled(self) -> bool:
        return self.pending_requests == 0 and self.settled_at is not None

    @property
    def guild(self) -> Guild | None:
        return self.channel.guild

    # ---- components
    def buttons(self) -> list[JSON]:
        """Every button (type 2) on the message, in display order."""
        return [c for c in iter_components(self.components) if c.get("type") == 2]

    def selects(self) -> list[JSON]:
        """Every select menu (types 3, 5, 6, 7, 8) on the message."""
        return [c for c in iter_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    def labels(self) -> list[str]:
        """Labels of the buttons (emoji name when a button has no label)."""
        return [button_label(b) for b in self.buttons()]

    def place_of(self, custom_id: str) -> Place | None:
        """Where the button ``custom_id`` is now (see :data:`Place`), or None."""
        for place, button in button_places(self.components).items():
            if button.get("custom_id") == custom_id:
                return place
        return None

    def button_at(self, place: Place) -> JSON | None:
        """The button at ``place`` now (see :data:`Place`), or None."""
        return button_places(self.components).get(place)

    @property
    def shown_attachments(self) -> list[Attachment]:
        """The files a person sees: all of them, but on a Components V2 message only those its
        components show through ``attachment://`` (Discord shows no others)."""
        if not self.flags & MessageFlag.IS_COMPONENTS_V2:
            return self.attachments
        from .validation import referenced_filenames

        shown = referenced_filenames(self.components)
        return [a for a in self.attachments if a.filename in shown]

    def images(self) -> list[Attachment]:
        """Image files a person sees (see :attr:`shown_attachments`)."""
        return [a for a in self.shown_attachments if a.is_image]

    def picture(self) -> Image.Image:
        """The first image attachment as a Pillow image."""
        images = self.images()
        if not images:
            raise LookupError(f"message {self.id} has no image attachment")
        return images[0].image()

    def embed_text(self) -> str:
        """Titles, descriptions and fields of the embeds joined as text (handy in asserts)."""
        parts: list[str] = []
        for e in self.embeds:
            for key in ("title", "description"):
                if e.get(key):
                    parts.append(str(e[key]))
            for f in e.get("fields", []):
                parts.append(f"{f.get('name', '')}: {f.get('value', '')}")
            footer = e.get("footer")
            if isinstance(footer, dict) and footer.get("text"):
                parts.append(str(footer["text"]))
        return "\n".join(parts)

    def visible_to(self, account: Account | None) -> bool:
        if self.deleted:
            return False
        if self.ephemeral_for is None:
            return True
        return account is not None and account.id == self.ephemeral_for.id

    # ---- payload
    def payload(self, *, gateway: bool = False) -> JSON:
        rev = self.current
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "content": rev.content,
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "attachments": [a.payload() for a in rev.attachments],
            "embeds": rev.embeds,
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": self.tts,
            "timestamp": self.timestamp,
            "edited_timestamp": rev.edited_timestamp,
            "flags": rev.flags,
            "components": rev.components,
        }
        if self.thread is not None:
            data["thread"] = self.thread.payload()
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.reference is not None:
            data["message_reference"] = self.reference
        ix = self.interaction
        if ix is not None:
            meta: JSON = {
                "id": str(ix.id),
                "type": int(ix.type),
                "user": ix.user.payload(),
                "authorizing_integration_owners": ix.integration_owners(),
            }
            if ix.type == InteractionType.APPLICATION_COMMAND:
                meta["name"] = ix.command_name
                meta["command_type"] = 1
            if ix.message is not None:
                meta["interacted_message_id"] = str(ix.message.id)
            data["interaction_metadata"] = meta
            legacy: JSON = {
                "id": str(ix.id),
                "type": int(ix.type),
                "name": ix.command_name or "",
                "user": ix.user.payload(),
            }
            if ix.member is not None:
                legacy["member"] = ix.member.payload(with_user=False)
            data["interaction"] = legacy
        if gateway and self.channel.guild is not None:
            data["guild_id"] = str(self.channel.guild.id)
            member = self.channel.guild.members.get(self.author.id)
            if member is not None and self.webhook_id is None:
                data["member"] = member.payload(with_user=False)
        return data

    def __repr__(self) -> str:
        flags = " ephemeral" if self.ephemeral else ""
        return (
            f"<Message id={self.id} in #{self.channel.name} by {self.author.username}{flags}"
            f" content={self.content[:40]!r} labels={self.labels()}>"
        )


def button_label(button: JSON) -> str:
    """The text a person sees on a button: its label, else its emoji's name."""
    label = button.get("label")
    if label:
        return str(label)
    emoji = button.get("emoji")
    if isinstance(emoji, dict) and emoji.get("name"):
        return str(emoji["name"])
    return ""


# --------------------------------------------------------------------------- commands


@dataclass(eq=False)
class Command:
    """An application command registered by the bot (global or for one guild)."""

    id: int
    application_id: int
    guild_id: int | None
    data: JSON
    version: int

    @property
    def name(self) -> str:
        return str(self.data["name"])

    @property
    def type(self) -> int:
        return int(self.data.get("type", 1))

    def payload(self) -> JSON:
        out: JSON = {
            "id": str(self.id),
            "application_id": str(self.application_id),
            "version": str(self.version),
            "type": self.type,
            "name": self.name,
            "name_localizations": self.data.get("name_localizations"),
            "description": self.data.get("description", ""),
            "description_localizations": self.data.get("description_localizations"),
            "options": self.data.get("options", []),
            "default_member_permissions": self.data.get("default_member_permissions"),
            "dm_permission": self.data.get("dm_permission", True),
            "nsfw": self.data.get("nsfw", False),
            "contexts": self.data.get("contexts"),
            "integration_types": self.data.get("integration_types", [0]),
        }
        if self.guild_id is not None:
            out["guild_id"] = str(self.guild_id)
        return out


# --------------------------------------------------------------------------- interactions


class InteractionFailed(FakeUserError):
    """The bot did not acknowledge an interaction in time (the user saw "interaction failed")."""


@dataclass
class CallbackRecord:
    """One POST to /interactions/{id}/{token}/callback as the fake saw it."""

    type: int
    data: JSON
    at: float
    status: int
    error_code: int | None = None


@dataclass(eq=False)
class Interaction:
    """An interaction a fake user started, and everything the bot did about it."""

    id: int
    token: str
    type: InteractionType
    application_id: int
    user: Account
    channel: Channel
    data: JSON
    created_at: float
    deadline: float
    notifier: Notifier
    member: Member | None = None
    message: Message | None = None
    command_name: str | None = None
    #: When the token was issued, on the fake's own clock (``FakeDiscord.now``).
    token_issued_at: float = 0.0
    dispatched: bool = False
    acknowledged_at: float | None = None
    response_type: int | None = None
    failed: bool = False
    callbacks: list[CallbackRecord] = field(default_factory=list)
    #: Error codes the fake answered to requests about this interaction (10062, 40060, ...).
    errors: list[int] = field(default_factory=list)
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)
    #: The messages the bot edited through the token (``PATCH .../messages/{id}``), in order.
    edited: list[Message] = field(default_factory=list)
    modal: JSON | None = None
    autocomplete_choices: list[JSON] | None = None
    #: The message as INTERACTION_CREATE carried it: as it stood when the interaction was
    #: dispatched (a component's message, or the modal's), not as it is now.
    sent_message: JSON | None = None

    @property
    def guild(self) -> Guild | None:
        return self.channel.guild

    @property
    def acknowledged(self) -> bool:
        return self.acknowledged_at is not None

    @property
    def ack_latency(self) -> float | None:
        """Seconds between the interaction's creation and the bot's acknowledgement."""
        if self.acknowledged_at is None:
            return None
        return self.acknowledged_at - self.created_at

    @property
    def messages(self) -> list[Message]:
        """The original response (if it created a message) then the followups, oldest first."""
        out: list[Message] = []
        if self.original is not None and self.response_type in (4, 5):
            out.append(self.original)
        out.extend(m for m in self.followups if m not in out)
        return out

    def integration_owners(self) -> JSON:
        if self.channel.guild is not None:
            return {"0": str(self.channel.guild.id)}
        return {"1": str(self.user.id)}

    def payload(self, *, app_permissions: int, attachment_size_limit: int) -> JSON:
        """The INTERACTION_CREATE payload, with every field real Discord sends."""
        guild = self.channel.guild
        data: JSON = {
            "id": str(self.id),
            "application_id": str(self.application_id),
            "type": int(self.type),
            "data": self.data,
            "channel": self.channel.payload(),
            "channel_id": str(self.channel.id),
            "token": self.token,
            "version": 1,
            "app_permissions": str(app_permissions),
            "locale": self.user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": self.integration_owners(),
            "attachment_size_limit": attachment_size_limit,
        }
        if guild is not None:
            assert self.member is not None
            member = self.member.payload()
            member["permissions"] = str(guild.permissions_in(self.member, self.channel))
            data["guild_id"] = str(guild.id)
            data["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
            data["guild_locale"] = guild.locale
            data["member"] = member
            data["context"] = 0
        else:
            data["user"] = self.user.payload()
            data["context"] = 1
        if self.message is not None:
            data["message"] = self.message.payload()
        return data

    # ---- waiting helpers for tests
    def _state_text(self) -> str:
        return (
            f"interaction {self.id} ({self.describe()}) by {self.user.username}: "
            f"acknowledged={self.acknowledged} failed={self.failed} "
            f"response_type={self.response_type}"
        )

    def describe(self) -> str:
        if self.type == InteractionType.APPLICATION_COMMAND:
            return f"/{self.command_name}"
        if self.type == InteractionType.MESSAGE_COMPONENT:
            return f"component {self.data.get('custom_id')!r}"
        return self.type.name.lower()

    async def wait_acknowledged(self, timeout: float = 10.0) -> Interaction:
        """Wait until the bot acknowledged this interaction; raise :class:`InteractionFailed` if
        the acknowledgement deadline passed first."""
        await self.notifier.wait_for(
            lambda: self.acknowledged or self.failed,
            timeout,
            f"acknowledgement of {self.describe()}",
        )
        if self.failed or not self.acknowledged:
            raise InteractionFailed(
                f"{self._state_text()} - the user saw 'This interaction failed'"
            )
        return self

    def __await__(self) -> Any:
        return self.wait_acknowledged().__await__()

    async def wait_response(self, timeout: float = 10.0) -> Message:
        """Wait for the first message this interaction produced that shows real content and
        return it: the immediate reply, the filled-in deferred reply, or a followup. For a
        component answered with UPDATE_MESSAGE it is the edited message; with
        DEFERRED_UPDATE_MESSAGE, the first followup or the clicked message once edited after the
        click, whichever comes first."""
        await self.wait_acknowledged(timeout)

        def ready() -> Message | None:
            if self.response_type == CallbackType.UPDATE_MESSAGE and self.original is not None:
                return self.original
            if self.response_type == CallbackType.DEFERRED_UPDATE_MESSAGE:
                for msg in self.followups:
                    if not msg.deleted:
                        return msg
                original = self.original
                if original is not None and original.current.at >= self.created_at:
                    return original if original.settled else None
                return None
            for msg in self.messages:
                if not msg.loading and not msg.deleted:
                    return msg
            return None

        result: Message = await self.notifier.wait_for(
            ready, timeout, f"a response message to {self.describe()}"
        )
        return result

    async def wait_followups(self, count: int = 1, timeout: float = 10.0) -> list[Message]:
        """Wait until at least ``count`` followup messages were sent; return all of them."""
        await self.notifier.wait_for(
            lambda: len(self.followups) >= count,
            timeout,
            f"{count} followup(s) to {self.describe()}",
        )
        return list(self.followups)

    def __repr__(self) -> str:
        return f"<Interaction {self._state_text()}>"


def new_token() -> str:
    return "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)
