"""A records button (share, a leaderboard page, a replay step, a match's summary or export)
belongs to a server: clicked anywhere else it is refused privately, like any misplaced button.
An id of ours that fits none of our kinds of button (forged, or out of its range) is refused
privately too. Neither leaves a traceback in the log or tells the operator of an error."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.errors import Why
from tests.fakediscord.fixtures import World

from .conftest import MakeBot
from .driver import TableDriver, refusal_text
from .test_button_places import forged_click
from .test_decisions import COLLAPSE, private_answer, write_state

RECORDS_IDS = {
    "share": "fp:rec:share:u.{user}",
    "board": "fp:rec:board:1:n",
    "step": "fp:rec:step:{table}:0:r",
    "summary": "fp:rec:gif:{table}",
    "export": "fp:rec:json:{table}",
}
"""Each records button's custom id, naming a player or the table's match."""


def troubles(caplog: pytest.LogCaptureFixture) -> list[str]:
    """What the log says at ERROR (which the operator is told of) or with a traceback."""
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


@pytest.mark.parametrize("kind", sorted(RECORDS_IDS))
async def test_a_records_button_clicked_in_direct_messages_is_refused_privately(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    kind: str,
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    dm = await table.hand_for(world.alice, game)
    assert dm.channel.is_dm
    cid = RECORDS_IDS[kind].format(user=world.alice.id, table=table.table_id())
    caplog.set_level(logging.INFO)

    ix = await forged_click(world.alice, dm, cid)

    assert await private_answer(ix) == refusal_text(Why.MISPLACED_BUTTON)
    assert troubles(caplog) == []


@pytest.mark.parametrize(
    "cid", ["fp:rec:step:99999999999999999:0:r", "fp:rec:board:-1:n", "fp:rec:nope", "fp:x"]
)
async def test_an_id_of_ours_of_no_known_kind_is_refused_privately(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    cid: str,
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    seen = len(game.revisions)
    caplog.set_level(logging.INFO)

    ix = await forged_click(world.bob, game, cid)

    assert await private_answer(ix) == refusal_text(Why.OLD_BUTTON)
    assert ix.response_type == 4  # answered at once
    assert len(game.revisions) == seen
    assert troubles(caplog) == []
