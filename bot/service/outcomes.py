"""What the table service answers about breaks, and what its timers did: a player away or back,
a pause and its end (the rest of what it answers is :mod:`bot.service.results`)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.service.results import Board, LobbyExpired, Reminder, Step


@dataclass(frozen=True)
class AwayChange:
    """A player stepped away in a server (``/fp away``) or came back (``/fp away off:True``, the
    "I'm back" button, or a decision of their own)."""

    guild_id: int
    user_id: int
    until: float | None
    """Away until then (unix time); None: back."""
    boards: tuple[Board, ...] = ()
    """Their open tables in the server, as they now stand (their seats show it; a decision of
    theirs pending there is now the computer's)."""
    changed: bool = True
    """False: nothing changed (back, but they were not away)."""


@dataclass(frozen=True)
class WentAway:
    """The clock ran out on several decisions of a player in a row (the server's
    :attr:`~data.store.GuildSettings.away_after`): they are set away, told once privately how
    to come back, and the table where it happened is told once."""

    board: Board
    """The table where the clock ran out last."""
    user_id: int
    seat: int
    until: float
    timeouts: int
    """The decisions in a row the clock ran out on."""
    dm: bool
    """Whether they are told by direct message (else the table's notice mentions them)."""
    language: str
    """Their language, for the direct message."""
    boards: tuple[Board, ...] = ()
    """Their other open tables in the server, as they now stand."""


@dataclass(frozen=True)
class Paused:
    """A running game was paused (``/fp pause``, or paused again with a new end): its pause is
    :attr:`Board.pause`."""

    board: Board


@dataclass(frozen=True)
class Resumed:
    """A paused game goes on: resumed by someone (``/fp resume``), or at the pause's end."""

    board: Board
    name: str | None
    """Who resumed it, as the table shows them (None: the pause ended)."""
    paused_s: float
    """How long it was paused: every clock of the table moved on by that much."""


TimerOutcome = Step | Reminder | LobbyExpired | WentAway | Resumed
"""What the timer loop shows of a table's due timers
(:meth:`bot.service.TableService.run_timers`)."""
