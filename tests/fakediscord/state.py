"""The fake Discord's world: accounts, guilds, channels, messages, commands and interactions.

:class:`State` holds the data and the rules that do not depend on HTTP (validation of
message bodies, permission checks, command registration). The REST layer calls it; it calls
back ``dispatch`` to emit gateway events.
"""

from __future__ import annotations

import copy
import io
import logging
import mimetypes
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import commands as command_rules
from . import validation
from .errors import (
    CANNOT_SEND_EMPTY_MESSAGE,
    CANNOT_SEND_TO_USER,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    NO_MUTUAL_GUILDS,
    THREAD_LOCKED,
    DiscordError,
    FakeUserError,
    invalid_form,
)
from .models import (
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    JSON,
    Account,
    Attachment,
    Channel,
    ChannelType,
    Command,
    Guild,
    Interaction,
    InteractionType,
    Member,
    Message,
    MessageFlag,
    Notifier,
    Overwrite,
    Perm,
    Revision,
    Role,
    Snowflakes,
    Webhook,
    iso,
    iter_components,
    new_token,
)

log = logging.getLogger("fakediscord")

# Gateway intents that matter to the fake.
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15

Dispatch = Callable[..., None]


@dataclass
class UploadedFile:
    """A ``files[n]`` part of a multipart request."""

    index: int
    filename: str
    data: bytes
    content_type: str | None


def _snowflake(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


USER_MENTION = re.compile(r"<@!?(\d+)>")


def mention_text(msg: Message) -> str:
    """The text whose mentions a message's notifications come from: its content, or on a
    Components V2 message the text of its components (``developers/resources/message.mdx``,
    Edit Message: "When the message flag IS_COMPONENTS_V2 is set, the reconstructed arrays and
    boolean are based on the edited content in the components array")."""
    if not validation.is_v2(msg.flags):
        return msg.content
    return "\n".join(
        str(c.get("content") or "")
        for c in iter_components(msg.components)
        if c.get("type") == validation.TEXT_DISPLAY
    )


def notified_users(content: str, allowed_mentions: Any) -> list[int]:
    """The users a new message's content pings, as Discord decides from ``allowed_mentions``
    (absent: every mention in the content; ``parse`` with ``users``: every user mention; else
    only the ids in ``users``)."""
    mentioned = list(dict.fromkeys(int(m) for m in USER_MENTION.findall(content)))
    if not isinstance(allowed_mentions, dict):
        return mentioned
    if "users" in (allowed_mentions.get("parse") or []):
        return mentioned
    allowed = {int(u) for u in allowed_mentions.get("users") or []}
    return [u for u in mentioned if u in allowed]


def _image_size(data: bytes) -> tuple[int, int] | None:
    try:
        from PIL import Image

        with Image.open(io.BytesIO(data)) as img:
            return int(img.width), int(img.height)
    except Exception:
        return None


WEBHOOK_NAME_MAX = 80


def webhook_name_problem(name: str) -> str | None:
    """Why Discord refuses ``name`` for a webhook (``resources/webhook.mdx``, Create Webhook:
    1-80 characters, not containing ``clyde`` or ``discord`` whatever their case), or None."""
    if not 1 <= len(name) <= WEBHOOK_NAME_MAX:
        return f"must be between 1 and {WEBHOOK_NAME_MAX} in length"
    for word in ("clyde", "discord"):
        if word in name.lower():
            return f'cannot contain "{word}"'
    return None


class State:
    """All data of the fake Discord plus the operations the REST API performs on it."""

    def __init__(
        self,
        *,
        notifier: Notifier,
        bot_name: str = "Flaming Pyramids",
        max_attachment_size: int = 10 * 1024 * 1024,
    ) -> None:
        self.notifier = notifier
        self.ids = Snowflakes()
        self.max_attachment_size = max_attachment_size
        self.cdn_base = "http://127.0.0.1"
        self.dispatch: Dispatch = lambda *a, **k: None
        #: The fake's clock (``FakeDiscord.now``): thread inactivity is measured on it.
        self.now: Callable[[], float] = _loop_time

        self.accounts: dict[int, Account] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.dm_channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.channel_messages: dict[int, list[Message]] = {}
        self.attachments: dict[int, Attachment] = {}
        self.global_commands: dict[tuple[str, int], Command] = {}
        self.guild_commands: dict[int, dict[tuple[str, int], Command]] = {}
        self.command_syncs: list[tuple[int | None, list[str]]] = []
        self.interactions: list[Interaction] = []
        self.interactions_by_id: dict[int, Interaction] = {}
        self.interactions_by_token: dict[str, Interaction] = {}
        self.webhooks: dict[int, Webhook] = {}

        self.owner = self.create_account("owner", global_name="Game Owner")
        self.bot = self.create_account(bot_name.lower().replace(" ", "-"), bot=True)
        self.bot.global_name = None
        self.bot.dms_open = False
        self.application_id = self.bot.id
        self.application_name = bot_name

    # ------------------------------------------------------------------ world building
    def create_account(
        self, username: str, *, global_name: str | None = None, bot: bool = False
    ) -> Account:
        account = Account(
            id=self.ids.next(),
            username=username,
            global_name=global_name if global_name is not None else username.capitalize(),
            bot=bot,
        )
        self.accounts[account.id] = account
        return account

    def create_guild(
        self,
        name: str,
        *,
        bot_permissions: int = DEFAULT_BOT_PERMISSIONS,
        owner: Account | None = None,
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        owner = owner or self.owner
        gid = self.ids.next() if shard is None else self.ids.next_on_shard(*shard)
        guild = Guild(id=gid, name=name, owner_id=owner.id)
        guild.roles[gid] = Role(
            id=gid, guild_id=gid, name="@everyone", permissions=DEFAULT_EVERYONE_PERMISSIONS
        )
        bot_role = Role(
            id=self.ids.next(),
            guild_id=gid,
            name=self.application_name,
            permissions=bot_permissions,
            position=1,
            managed=True,
            bot_id=self.bot.id,
        )
        guild.roles[bot_role.id] = bot_role
        guild.bot_role_id = bot_role.id
        self.guilds[gid] = guild
        guild.members[owner.id] = Member(owner, gid)
        guild.members[self.bot.id] = Member(self.bot, gid, role_ids=[bot_role.id])
        self.notifier.changed()
        return guild

    def set_guild_locale(self, guild: Guild, locale: str) -> None:
        """The server's language (its ``preferred_locale``, the ``guild_locale`` of its
        interactions); the bot gets a GUILD_UPDATE."""
        if locale not in command_rules.LOCALES:
            raise ValueError(f"Discord has no locale {locale!r}")
        guild.locale = locale
        self.dispatch("GUILD_UPDATE", guild.payload(), intent=INTENT_GUILDS)
        self.notifier.changed()

    def create_text_channel(self, guild: Guild, name: str, *, topic: str | None = None) -> Channel:
        channel = Channel(
            id=self.ids.next(),
            name=name.lstrip("#"),
            type=ChannelType.GUILD_TEXT,
            guild=guild,
            position=len(guild.channels),
            topic=topic,
        )
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        self.channel_messages[channel.id] = []
        self.dispatch("CHANNEL_CREATE", channel.payload(), intent=INTENT_GUILDS)
        return channel

    def create_webhook(self, channel: Channel, name: str) -> Webhook:
        """An incoming webhook of ``channel``, as a member with Manage Webhooks makes one in the
        channel's settings (Integrations, Webhooks, New Webhook)."""
        problem = webhook_name_problem(name)
        if problem is not None:
            raise ValueError(f"Discord refuses the webhook name {name!r}: {problem}")
        if channel.guild is None or channel.is_thread:
            raise ValueError("webhooks belong to a server's text channel")
        hook = Webhook(self.ids.next(), secrets.token_urlsafe(51), channel, name)
        self.webhooks[hook.id] = hook
        return hook

    def create_role(self, guild: Guild, name: str, permissions: int = 0) -> Role:
        role = Role(
            id=self.ids.next(),
            guild_id=guild.id,
            name=name,
            permissions=permissions,
            position=len(guild.roles),
        )
        guild.roles[role.id] = role
        self.dispatch(
            "GUILD_ROLE_CREATE",
            {"guild_id": str(guild.id), "role": role.payload()},
            intent=INTENT_GUILDS,
        )
        return role

    def add_member(self, guild: Guild, account: Account, roles: list[Role] | None = None) -> Member:
        member = Member(account, guild.id, role_ids=[r.id for r in roles or []])
        guild.members[account.id] = member
        payload = member.payload()
        payload["guild_id"] = str(guild.id)
        self.dispatch("GUILD_MEMBER_ADD", payload, intent=INTENT_GUILD_MEMBERS)
        self.notifier.changed()
        return member

    def remove_member(self, guild: Guild, account: Account) -> None:
        if guild.members.pop(account.id, None) is None:
            raise ValueError(f"{account.username} is not a member of {guild.name!r}")
        self.dispatch(
            "GUILD_MEMBER_REMOVE",
            {"guild_id": str(guild.id), "user": account.payload()},
            intent=INTENT_GUILD_MEMBERS,
        )
        self.notifier.changed()

    def set_overwrite(
        self, channel: Channel, target_id: int, target_type: int, allow: int, deny: int
    ) -> None:
        if channel.guild is None:
            raise ValueError("permission overwrites only exist on guild channels")
        if allow == 0 and deny == 0:
            channel.overwrites.pop(target_id, None)
        else:
            channel.overwrites[target_id] = Overwrite(target_id, target_type, allow, deny)
        self.dispatch("CHANNEL_UPDATE", channel.payload(), intent=INTENT_GUILDS)
        self.notifier.changed()

    def dm_channel(self, account: Account) -> Channel:
        """The DM channel between the bot and ``account`` (created on first use)."""
        channel = self.dm_channels.get(account.id)
        if channel is None:
            channel = Channel(
                id=self.ids.next(),
                name=f"dm-{account.username}",
                type=ChannelType.DM,
                recipient=account,
            )
            self.dm_channels[account.id] = channel
            self.channels[channel.id] = channel
            self.channel_messages[channel.id] = []
        return channel

    # ------------------------------------------------------------------ lookups
    def get_channel(self, channel_id: Any) -> Channel:
        cid = _snowflake(channel_id)
        channel = self.channels.get(cid) if cid is not None else None
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        return channel

    def get_guild(self, guild_id: Any) -> Guild:
        gid = _snowflake(guild_id)
        guild = self.guilds.get(gid) if gid is not None else None
        if guild is None:
            raise DiscordError(404, 10004, "Unknown Guild")
        return guild

    def get_account(self, user_id: Any) -> Account:
        uid = _snowflake(user_id)
        account = self.accounts.get(uid) if uid is not None else None
        if account is None:
            raise DiscordError(404, 10013, "Unknown User")
        return account

    def get_message(self, channel: Channel, message_id: Any) -> Message:
        mid = _snowflake(message_id)
        msg = self.messages.get(mid) if mid is not None else None
        if msg is None or msg.channel is not channel or msg.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        return msg

    def bot_permissions(self, channel: Channel) -> int:
        if channel.guild is None:
            return int(
                Perm.VIEW_CHANNEL
                | Perm.SEND_MESSAGES
                | Perm.EMBED_LINKS
                | Perm.ATTACH_FILES
                | Perm.READ_MESSAGE_HISTORY
                | Perm.ADD_REACTIONS
            )
        member = channel.guild.members[self.bot.id]
        return channel.guild.permissions_in(member, channel)

    def check_bot_can_send(self, channel: Channel, *, with_files: bool) -> None:
        """Raise the error Discord gives when the bot may not post in ``channel``."""
        if channel.is_dm:
            assert channel.recipient is not None
            recipient = channel.recipient
            if recipient.bot or not recipient.dms_open:
                raise DiscordError(403, CANNOT_SEND_TO_USER, "Cannot send messages to this user")
            if not self.shares_a_guild_with_bot(recipient):
                raise DiscordError(
                    403,
                    NO_MUTUAL_GUILDS,
                    "Cannot send messages to this user due to having no mutual guilds",
                )
            return
        perms = self.bot_permissions(channel)
        if not perms & Perm.VIEW_CHANNEL:
            raise DiscordError(403, MISSING_ACCESS, "Missing Access")
        # In a thread, SEND_MESSAGES is not inherited: SEND_MESSAGES_IN_THREADS is needed.
        send = Perm.SEND_MESSAGES_IN_THREADS if channel.is_thread else Perm.SEND_MESSAGES
        if not perms & send or (with_files and not perms & Perm.ATTACH_FILES):
            raise DiscordError(403, MISSING_PERMISSIONS, "Missing Permissions")
        if channel.is_thread and self.thread_archived(channel) and channel.locked:
            raise DiscordError(403, THREAD_LOCKED, "Thread is locked")

    # ------------------------------------------------------------------ threads
    def thread_archived(self, thread: Channel) -> bool:
        """Whether ``thread`` is archived now: it archives by itself ``auto_archive_duration``
        minutes after its last activity on the fake's clock (dispatching THREAD_UPDATE)."""
        if not thread.archived and (
            self.now() - thread.last_activity >= thread.auto_archive_duration * 60
        ):
            thread.archived = True
            thread.archive_timestamp = iso()
            self.dispatch("THREAD_UPDATE", thread.payload(), intent=INTENT_GUILDS)
            self.notifier.changed()
        return thread.archived

    def touch_thread(self, thread: Channel) -> None:
        """A message in ``thread``: activity, and an archived thread is unarchived."""
        was_archived = self.thread_archived(thread)
        thread.last_activity = self.now()
        thread.message_count += 1
        if was_archived:
            thread.archived = False
            thread.archive_timestamp = iso()
            self.dispatch("THREAD_UPDATE", thread.payload(), intent=INTENT_GUILDS)

    def start_thread(self, message: Message, name: str, auto_archive_duration: int) -> Channel:
        """Start a public thread from ``message`` (the thread's id is the message's id);
        dispatch THREAD_CREATE and MESSAGE_UPDATE. Checks are the caller's."""
        parent = message.channel
        assert parent.guild is not None
        thread = Channel(
            id=message.id,
            name=name,
            type=ChannelType.PUBLIC_THREAD,
            guild=parent.guild,
            parent=parent,
            owner_id=self.bot.id,
            auto_archive_duration=auto_archive_duration,
            last_activity=self.now(),
        )
        parent.guild.threads[thread.id] = thread
        self.channels[thread.id] = thread
        self.channel_messages[thread.id] = []
        message.thread = thread
        data = thread.payload()
        data["newly_created"] = True
        self.dispatch("THREAD_CREATE", data, intent=INTENT_GUILDS)
        self._dispatch_message("MESSAGE_UPDATE", message)
        self.notifier.changed()
        return thread

    def shares_a_guild_with_bot(self, account: Account) -> bool:
        return any(
            account.id in g.members and self.bot.id in g.members for g in self.guilds.values()
        )

    def visible_messages(self, channel: Channel, viewer: Account | None = None) -> list[Message]:
        """Messages of a channel as ``viewer`` sees them, newest first (no viewer: public only)."""
        msgs = self.channel_messages.get(channel.id, [])
        return [m for m in reversed(msgs) if m.visible_to(viewer)]

    # ------------------------------------------------------------------ messages
    def validate_body(
        self,
        body: JSON,
        files: list[UploadedFile],
        *,
        creating: bool,
        has_existing: bool = False,
        existing: Message | None = None,
    ) -> None:
        """Apply Discord's limits to a message body; raise 400 errors like Discord does.

        ``existing``: the message an edit changes (its flags and files count)."""
        if not isinstance(body, dict):
            raise invalid_form("_root", "MODEL_TYPE_CONVERT", "Only dictionaries may be used")
        content = body.get("content")
        if content is not None:
            if not isinstance(content, str):
                raise invalid_form("content", "BASE_TYPE_STRING", "Must be a string.")
            if len(content) > 2000:
                raise invalid_form(
                    "content", "BASE_TYPE_MAX_LENGTH", "Must be 2000 or fewer in length."
                )
        embeds = body.get("embeds")
        if body.get("embed") is not None and embeds is None:
            embeds = [body["embed"]]
        if embeds:
            validation.check_embeds(embeds)
        components = body.get("components")
        old_flags = existing.flags if existing is not None else 0
        flags = int(body.get("flags") or 0) if body.get("flags") is not None else old_flags
        if validation.is_v2(old_flags) and not validation.is_v2(flags):
            raise invalid_form(
                "flags",
                "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG",
                "The IS_COMPONENTS_V2 flag cannot be removed from a message",
            )
        v2 = validation.is_v2(flags)
        if v2:
            validation.check_components_v2_body({**body, "embeds": embeds})
        if v2 and existing is not None and not validation.is_v2(old_flags):
            validation.check_becoming_v2(body, existing.current.content, existing.current.embeds)
        if components:
            validation.check_components(components, v2=v2)
        attachments = body.get("attachments")
        if attachments is not None and len(attachments) > 10:
            raise invalid_form(
                "attachments", "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length."
            )
        if len(files) > 10:
            raise invalid_form("files", "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
        names = {f.filename for f in files}
        for entry in attachments or []:
            if isinstance(entry, dict) and entry.get("filename"):
                names.add(str(entry["filename"]))
        if existing is not None:
            kept = existing.current.attachments
            if attachments is not None:
                listed = {_snowflake(a.get("id")) for a in attachments if isinstance(a, dict)}
                kept = [a for a in kept if a.id in listed]
            names |= {a.filename for a in kept}
        validation.check_attachment_references({**body, "embeds": embeds or []}, names)
        if creating and not (
            content
            or embeds
            or files
            or components
            or body.get("sticker_ids")
            or body.get("poll")
            or (attachments and has_existing)
        ):
            raise DiscordError(400, CANNOT_SEND_EMPTY_MESSAGE, "Cannot send an empty message")

    def _make_attachment(
        self, channel: Channel, f: UploadedFile, description: str | None
    ) -> Attachment:
        aid = self.ids.next()
        ctype = f.content_type
        if not ctype or ctype == "application/octet-stream":
            ctype = mimetypes.guess_type(f.filename)[0] or "application/octet-stream"
        size = _image_size(f.data) if ctype.startswith("image/") else None
        att = Attachment(
            id=aid,
            filename=f.filename,
            data=f.data,
            content_type=ctype,
            url=f"{self.cdn_base}/attachments/{channel.id}/{aid}/{f.filename}",
            description=description,
            width=size[0] if size else None,
            height=size[1] if size else None,
        )
        self.attachments[aid] = att
        return att

    def build_attachments(
        self,
        channel: Channel,
        body: JSON,
        files: list[UploadedFile],
        existing: list[Attachment] | None,
    ) -> list[Attachment] | None:
        """Resolve the attachment list of a create/edit. ``None`` means "leave unchanged"."""
        by_index = {f.index: f for f in files}
        used: set[int] = set()
        result: list[Attachment] = []
        listed = body.get("attachments")
        if listed is None:
            if not files:
                return None
            result = list(existing or [])
        else:
            old = {a.id: a for a in existing or []}
            for entry in listed:
                ident = _snowflake(entry.get("id"))
                if ident is not None and ident in old:
                    result.append(old[ident])
                elif ident is not None and ident in by_index:
                    used.add(ident)
                    result.append(
                        self._make_attachment(channel, by_index[ident], entry.get("description"))
                    )
        for f in files:
            if f.index not in used:
                result.append(self._make_attachment(channel, f, None))
        return result

    def create_message(
        self,
        channel: Channel,
        author: Account,
        body: JSON,
        files: list[UploadedFile],
        *,
        type: int = 0,
        ephemeral_for: Account | None = None,
        interaction: Interaction | None = None,
        webhook_id: int | None = None,
        by_application: bool = True,
        extra_flags: int = 0,
    ) -> Message:
        """Store a new message (the body is assumed validated) and dispatch MESSAGE_CREATE.
        ``webhook_id`` without ``by_application``: posted by an incoming webhook."""
        flags = int(body.get("flags") or 0) & (
            MessageFlag.SUPPRESS_EMBEDS
            | MessageFlag.SUPPRESS_NOTIFICATIONS
            | MessageFlag.IS_COMPONENTS_V2
            | MessageFlag.EPHEMERAL
        )
        flags |= extra_flags
        if ephemeral_for is None:
            flags &= ~MessageFlag.EPHEMERAL
        else:
            flags |= MessageFlag.EPHEMERAL
        attachments = self.build_attachments(channel, body, files, None) or []
        if ephemeral_for is not None:
            for a in attachments:
                a.ephemeral = True
        embeds = body.get("embeds")
        if embeds is None and body.get("embed") is not None:
            embeds = [body["embed"]]
        reference = None
        ref = body.get("message_reference")
        if isinstance(ref, dict) and ref.get("message_id"):
            reference = {
                "type": 0,
                "message_id": str(ref["message_id"]),
                "channel_id": str(channel.id),
            }
            if channel.guild is not None:
                reference["guild_id"] = str(channel.guild.id)
            if type == 0:
                type = 19
        loop_time = _loop_time()
        msg = Message(
            id=self.ids.next(),
            channel=channel,
            author=author,
            type=type,
            revisions=[
                Revision(
                    content=body.get("content") or "",
                    embeds=copy.deepcopy(embeds or []),
                    components=copy.deepcopy(body.get("components") or []),
                    attachments=attachments,
                    flags=int(flags),
                    at=loop_time,
                )
            ],
            timestamp=iso(),
            ephemeral_for=ephemeral_for,
            webhook_id=webhook_id,
            application_id=(
                self.application_id if webhook_id is not None and by_application else None
            ),
            interaction=interaction,
            reference=reference,
            tts=bool(body.get("tts")),
            nonce=body.get("nonce"),
        )
        if ephemeral_for is None and not flags & MessageFlag.SUPPRESS_NOTIFICATIONS:
            msg.notified = notified_users(mention_text(msg), body.get("allowed_mentions"))
        self.messages[msg.id] = msg
        self.channel_messages.setdefault(channel.id, []).append(msg)
        if channel.is_thread and ephemeral_for is None:
            self.touch_thread(channel)
        if ephemeral_for is None:
            channel.last_message_id = msg.id
            self._dispatch_message("MESSAGE_CREATE", msg)
        self.notifier.changed()
        return msg

    def edit_message(
        self, msg: Message, body: JSON, files: list[UploadedFile], *, clear_loading: bool = False
    ) -> Message:
        """Apply an edit (only keys present change) as a new revision; dispatch MESSAGE_UPDATE."""
        cur = msg.current
        content = cur.content
        if "content" in body:
            content = body["content"] or ""
        embeds = cur.embeds
        if "embeds" in body:
            embeds = copy.deepcopy(body["embeds"] or [])
        elif "embed" in body:
            embeds = [copy.deepcopy(body["embed"])] if body["embed"] else []
        components = cur.components
        if "components" in body:
            components = copy.deepcopy(body["components"] or [])
        flags = cur.flags
        if "flags" in body and body["flags"] is not None:
            keep = MessageFlag.EPHEMERAL | MessageFlag.LOADING
            settable = MessageFlag.SUPPRESS_EMBEDS | MessageFlag.IS_COMPONENTS_V2
            flags = (flags & keep) | (int(body["flags"]) & settable)
        was_loading = bool(flags & MessageFlag.LOADING)
        if clear_loading:
            flags &= ~MessageFlag.LOADING
        attachments = self.build_attachments(msg.channel, body, files, cur.attachments)
        if attachments is None:
            attachments = list(cur.attachments)
        if msg.ephemeral_for is not None:
            for a in attachments:
                a.ephemeral = True
        msg.revisions.append(
            Revision(
                content=content,
                embeds=embeds,
                components=components,
                attachments=attachments,
                flags=int(flags),
                at=_loop_time(),
                edited_timestamp=iso(),
            )
        )
        quiet = flags & MessageFlag.SUPPRESS_NOTIFICATIONS
        if clear_loading and was_loading and msg.ephemeral_for is None and not quiet:
            # A deferred reply filled in is the message being sent: its mentions ping then.
            # Any other edit notifies nobody, and never unsends the pings of the message.
            msg.notified = notified_users(mention_text(msg), body.get("allowed_mentions"))
        if msg.ephemeral_for is None:
            self._dispatch_message("MESSAGE_UPDATE", msg)
        self.notifier.changed()
        return msg

    def delete_message(self, msg: Message) -> None:
        msg.deleted = True
        if msg.ephemeral_for is None:
            data: JSON = {"id": str(msg.id), "channel_id": str(msg.channel.id)}
            intent = INTENT_DIRECT_MESSAGES
            if msg.channel.guild is not None:
                data["guild_id"] = str(msg.channel.guild.id)
                intent = INTENT_GUILD_MESSAGES
            self.dispatch("MESSAGE_DELETE", data, intent=intent)
        self.notifier.changed()

    def _dispatch_message(self, event: str, msg: Message) -> None:
        intent = INTENT_DIRECT_MESSAGES if msg.channel.is_dm else INTENT_GUILD_MESSAGES
        # Content of other people's messages needs the MESSAGE_CONTENT intent (not in DMs,
        # not for the bot's own messages, not when the bot is mentioned).
        needs_content_intent = (
            msg.author.id != self.bot.id
            and not msg.channel.is_dm
            and self.bot.mention not in msg.content
        )
        self.dispatch(
            event,
            msg.payload(gateway=True),
            intent=intent,
            content_intent=needs_content_intent,
        )

    # ------------------------------------------------------------------ commands
    def commands_for(self, guild_id: int | None) -> dict[tuple[str, int], Command]:
        if guild_id is None:
            return self.global_commands
        return self.guild_commands.setdefault(guild_id, {})

    def validate_command(self, data: JSON, index: int) -> None:
        """Refuse a command Discord would refuse (:mod:`.commands` lists the rules)."""
        command_rules.validate_command(data, index)

    def upsert_command(self, guild_id: int | None, data: JSON) -> Command:
        table = self.commands_for(guild_id)
        key = (str(data["name"]), int(data.get("type", 1)))
        existing = table.get(key)
        if existing is not None:
            if existing.data != data:
                existing.data = copy.deepcopy(data)
                existing.version = self.ids.next()
            return existing
        cmd = Command(
            id=self.ids.next(),
            application_id=self.application_id,
            guild_id=guild_id,
            data=copy.deepcopy(data),
            version=self.ids.next(),
        )
        table[key] = cmd
        return cmd

    def bulk_overwrite_commands(self, guild_id: int | None, commands: list[JSON]) -> list[Command]:
        names: set[tuple[str, int]] = set()
        for i, data in enumerate(commands):
            self.validate_command(data, i)
            key = (str(data["name"]), int(data.get("type", 1)))
            if key in names:
                raise invalid_form(
                    f"{i}.name",
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    "Application command names must be unique",
                )
            names.add(key)
        table = self.commands_for(guild_id)
        result = [self.upsert_command(guild_id, data) for data in commands]
        for key in list(table):
            if key not in names:
                del table[key]
        self.command_syncs.append((guild_id, sorted(n for n, _ in names)))
        self.notifier.changed()
        return result

    def find_command(
        self, name: str, channel: Channel, ctype: int = 1, *, locale: str | None = None
    ) -> Command | None:
        """The command a person in ``channel`` finds by ``name``: its default name, or with
        ``locale`` the name their client shows (its localization, else the default)."""
        tables = [self.global_commands]
        if channel.guild is not None:
            tables.insert(0, self.guild_commands.get(channel.guild.id, {}))
        for table in tables:
            if locale is None:
                cmd = table.get((name, ctype))
                if cmd is not None:
                    return cmd
                continue
            for (_, t), cmd in table.items():
                if t == ctype and command_rules.shown_name(cmd.data, locale) == name:
                    return cmd
        return None

    def available_commands(self, channel: Channel) -> list[str]:
        names = {n for (n, t) in self.global_commands if t == 1}
        if channel.guild is not None:
            names |= {n for (n, t) in self.guild_commands.get(channel.guild.id, {}) if t == 1}
        return sorted(names)

    # ------------------------------------------------------------------ interactions
    def new_interaction(
        self,
        *,
        type: InteractionType,
        user: Account,
        channel: Channel,
        data: JSON,
        deadline: float,
        message: Message | None = None,
        command_name: str | None = None,
    ) -> Interaction:
        member = None
        if channel.guild is not None:
            member = channel.guild.members.get(user.id)
            if member is None:
                raise FakeUserError(
                    f"{user.username} is not a member of guild {channel.guild.name!r}"
                )
        elif channel.recipient is not None and channel.recipient.id != user.id:
            raise FakeUserError(f"{user.username} cannot use someone else's DM channel")
        now = _loop_time()
        ix = Interaction(
            id=self.ids.next(),
            token=new_token(),
            type=type,
            application_id=self.application_id,
            user=user,
            channel=channel,
            data=data,
            created_at=now,
            deadline=now + deadline,
            notifier=self.notifier,
            member=member,
            message=message,
            command_name=command_name,
        )
        self.interactions.append(ix)
        self.interactions_by_id[ix.id] = ix
        self.interactions_by_token[ix.token] = ix
        self.notifier.changed()
        return ix


def _loop_time() -> float:
    import asyncio

    try:
        return asyncio.get_running_loop().time()
    except RuntimeError:
        import time

        return time.monotonic()
