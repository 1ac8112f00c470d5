"""Fake people: act as a Discord user (slash commands, button clicks, selects, modals, messages)
and read what the bot showed them (channel messages, their ephemeral replies, their DMs).

A helper only lets a user do what a person could: invoke commands the bot registered, click
enabled buttons found by their label on messages the bot actually posted, and only once the
bot's request that posted or edited the message has returned (plus a reaction delay).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from .commands import LOCALES, shown_name
from .errors import (
    BotNotConnected,
    CommandNotSynced,
    CommandUsageError,
    ComponentDisabled,
    ComponentNotFound,
    FakeUserError,
    MessageNotVisible,
    ThreadArchived,
)
from .models import (
    JSON,
    Account,
    Channel,
    Command,
    Interaction,
    InteractionType,
    Message,
    Perm,
    button_label,
    iter_components,
)

if TYPE_CHECKING:
    from PIL import Image

    from .server import FakeDiscord

OPTION_TYPES = {
    3: "string",
    4: "integer",
    5: "boolean",
    6: "user",
    7: "channel",
    8: "role",
    9: "mentionable",
    10: "number",
    11: "attachment",
}


class FakeUser:
    """A person using the bot. Create with :meth:`FakeDiscord.create_user`."""

    def __init__(self, server: FakeDiscord, account: Account) -> None:
        self.server = server
        self.account = account

    # ------------------------------------------------------------------ identity
    @property
    def id(self) -> int:
        return self.account.id

    @property
    def name(self) -> str:
        return self.account.username

    @property
    def mention(self) -> str:
        return self.account.mention

    @property
    def dms_open(self) -> bool:
        return self.account.dms_open

    def close_dms(self) -> None:
        """Refuse DMs from the bot from now on (its sends fail with 403 / 50007)."""
        self.account.dms_open = False

    def open_dms(self) -> None:
        self.account.dms_open = True

    @property
    def locale(self) -> str:
        """The language of this person's Discord client (``"en-US"`` unless set): it is the
        ``locale`` of their interactions, and they type commands and options by the names
        Discord shows in it (``name_localizations``)."""
        return self.account.locale

    @locale.setter
    def locale(self, locale: str) -> None:
        if locale not in LOCALES:
            raise ValueError(f"Discord has no locale {locale!r}; it has {', '.join(LOCALES)}")
        self.account.locale = locale

    @property
    def dm_channel(self) -> Channel:
        """The DM channel between this user and the bot."""
        return self.server.state.dm_channel(self.account)

    def __repr__(self) -> str:
        return f"<FakeUser {self.name} id={self.id}>"

    # ------------------------------------------------------------------ acting
    async def _wait_connected(self, wait_connected: bool | float) -> None:
        if wait_connected is False:
            return
        timeout = 10.0 if wait_connected is True else float(wait_connected)
        try:
            await self.server.gateway.wait_connected(timeout)
        except TimeoutError as e:
            raise BotNotConnected(
                f"no bot connected to the fake gateway within {timeout:.0f}s"
            ) from e

    def _channel(self, channel: Channel | str | None) -> Channel:
        if channel is None:
            return self.dm_channel
        if isinstance(channel, Channel):
            return channel
        for guild in self.server.state.guilds.values():
            if self.id in guild.members:
                try:
                    return guild.channel(channel)
                except KeyError:
                    continue
        raise FakeUserError(f"{self.name} sees no channel named {channel!r}")

    async def slash(
        self,
        command: str,
        channel: Channel | str | None,
        /,
        *,
        options: dict[str, Any] | None = None,
        wait_connected: bool | float = True,
        **kwargs: Any,
    ) -> Interaction:
        """Type a slash command, e.g. ``await alice.slash("fp new", games, curse=True)``.

        ``command`` is the full command path (``"fp new"`` for subcommand ``new`` of group
        ``fp``); options are keyword arguments (or ``options={...}`` for names that are not
        Python identifiers). ``channel=None`` means the user's DM with the bot.
        Raises :class:`CommandNotSynced` if the bot never registered the command and
        :class:`CommandUsageError` if the options do not fit its definition.
        Returns the :class:`Interaction`; ``await`` it to wait for the acknowledgement.
        """
        values = dict(options or {})
        values.update(kwargs)
        await self._wait_connected(wait_connected)
        ch = self._channel(channel)
        if ch.is_thread and self.server.state.thread_archived(ch):
            raise ThreadArchived(
                f"{self.name} typed /{command} in the archived thread {ch.name!r}: Discord does"
                " not deliver commands from archived threads"
            )
        cmd, path, leaf = self._resolve_command(command, ch)
        built, resolved = self._build_options(cmd, path, leaf, values, ch, focused=None)
        data: JSON = {"id": str(cmd.id), "name": cmd.name, "type": 1, "options": built}
        if cmd.guild_id is not None:
            data["guild_id"] = str(cmd.guild_id)
        if resolved:
            data["resolved"] = resolved
        return self._start(
            InteractionType.APPLICATION_COMMAND, ch, data, command_name=_default_path(cmd, built)
        )

    async def autocomplete(
        self,
        command: str,
        channel: Channel | str | None,
        /,
        focused: str,
        value: str = "",
        *,
        options: dict[str, Any] | None = None,
        wait_connected: bool | float = True,
        **kwargs: Any,
    ) -> Interaction:
        """Type into option ``focused`` of a slash command; the bot's choices end up in
        ``interaction.autocomplete_choices`` once acknowledged."""
        values = dict(options or {})
        values.update(kwargs)
        await self._wait_connected(wait_connected)
        ch = self._channel(channel)
        cmd, path, leaf = self._resolve_command(command, ch)
        values[focused] = value
        built, resolved = self._build_options(cmd, path, leaf, values, ch, focused=focused)
        data: JSON = {"id": str(cmd.id), "name": cmd.name, "type": 1, "options": built}
        if cmd.guild_id is not None:
            data["guild_id"] = str(cmd.guild_id)
        if resolved:
            data["resolved"] = resolved
        return self._start(
            InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE,
            ch,
            data,
            command_name=_default_path(cmd, built),
        )

    def _resolve_command(
        self, command: str, channel: Channel
    ) -> tuple[Command, list[str], list[JSON]]:
        state = self.server.state
        path = command.lstrip("/").split()
        if not path:
            raise CommandUsageError("empty command")
        cmd = state.find_command(path[0], channel, locale=self.locale)
        if cmd is None:
            available = ", ".join(f"/{n}" for n in state.available_commands(channel)) or "none"
            raise CommandNotSynced(
                f"/{path[0]} was never registered with Discord (PUT .../commands) for "
                f"#{channel.name}; registered: {available}"
            )
        guild = channel.guild
        if guild is None:
            contexts = cmd.data.get("contexts")
            if (
                cmd.guild_id is not None
                or cmd.data.get("dm_permission") is False
                or (contexts is not None and 1 not in contexts)
            ):
                raise CommandNotSynced(f"/{cmd.name} is not available in DMs")
        else:
            required = cmd.data.get("default_member_permissions")
            if required is not None:
                member = guild.members[self.id]
                have = guild.permissions_in(member, channel)
                if int(required) & ~have and not have & Perm.ADMINISTRATOR:
                    raise CommandNotSynced(
                        f"/{cmd.name} is hidden from {self.name} (default_member_permissions)"
                    )
        options: list[JSON] = list(cmd.data.get("options") or [])
        for token in path[1:]:
            sub = next(
                (
                    o
                    for o in options
                    if shown_name(o, self.locale) == token and o.get("type") in (1, 2)
                ),
                None,
            )
            if sub is None:
                subs = [shown_name(o, self.locale) for o in options if o.get("type") in (1, 2)]
                raise CommandNotSynced(f"/{cmd.name} has no subcommand {token!r} (it has {subs})")
            options = list(sub.get("options") or [])
        if any(o.get("type") in (1, 2) for o in options):
            subs = [shown_name(o, self.locale) for o in options if o.get("type") in (1, 2)]
            raise CommandUsageError(f"/{' '.join(path)} needs a subcommand: {subs}")
        return cmd, path, options

    def _build_options(
        self,
        cmd: Command,
        path: list[str],
        leaf: list[JSON],
        values: dict[str, Any],
        channel: Channel,
        focused: str | None,
    ) -> tuple[list[JSON], JSON]:
        by_name = {shown_name(o, self.locale): o for o in leaf}
        resolved: JSON = {}
        built: list[JSON] = []
        unknown = [n for n in values if n not in by_name]
        if unknown:
            raise CommandUsageError(
                f"/{' '.join(path)} has no option(s) {unknown}; it has {sorted(by_name)}"
            )
        for opt in leaf:
            name = shown_name(opt, self.locale)  # what the person types; Discord sends the default
            if name not in values:
                if opt.get("required") and focused is None:
                    raise CommandUsageError(f"/{' '.join(path)} requires option {name!r}")
                continue
            if name == focused:
                built.append(
                    {
                        "name": opt["name"],
                        "type": opt["type"],
                        "value": str(values[name]),
                        "focused": True,
                    }
                )
                continue
            built.append(
                {
                    "name": opt["name"],
                    "type": opt["type"],
                    "value": self._convert(opt, values[name], channel, resolved),
                }
            )
        # wrap in the subcommand / group layers, innermost first
        layers: list[tuple[str, int]] = []
        defs: list[JSON] = list(cmd.data.get("options") or [])
        for token in path[1:]:
            sub = next(o for o in defs if shown_name(o, self.locale) == token)
            layers.append((str(sub["name"]), int(sub["type"])))
            defs = list(sub.get("options") or [])
        for name, t in reversed(layers):
            built = [{"name": name, "type": t, "options": built}]
        return built, resolved

    def _convert(self, opt: JSON, value: Any, channel: Channel, resolved: JSON) -> Any:
        t = int(opt["type"])
        name = opt["name"]
        state = self.server.state
        guild = channel.guild
        if t == 3:
            if not isinstance(value, str):
                raise CommandUsageError(f"option {name!r} takes a string, not {value!r}")
            if "min_length" in opt and len(value) < opt["min_length"]:
                raise CommandUsageError(
                    f"option {name!r} must be at least {opt['min_length']} characters"
                )
            if "max_length" in opt and len(value) > opt["max_length"]:
                raise CommandUsageError(
                    f"option {name!r} must be at most {opt['max_length']} characters"
                )
        elif t == 4:
            if isinstance(value, bool) or not isinstance(value, int):
                raise CommandUsageError(f"option {name!r} takes an integer, not {value!r}")
        elif t == 10:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise CommandUsageError(f"option {name!r} takes a number, not {value!r}")
        elif t == 5:
            if not isinstance(value, bool):
                raise CommandUsageError(f"option {name!r} takes True/False, not {value!r}")
        elif t in (6, 9) and (isinstance(value, FakeUser | Account) or t == 6):
            account = value.account if isinstance(value, FakeUser) else value
            if not isinstance(account, Account):
                account = state.get_account(account)
            resolved.setdefault("users", {})[str(account.id)] = account.payload()
            if guild is not None and account.id in guild.members:
                member = guild.members[account.id]
                mdata = member.payload(with_user=False)
                mdata["permissions"] = str(guild.permissions_in(member, channel))
                resolved.setdefault("members", {})[str(account.id)] = mdata
            return str(account.id)
        elif t == 7:
            ch = value if isinstance(value, Channel) else state.get_channel(value)
            types = opt.get("channel_types")
            if types and int(ch.type) not in types:
                raise CommandUsageError(f"option {name!r} does not accept #{ch.name}")
            cdata = {
                "id": str(ch.id),
                "name": ch.name,
                "type": int(ch.type),
                "permissions": str(state.bot_permissions(ch)),
                "flags": 0,
            }
            if ch.guild is not None:
                cdata["guild_id"] = str(ch.guild.id)
            resolved.setdefault("channels", {})[str(ch.id)] = cdata
            return str(ch.id)
        elif t in (8, 9):
            if guild is None:
                raise CommandUsageError(f"option {name!r}: roles only exist in guilds")
            role = value if hasattr(value, "permissions") and hasattr(value, "guild_id") else None
            if role is None:
                role = guild.roles.get(int(value))
            if role is None:
                raise CommandUsageError(f"option {name!r}: unknown role {value!r}")
            resolved.setdefault("roles", {})[str(role.id)] = role.payload()
            return str(role.id)
        else:
            raise CommandUsageError(
                f"option {name!r} of type {OPTION_TYPES.get(t, t)} is not supported"
            )
        if t in (4, 10):
            if "min_value" in opt and value < opt["min_value"]:
                raise CommandUsageError(f"option {name!r} must be >= {opt['min_value']}")
            if "max_value" in opt and value > opt["max_value"]:
                raise CommandUsageError(f"option {name!r} must be <= {opt['max_value']}")
        choices = opt.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise CommandUsageError(
                f"option {name!r} must be one of {[c['value'] for c in choices]}, not {value!r}"
            )
        return value

    def _start(
        self,
        type: InteractionType,
        channel: Channel,
        data: JSON,
        *,
        message: Message | None = None,
        command_name: str | None = None,
    ) -> Interaction:
        server = self.server
        ix = server.state.new_interaction(
            type=type,
            user=self.account,
            channel=channel,
            data=data,
            deadline=server.ack_deadline,
            message=message,
            command_name=command_name,
        )
        server.start_interaction(ix)
        return ix

    async def _settle(self, message: Message, timeout: float) -> Message:
        """Wait until the bot's request that created/edited ``message`` returned, then the
        reaction delay, as a person would (who sees the message only once it is there)."""
        server = self.server
        loop = asyncio.get_running_loop()
        while True:
            await server.wait_for(
                lambda: message.settled or message.deleted,
                timeout,
                f"message {message.id} to settle",
            )
            if message.deleted:
                raise MessageNotVisible(f"message {message.id} was deleted")
            assert message.settled_at is not None
            remaining = message.settled_at + server.reaction_delay - loop.time()
            if remaining > 0:
                await asyncio.sleep(remaining)
            if message.settled and message.settled_at + server.reaction_delay <= loop.time() + 1e-6:
                return message

    def _visible(self, message: Message | int) -> Message:
        msg = self.server.state.messages.get(message if isinstance(message, int) else message.id)
        if msg is None:
            raise MessageNotVisible(f"no message {message!r}")
        if not msg.visible_to(self.account):
            why = "deleted" if msg.deleted else "someone else's ephemeral message"
            raise MessageNotVisible(f"{self.name} cannot see message {msg.id} ({why})")
        if (
            msg.channel.is_dm
            and msg.channel.recipient is not None
            and msg.channel.recipient.id != self.id
        ):
            raise MessageNotVisible(f"message {msg.id} is in someone else's DMs")
        if msg.channel.guild is not None and self.id not in msg.channel.guild.members:
            raise MessageNotVisible(f"{self.name} is not in guild {msg.channel.guild.name!r}")
        return msg

    async def click(
        self,
        message: Message | int,
        label: str | None = None,
        /,
        *,
        custom_id: str | None = None,
        emoji: str | None = None,
        index: int = 0,
        wait_connected: bool | float = True,
        timeout: float = 10.0,
    ) -> Interaction:
        """Click a button found by its ``label`` (or emoji, or custom id) on a message the bot
        posted. Uses the message's newest content. Raises :class:`ComponentNotFound` (listing
        the buttons present) or :class:`ComponentDisabled`. ``index`` picks among several
        buttons with the same label."""
        msg = self._visible(message)
        await self._settle(msg, timeout)
        msg = self._visible(msg)
        button = _find_button(msg, label, custom_id, emoji, index)
        await self._wait_connected(wait_connected)
        return self._start(
            InteractionType.MESSAGE_COMPONENT, msg.channel, _click_data(button), message=msg
        )

    async def tap_seen(self, message: Message | int, button: JSON) -> Interaction:
        """Tap ``button`` as this person's screen still shows it, though the bot may have edited
        the message since (its edit had not reached their phone): the click is sent with the
        message as it stands at that moment, as Discord sends it, whatever it now holds."""
        msg = self._visible(message)
        return self._start(
            InteractionType.MESSAGE_COMPONENT, msg.channel, _click_data(button), message=msg
        )

    async def double_click(
        self,
        message: Message | int,
        label: str | None = None,
        /,
        *,
        gap: float,
        second: Literal["same", "place"] = "same",
        custom_id: str | None = None,
        emoji: str | None = None,
        index: int = 0,
        wait_connected: bool | float = True,
        timeout: float = 10.0,
    ) -> tuple[Interaction, Interaction | None]:
        """Tap a button twice, ``gap`` seconds apart, as a phone's double tap: the first tap is
        :meth:`click`; the second is sent ``gap`` seconds later whatever the message holds
        then, with the message as it stands at that moment (as Discord sends it), without
        waiting for the bot's edits to return.

        ``second`` says what the second tap hits: ``"same"``, the button of the first tap (the
        person's screen had not changed yet: its custom id is sent even if the message no
        longer holds it); ``"place"``, whatever button is now where that one was (the screen
        had changed under the finger: see :meth:`Message.place_of`). A place that now holds no
        button, a disabled one or a link sends nothing: the second interaction is then None."""
        msg = self._visible(message)
        await self._settle(msg, timeout)
        msg = self._visible(msg)
        button = _find_button(msg, label, custom_id, emoji, index)
        place = msg.place_of(str(button["custom_id"]))
        await self._wait_connected(wait_connected)
        first = self._start(
            InteractionType.MESSAGE_COMPONENT, msg.channel, _click_data(button), message=msg
        )
        await asyncio.sleep(gap)
        msg = self._visible(msg)
        if second == "place":
            found = msg.button_at(place) if place is not None else None
            if found is None or found.get("disabled") or not found.get("custom_id"):
                return first, None
            button = found
        return first, await self.tap_seen(msg, button)

    async def select(
        self,
        message: Message | int,
        values: list[str] | str,
        /,
        *,
        placeholder: str | None = None,
        custom_id: str | None = None,
        index: int = 0,
        wait_connected: bool | float = True,
        timeout: float = 10.0,
    ) -> Interaction:
        """Pick option value(s) (or labels) in a string select menu on a bot message."""
        if isinstance(values, str):
            values = [values]
        msg = self._visible(message)
        await self._settle(msg, timeout)
        msg = self._visible(msg)
        selects = [
            s
            for s in msg.selects()
            if (placeholder is None or s.get("placeholder") == placeholder)
            and (custom_id is None or s.get("custom_id") == custom_id)
        ]
        if len(selects) <= index:
            present = [s.get("placeholder") or s.get("custom_id") for s in msg.selects()]
            raise ComponentNotFound(
                f"no select {placeholder or custom_id!r} on message {msg.id}; selects: {present}"
            )
        sel = selects[index]
        if sel.get("disabled"):
            raise ComponentDisabled(f"select {sel.get('placeholder')!r} is disabled")
        if sel.get("type") != 3:
            raise FakeUserError("only string selects (type 3) are supported")
        options = sel.get("options") or []
        chosen: list[str] = []
        for v in values:
            opt = next((o for o in options if o.get("value") == v or o.get("label") == v), None)
            if opt is None:
                raise ComponentNotFound(
                    f"select has no option {v!r}; options: {[o.get('label') for o in options]}"
                )
            chosen.append(str(opt["value"]))
        lo, hi = int(sel.get("min_values", 1)), int(sel.get("max_values", 1))
        if not lo <= len(chosen) <= hi:
            raise FakeUserError(f"select needs between {lo} and {hi} values, got {len(chosen)}")
        await self._wait_connected(wait_connected)
        data: JSON = {"custom_id": sel["custom_id"], "component_type": 3, "values": chosen}
        return self._start(InteractionType.MESSAGE_COMPONENT, msg.channel, data, message=msg)

    async def submit_modal(
        self,
        interaction: Interaction,
        values: dict[str, str],
        *,
        wait_connected: bool | float = True,
    ) -> Interaction:
        """Fill in and submit the modal the bot opened in answer to ``interaction``.
        ``values`` maps text input custom ids (or labels) to the typed text."""
        modal = interaction.modal
        if modal is None:
            raise FakeUserError(f"the bot opened no modal for {interaction.describe()}")
        rows: list[JSON] = []

        def text_value(comp: JSON, label: str | None) -> JSON:
            cid = comp["custom_id"]
            key = cid if cid in values else (label if label in values else comp.get("label"))
            value = values.get(key or cid, comp.get("value") or "")
            if comp.get("required", True) and not value:
                raise FakeUserError(f"modal field {label or cid!r} is required")
            return {"type": 4, "custom_id": cid, "value": value}

        for comp in modal.get("components") or []:
            if comp.get("type") == 1:
                children = [
                    text_value(c, c.get("label"))
                    for c in comp.get("components") or []
                    if c.get("type") == 4
                ]
                rows.append({"type": 1, "components": children})
            elif comp.get("type") == 18 and isinstance(comp.get("component"), dict):
                inner = comp["component"]
                if inner.get("type") == 4:
                    rows.append({"type": 18, "component": text_value(inner, comp.get("label"))})
        await self._wait_connected(wait_connected)
        data: JSON = {"custom_id": modal["custom_id"], "components": rows}
        return self._start(
            InteractionType.MODAL_SUBMIT, interaction.channel, data, message=interaction.message
        )

    async def say(self, channel: Channel | str | None, content: str) -> Message:
        """Post a plain message as this user (the bot gets MESSAGE_CREATE if its intents allow)."""
        ch = self._channel(channel)
        state = self.server.state
        msg = state.create_message(ch, self.account, {"content": content}, [])
        msg.settled_at = asyncio.get_running_loop().time()
        return msg

    # ------------------------------------------------------------------ reading
    def messages(self, channel: Channel | str) -> list[Message]:
        """Messages this user sees in ``channel`` (including their ephemerals), newest first."""
        return self.server.state.visible_messages(self._channel(channel), self.account)

    def latest_message(self, channel: Channel | str) -> Message:
        msgs = self.messages(channel)
        if not msgs:
            raise LookupError(f"{self.name} sees no message in {channel!r}")
        return msgs[0]

    def latest_picture(self, channel: Channel | str) -> Image.Image:
        """The newest image attachment this user sees in ``channel``, as a Pillow image."""
        for m in self.messages(channel):
            if m.images():
                return m.picture()
        raise LookupError(f"{self.name} sees no picture in {channel!r}")

    def dms(self) -> list[Message]:
        """Messages in this user's DM channel with the bot, newest first."""
        channel = self.server.state.dm_channels.get(self.id)
        if channel is None:
            return []
        return self.server.state.visible_messages(channel, self.account)

    def latest_dm(self) -> Message:
        dms = self.dms()
        if not dms:
            raise LookupError(f"{self.name} has no DM from the bot")
        return dms[0]

    def latest_dm_picture(self) -> Image.Image:
        """The newest image the bot sent this user by DM, as a Pillow image."""
        for m in self.dms():
            if m.images():
                return m.picture()
        raise LookupError(f"{self.name} has no picture in their DMs")

    def ephemerals(self, channel: Channel | str | None = None) -> list[Message]:
        """Ephemeral messages shown only to this user (optionally in one channel), newest first."""
        ch = self._channel(channel) if channel is not None else None
        out = [
            m
            for m in self.server.state.messages.values()
            if m.ephemeral_for is not None
            and m.ephemeral_for.id == self.id
            and not m.deleted
            and (ch is None or m.channel is ch)
        ]
        return sorted(out, key=lambda m: m.id, reverse=True)

    async def wait_for_dm(
        self,
        predicate: Callable[[Message], bool] | None = None,
        *,
        newer_than: Message | int | None = None,
        timeout: float = 5.0,
    ) -> Message:
        """Wait for a DM from the bot (newer than ``newer_than`` and matching ``predicate``)."""
        floor = newer_than.id if isinstance(newer_than, Message) else (newer_than or 0)

        def find() -> Message | None:
            for m in self.dms():
                if m.id > floor and (predicate is None or predicate(m)):
                    return m
            return None

        result: Message = await self.server.wait_for(find, timeout, f"a DM to {self.name}")
        return result

    async def wait_for_message(
        self,
        channel: Channel | str,
        predicate: Callable[[Message], bool] | None = None,
        *,
        newer_than: Message | int | None = None,
        timeout: float = 5.0,
    ) -> Message:
        """Wait for a message this user can see in ``channel`` and return it."""
        return await self.server.wait_for_message(
            self._channel(channel),
            predicate,
            viewer=self.account,
            newer_than=newer_than,
            timeout=timeout,
        )


def _find_button(
    msg: Message, label: str | None, custom_id: str | None, emoji: str | None, index: int
) -> JSON:
    """The enabled button a person clicks on ``msg``: by label, custom id or emoji."""
    if label is None and custom_id is None and emoji is None:
        raise FakeUserError("click() needs a label, an emoji or a custom_id")
    buttons = msg.buttons()
    matches = [
        b
        for b in buttons
        if (label is None or button_label(b) == label)
        and (custom_id is None or b.get("custom_id") == custom_id)
        and (emoji is None or (b.get("emoji") or {}).get("name") == emoji)
    ]
    wanted = label or emoji or custom_id
    if len(matches) <= index:
        present = [button_label(b) + (" (disabled)" if b.get("disabled") else "") for b in buttons]
        raise ComponentNotFound(
            f"no button {wanted!r} on message {msg.id} in #{msg.channel.name} "
            f"(content {msg.content[:60]!r}); buttons present: {present}"
        )
    button = matches[index]
    if button.get("disabled"):
        raise ComponentDisabled(f"button {wanted!r} on message {msg.id} is disabled")
    if button.get("style") in (5, 6) or not button.get("custom_id"):
        raise FakeUserError(f"button {wanted!r} is a link/premium button; it sends no interaction")
    return button


def _click_data(button: JSON) -> JSON:
    """The ``data`` of a click on ``button``."""
    data: JSON = {"custom_id": button["custom_id"], "component_type": 2}
    if "id" in button:
        data["id"] = button["id"]
    return data


def all_components(message: Message) -> list[JSON]:
    """Every component of a message, flattened (rows, sections and containers included)."""
    return list(iter_components(message.components))


def _default_path(cmd: Command, built: list[JSON]) -> str:
    """``"fp new"``: the command's path by its default names, as Discord names it to the bot."""
    names = [cmd.name]
    options = built
    while options and options[0].get("type") in (1, 2):
        names.append(str(options[0]["name"]))
        options = options[0].get("options") or []
    return " ".join(names)
