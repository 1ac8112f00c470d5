"""Every button acts only where it belongs: a private screen's step (a tile, a spot, a page,
Back, the hand mode) only on the clicker's own private screen (their direct messages or a
message only they see), a table's public buttons (the lobby's, Rematch, Next round, My hand)
only on a public message. A custom id can be forged onto any message a person can see; such a
click is refused privately and changes no message."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from tests.fakediscord import FakeUser, Interaction, Message
from tests.fakediscord.fixtures import World
from tests.fakediscord.models import iter_components

from .conftest import MakeBot
from .driver import TableDriver, answer, table_of
from .test_decisions import COLLAPSE, private_answer, write_state

NOT_HERE = "This button does not belong here; nothing was changed."

ARGS = {
    "join": "",
    "leave": "",
    "ai": "easy",
    "rmai": "",
    "start": "",
    "cancel": "",
    "rematch": "",
    "next": "",
    "hand": "",
    "play": None,  # the real tile button's argument (its hand's digest)
    "spot": "Y40@0,1",
    "more": "Y40.1",
    "back": "",
    "mode": "channel",
}
MISPLACED = [
    # The lobby's buttons and the public ones of a game: never on a private screen.
    *[
        (action, place)
        for action in ("join", "leave", "ai", "rmai", "start", "cancel", "rematch", "next")
        for place in ("dm", "ephemeral")
    ],
    # My hand: on the board (and on the direct message that tells a decider to decide).
    ("hand", "ephemeral"),
    # A private screen's steps: never on a message the channel sees.
    *[(action, "public") for action in ("play", "spot", "more", "back", "mode")],
]


async def forged_click(user: FakeUser, message: Message, custom_id: str) -> Interaction:
    """A click with ``custom_id`` on ``message``, as a modified client sends it: the message's
    first button carries the forged id (the message itself is not edited: no new revision)."""
    components = copy.deepcopy(message.revisions[-1].components)
    first = next(c for c in iter_components(components) if c.get("type") == 2)
    first["custom_id"] = custom_id
    message.revisions[-1].components = components
    return await user.click(message, custom_id=custom_id)


@pytest.mark.parametrize(("action", "place"), MISPLACED)
async def test_a_button_forged_onto_a_message_where_it_does_not_belong_changes_no_message(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, action: str, place: str
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    dm_hand = await table.hand_for(world.alice, game)
    assert dm_hand.channel.is_dm
    own = await answer(await table.click(world.alice, game, "My hand"))
    assert own.ephemeral
    version = next(
        b["custom_id"].split(":")[2] for b in game.buttons() if ":hand:" in b["custom_id"]
    )
    arg = ARGS[action]
    if arg is None:
        arg = next(
            b["custom_id"].split(":", 4)[4] for b in dm_hand.buttons() if ":play:" in b["custom_id"]
        )
    cid = f"fp:{table_of(game)}:{version}:{action}:{arg}"
    messages = (game, dm_hand, own)
    seen = [len(m.revisions) for m in messages]
    clicked = {"public": game, "dm": dm_hand, "ephemeral": own}[place]

    ix = await forged_click(world.alice, clicked, cid)

    assert await private_answer(ix) == NOT_HERE
    assert ix.response_type == 4  # answered at once, with a new message: nothing deferred
    assert [len(m.revisions) for m in messages] == seen
