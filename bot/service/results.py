"""What the table service answers: the result types the adapter shows (no Discord in them)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from data.store import (
    Pause,
    Table,
    TableOptions,
)
from engine import Event, Pos, Preview, View

PromptKind = Literal["lobby", "play", "fall", "die", "next_round", "over", "closed"]

DEFAULT_UNDO_S = 30
"""How long a person's turn waits, once played, for its player's Undo or Done (a table's
option; 0: no undo)."""
MAX_UNDO_S = 120
"""The longest undo window at a table of several people: the others wait for it."""
MAX_SOLO_UNDO_S = 600
"""The longest undo window a table may choose, used whole only while one person plays there
(with computers, who never wait for it)."""


def undo_window(table: Table) -> int:
    """The seconds a person's turn at ``table`` waits for Undo or Done (0: none): the table's
    option, at most :data:`MAX_UNDO_S` while two people or more play there (a computer that
    took a seat counts as a computer)."""
    people = sum(1 for s in table.seats if s.ai is None)
    cap = MAX_SOLO_UNDO_S if people <= 1 else MAX_UNDO_S
    return max(0, min(table.options.undo_s, cap))


ChosenFalls = frozenset[tuple[str, Pos]]
"""Falls, each as (tile, where it was), that a computer player chose for the person who bears
them: after a curse, when that person's time ran out or they are away. A turn's account says so
instead of "(Bob chose)". In a recap of the others' turns, also the tiles, as (tile, spot), a
computer player played for a person ("A computer player played green 10 for Bob."), which the
thread's post says in its first line."""


@dataclass(frozen=True)
class Prompt:
    """What a table waits for, and from whom.

    ``kind``: ``"lobby"`` (players join), ``"play"`` (``seat`` plays a tile), ``"fall"``
    (``seat`` chooses where ``tile`` at ``at`` falls), ``"die"`` (the game rolls the fire die
    itself, at once), ``"next_round"`` (a round was won),
    ``"over"`` (the match is finished) or ``"closed"`` (cancelled or aborted).
    """

    kind: PromptKind
    seat: int | None = None
    user_id: int | None = None
    """The Discord user who must decide (None for a computer player or nobody)."""
    tile: str | None = None
    at: Pos | None = None
    deadline: float | None = None
    away: bool = False
    """The person who owns the decision is away: a computer makes it for them at once
    (``user_id`` is then None, as for a computer player)."""


@dataclass(frozen=True)
class Board:
    """A table as the channel sees it: the stored table, the public view and the prompt."""

    table: Table
    view: View | None
    """The public view (no hand in it); None for a lobby."""
    prompt: Prompt
    away: Mapping[int, float] = field(default_factory=dict)
    """Seat -> until when (unix time) of each person seated who is away now (``/fp away``): a
    computer plays their decisions at once."""
    computer_chose: ChosenFalls = frozenset()
    """The falls of the last turn that a computer player chose for a person (see
    :data:`ChosenFalls`)."""

    @property
    def pause(self) -> Pause | None:
        """The running game's pause (``/fp pause``), while it lasts: no clock runs."""
        return self.table.pause if self.table.status == "playing" else None

    @property
    def table_id(self) -> int:
        return self.table.id

    @property
    def number(self) -> int:
        """The table's short number on its server, the one players read ("table #12")."""
        return self.table.number

    @property
    def channel_id(self) -> int:
        """Where the game is shown: the table's thread once it has one, else its channel."""
        return self.table.place_id

    @property
    def lobby_channel_id(self) -> int:
        """The channel of the lobby message (the thread's parent)."""
        return self.table.channel_id

    @property
    def guild_id(self) -> int:
        return self.table.guild_id

    @property
    def version(self) -> int:
        return self.table.version

    @property
    def shown_version(self) -> int:
        """The version of the state this board shows: the table's, less the decisions of a
        turn it holds back (they count in its version, and nobody sees them yet)."""
        held = self.table.held
        return self.version - (len(held.actions) if held is not None else 0)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.table.seats)

    def seats(self, user_id: int) -> bool:
        """Whether ``user_id`` plays at this table (a seat a computer took over is not theirs)."""
        return self.seat_of(user_id) is not None

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` plays at this table (None: none, or a computer took it over)."""
        return next(
            (i for i, s in enumerate(self.table.seats) if s.user_id == user_id and s.ai is None),
            None,
        )

    @property
    def options(self) -> TableOptions:
        return self.table.options

    @property
    def undo_s(self) -> int:
        """The undo window of a person's turn here, in seconds (0: no undo)."""
        return undo_window(self.table)

    @property
    def language(self) -> str:
        """The language of the table's posts and their pictures (the server's)."""
        return self.table.language


NoUndo = Literal["die", "passed"]
"""Why a person's turn was handed on at once, with no undo offered: the fire die was rolled
(``"die"``), or a decision of the turn passed to another player (``"passed"``, the curse)."""


@dataclass(frozen=True)
class HeldScreen:
    """A turn its player may still take back (:class:`data.store.HeldTurn`), as their screen
    shows it: nobody else has seen anything of it yet."""

    token: str
    """Names the turn on its Undo and Done buttons."""
    until: float | None
    """When the turn is handed on by itself (unix time), unless its player presses Undo or
    Done first; None while a fall of the turn is still theirs to choose (no Undo yet)."""
    events: tuple[Event, ...]
    """What the turn did (its placement, then its falls)."""
    played: str
    """The tile the turn played."""


@dataclass(frozen=True)
class Hand:
    """One player's private hand at one table, to show to that player only."""

    table_id: int
    guild_id: int
    channel_id: int
    user_id: int
    seat: int
    view: View
    """That player's view (their hand in ``view.hand``)."""
    names: tuple[str, ...]
    digest: str
    """Identifies this exact hand: a tile button carrying it is refused once the hand changed."""
    version: int
    """The table's version when this hand was shown."""
    your_turn: bool
    dm: bool
    """Whether the player wants their hand by direct message (else: ephemeral replies only)."""
    dms_closed: bool = False
    """Whether the player wants their hand by direct message but Discord refused one lately
    (their DMs are closed): then ``dm`` is False, and they are shown as a player on private
    hands (the channel's message mentions them on their turn)."""
    dm_refused_at: float | None = None
    """When Discord last refused a direct message to this player, if that is remembered: a
    direct message that goes through again forgets it."""
    dm_failed_before: bool = False
    """Whether the table's channel was told already that this player's DMs are closed."""
    dm_on_turn: bool = True
    """Whether the player wants a new direct message when it becomes their turn (else their
    one hand message is only edited)."""
    decision: Literal["play", "fall", "wait", "held"] = "wait"
    """What this player must decide now: a tile (``play``), where a tile falls (``fall``, the
    tile and its place in ``view.pending``), whether their turn stands (``held``: Undo or
    Done, see ``held``), or nothing (``wait``)."""
    fitting: tuple[str, ...] = ()
    """The tiles of the hand that simply fit somewhere now (only on the player's turn, and only
    when the table shows previews)."""
    deadline: float | None = None
    """When the turn in progress ends (unix time), if it is this player's decision."""
    board_message_id: int | None = None
    """The table's newest board message (for a link to it), if known."""
    since: tuple[tuple[Event, ...], ...] = ()
    """When this hand asks the player to decide: the others' turns since their last move, one
    group of events per turn (else empty)."""
    since_chose: tuple[ChosenFalls, ...] = ()
    """For each turn of ``since``, its tile and falls that a computer player chose for a
    person."""
    computer_chose: ChosenFalls = frozenset()
    """The falls of the last turn (the one its picture tells) that a computer player chose for
    a person."""
    round_won: Event | None = None
    """When this hand asks the player to decide and a round ended since their last move: that
    round's ``won`` event (its winner and every seat's score for it)."""
    begins: bool = False
    """This hand begins a decision of the player that they were not already looking at: their
    turn, or a fall passed to them by someone else's placement (a curse) or by the clock. A
    player who gets their hands by direct message gets it as a new screen there."""

    table_number: int = 0
    """The table's short number on its server, the one players read ("table #12")."""
    language: str = "en"
    """The player's language (their Discord client's, as last seen), for what reaches them
    privately: their screens, direct messages and reminders."""
    held: HeldScreen | None = None
    """The turn the player may still take back (with ``decision`` ``"held"``): ``view`` shows
    the table after it, and their hand before its draw."""
    back: bool = False
    """The decision this hand answers, held back for its undo window, brought its player back
    from away (:attr:`Step.back`)."""
    away: Mapping[int, float] = field(default_factory=dict)
    """Seat -> until when of each person seated who is away now (:attr:`Board.away`)."""
    paused_until: float | None = None
    """While the game is paused (``/fp pause``), when the pause ends: no clock runs."""
    hints: bool = False
    """A practice table (hints on): the screen of a decision of the player's has a Hint button,
    and its pictures say the table is not rated."""

    @property
    def told_by_dm(self) -> bool:
        """Whether this hand notifies its owner by direct message (a new screen that pings):
        then nothing else is to notify them of the same decision."""
        return self.begins and self.dm and self.dm_on_turn


@dataclass(frozen=True)
class SpotChoice:
    """A tile was chosen: the player picks one of the spots (labelled A, B...), even when there
    is only one, so that a play is never made by a single tap."""

    table_id: int
    version: int
    tile: str
    spots: tuple[tuple[str, Pos], ...]
    """``(label, position)`` in reading order."""
    view: View
    """The chooser's view, for the picture with the spots labelled."""
    names: tuple[str, ...]
    digest: str
    """The chooser's hand (:attr:`Hand.digest`): the spot step shows its tiles, where the tile
    step showed them."""
    previews: tuple[Preview, ...] | None = None
    """What playing the tile on each spot would do, in the order of ``spots`` (None: the table
    shows no previews)."""
    user_id: int = 0
    """Who is choosing."""
    guild_id: int = 0
    channel_id: int = 0
    deadline: float | None = None
    """When the turn ends (unix time)."""
    board_message_id: int | None = None
    """The table's newest board message (for a link to it), if known."""
    fitting: tuple[str, ...] = ()
    """The tiles of that hand that simply fit somewhere (:attr:`Hand.fitting`)."""
    table_number: int = 0
    """The table's short number on its server, the one players read ("table #12")."""
    hints: bool = False
    """A practice table (hints on): its picture says the table is not rated."""
    away: Mapping[int, float] = field(default_factory=dict)
    """Seat -> until when (unix time) of each person seated who is away now."""
    paused: bool = False
    """The game is paused: the chooser's clock does not run."""
    computer_chose: ChosenFalls = frozenset()
    """The falls of the last turn that a computer player chose for a person."""


@dataclass(frozen=True)
class MatchResult:
    """How a match ended: its winners (seats), every seat's total (tiles left in hand and pile
    over every round, lower wins) and how many rounds it had."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    rounds: int

    def to_dict(self, table: Table) -> dict[str, Any]:
        """The results as the store keeps them (with the seats of ``table``)."""
        return {
            "seats": [s.to_dict() for s in table.seats],
            "scores": list(self.scores),
            "winners": list(self.winners),
            "rounds": self.rounds,
        }


@dataclass(frozen=True)
class Step:
    """A decision was applied (or a match started): show one new channel message.

    ``events`` are what happened (the fire die's roll included), ``before`` the public view just
    before (for the mayhem animation; None at the start of a round), ``board`` the table after.
    """

    kind: Literal["start", "move", "next_round"]
    board: Board
    before: View | None
    events: tuple[Event, ...]
    actor: int | None
    """The seat whose decision this was (None: the game itself)."""
    timed_out: bool = False
    """A computer player decided for an absent player whose time ran out."""
    away: bool = False
    """A computer player decided at once for a player who is away (``/fp away``)."""
    hands: tuple[Hand, ...] = ()
    """Hands of people that changed (or were dealt): send each to its owner."""
    results: MatchResult | None = None
    """Final standings when the match ended with this step."""
    turn_events: tuple[Event, ...] = ()
    """Everything the turn this step belongs to did so far (the placement, then its falls)."""
    continues_turn: bool = False
    """The step resolves a turn whose placement was already shown (a fall, the fire die)."""
    turn: tuple[int, int] | None = None
    """``(round, turn)`` of the turn this step belongs to (turns count placed tiles)."""
    mine: Hand | None = None
    """The hand, after this step, of the person whose click made it (for their own private
    screen); None when nobody clicked or the match is over."""
    no_undo: NoUndo | None = None
    """At a table with an undo window, why the person's turn this step ends or continues was
    handed on at once, with no undo (its screen says so); None otherwise."""
    passed_to: str | None = None
    """With ``no_undo`` ``"passed"``: the name of the player the decision passed to."""
    back: bool = False
    """The person whose decision this was had been away (``/fp away``): this decision of
    their own brought them back."""
    stand_in: str | None = None
    """With ``timed_out`` or ``away``: the level of the computer player that decided for the
    person (the server's, ``/fp-settings stand_in``)."""

    def __post_init__(self) -> None:
        if (self.timed_out or self.away) and self.stand_in is None:
            raise ValueError("a computer decided for a person: its level is needed")


@dataclass(frozen=True)
class Reminder:
    """The decision owner's time is running out."""

    board: Board
    user_id: int
    seat: int
    dm: bool = False
    """Whether the owner is told of their turns by direct message (and can get them now):
    then they are reminded there, and only there (one notification, by the channel that told
    them of the decision); else by a mention in the table's channel."""
    quiet: bool = False
    """The owner is told by direct message but wants no reminders: nothing is sent."""
    language: str = "en"
    """The owner's language, for a reminder by direct message."""


@dataclass(frozen=True)
class LeftGame:
    """A player left a running game; a computer took the seat (or the table closed)."""

    board: Board
    seat: int
    closed: bool


@dataclass(frozen=True)
class LobbyExpired:
    """Nobody started a lobby within :data:`bot.service.core.LOBBY_TTL_S`: it closed (its
    channel is free for a new table)."""

    board: Board
