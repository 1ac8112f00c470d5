"""What a played match means for its players' records: the facts of the match and the ratings.

Pure: the engine's replay and openskill's model, no database, no I/O, no asyncio. The stores
(:mod:`data.records`) read a match's result and log, call :func:`match_facts`,
:func:`rated_seats` and :func:`rate` (or :func:`replay_all` to recompute a server), and write
what they return; the bot shows the records. Nothing here imports ``data`` or ``bot``: a seat
and a logged move are whatever has their attributes (:class:`SeatLike`, :class:`MoveLike`).

- :mod:`rating.facts`: per seat, what was public during a match (its total, the mayhem it
  caused and suffered, its opening tile), from the dealt state and the action log.
- :mod:`rating.ratings`: who is rated for which seat and at which place, and the new records of
  a match's players (openskill's Plackett-Luce model).
"""

from rating.facts import TILES_TAKEN_BY, MatchFacts, MoveLike, SeatFacts, match_facts
from rating.ratings import (
    MIN_MATCHES,
    MODEL,
    RATING_START,
    Departure,
    PlayerRecord,
    RatedSeat,
    SeatLike,
    StoredMatch,
    computer_key,
    level_of,
    person_key,
    rate,
    rated_seats,
    replay_all,
    shown_rating,
    user_of,
)

__all__ = [
    "MIN_MATCHES",
    "MODEL",
    "RATING_START",
    "TILES_TAKEN_BY",
    "Departure",
    "MatchFacts",
    "MoveLike",
    "PlayerRecord",
    "RatedSeat",
    "SeatFacts",
    "SeatLike",
    "StoredMatch",
    "computer_key",
    "level_of",
    "match_facts",
    "person_key",
    "rate",
    "rated_seats",
    "replay_all",
    "shown_rating",
    "user_of",
]
