"""What the show side keeps of one open table, in one object, and the one registry of them.

A table's :class:`TableShow` holds everything this process keeps about showing that table: the
move the channel still owes and who was told of it, the turn's message and a turn whose message
waits for its end, the newest game message, the screens waiting to be delivered and their
delivery, the live private screens, and the table's loops (the computer players' turns, the owed
post's retries). It is made the first time something of the table is to be kept
(:meth:`Tables.of`); reading never makes one (:meth:`Tables.get`), and one left with nothing in it
is dropped (:meth:`Tables.tidy`), so a table that another process ends leaves nothing here either.

It is closed in one way, :meth:`Tables.close`: its loops are cancelled and its state dropped.
That is done wherever a table ends: the end of its match (once the channel has its last move:
:meth:`Tables.end`), ``/fp abort``, its last person leaving, its lobby cancelled or expired, and
the process stopping (:meth:`Tables.close_all`).

Not here, and why: messages already on their way (:meth:`bot.show.outbox.Outbox.spawn`: the
lobby card's result, the closing of a screen, a note in the store) run to their end, since the
end of a table is shown by them; the locks (:mod:`bot.locks`) are held around the close itself
and go when unused; the lobby taps the desk applied (:class:`bot.desk.LobbyTaps`) answer the
second tap of a Cancel after its table closed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.service import Board, Hand
from engine import Event, View
from i18n import Language

Turn = tuple[int, int]
"""A turn: ``(round, turn)``."""
Edit = Callable[..., Awaitable[Any]]
ScreenKind = Literal["hand", "spots", "over", "held"]


@dataclass
class Screen:
    """One player's private screen at one table."""

    message_id: int
    edit: Edit
    """Edits the message (through the interaction's token)."""
    opened: float
    """When that token was issued (the service's clock)."""
    in_dm: bool
    kind: ScreenKind = "hand"
    shown: tuple[int, str, str] | None = None
    """``(version, decision, hand digest)`` of the hand it shows."""
    lang: Language = field(kw_only=True)
    """The words it is shown in: its player's client language at their latest click."""


@dataclass
class Waiting:
    """A turn whose message waits for the turn's end (its player decides its falls on their own
    screen): the public view before the first step not shown, that turn, and what happened
    since that view."""

    before: View | None
    turn: Turn | None
    events: list[Event]


@dataclass(eq=False)
class TableShow:
    """What this process keeps about showing one open table."""

    table_id: int
    owed: tuple[Board, str] | None = None
    """The newest board the channel has not seen, and the text to post with it."""
    told: set[int] = field(default_factory=set)
    """Who was told that the table's latest message is not in the channel yet."""
    turn_message: tuple[int, Turn] | None = None
    """The table's newest game message and the turn it shows (the rest of it is folded in)."""
    waiting: Waiting | None = None
    """A turn whose message waits for its end (:meth:`bot.show.channel.TableChannel.defer`)."""
    newest: int | None = None
    """The id of the newest game message this process posted (for the screens' links)."""
    asking: tuple[int, str] | None = None
    """The newest game message this process showed while it asks someone something, and its
    words without that question: what it says once the question is gone (the next round
    started, the table was aborted)."""
    hands: dict[int, Hand] = field(default_factory=dict)
    """Per player: the newest screen waiting to be delivered."""
    delivering: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    """Per player: the task delivering their screens, one at a time."""
    screens: dict[int, Screen] = field(default_factory=dict)
    """Per player: their live private screen in the channel, or their turn held back for its
    undo window on their screen in direct messages (closed through its click's token when the
    turn is handed on)."""
    advancing: asyncio.Task[None] | None = None
    """The computer players' (and the fire die's) decisions, one at a time."""
    retrying: asyncio.Task[None] | None = None
    """Posting again what the channel owes, with backoff."""
    ending: bool = False
    """The match is over; the table closes once the channel has its last move."""

    def tasks(self) -> list[asyncio.Task[None]]:
        """The table's loops still kept."""
        loops = [self.advancing, self.retrying, *self.delivering.values()]
        return [t for t in loops if t is not None]

    def empty(self) -> bool:
        """Whether nothing of the table is kept any more."""
        return (
            self.owed is None
            and not self.told
            and self.turn_message is None
            and self.waiting is None
            and self.newest is None
            and self.asking is None
            and not self.hands
            and not self.screens
            and not self.tasks()
            and not self.ending
        )

    def forgive(self) -> None:
        """Nothing is owed to the channel any more."""
        self.owed = None
        self.told.clear()

    def close(self) -> None:
        """Cancel the table's loops (all but the one closing it) and drop what it kept."""
        try:
            current = asyncio.current_task()
        except RuntimeError:  # no event loop running
            current = None
        for task in self.tasks():
            if task is not current and not task.done():
                task.cancel()
        self.forgive()
        self.turn_message = self.waiting = self.newest = self.asking = None
        self.hands.clear()
        self.delivering.clear()
        self.screens.clear()
        self.advancing = self.retrying = None
        self.ending = False


class Tables:
    """The :class:`TableShow` of every open table this process keeps something of."""

    def __init__(self) -> None:
        self._open: dict[int, TableShow] = {}

    def of(self, table_id: int) -> TableShow:
        """The table's object, made now if nothing of it was kept."""
        kept = self._open.get(table_id)
        if kept is None:
            kept = self._open[table_id] = TableShow(table_id)
        return kept

    def get(self, table_id: int) -> TableShow | None:
        """The table's object, if something of it is kept (reading makes none)."""
        return self._open.get(table_id)

    def tidy(self, table_id: int) -> None:
        """Drop the table's object if nothing is left in it."""
        kept = self._open.get(table_id)
        if kept is not None and kept.empty():
            del self._open[table_id]

    def close(self, table_id: int) -> None:
        """The table ended: its loops are cancelled, and nothing of it is kept."""
        kept = self._open.pop(table_id, None)
        if kept is not None:
            kept.close()

    def end(self, table_id: int) -> None:
        """The table's match is over and its screens show it: closed now, or, if the channel
        still owes its last move, once that is shown (:meth:`forgive`); until then only the
        owed move and its retries are kept."""
        kept = self._open.get(table_id)
        if kept is None:
            return
        if kept.owed is None or kept.retrying is None:
            self.close(table_id)
            return
        owed, told, retrying = kept.owed, set(kept.told), kept.retrying
        kept.retrying = None  # not cancelled: it posts the last move
        kept.close()
        kept.owed, kept.told, kept.retrying, kept.ending = owed, told, retrying, True

    def forgive(self, table_id: int) -> None:
        """Nothing is owed to the table's channel any more (shown, or nothing more to show);
        a table whose match ended is closed then."""
        kept = self._open.get(table_id)
        if kept is None:
            return
        kept.forgive()
        if kept.ending:
            self.close(table_id)
        else:
            self.tidy(table_id)

    def close_all(self) -> None:
        """Every table closed (the process stops)."""
        for table_id in list(self._open):
            self.close(table_id)

    def __contains__(self, table_id: object) -> bool:
        return table_id in self._open

    def __len__(self) -> int:
        return len(self._open)
