"""The table service: :class:`TableService` puts the lobby, leaving, the moves, the players, the
hints and their choices together."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable

from bot.service.choices import Choices
from bot.service.chosen import Chosen
from bot.service.core import (
    NEXT_ROUND_PAUSE_S,
    AiPlayer,
    Clock,
    Dealer,
    _deal,
)
from bot.service.hints import Coach, Hints, default_coach
from bot.service.languages import KnownLanguages
from bot.service.leaving import Leaving
from bot.service.moves import Moves
from bot.service.players import THINKING_AT_ONCE, Players, default_ai
from data.store import (
    ServiceStore,
)


class TableService(Leaving, Moves, Players, Hints, Choices):
    """Hosts Flaming Pyramids tables on top of a :class:`~data.store.ServiceStore`.

    ``clock`` gives unix time (tests inject their own); ``ai`` decides for computer players and
    absent players; ``coach`` judges a person's decision for a hint (at a practice table);
    ``seed_source`` picks a new match's seed; ``deal`` deals a match (tests may deal a chosen
    state); ``thinking_at_once`` is how many computer searches run at once (the others wait).
    Methods raise :class:`bot.errors.TableError` subclasses for refusals.
    """

    def __init__(
        self,
        store: ServiceStore,
        *,
        clock: Clock = time.time,
        ai: AiPlayer | None = None,
        coach: Coach | None = None,
        seed_source: Callable[[], int] | None = None,
        deal: Dealer | None = None,
        next_round_pause_s: float = NEXT_ROUND_PAUSE_S,
        thinking_at_once: int = THINKING_AT_ONCE,
    ) -> None:
        self.store = store
        self.clock = clock
        self.ai: AiPlayer = ai if ai is not None else default_ai()
        self.thinking = asyncio.Semaphore(thinking_at_once)
        self.coach: Coach = coach if coach is not None else default_coach()
        self.seed_source = seed_source or (lambda: secrets.randbits(31))
        self.deal: Dealer = deal or _deal
        self.next_round_pause_s = next_round_pause_s
        self.languages = KnownLanguages(store)
        self._reported: set[tuple[int, int | None]] = set()
        self.chosen = Chosen(store)
