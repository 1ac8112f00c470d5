"""One message as the bot sends it or turns another into it: a typed record, so that what a
message holds is checked where it is built, not assembled from keyword dictionaries."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import discord

from render import alttext


def ping(users: Sequence[int]) -> discord.AllowedMentions:
    """Allow pinging exactly these users (never everyone or roles)."""
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(u) for u in users], replied_user=False
    )


def attachment(data: bytes, filename: str, description: str) -> discord.File:
    """A file as the bot attaches it: always with its description, the alt text a screen
    reader reads for it (:mod:`render.alttext` words it), within Discord's 1,024 characters.
    Every file the bot sends is made here."""
    return discord.File(io.BytesIO(data), filename=filename, description=alttext.clip(description))


@dataclass
class Message:
    """What a message shows. ``view`` None: no buttons; ``pings``: who may be notified (nobody
    else, ever); an edit replaces the attachments with ``files``, unless ``keep_files`` (a
    card whose pictures, if any, stay)."""

    content: str | None = None
    files: list[discord.File] = field(default_factory=list)
    embed: discord.Embed | None = None
    view: discord.ui.View | discord.ui.LayoutView | None = None
    """Buttons (a classic message), or a Components V2 layout, which is the whole message: no
    content, no embed, never a ping."""
    pings: tuple[int, ...] = ()
    keep_files: bool = False
    silent: bool = False
    """Sent without a push or desktop notification (Discord's SUPPRESS_NOTIFICATIONS flag)."""

    def noted(self, note: str | None, clip: Any) -> Message:
        """The same message with ``note`` as its first line (``clip`` keeps it in Discord's
        limit)."""
        if not note:
            return self
        return replace(self, content=clip(f"{note}\n{self.content}" if self.content else note))

    def to_send(self) -> dict[str, Any]:
        """The keyword arguments of ``send`` (a new message)."""
        out: dict[str, Any] = {"allowed_mentions": ping(self.pings)}
        if self.content is not None:
            out["content"] = self.content
        if self.files:
            out["files"] = self.files
        if self.embed is not None:
            out["embed"] = self.embed
        if self.view is not None:
            out["view"] = self.view
        if self.silent:
            out["silent"] = True
        return out

    def to_edit(self) -> dict[str, Any]:
        """The keyword arguments of ``edit`` (a message turned into this one: content, buttons
        and pictures replaced). An edit never notifies anyone."""
        out: dict[str, Any] = {
            "view": self.view,
            "allowed_mentions": discord.AllowedMentions.none(),
        }
        if self.content is not None:
            out["content"] = self.content
        if self.embed is not None:
            out["embed"] = self.embed
        if isinstance(self.view, discord.ui.LayoutView):
            # A classic message turned into a V2 one: Discord wants its content and embeds
            # emptied in the same edit (developers/resources/message.mdx, Edit Message).
            out["content"] = None
            out["embeds"] = []
        if not self.keep_files:
            out["attachments"] = self.files
        return out

    def reset(self) -> None:
        """Rewind the pictures, to send them again after a failed try."""
        for file in self.files:
            file.reset()
