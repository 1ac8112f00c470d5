"""Small helpers for the rules tests: build scenario states and run them through the engine."""

from __future__ import annotations

from typing import Any

from engine.scenario import run_scenario


def state(
    pyramid: dict[str, str],
    hands: list[list[str]],
    piles: list[list[str]] | None = None,
    *,
    active: int = 0,
    curse: bool = False,
    fire_die: bool = False,
    removed: list[str] | None = None,
) -> dict[str, Any]:
    """A scenario state in the format of RULES 8."""
    n = len(hands)
    return {
        "players": n,
        "options": {"curse": curse, "fire_die": fire_die},
        "pyramid": dict(pyramid),
        "hands": [list(h) for h in hands],
        "piles": [list(p) for p in (piles or [[] for _ in range(n)])],
        "removed": list(removed or []),
        "active": active,
    }


def run(st: dict[str, Any], *actions: dict[str, Any]) -> dict[str, Any]:
    """Apply ``actions`` to the state ``st`` and return the scenario output."""
    return run_scenario({**st, "actions": list(actions)})


def kinds(out: dict[str, Any]) -> list[str]:
    """The event types of a scenario output, in order."""
    return [e["type"] for e in out["events"]]


def events_of(out: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for e in out["events"] if e["type"] == kind]


def tiles(entries: list[dict[str, str]]) -> list[str]:
    """The tile codes of an event's ``to_pile`` or ``out`` list."""
    return [e["tile"] for e in entries]
