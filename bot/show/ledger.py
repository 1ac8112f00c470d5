"""Which Discord message shows which table version: the show side's one door to the store.

The channel's newest board, the lobby card and each player's hand message are kept in the store
by table (:class:`bot.kept.Kept`), so that any process finds them after a restart; an edit of a
kept message goes through :meth:`Ledger.edit`, which lets it through only if the message does not
already show a newer version of the table (across every process). The ledger also notes which
version the channel has seen, which tables were told that a player's direct messages are
closed, and (for each player, across every table) when Discord last refused them a direct message.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from bot.kept import Kept
from data.store import CorruptRecord, NotFound, Store


class Ledger:
    """The kept messages of every table, in the store."""

    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self._store = store
        self._clock = clock

    @asynccontextmanager
    async def edit(self, table_id: int, kept: Kept, version: int) -> AsyncIterator[bool]:
        """Whether to edit ``kept`` to show the table at ``version`` (False: it shows a newer
        one already). Edits of one message go one at a time, across every process
        (:meth:`data.store.Store.message_edit`): the edit is made inside this block."""
        async with self._store.message_edit(table_id, kept.key, version) as go:
            yield go

    async def find(self, table_id: int, kept: Kept) -> int | None:
        """The id of a kept message of a table, as the store knows it now."""
        return kept.of(await self._store.get_messages(table_id))

    async def remember(
        self, table_id: int, kept: Kept, message_id: int, version: int | None = None
    ) -> None:
        """``message_id`` is the table's ``kept`` message from now on (showing the table at
        ``version``, when given: a new message, whatever the one before it showed)."""
        await self._store.set_message(table_id, kept.key, message_id, version)

    async def still_at(self, table_id: int, version: int) -> bool:
        """Whether the table is still at ``version``: nothing was played, joined or ended since
        (a screen made then still shows the decision in progress). False for a table that is
        gone or cannot be read any more."""
        try:
            return (await self._store.get_table(table_id)).version == version
        except (NotFound, CorruptRecord):
            return False

    async def shown(self, table_id: int, version: int) -> None:
        """The channel has seen the table at ``version`` (a restart shows nothing older)."""
        await self._store.mark_shown(table_id, version)

    async def dm_failed(self, table_id: int, user_id: int) -> bool:
        """The table's channel is to be told that the DMs of ``user_id`` are closed; True the
        first time only (so each table tells it once)."""
        return await self._store.note_dm_failed(table_id, user_id)

    async def dm_refused(self, user_id: int) -> None:
        """Discord refused a direct message to ``user_id`` now: no more are sent them until
        they ask for it or a day has passed (the service reads it)."""
        await self._store.note_dm_refused(user_id, self._clock())

    async def dm_opened(self, user_id: int) -> None:
        """A direct message to ``user_id`` went through: forget that one was refused."""
        await self._store.clear_dm_refused(user_id)

    async def dm_refused_ever(self, user_id: int) -> bool:
        """Whether a refused direct message to ``user_id`` is remembered (for the rare DMs the
        service does not decide, such as the decision's buttons when the channel is down)."""
        return await self._store.dm_refused_at(user_id) is not None
