"""The cost of a table to its players, measured on one whole seeded game (bench/table_counts.py)
against the goals of a quiet table: at most one post and one ping per turn in the table's
channel or thread, at most one direct message per player per own turn."""

from __future__ import annotations

import asyncio

import pytest

from bench.table_counts import TableCounts, measure


@pytest.fixture(scope="module")
def counts() -> TableCounts:
    """One game for the whole module (it takes a few seconds), in an event loop of its own."""
    return asyncio.run(measure())


def test_the_counted_game_is_played_to_the_end_by_clicks(counts: TableCounts) -> None:
    assert counts.turns > 20
    assert sum(counts.own_turns.values()) == counts.turns
    assert counts.clicks >= counts.turns  # at least one click per move


def test_at_most_one_post_per_turn(counts: TableCounts) -> None:
    assert counts.max_posts_in_a_turn <= 1


def test_at_most_one_ping_per_turn(counts: TableCounts) -> None:
    assert counts.max_pings_in_a_turn <= 1


def test_at_most_one_dm_per_player_per_own_turn(counts: TableCounts) -> None:
    assert all(n <= 1 for n in counts.dms_per_player_per_own_turn.values())
