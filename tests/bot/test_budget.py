"""The request budget of one process: its share of the token's global limit, and a token paid
before a lock is taken serving the one call made under it."""

from __future__ import annotations

from typing import Any

from bot import budget


class Http:
    """Stands in for discord.py's HTTP client: records the routes it is asked for."""

    def __init__(self) -> None:
        self.routes: list[str] = []

    async def request(self, route: str, **kwargs: Any) -> str:
        self.routes.append(route)
        return route


def test_processes_split_the_rate_and_the_burst_by_the_shards_they_run() -> None:
    whole = budget.for_process(None, None)
    assert (whole.rate, whole.burst) == (budget.GLOBAL_RATE, budget.GLOBAL_BURST)
    parts = [budget.for_process(ids, 4) for ids in ([0, 1], [2], [3])]
    assert sum(p.rate for p in parts) == budget.GLOBAL_RATE
    assert sum(p.burst for p in parts) <= budget.GLOBAL_BURST
    assert all(p.burst >= 1 for p in parts)


async def test_a_paid_token_serves_the_next_call_and_only_that_one() -> None:
    b = budget.Budget(rate=1000.0, burst=10)
    http = Http()
    budget.pace(http, b)
    async with budget.paid(b, budget.HAND):
        assert b.granted == 1
        await http.request("PATCH a message")
        assert b.granted == 1  # paid before: not waited for again
        await http.request("POST another")
        assert b.granted == 2
    await http.request("POST after")
    assert b.granted == 3
    assert http.routes == ["PATCH a message", "POST another", "POST after"]
