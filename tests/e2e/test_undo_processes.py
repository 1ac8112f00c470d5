"""Undo racing the end of its window across bot processes (issue 31 §1): three ``python -m bot``
processes over one PostgreSQL database (the cluster of :mod:`tests.e2e.test_processes`). A
player's Undo reaches the process of shard 0 (a click in direct messages) while the window's
end is a timer any of the three may claim: whichever comes first, the turn is either taken back
or handed on, once, and never both."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.errors import Why

from .driver import TableDriver, actions, held_token_of, is_players_turn, refusal_text
from .test_processes import (  # noqa: F401 - the cluster's fixtures, for this module too
    Cluster,
    all_answered,
    answers,
    cluster,
    cluster_db,
    cluster_ok,
)
from .test_undo import pick

pytestmark = pytest.mark.asyncio(loop_scope="module")

WINDOW = 30


@pytest.mark.parametrize("lead", [0.3, 0.0, -0.3])
async def test_an_undo_racing_the_end_of_its_window_has_one_outcome(
    cluster_ok: Cluster,  # noqa: F811 - the fixture imported above
    lead: float,
) -> None:
    procs = cluster_ok
    table = procs.table_in(3)  # its server's timers, any process; its DMs, shard 0's
    alice, bob = table.users.values()
    await table.open(alice, bob, undo=WINDOW)
    game = await table.start(alice)
    table_id = table.table_id()
    before = await procs.store.get_table(table_id)
    screen = await table.hand_for(alice, game, turn=True)
    await pick(table, alice, screen, "Y40", "A")  # too heavy: her fall, then her turn is done
    revisions = len(screen.revisions)
    await table.click_action(alice, screen, "fall", "left")
    await table.screen_after(
        screen, revisions, "her turn played", showing=lambda m: "undo" in actions(m)
    )
    held = (await procs.store.get_table(table_id)).held
    assert held is not None and held.until is not None

    # Every process's clock reaches the window's end ``lead`` seconds after her tap on Undo
    # (before it, when ``lead`` is negative).
    left = held.until - (time.time() + procs.clock_offset)
    revisions = len(screen.revisions)
    # The Undo her screen shows: tapped as she saw it, though the window's end may have
    # closed the screen by the time her tap is sent.
    undo = table.action_button(screen, "undo", held_token_of(screen))
    if lead < 0:
        procs.advance_clock(left + 0.05)
        await asyncio.sleep(-lead)
    tap = asyncio.create_task(table.tap_seen(alice, screen, undo))
    if lead >= 0:
        await asyncio.sleep(lead)
        procs.advance_clock(left + 0.05)
    ix = await tap
    await all_answered(table)
    # Whatever the outcome, no turn stays held once the window has passed: wait for the timers
    # (every 0.1 s in each process; far slower on a loaded machine), then for them to settle.
    for _ in range(150):
        if (await procs.store.get_table(table_id)).held is None:
            break
        await asyncio.sleep(0.1)
    await asyncio.sleep(1.0)  # ten more looks of every process's timers, whatever they do

    now = await procs.store.get_table(table_id)
    log = await procs.store.action_log(table_id)
    posted = [m for m in table.game_messages() if m.id > game.id]
    assert now.held is None
    if now.version == before.version:  # taken back: as it was, and nothing was shown
        assert now.state == before.state and log == []
        assert posted == []
        await table.screen_after(screen, revisions, "her turn again", ix, is_players_turn)
    else:  # handed on: once, and her Undo was told why not
        assert [a.action for a in log] == [{"play": "Y40", "at": "1,1"}, {"fall": "left"}]
        await table.fake.wait_for(
            lambda: [m for m in table.game_messages() if m.id > game.id], timeout=15
        )
        await asyncio.sleep(0.5)  # time for a second post, were one to come
        posted = [m for m in table.game_messages() if m.id > game.id]
        assert len(posted) == 1
        assert refusal_text(Why.TURN_HANDED_ON) in answers(table.fake, ix)
        assert TableDriver.decider(await table.settled_game(game.id)) == bob.id
    table.fake.assert_no_failed_interactions()
