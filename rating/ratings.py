"""Ratings and per-player aggregates: who is rated for which seat of a match, at which place,
and what the match changes in their records.

- Who is rated: each person by their user id (``"u:<id>"``), each computer level as one
  pseudo-player per server (``"ai:hard"``: "Computer (hard)"). A person who left the running game
  (``/fp leave``) is placed after everyone still seated (the earliest leaver last), and the
  computer that took their seat is not rated for it; a person whose timed-out turns the timer
  played keeps their seat and is rated as placed. A win is a first place (see
  :func:`rated_seats`).
- Which matches: every finished match, and every match stopped after its first move (aborted by
  its host, or closed when its last person left); the seats still held are then placed by the
  standings when it stopped (:meth:`engine.Game.standings`). A table closed before its first
  move has no result and is never rated. A practice table's match (hints on: a player may ask
  what the expert would play) rates nobody: it is marked rated, and changes no record.
- How: :func:`rate` applies one match to the players' current :class:`PlayerRecord` with the
  ``openskill`` Plackett-Luce model (2 to 6 players, ties share a place).
- What players read: :func:`shown_rating`, the model's conservative estimate ``mu - 3 sigma``
  (what the leaderboard sorts by) on a scale of points where every new player starts at
  :data:`RATING_START` (docs/records.md, "Ratings").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final, Protocol

from openskill.models import PlackettLuce

from rating.facts import MatchFacts, SeatFacts

MODEL: Final = PlackettLuce()
"""The rating model (openskill's defaults: mu 25, sigma 25/3)."""
MIN_MATCHES: Final = 3
"""Matches a player needs to appear on the leaderboard."""
RATING_START: Final = 1000
"""The rating a new player is shown: their conservative estimate, ``mu - 3 sigma``, is then 0."""
POINTS_PER_SKILL: Final = 20
"""Points of the shown rating per point of the model's skill: with the model's spread, two
settled players 200 points apart finish in that order about three times in four, roughly
as in chess ratings."""


def shown_rating(mu: float, sigma: float) -> int:
    """The rating a player reads: the conservative estimate ``mu - 3 sigma`` in points from
    :data:`RATING_START`, never below 0. It sorts players as the estimate does.

    >>> shown_rating(MODEL.mu, MODEL.sigma)
    1000
    >>> shown_rating(22.4, 8.1)  # a newcomer's first lost match: mu - 3 sigma is -1.9
    962
    """
    return max(0, round(RATING_START + POINTS_PER_SKILL * (mu - 3 * sigma)))


class SeatLike(Protocol):
    """A seat at the end of a match: a person (``user_id``) or a computer (``ai``: its level)."""

    @property
    def user_id(self) -> int | None: ...

    @property
    def name(self) -> str: ...

    @property
    def ai(self) -> str | None: ...


def person_key(user_id: int) -> str:
    """The rated player of a person.

    >>> person_key(42)
    'u:42'
    """
    return f"u:{user_id}"


def computer_key(level: str) -> str:
    """The rated pseudo-player of a computer level in a server.

    >>> computer_key("hard")
    'ai:hard'
    """
    return f"ai:{level}"


def user_of(key: str) -> int | None:
    """The user id of a person's key (None for a computer).

    >>> user_of("u:42"), user_of("ai:hard")
    (42, None)
    """
    return int(key[2:]) if key.startswith("u:") else None


def level_of(key: str) -> str | None:
    """The level of a computer's key (None for a person)."""
    return key[3:] if key.startswith("ai:") else None


@dataclass(frozen=True)
class PlayerRecord:
    """A rated player's record in one server: rating and aggregates."""

    guild_id: int
    player: str
    """``"u:<user id>"`` or ``"ai:<level>"``."""
    name: str
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    matches: int = 0
    wins: int = 0
    tiles_left: int = 0
    streak: int = 0
    best_streak: int = 0
    collapses: int = 0
    fires: int = 0
    explosions: int = 0
    curses: int = 0
    tiles_taken: int = 0
    cursed: int = 0
    last_at: float = 0.0
    openings: Mapping[str, int] = field(default_factory=dict)
    """Times each tile opened one of their matches (only what a change adds, when written)."""

    @property
    def ordinal(self) -> float:
        """The conservative rating: ``mu - 3 sigma`` (openskill's ``ordinal()``)."""
        return self.mu - 3 * self.sigma

    @property
    def rating(self) -> int:
        """The rating players read (:func:`shown_rating`): :data:`RATING_START` for a new
        player."""
        return shown_rating(self.mu, self.sigma)

    @property
    def user_id(self) -> int | None:
        return user_of(self.player)

    @property
    def level(self) -> str | None:
        return level_of(self.player)


@dataclass(frozen=True)
class Departure:
    """A person who left a running game (``/fp leave``); a computer played their seat on."""

    seat: int
    user_id: int
    at: float
    """When they left (unix time): of several leavers, the earliest is placed last."""
    name: str | None
    """Their name at the table (None: a departure kept before names were)."""


@dataclass(frozen=True)
class RatedSeat:
    """One seat as the rating sees it: who is rated for it, and at which place."""

    player: str
    name: str
    place: int
    """1 for the best; equal totals share a place; the people who left come last."""
    won: bool
    """Whether the match counts as a win for them: they are placed first (alone or shared)
    and did not leave."""
    facts: SeatFacts


def rated_seats(
    seats: Sequence[SeatLike], departures: Iterable[Departure], facts: MatchFacts
) -> list[RatedSeat]:
    """Who is rated for which seat of a match, and at which place, best first.

    ``seats`` are the seats at the end: a person who left shows as the computer that took over
    (or still as themself, when the table closed before its next move); ``departures`` say who
    left which seat. The seats still held are placed by their totals (lowest first, equal totals
    share a place), then the people who left, the latest first and the earliest last (those who
    left at the same moment share a place); the computers that took their seats are not rated.
    Two computers of one level are rated once, at the better place. A player wins when placed
    first, unless they left: a computer that finished first in a leaver's seat is not rated, so
    the best placed people win in its stead.
    """
    left = {d.seat: d for d in departures if 0 <= d.seat < len(seats)}
    per_seat = [facts.seats[i] if i < len(facts.seats) else SeatFacts() for i in range(len(seats))]
    totals = [f.total if f.total is not None else 0 for f in per_seat]
    ranked = sorted({t for i, t in enumerate(totals) if i not in left})
    times = sorted({d.at for d in left.values()}, reverse=True)

    def place(i: int) -> int:
        if i in left:
            return len(ranked) + 1 + times.index(left[i].at)
        return ranked.index(totals[i]) + 1

    out: list[RatedSeat] = []
    taken: set[str] = set()
    for i in sorted(range(len(seats)), key=lambda i: (place(i), i)):
        s = seats[i]
        if i in left:
            key, name = person_key(left[i].user_id), left[i].name or s.name
        elif s.ai is not None:
            key, name = computer_key(s.ai), f"Computer ({s.ai})"
        elif s.user_id is not None:
            key, name = person_key(s.user_id), s.name
        else:
            continue
        if key in taken:
            continue
        taken.add(key)
        won = place(i) == 1 and i not in left and per_seat[i].total is not None
        out.append(RatedSeat(key, name, place(i), won, per_seat[i]))
    return out


def rate(
    current: Mapping[str, PlayerRecord], seats: Sequence[RatedSeat], guild_id: int, at: float
) -> list[PlayerRecord]:
    """The new records of a match's rated players (``current``: their rows so far, missing
    ones start fresh). Fewer than two rated players: nothing changes (an empty list)."""
    if len(seats) < 2:
        return []
    before = [current.get(s.player) or PlayerRecord(guild_id, s.player, s.name) for s in seats]
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma, name=r.player)] for r in before]
    after = MODEL.rate(teams, ranks=[float(s.place) for s in seats])
    out: list[PlayerRecord] = []
    for r, s, (new,) in zip(before, seats, after, strict=True):
        f = s.facts
        streak = r.streak + 1 if s.won else 0
        out.append(
            replace(
                r,
                name=s.name,
                mu=float(new.mu),
                sigma=float(new.sigma),
                matches=r.matches + 1,
                wins=r.wins + int(s.won),
                tiles_left=r.tiles_left + (f.total or 0),
                streak=streak,
                best_streak=max(r.best_streak, streak),
                collapses=r.collapses + f.collapses,
                fires=r.fires + f.fires,
                explosions=r.explosions + f.explosions,
                curses=r.curses + f.curses,
                tiles_taken=r.tiles_taken + f.tiles_taken,
                cursed=r.cursed + f.cursed,
                last_at=max(r.last_at, at),
                openings={f.opening: 1} if f.opening else {},
            )
        )
    return out


@dataclass(frozen=True)
class StoredMatch:
    """A match's result as rating reads it (a finished match, or one stopped after its first
    move: then its totals are the standings when it stopped)."""

    table_id: int
    guild_id: int
    finished_at: float
    seats: tuple[SeatLike, ...]
    totals: tuple[int, ...] | None
    departures: tuple[Departure, ...]
    facts: MatchFacts | None
    """Stored facts (None: not worked out yet)."""
    practice: bool = False
    """Played at a practice table (hints on): the match rates nobody."""

    def rated_seats(self, facts: MatchFacts) -> list[RatedSeat]:
        """Who is rated for which seat of this match (:func:`rated_seats`); nobody for a
        practice match, whose players could ask the expert for every decision."""
        if self.practice:
            return []
        return rated_seats(self.seats, self.departures, facts)

    def fallback_facts(self) -> MatchFacts:
        """Facts from the stored totals alone (a match whose log cannot be replayed)."""
        totals = self.totals or ()
        return MatchFacts(
            tuple(
                SeatFacts(total=totals[i] if i < len(totals) else None)
                for i in range(len(self.seats))
            )
        )


def replay_all(
    matches: Iterable[StoredMatch],
) -> tuple[dict[str, PlayerRecord], dict[tuple[str, str], int]]:
    """Every rated player's record after applying ``matches`` in order to fresh records, and
    the opening counts ``(player, tile) -> times`` (what recomputation writes)."""
    records: dict[str, PlayerRecord] = {}
    openings: dict[tuple[str, str], int] = {}
    for m in matches:
        facts = m.facts or m.fallback_facts()
        for r in rate(records, m.rated_seats(facts), m.guild_id, m.finished_at):
            records[r.player] = replace(r, openings={})
            for tile, n in r.openings.items():
                openings[(r.player, tile)] = openings.get((r.player, tile), 0) + n
    return records, openings
