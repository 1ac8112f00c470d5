"""Records of played matches: ratings and per-player aggregates, per server.

One job: turn a played match (its stored result and its replay) into the changes of its
players' records, the same way whether it is rated as it ends or recomputed later.

- :func:`match_facts` replays a match from its dealt state and action log and says, per seat,
  what was public during play: the final total (tiles left), the mayhem the seat caused
  (collapses, fires, explosions, curses) and suffered, and the tile it opened with.
- :func:`rate` applies one match to the players' current :class:`PlayerRecord` rows with the
  ``openskill`` Plackett-Luce model (2 to 6 players, ties share a place) and returns the new rows.
- Who is rated: each person by their user id (``"u:<id>"``), each computer level as one
  pseudo-player per server (``"ai:hard"``: "Computer (hard)"). A person who left the running game
  (``/fp leave``) is placed after everyone still seated (the earliest leaver last), and the
  computer that took their seat is not rated for it; a person whose timed-out turns the timer
  played keeps their seat and is rated as placed. A win is a first place (see
  :func:`rated_seats`).
- Which matches: every finished match, and every match stopped after its first move (aborted by
  its host, or closed when its last person left); the seats still held are then placed by the
  standings when it stopped (:meth:`engine.Game.standings`). A table closed before its first
  move has no result and is never rated.

The stores keep the rows (:class:`Records`, in :mod:`data.records_sqlite` and
:mod:`data.records_pg`): a match is rated in one transaction that gives its result row the
server's next rating sequence number (the rated-once flag) and writes its players' rows, so a
crash or two processes never rate it twice; :meth:`Records.rate_pending` rates every match
with a result not rated yet, in the order they ended.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, Final, Protocol

from openskill.models import PlackettLuce

from data.store import CorruptRecord, LoggedAction, NotFound, Seat, Store

log = logging.getLogger(__name__)

MODEL: Final = PlackettLuce()
"""The rating model (openskill's defaults: mu 25, sigma 25/3)."""
MIN_MATCHES: Final = 3
"""Matches a player needs to appear on the leaderboard."""
MAYHEM: Final = ("collapsed", "burnt", "exploded", "cursed")


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
class SeatFacts:
    """What one seat did in a match, as everyone at the table could see it."""

    total: int | None = None
    """Its final total: tiles left in hand and pile over the match's rounds (lower wins)."""
    collapses: int = 0
    """Collapses it caused (its tile did not fit)."""
    fires: int = 0
    """Fires it set."""
    explosions: int = 0
    """Explosions it set off."""
    curses: int = 0
    """Curses it cast (on the previous player)."""
    tiles_taken: int = 0
    """Tiles that mayhem sent under its pile."""
    cursed: int = 0
    """Curses that hit it."""
    opening: str | None = None
    """The first tile it played in the match."""

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SeatFacts:
        return cls(**{f.name: d[f.name] for f in fields(cls) if f.name in d})


@dataclass(frozen=True)
class MatchFacts:
    """The facts of every seat of a match, by seat."""

    seats: tuple[SeatFacts, ...]
    moves: int = 0
    """Entries in the match's action log."""

    def to_dict(self) -> dict[str, Any]:
        return {"seats": [s.to_dict() for s in self.seats], "moves": self.moves}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> MatchFacts:
        return cls(tuple(SeatFacts.from_dict(s) for s in d["seats"]), int(d.get("moves", 0)))


def match_facts(
    initial_state: Mapping[str, Any], log: Sequence[LoggedAction], totals: Sequence[int] | None
) -> MatchFacts:
    """Replay a match and count, per seat, what happened in public (see :class:`SeatFacts`).

    ``totals`` are the stored final totals (None: the replay's own scores). Raises the engine's
    :class:`~engine.EngineError` if the log does not replay.
    """
    from engine import Game, action_from_dict

    game = Game.from_dict(dict(initial_state))
    n = game.players
    count: list[dict[str, Any]] = [
        {"collapses": 0, "fires": 0, "explosions": 0, "curses": 0, "tiles_taken": 0, "cursed": 0}
        for _ in range(n)
    ]
    opening: list[str | None] = [None] * n
    placer: int | None = None
    for entry in log:
        for e in game.apply(action_from_dict(entry.action), entry.seat):
            if e.kind == "placed":
                placer = e.player
                if opening[e.player] is None:
                    opening[e.player] = e.tile
            elif e.kind == "collapsed":
                count[e.player]["collapses"] += 1
            elif e.kind == "burnt":
                count[e.player]["fires"] += 1
            elif e.kind == "exploded":
                count[e.player]["explosions"] += 1
            elif e.kind == "cursed":
                if placer is not None:
                    count[placer]["curses"] += 1
                count[e.player]["cursed"] += 1
            if e.kind in ("collapsed", "burnt", "exploded", "cursed"):
                count[e.player]["tiles_taken"] += len(e.to_pile)
    final = list(totals) if totals is not None else list(game.scores)
    return MatchFacts(
        tuple(
            SeatFacts(total=final[i] if i < len(final) else None, opening=opening[i], **count[i])
            for i in range(n)
        ),
        moves=len(log),
    )


@dataclass(frozen=True)
class PlayerRecord:
    """A rated player's row in one server: rating and aggregates."""

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
    def user_id(self) -> int | None:
        return user_of(self.player)

    @property
    def level(self) -> str | None:
        return level_of(self.player)

    def row(self) -> tuple[Any, ...]:
        """The ``ratings`` row, in the column order of :data:`RATING_COLUMNS`."""
        return (
            self.guild_id,
            self.player,
            self.name,
            self.mu,
            self.sigma,
            self.ordinal,
            self.matches,
            self.wins,
            self.tiles_left,
            self.streak,
            self.best_streak,
            self.collapses,
            self.fires,
            self.explosions,
            self.curses,
            self.tiles_taken,
            self.cursed,
            self.last_at,
        )

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> PlayerRecord:
        """A ``ratings`` row read in the order of :data:`RATING_COLUMNS`."""
        (gid, player, name, mu, sigma, _ordinal, *counts, last_at) = row
        c = [int(x) for x in counts]
        return cls(
            guild_id=int(gid),
            player=str(player),
            name=str(name),
            mu=float(mu),
            sigma=float(sigma),
            matches=c[0],
            wins=c[1],
            tiles_left=c[2],
            streak=c[3],
            best_streak=c[4],
            collapses=c[5],
            fires=c[6],
            explosions=c[7],
            curses=c[8],
            tiles_taken=c[9],
            cursed=c[10],
            last_at=float(last_at),
        )


RATING_COLUMNS: Final = (
    "guild_id, player, name, mu, sigma, ordinal, matches, wins, tiles_left, streak, "
    "best_streak, collapses, fires, explosions, curses, tiles_taken, cursed, last_at"
)


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
    seats: Sequence[Seat], departures: Iterable[Departure], facts: MatchFacts
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
    """A match's result row, as rating reads it (a finished match, or one stopped after its
    first move: then its totals are the standings when it stopped)."""

    table_id: int
    guild_id: int
    finished_at: float
    seats: tuple[Seat, ...]
    totals: tuple[int, ...] | None
    departures: tuple[Departure, ...]
    facts: MatchFacts | None
    """Stored facts (None: not worked out yet)."""

    def fallback_facts(self) -> MatchFacts:
        """Facts from the stored totals alone (a match whose log cannot be replayed)."""
        totals = self.totals or ()
        return MatchFacts(
            tuple(
                SeatFacts(total=totals[i] if i < len(totals) else None)
                for i in range(len(self.seats))
            )
        )


MATCH_COLUMNS: Final = "table_id, guild_id, finished_at, seats, scores, facts"
"""The ``results`` columns :func:`stored_match` reads, in its order."""


def stored_match(row: Sequence[Any], departures: Iterable[Departure]) -> StoredMatch:
    """A results row in the order of :data:`MATCH_COLUMNS` (JSON as text or as already decoded
    values)."""
    from data import rows as R

    tid, gid, at, seats, scores, facts = row

    def value(v: Any, what: str) -> Any:
        return R.load_json(v, what) if isinstance(v, str) else v

    seat_list = R.parse_seats(seats if isinstance(seats, str) else R.dumps(seats))
    score_list = value(scores, "scores")
    fact_dict = value(facts, "facts")
    return StoredMatch(
        int(tid),
        int(gid),
        float(at),
        tuple(seat_list),
        None if score_list is None else tuple(int(s) for s in score_list),
        tuple(departures),
        None if fact_dict is None else MatchFacts.from_dict(fact_dict),
    )


DEPARTURE_COLUMNS: Final = "seat, user_id, at, name"
"""The ``departures`` columns :func:`departure` reads, in its order."""


def departure(row: Sequence[Any]) -> Departure:
    """A ``departures`` row in the order of :data:`DEPARTURE_COLUMNS`."""
    seat, user_id, at, name = row
    return Departure(int(seat), int(user_id), float(at), None if name is None else str(name))


def replay_all(
    matches: Iterable[StoredMatch],
) -> tuple[dict[str, PlayerRecord], dict[tuple[str, str], int]]:
    """Every rated player's record after applying ``matches`` in order to fresh records, and
    the opening counts ``(player, tile) -> times`` (what recomputation writes)."""
    records: dict[str, PlayerRecord] = {}
    openings: dict[tuple[str, str], int] = {}
    for m in matches:
        facts = m.facts or m.fallback_facts()
        for r in rate(
            records, rated_seats(m.seats, m.departures, facts), m.guild_id, m.finished_at
        ):
            records[r.player] = replace(r, openings={})
            for tile, n in r.openings.items():
                openings[(r.player, tile)] = openings.get((r.player, tile), 0) + n
    return records, openings


def recomputed(
    rows: Sequence[Sequence[Any]], departures: Iterable[Sequence[Any]]
) -> tuple[dict[str, PlayerRecord], dict[tuple[str, str], int]]:
    """:func:`replay_all` of results rows in rating order (see :func:`stored_match`) and
    ``departures`` rows: the table id, then :data:`DEPARTURE_COLUMNS`."""
    deps: dict[int, list[Departure]] = {}
    for tid, *rest in departures:
        deps.setdefault(int(tid), []).append(departure(rest))
    return replay_all(stored_match(r, deps.get(int(r[0]), ())) for r in rows)


# --- what the stores answer ---------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerStats:
    """A player's record in a server, with their place on its leaderboard."""

    record: PlayerRecord
    rank: int | None
    """Their place among the players with at least :data:`MIN_MATCHES` matches (None: fewer)."""
    ranked_players: int
    """How many players the leaderboard has."""
    favourite_opening: str | None
    """The tile they opened with most often (ties: the first in tile order)."""


@dataclass(frozen=True)
class BoardPage:
    """One page of a server's leaderboard."""

    entries: tuple[PlayerRecord, ...]
    first_rank: int
    """The place of the first entry (1 on the first page)."""
    total: int
    """How many players the whole leaderboard has."""


@dataclass(frozen=True)
class HistoryEntry:
    """One match with a result (finished, or stopped after its first move) as the history lists
    it."""

    table_id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    finished_at: float
    seats: tuple[Seat, ...]
    scores: tuple[int, ...] | None
    winners: tuple[int, ...]
    """The match's winners as played (none for a stopped match)."""
    stopped: bool
    """The match stopped before its end (aborted by its host, or closed when its last person
    left): ``scores`` are the standings when it stopped."""
    number: int = 0
    """The match's table number on its server (``table #12``), as players name it."""


async def facts_of(store: Store, m: StoredMatch) -> MatchFacts:
    """What a match's public log says (the mayhem, the openings), replayed off the event
    loop; from its totals alone if its record or log cannot be read or replayed (logged). The
    same for both stores."""
    if m.facts is not None:
        return m.facts
    try:
        table = await store.get_table(m.table_id)
        log_rows = await store.action_log(m.table_id)
        if table.initial_state is None:
            raise ValueError("no dealt state")
        return await asyncio.to_thread(match_facts, table.initial_state, log_rows, m.totals)
    except (CorruptRecord, NotFound, ValueError, KeyError) as e:
        log.warning("table %s: rated from its totals only: %s", m.table_id, e)
    except Exception as e:  # the engine refused the log
        log.warning("table %s: its log does not replay (%s); rated from totals", m.table_id, e)
    return m.fallback_facts()


class Records(Protocol):
    """What a store keeps for records (both stores; see the module)."""

    async def rate_match(self, table_id: int) -> bool:
        """Rate one match with a result if it is not rated yet; True if this call rated it. A match
        whose log does not replay is marked rated with no change (and logged), never retried
        forever."""

    async def rate_pending(self, limit: int = 1000) -> int:
        """Rate up to ``limit`` matches with a result not rated yet, oldest first; how many."""

    async def recompute(self, guild_id: int | None = None) -> int:
        """Rebuild the ratings of one server (or all) from the stored results, in the order
        they were first rated; how many matches were applied."""

    async def player_stats(self, guild_id: int, player: str) -> PlayerStats | None: ...

    async def leaderboard(
        self, guild_id: int, offset: int, limit: int, min_matches: int = MIN_MATCHES
    ) -> BoardPage: ...

    async def history(
        self, guild_id: int, user_id: int | None, limit: int, before: float | None = None
    ) -> list[HistoryEntry]:
        """The server's matches with a result (or those ``user_id`` played, left included),
        newest first."""

    async def all_records(self, guild_id: int) -> list[PlayerRecord]:
        """Every rated player of a server (for checks and recomputation)."""


def records_for(store: object) -> Records:
    """The records of a store (SQLite or PostgreSQL). PostgreSQL's modules are imported only for
    a PostgreSQL store: a SQLite-only host has no asyncpg."""
    from data.sqlite import SqliteStore

    if isinstance(store, SqliteStore):
        from data.records_sqlite import SqliteRecords

        return SqliteRecords(store)
    from data.postgres import PostgresStore

    if isinstance(store, PostgresStore):
        from data.records_pg import PgRecords

        return PgRecords(store)
    raise TypeError(f"no records for {type(store).__name__}")


__all__ = [
    "DEPARTURE_COLUMNS",
    "MATCH_COLUMNS",
    "MIN_MATCHES",
    "MODEL",
    "RATING_COLUMNS",
    "BoardPage",
    "Departure",
    "HistoryEntry",
    "MatchFacts",
    "PlayerRecord",
    "PlayerStats",
    "RatedSeat",
    "Records",
    "SeatFacts",
    "computer_key",
    "level_of",
    "match_facts",
    "person_key",
    "rate",
    "rated_seats",
    "records_for",
    "user_of",
]
