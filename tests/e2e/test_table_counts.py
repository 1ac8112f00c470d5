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


@pytest.fixture(scope="module")
def private_counts() -> TableCounts:
    """The same game with Bob on private hands (pinged in the thread, no DMs)."""
    return asyncio.run(measure(private="bob"))


def test_one_notification_per_decision_and_the_board_on_it(
    counts: TableCounts, private_counts: TableCounts
) -> None:
    for c in (counts, private_counts):
        assert c.decision_starts > 20
        assert c.notifications == c.decision_starts  # exactly one each
        assert (c.told_twice, c.not_told) == (0, 0)
        assert c.jumps == 0  # it shows the board and is where the first click goes


def test_one_post_and_one_screen_per_turn_against_the_global_limit(counts: TableCounts) -> None:
    # Besides the one DM channel opened per player for the whole game: the turn's post and the
    # next player's screen; the clicks are answered through their own responses.
    opened = counts.rest_global_by_route.get("POST /users/@me/channels", 0)
    assert opened <= 3
    decisions = counts.turns + counts.falls
    assert (counts.rest_global - opened) / decisions <= 1.5


@pytest.fixture(scope="module")
def waited_counts() -> TableCounts:
    """The same game with every turn waiting out its undo window: nobody presses Done (the
    bench moves the bot's clock past each window)."""
    return asyncio.run(measure(wait=True))


def test_the_next_player_is_told_once_after_the_window_whether_done_or_run_out(
    counts: TableCounts, waited_counts: TableCounts
) -> None:
    # (The counted game plays with the table's default window: each turn is held, then Done.)
    assert counts.clicks >= 3 * counts.turns  # a tile, a spot and Done, per turn
    for c in (counts, waited_counts):
        assert c.notifications == c.decision_starts  # exactly one each
        assert (c.told_twice, c.not_told) == (0, 0)
        assert c.max_posts_in_a_turn <= 1
    # A screen whose window ran out is closed through its click's token: no request more.
    assert waited_counts.rest_global == counts.rest_global
