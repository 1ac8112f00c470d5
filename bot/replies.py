"""The one place where refusals and failures become private replies.

Every command and button runs inside :func:`guarded`. A :class:`~bot.errors.TableError` (a
refusal of the table service) becomes a polite ephemeral message to the person who clicked; a
missing permission is explained; a database that is damaged or out of reach is logged and the
user is told so (a click is acknowledged before anything is read, so this answer can wait for
the database); Discord's expected refusals of an interaction another process answered or whose
token expired (10062, 40060) are logged as information, without a traceback; anything else
unexpected is logged with the table id and the user is told that the game is safe. The user
never sees "This interaction failed" or a traceback.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, Final

import discord

from bot.errors import TableError
from bot.languages import clicker_language
from bot.show import texts, words
from data.store import DatabaseDamaged, StoreError

log = logging.getLogger(__name__)

SAFE = words.SAFE
"""(Kept here for the bot's last-resort handler.)"""
UNKNOWN_INTERACTION = 10062
"""Discord's answer when an interaction's token is no longer valid (it expired, or another
process acknowledged the interaction before its token reached this one)."""
ALREADY_ACKNOWLEDGED = 40060
"""Discord's answer when another process already acknowledged the interaction (one
interaction delivered to two processes)."""
ANSWERED_ELSEWHERE = frozenset({UNKNOWN_INTERACTION, ALREADY_ACKNOWLEDGED})
WHICH_TABLE_S: Final = 0.5
"""How long a failure's answer waits for the store to say which table it was about (for the
log): a command not yet acknowledged has Discord's 3 seconds in all."""


async def reply_private(interaction: discord.Interaction[Any], text: str) -> None:
    """Answer privately, whether or not the interaction was already acknowledged."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except Exception:
        if interaction.client.is_closed():
            log.debug("no private answer to interaction %s: shutting down", interaction.id)
        else:
            log.exception("could not answer interaction %s privately", interaction.id)


async def _which_table(find_table: Callable[[], Awaitable[int | None]] | None) -> int | None:
    """The table to log a failure with, if the store names it within
    :data:`WHICH_TABLE_S` (the answer waits for it)."""
    if find_table is None:
        return None
    try:
        return await asyncio.wait_for(find_table(), WHICH_TABLE_S)
    except Exception:
        return None


@asynccontextmanager
async def guarded(
    interaction: discord.Interaction[Any],
    table_id: int | None = None,
    what: str = "",
    *,
    find_table: Callable[[], Awaitable[int | None]] | None = None,
) -> AsyncIterator[None]:
    """Run a command or a click; turn every failure into a private reply.

    ``find_table`` names the table when ``table_id`` is not known in advance (a slash command
    acts on the channel's table): it is only called to log an unexpected failure with the
    table's id.
    """
    lang = clicker_language(interaction)
    try:
        yield
    except TableError as err:
        log.debug(
            "table %s: %s by %s refused (%s): %s",
            err.table_id or table_id,
            what,
            interaction.user.id,
            type(err).__name__,
            err.why.value,
        )
        await reply_private(interaction, words.refusal(err, texts.esc, lang))
    except discord.Forbidden as err:
        if table_id is None:
            table_id = await _which_table(find_table)
        log.warning("table %s: %s: missing permission: %s", table_id, what, err.text)
        await reply_private(
            interaction,
            lang.gettext(words.MISSING_PERMISSIONS).format(what=err.text or "forbidden"),
        )
    except Exception as err:
        user = interaction.user.id
        if isinstance(err, discord.HTTPException) and err.code in ANSWERED_ELSEWHERE:
            # Expected: this process may not answer it (any more); nothing was done here.
            log.info(
                "table %s: %s by user %s not answered here: %s (%s)",
                table_id,
                what,
                user,
                err.text or type(err).__name__,
                err.code,
            )
            return
        if interaction.client.is_closed():
            log.debug("table %s: %s interrupted by shutdown", table_id, what)
            return
        if isinstance(err, DatabaseDamaged) or type(err) is StoreError:
            # The store could not be read or refused the write as a whole (a damaged file, a
            # lock held too long, a database out of reach): say so, and not that all is well.
            # (Without asking the store which table it was: it would keep the answer waiting.)
            log.error("table %s: %s by user %s not saved: %s", table_id, what, user, err)
            await reply_private(
                interaction,
                lang.gettext(words.DAMAGED if type(err) is not StoreError else words.UNREACHABLE),
            )
            return
        if table_id is None:
            table_id = await _which_table(find_table)
        log.exception("table %s: %s by user %s failed", table_id, what, user)
        await reply_private(interaction, lang.gettext(words.SAFE))
