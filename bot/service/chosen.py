"""Which decisions a computer player made for a person. After a curse, the player who bears the
mayhem chooses where its tiles fall; when their time ran out, or they are away, a computer
player chooses for them, and a turn's account says so instead of "(Bob chose)"; a recap or a
replay also says so of a tile played for them (:data:`~bot.service.results.ChosenFalls`). Read
from the table's action log, where a person's decision made for them is logged without them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from bot.service.results import ChosenFalls
from data.store import LoggedAction, Seat, ServiceStore, Table
from engine import Event

KEPT: Final = 64
"""Tables whose answer :class:`Chosen` keeps (the board and every hand of one move ask)."""


class Chosen:
    """The falls of a table's last turn that a computer player chose for a person, read from its
    action log only for a turn where someone else than its player chose a fall, and kept by
    table, version and turn: the board and every hand of one move ask the same."""

    def __init__(self, store: ServiceStore) -> None:
        self.store = store
        self.kept: dict[tuple[int, int, tuple[Event, ...]], ChosenFalls] = {}

    async def of(self, table: Table, turn: Sequence[Event]) -> ChosenFalls:
        """The falls of ``turn``, the table's last (:func:`chosen_falls`)."""
        if not someone_else_fell(turn):
            return frozenset()
        key = (table.id, table.version, tuple(turn))
        chose = self.kept.get(key)
        if chose is None:
            chose = chosen_falls(table, turn, await self.store.action_log(table.id))
            if len(self.kept) >= KEPT:
                self.kept.pop(next(iter(self.kept)))
            self.kept[key] = chose
        return chose


def someone_else_fell(turn: Sequence[Event]) -> bool:
    """Whether someone else than the turn's player chose a fall in ``turn`` (only a curse makes
    that happen): only then is the log worth reading."""
    active = next((e.player for e in turn if e.kind == "placed"), None)
    return any(e.kind == "fell" and e.player != active for e in turn)


def made_for_a_person(seats: Sequence[Seat], logged: LoggedAction, active: int | None) -> bool:
    """Whether ``logged`` is a fall of someone else's turn than ``active``'s that a computer
    player chose for the person seated there (``seats``: the table's)."""
    return (
        "fall" in logged.action
        and logged.user_id is None
        and logged.seat is not None
        and logged.seat != active
        and seats[logged.seat].ai is None
    )


def played_for_a_person(seats: Sequence[Seat], logged: LoggedAction) -> bool:
    """Whether ``logged`` is a tile a computer player played for the person seated there (their
    time ran out, or they are away)."""
    return (
        "play" in logged.action
        and logged.user_id is None
        and logged.seat is not None
        and seats[logged.seat].ai is None
    )


def made_for(
    seats: Sequence[Seat], logged: LoggedAction, active: int | None, events: Iterable[Event]
) -> ChosenFalls:
    """What of ``events``, those ``logged`` caused, a computer player chose for a person: the
    tile it played for them, or a fall of someone else's turn than ``active``'s (``seats``: the
    table's); nothing for a decision of their own or of a computer's seat."""
    if not (made_for_a_person(seats, logged, active) or played_for_a_person(seats, logged)):
        return frozenset()
    return frozenset(
        (e.tile, e.at)
        for e in events
        if e.kind in ("fell", "placed") and e.tile is not None and e.at is not None
    )


def chosen_falls(table: Table, turn: Sequence[Event], log: Iterable[LoggedAction]) -> ChosenFalls:
    """The falls of ``turn`` (the table's last turn, as the game tells it) that a computer player
    chose for a person: each fall of the turn is the choice of one fall logged since the last
    tile played, in order. Nothing when the log does not end with that turn."""
    active = next((e.player for e in turn if e.kind == "placed"), None)
    falls = [e for e in turn if e.kind == "fell"]
    logged_falls: list[LoggedAction] = []
    for logged in log:
        if "play" in logged.action:
            logged_falls = []
        elif "fall" in logged.action:
            logged_falls.append(logged)
    if len(logged_falls) != len(falls):
        return frozenset()
    return frozenset(
        (e.tile, e.at)
        for e, logged in zip(falls, logged_falls, strict=True)
        if e.tile is not None
        and e.at is not None
        and made_for_a_person(table.seats, logged, active)
    )
