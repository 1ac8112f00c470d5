"""The ``expert`` level: reproducible under a node limit, and a tiny arena against ``hard``.

How strong it is takes hundreds of games to measure (see ``engine/ai/README.md``); here a
couple of short games only check that the arena plays it against ``hard`` to the end, with the
same results for the same seed.
"""

from __future__ import annotations

import math
import random

import pytest

from engine import view
from engine.ai import choose
from engine.ai.arena import run_arena
from engine.ai.expert import choose_expert
from tests.ai.conftest import random_position
from tests.ai.test_hidden_information import hidden_twin


@pytest.mark.parametrize("players", [2, 4])
def test_a_tiny_arena_against_hard(players: int) -> None:
    def run() -> dict[str, object]:
        result = run_arena(
            "expert",
            "hard",
            players=players,
            games=2,
            seed=3,
            node_limit=40,
            time_budget_s=math.inf,
            max_turns=30,
        )
        return result.to_dict()

    first = run()
    assert first["games"] == 2
    wins = first["wins"]
    assert isinstance(wins, dict) and set(wins) == {"expert", "hard"}
    assert sum(wins.values()) + first["draws"] == 2  # type: ignore[operator]
    times = first["decision_ms"]
    assert isinstance(times, dict)
    for name in ("expert", "hard"):
        t = times[name]
        assert t["decisions"] > 0 and 0 <= t["p50"] <= t["p95"] <= t["max"]
    again = run()
    for key in ("wins", "draws", "turns_mean", "turns_max"):
        assert again[key] == first[key]


@pytest.mark.parametrize(("players", "seed"), [(2, 4), (3, 8), (4, 5), (6, 2)])
def test_the_node_limit_makes_the_choice_reproducible(players: int, seed: int) -> None:
    game = random_position(players, seed, 20)
    assert game.pending is not None
    me = game.pending.player
    decisions = {
        choose_expert(view(game, me), random.Random(9), time_budget_s=math.inf, node_limit=300)
        for _ in range(3)
    }
    decisions.add(
        choose("expert", view(game.copy(), me), 9, time_budget_s=math.inf, node_limit=300)
    )
    assert len(decisions) == 1


@pytest.mark.parametrize(
    ("players", "seed", "moves"), [(2, 1, 30), (2, 6, 20), (4, 3, 40), (5, 7, 25)]
)
def test_what_the_seat_cannot_see_changes_nothing_over_many_deals(
    players: int, seed: int, moves: int
) -> None:
    # The hidden-information test of every level searches only a deal or two; here the search
    # deals many times (the node limit is the deciding bound), on games that differ in the other
    # hands, every pile's order (the seat's own included) and the die's future.
    game = random_position(players, seed, moves)
    assert game.pending is not None
    me = game.pending.player
    for twin_seed in range(2):
        twin = hidden_twin(game, me, random.Random(twin_seed))
        assert twin.hands != game.hands or twin.piles != game.piles
        assert view(twin, me).to_dict() == view(game, me).to_dict()
        decisions = {
            choose("expert", view(g, me), 5, time_budget_s=math.inf, node_limit=1500)
            for g in (game, twin)
        }
        assert len(decisions) == 1
