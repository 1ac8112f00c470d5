"""Clicks discord.py would drop: every component interaction whose custom id is this bot's is
answered.

discord.py hands a click to a ``DynamicItem`` only when the clicked message, as the interaction
carries it, still holds a component with that custom id, and when the id fits the template of an
item registered with the bot; otherwise it drops the click before any code of ours runs, and the
person sees "This interaction failed". Both happen to a person: a phone's double tap reaches the
bot after the first tap's answer changed the screen (the message no longer holds the tapped
button), and a button of an older version of the bot, or a forged one, has an id no item takes.

:func:`answer_unclaimed` runs for every interaction (the bot's ``on_interaction``), after
discord.py had its chance, and takes exactly the clicks discord.py did not: it asks the same
question of the same message (:func:`held`), so a click is handled once, never twice. A click
whose id fits an item goes the way it would have gone (the item's own callback: the table's
service decides what a tap on a screen that moved on means, and a second tap of a move already
made is acknowledged quietly); an id of ours that fits no item is refused privately, as any
refusal is (:func:`bot.replies.guarded`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import Any, Final

import discord

from bot.errors import Stale, Why
from bot.replies import guarded

log = logging.getLogger(__name__)

OURS: Final = ("fp:", "fps:")
"""How this bot's custom ids begin (the game's buttons and menu, and the records' ``fp:rec:``)."""

ItemKind = type[discord.ui.DynamicItem[Any]]


def template_of(kind: ItemKind) -> re.Pattern[str]:
    """The compiled template of a ``DynamicItem`` class (as discord.py matches it)."""
    pattern: re.Pattern[str] = kind.__discord_ui_compiled_template__
    return pattern


def item_for(kinds: Iterable[ItemKind], custom_id: str) -> tuple[ItemKind, re.Match[str]] | None:
    """The first of ``kinds`` whose template the whole of ``custom_id`` fits, with the match."""
    for kind in kinds:
        match = template_of(kind).fullmatch(custom_id)
        if match is not None:
            return kind, match
    return None


def held(interaction: discord.Interaction[Any], custom_id: str, component_type: int) -> bool:
    """Whether the clicked message, as the interaction carries it, holds the component: what
    discord.py's view store looks for before it hands a click to a ``DynamicItem``."""
    message = interaction.message
    if message is None:
        return False
    view_kind = discord.ui.LayoutView if message.flags.components_v2 else discord.ui.View
    view = view_kind.from_message(message, timeout=None)
    return any(
        item.type.value == component_type and getattr(item, "custom_id", None) == custom_id
        for item in view.walk_children()
    )


def stand_in(custom_id: str, component_type: int) -> discord.ui.Item[Any]:
    """The component a ``DynamicItem`` is made from when the message no longer holds it."""
    if component_type == discord.ComponentType.select.value:
        return discord.ui.Select(custom_id=custom_id)
    return discord.ui.Button(custom_id=custom_id)


async def answer_unclaimed(
    interaction: discord.Interaction[Any], kinds: Iterable[ItemKind]
) -> None:
    """Answer a click of ours that discord.py drops (see the module); leave any other
    interaction alone. ``kinds``: the ``DynamicItem`` classes registered with the bot."""
    if interaction.type is not discord.InteractionType.component:
        return
    data: Any = interaction.data or {}
    custom_id = data.get("custom_id")
    component_type = data.get("component_type")
    if not isinstance(custom_id, str) or not custom_id.startswith(OURS):
        return
    if not isinstance(component_type, int):
        return
    found = item_for(kinds, custom_id)
    if found is not None and held(interaction, custom_id, component_type):
        return  # discord.py hands it to the item
    if found is None:
        log.info("refused a component whose id fits no kind of ours: %r", custom_id)
        async with guarded(interaction, None, "a component of no known kind"):
            raise Stale(Why.OLD_BUTTON)
        return
    kind, match = found
    log.debug("a click on a button the message no longer holds: %r", custom_id)
    try:
        item = await kind.from_custom_id(interaction, stand_in(custom_id, component_type), match)
    except Exception:
        log.exception("could not read the custom id %r", custom_id)
        async with guarded(interaction, None, "a component"):
            raise Stale(Why.OLD_BUTTON) from None
        return
    await item.callback(interaction)
