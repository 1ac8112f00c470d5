"""The scenario format of RULES 8: reading and checking states, running scenarios.

A state read here is checked completely (by :func:`engine.state.read_state`): every problem raises
:class:`EngineError` with a message that names it, before any game exists. The same reader restores
the engine's own saved states, which add keys for the generator and the turn in progress (see
:meth:`Game.to_dict`).
"""

from __future__ import annotations

from typing import Any

from engine.game import Game
from engine.model import DIE_FACES, BadActionError, EngineError, Event, action_from_dict
from engine.state import read_state


def load_state(d: object, *, allow_actions: bool = False) -> Game:
    """Check a state (scenario format, or a saved game) and build the game it describes.

    ``allow_actions`` lets a scenario's ``actions`` key through (:func:`run_scenario` reads it).
    Raises :class:`EngineError` naming the first problem found.
    """
    return Game.from_record(read_state(d, allow_actions=allow_actions))


def scenario_output(game: Game, events: list[Event]) -> dict[str, Any]:
    """The JSON printed by ``python -m engine run``: the state, pending, winner, events."""
    full = game.to_dict()
    out = {k: full[k] for k in ("players", "options", "pyramid", "hands", "piles", "removed")}
    out["active"] = game.active
    out["pending"] = None if game.pending is None else game.pending.to_dict()
    out["winner"] = game.winner
    out["events"] = [e.to_dict() for e in events]
    return out


def scenario_state(game: Game) -> dict[str, Any]:
    """Just the state keys of RULES 8 (what ``python -m engine new`` prints)."""
    full = game.to_dict()
    return {
        k: full[k] for k in ("players", "options", "pyramid", "hands", "piles", "removed", "active")
    }


class ScenarioError(EngineError):
    """A scenario that cannot be run; ``index`` is the action at fault (None: the state). The
    engine error that stopped it, if one did, is its ``__cause__``."""

    def __init__(self, message: str, index: int | None) -> None:
        super().__init__(message)
        self.index = index

    def line(self) -> str:
        where = "state" if self.index is None else f"action {self.index}"
        return f"error: {where}: {self}"


def run_scenario(d: object) -> dict[str, Any]:
    """Apply a scenario's actions to its state and return the output of RULES 8.

    Raises :class:`ScenarioError` naming the problem and the action's index.
    """
    try:
        game = load_state(d, allow_actions=True)
    except EngineError as e:
        raise ScenarioError(str(e), None) from e
    assert isinstance(d, dict)
    actions = d.get("actions", [])
    if not isinstance(actions, list):
        raise ScenarioError('"actions" must be a list', None)
    events: list[Event] = []
    for i, a in enumerate(actions):
        try:
            action = action_from_dict(a)
            player = a.get("player")
            if "player" in a and (not isinstance(player, int) or isinstance(player, bool)):
                raise BadActionError('"player" must be a player number')
            if player is not None and not 0 <= player < game.players:
                raise BadActionError(f"there is no player {player}")
            events.extend(game.apply(action, player))
        except EngineError as e:
            raise ScenarioError(str(e), i) from e
    return scenario_output(game, events)


__all__ = [
    "DIE_FACES",
    "ScenarioError",
    "load_state",
    "run_scenario",
    "scenario_output",
    "scenario_state",
]
