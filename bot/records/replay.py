"""Replays: a played match (finished, or stopped after its first move) rebuilt by the engine from
its dealt state and action log.

One job: cut a match's log into the steps a person steps through (the deal, then one step per
turn: the tile played with the falls and fire-die rolls it caused, or the start of a new round)
and rebuild any step's public views and events, never from saved pictures.

Building a step replays the log from the nearest checkpoint (a copy of the game kept every
:data:`CHECKPOINT_EVERY` log entries when the replay is first built), so a step of a 400-move
match costs a few dozen engine moves, not 400. Only public views are made, and no hand is shown
during the match; its last step, once the match is over, has every player's remaining tiles, as
a board game ends with the hands laid down (see ``docs/records.md``).
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.service.chosen import made_for
from bot.service.results import ChosenFalls
from data.store import LoggedAction, Seat
from engine import Event, Game, Pos, View, action_from_dict, view

CHECKPOINT_EVERY: Final = 16
"""Log entries between two kept copies of the game."""
MAYHEM: Final = frozenset({"collapsed", "fell", "exploded", "burnt", "cursed"})


@dataclass(frozen=True)
class ReplayStep:
    """One step of a replay: what the channel saw before and after it, and what happened."""

    index: int
    """0 is the deal; 1..count-1 the turns, in order."""
    count: int
    """How many steps the replay has."""
    before: View | None
    """The public view before the step (None for the deal)."""
    after: View
    """The public view after it."""
    events: tuple[Event, ...]
    """What happened in it (the deal's own events for step 0)."""
    hands: tuple[tuple[str, ...], ...] | None = None
    """Every player's hand after the last step, once the match is over (None before)."""
    piles: tuple[tuple[str, ...], ...] | None = None
    """Every player's pile after the last step, top first, once the match is over (None
    before)."""
    computer_chose: ChosenFalls = frozenset()
    """The step's tile and falls that a computer player chose for a person (their time ran out,
    or they were away)."""

    @property
    def mayhem(self) -> bool:
        return any(e.kind in MAYHEM for e in self.events)

    @property
    def last(self) -> bool:
        return self.index == self.count - 1


class MatchReplay:
    """A finished match, ready to be stepped through (see the module)."""

    def __init__(
        self,
        initial_state: Mapping[str, Any],
        log: Sequence[LoggedAction],
        seats: Sequence[Seat] = (),
    ) -> None:
        """``seats``: the table's, to tell a move a computer player made for a person from one
        they made (without them, every move is told as its player's)."""
        self.initial = dict(initial_state)
        self.log = list(log)
        self.seats = tuple(seats)
        self.actions = [(entry.seat, dict(entry.action)) for entry in log]
        self.deciders = [entry.user_id for entry in log]
        """Whose own decision each log entry was (None: a computer's, or the game's)."""
        game = Game.from_dict(self.initial)
        self.players = game.players
        self._deal_events = tuple(game.turn_events)
        # Where each step's actions end (exclusive): a step is one Play with the Fall and Die
        # entries that follow it, or one NextRound.
        self.bounds: list[int] = [0]
        self._checkpoints: dict[int, dict[str, Any]] = {0: game.to_dict()}
        self._kinds: list[frozenset[str]] = []
        # The round of each step, and its turn in that round (0: the deal, a new round).
        self._turns: list[tuple[int, int]] = [(1, 0)]
        for i, (seat, action) in enumerate(self.actions):
            if i and not ("fall" in action or "die" in action):
                self.bounds.append(i)
            if "next_round" in action:
                self._turns.append((self._turns[-1][0] + 1, 0))
            elif "play" in action:
                self._turns.append((self._turns[-1][0], self._turns[-1][1] + 1))
            self._kinds.append(
                frozenset(e.kind for e in game.apply(action_from_dict(action), seat))
            )
            if (i + 1) % CHECKPOINT_EVERY == 0:
                self._checkpoints[i + 1] = game.to_dict()
        self.bounds.append(len(self.actions))
        self.final = game.to_dict()

    @property
    def count(self) -> int:
        """Steps: the deal and one per turn."""
        return len(self.bounds)

    @property
    def rounds(self) -> int:
        """The rounds the match played (begun, for a match stopped in the middle of one)."""
        return self._turns[-1][0]

    def place(self, entry: int) -> tuple[int, int, int]:
        """Where log entry ``entry`` is: the replay step it belongs to, that step's round (from
        1) and its turn in the round (from 1; 0 for a new round's deal)."""
        index = bisect.bisect_right(self.bounds, entry)
        index = max(1, min(index, self.count - 1))
        return (index, *self._turns[index])

    def game_before(self, entry: int) -> Game:
        """The game just before log entry ``entry`` (every hand in it: for the one whose
        decision it was, never to be shown to anyone else)."""
        return self._game_at(max(0, min(entry, len(self.actions))))

    def _game_at(self, entries: int) -> Game:
        start = max(k for k in self._checkpoints if k <= entries)
        game = Game.from_dict(self._checkpoints[start])
        for seat, action in self.actions[start:entries]:
            game.apply(action_from_dict(action), seat)
        return game

    def step(self, index: int) -> ReplayStep:
        """Step ``index`` (clamped to the replay). Raises nothing for a step out of range."""
        index = max(0, min(index, self.count - 1))
        if index == 0:
            game = self._game_at(0)
            return ReplayStep(0, self.count, None, view(game, None), self._deal_events)
        start, end = self.bounds[index - 1], self.bounds[index]
        game = self._game_at(start)
        before = view(game, None)
        events: list[Event] = []
        chose: set[tuple[str, Pos]] = set()
        active = self.actions[start][0]
        for logged, (seat, action) in zip(
            self.log[start:end], self.actions[start:end], strict=True
        ):
            done = game.apply(action_from_dict(action), seat)
            events.extend(done)
            if self.seats:
                chose.update(made_for(self.seats, logged, active, done))
        after = view(game, None)
        if index < self.count - 1:
            return ReplayStep(
                index, self.count, before, after, tuple(events), computer_chose=frozenset(chose)
            )
        hands = tuple(tuple(h) for h in game.hands)
        piles = tuple(tuple(p) for p in game.piles)
        return ReplayStep(
            index, self.count, before, after, tuple(events), hands, piles, frozenset(chose)
        )

    def scenario(self) -> dict[str, Any]:
        """The match in the engine's scenario format (RULES 8): the dealt state (with its
        generator, so the fire die rolls the same) and every action with the seat that took it;
        ``python -m engine run`` replays it to the match's final state."""
        actions = []
        for seat, action in self.actions:
            a = dict(action)
            if seat is not None:
                a["player"] = seat
            actions.append(a)
        return {**self.initial, "actions": actions}

    def moments(self, limit: int) -> list[int]:
        """At most ``limit`` steps that matter most, in order: the deal, every step with
        mayhem or a curse, the last steps (the last tiles), and the end. When there are too
        many, the mayhem steps are thinned evenly."""
        last = self.count - 1
        tail = list(range(max(1, last - 2), last + 1)) or [0]
        mayhem = [
            i
            for i in range(1, tail[0])
            if any(k & MAYHEM for k in self._kinds[self.bounds[i - 1] : self.bounds[i]])
        ]
        room = max(0, limit - 1 - len(tail))
        if len(mayhem) > room:
            mayhem = [mayhem[round(k * (len(mayhem) - 1) / max(1, room - 1))] for k in range(room)]
        return sorted({0, *mayhem, *tail})
