"""A phone's double tap on a player's private screen: both taps are answered within Discord's 3
seconds, the second one quietly (the first did the work), and the second never makes a move of
its own. It reaches the bot with the screen as it stands by then: without the tapped button (the
person's screen had not changed yet: the same id), or on the button that took its place (it had:
the same place)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.taps import Second, measure
from bot.errors import Why
from bot.show.handtexts import OUT_OF_DATE_HAND
from engine import Fall, Game, NextRound, Play
from tests.fakediscord import Interaction, Message
from tests.fakediscord.fixtures import World

from .conftest import MakeBot
from .driver import (
    TIMEOUT,
    TableDriver,
    answer,
    answered_and_still,
    button_actions,
    is_spot_step,
    lobby_controls,
    refusal_text,
    stored_game,
    stored_log,
    stored_table,
)
from .test_button_places import forged_click
from .test_decisions import COLLAPSE, TWO_FALLS, begin, private_answer
from .test_full_game import last_tile_of_round_one

GAPS = (0.0, 0.1, 0.6)
"""Seconds between the two taps: at once, a quick double tap, a careful second try."""


def live_id(screen: Message, action: str, arg_starts: str = "") -> str:
    """The custom id of the screen's first button doing ``action`` (live: it is pressed)."""
    for b in screen.buttons():
        cid = str(b.get("custom_id") or "")
        parts = cid.split(":", 4)
        if len(parts) == 5 and parts[3] == action and parts[4].startswith(arg_starts):
            assert not b.get("disabled"), b
            return cid
    raise AssertionError(f"no live {action} button on {screen!r}")


def quietly(taps: list[Interaction]) -> None:
    """Each tap was answered on the screen itself: a deferred update, no message of its own
    (no refusal, no "out of date", no "something went wrong")."""
    for ix in taps:
        assert ix.response_type == 6, ix
        assert ix.followups == [], [m.content for m in ix.followups]


def taps_of(pair: tuple[Interaction, Interaction | None]) -> list[Interaction]:
    return [ix for ix in pair if ix is not None]


@pytest.mark.parametrize("second", ["same", "place"])
@pytest.mark.parametrize("gap", GAPS)
async def test_a_double_tap_on_a_tile_a_spot_and_a_fall_is_answered_and_moves_once(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
    gap: float,
    second: str,
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    game = await table.start(world.alice)
    table_id = table.table_id()
    screen = await table.hand_for(world.alice, game, turn=True)
    assert screen.channel.is_dm
    version = (await stored_table(db_url, table_id)).version
    alice = world.alice
    mode = "same" if second == "same" else "place"

    # Yellow 40, twice: the screen shows its spots, and nothing is played.
    pair = await alice.double_click(
        screen, custom_id=live_id(screen, "play", "Y40."), gap=gap, second=mode
    )
    await answered_and_still(world.fake, screen, taps_of(pair))
    quietly(taps_of(pair))
    assert is_spot_step(screen)
    assert {arg.split("@")[0] for a, arg in button_actions(screen) if a == "spot"} == {"Y40"}
    assert (await stored_table(db_url, table_id)).version == version
    assert await stored_log(db_url, table_id) == []

    # Spot A, twice: yellow 40 is played once; its fall is asked on the same screen.
    pair = await alice.double_click(
        screen, custom_id=table.spot_button(screen, "A"), gap=gap, second=mode
    )
    await answered_and_still(world.fake, screen, taps_of(pair))
    quietly(taps_of(pair))
    log = await stored_log(db_url, table_id)
    assert [(e.seat, e.action) for e in log] == [(0, Play("Y40", (1, 1)).to_dict())]
    assert [a for a, _ in button_actions(screen)] == ["fall", "fall"]

    # Fall left, twice: chosen once.
    pair = await alice.double_click(
        screen, custom_id=live_id(screen, "fall", "left"), gap=gap, second=mode
    )
    await answered_and_still(world.fake, screen, taps_of(pair))
    quietly(taps_of(pair))
    log = await stored_log(db_url, table_id)
    assert [(e.seat, e.action) for e in log] == [
        (0, Play("Y40", (1, 1)).to_dict()),
        (0, Fall("left").to_dict()),
    ]
    expected = Game.from_dict(json.loads(json.dumps(COLLAPSE)))
    expected.apply(Play("Y40", (1, 1)), 0)
    expected.apply(Fall("left"), 0)
    assert (await stored_game(db_url, table_id)).to_dict() == expected.to_dict()
    assert OUT_OF_DATE_HAND not in str([r.content for r in screen.revisions])


async def test_a_second_tap_on_what_took_the_tiles_place_in_the_spot_step_changes_nothing(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    game = await table.start(world.alice)
    table_id = table.table_id()
    screen = await table.hand_for(world.alice, game, turn=True)
    version = (await stored_table(db_url, table_id)).version
    tile = live_id(screen, "play", "Y40.")
    place = screen.place_of(tile)
    assert place is not None
    before = len(screen.revisions)
    first = await table.click(world.alice, screen, table.tile_labels(screen)[0])
    await table.screen_after(screen, before, "the spot step")
    assert is_spot_step(screen)
    shown = [r.components for r in screen.revisions]

    # The finger comes down again where yellow 40 was, on the spot step.
    landed = screen.button_at(place)
    assert landed is not None
    second = await world.alice.click(screen, custom_id=str(landed["custom_id"]))
    await answered_and_still(world.fake, screen, [first, second])

    quietly([first, second])
    assert (await stored_table(db_url, table_id)).version == version
    assert await stored_log(db_url, table_id) == []
    assert is_spot_step(screen)
    assert [r.components for r in screen.revisions] == shown  # the spot step, as it was


def fall_rows(screen: Message) -> list[list[tuple[str, bool]]]:
    """Each row of ``screen`` as (action, disabled) of its buttons of ours."""
    return [
        [
            (str(b["custom_id"]).split(":")[3], bool(b.get("disabled")))
            for b in row.get("components", [])
            if str(b.get("custom_id") or "").startswith("fp:")
        ]
        for row in screen.components
    ]


FALL_FIRST = [[("fall", False), ("fall", False)]]
"""A fall choice in the first row (beside it, the link to the table)."""
FALL_SECOND = [[("note", True)], [("fall", False), ("fall", False)]]
"""A fall choice in the second row, under a disabled heading."""


@pytest.mark.parametrize("second", ["same", "place"])
@pytest.mark.parametrize("gap", GAPS)
async def test_a_double_tap_on_a_fall_that_another_fall_follows_chooses_one_fall(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
    gap: float,
    second: str,
) -> None:
    await begin(world, run_bot, table, tmp_path, TWO_FALLS)
    game = await table.start(world.alice)
    table_id = table.table_id()
    alice = world.alice
    mode = "same" if second == "same" else "place"
    screen = await table.play(alice, game)
    assert screen.channel.is_dm and "fall" in [a for a, _ in button_actions(screen)]

    # Fall left, twice: yellow 40 falls once; red 10's fall is asked in the other row, so the
    # second tap lands on the heading (Discord sends nothing) or is the first tap's again.
    pair = await alice.double_click(
        screen, custom_id=live_id(screen, "fall", "left"), gap=gap, second=mode
    )
    await answered_and_still(world.fake, screen, taps_of(pair))
    log = await stored_log(db_url, table_id)
    assert [(e.seat, e.action) for e in log] == [
        (0, Play("Y40", (1, 1)).to_dict()),
        (0, Fall("left").to_dict()),
    ]
    quietly(taps_of(pair))
    assert fall_rows(screen) == FALL_SECOND
    assert screen.content.startswith("✅ Yellow 40 falls left.")  # which tile, of the two
    assert "**Where does red 10 fall?**" in screen.content

    # Fall left again, twice: red 10 falls once, and the screen closes with the turn.
    pair = await alice.double_click(
        screen, custom_id=live_id(screen, "fall", "left"), gap=gap, second=mode
    )
    await answered_and_still(world.fake, screen, taps_of(pair))
    # The screen closes once the turn's account is drawn, which may take longer than the
    # moment of stillness on a busy machine: wait for the closing itself.
    await world.fake.wait_for(lambda: screen.buttons() == [], TIMEOUT, "the screen's closing")
    await answered_and_still(world.fake, screen, taps_of(pair))
    quietly(taps_of(pair))
    expected = Game.from_dict(json.loads(json.dumps(TWO_FALLS)))
    for action in (Play("Y40", (1, 1)), Fall("left"), Fall("left")):
        expected.apply(action, 0)
    assert (await stored_game(db_url, table_id)).to_dict() == expected.to_dict()
    assert len(await stored_log(db_url, table_id)) == 3
    assert screen.buttons() == []
    assert OUT_OF_DATE_HAND not in str([r.content for r in screen.revisions])


@pytest.mark.parametrize("second", ["same", "place"])
@pytest.mark.parametrize("gap", GAPS)
async def test_a_double_tap_on_a_stale_tile_while_a_fall_is_pending_does_not_choose_it(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
    gap: float,
    second: str,
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    game = await table.start(world.alice)
    table_id = table.table_id()
    alice = world.alice
    own = await answer(await table.click_action(alice, game, "hand"))  # My hand, in the channel
    assert own.ephemeral and "play" in [a for a, _ in button_actions(own)]
    falling = await table.play(alice, game)  # played on her screen in direct messages
    assert falling.channel.is_dm and "fall" in [a for a, _ in button_actions(falling)]
    assert "play" in [a for a, _ in button_actions(own)]  # the private hand is still the tiles

    # Yellow 40 on that hand, twice: the fall she must decide first comes up there, in the
    # second row; the second tap changes nothing.
    pair = await alice.double_click(
        own,
        custom_id=live_id(own, "play", "Y40."),
        gap=gap,
        second="same" if second == "same" else "place",
    )
    await answered_and_still(world.fake, own, taps_of(pair))
    log = await stored_log(db_url, table_id)
    assert [(e.seat, e.action) for e in log] == [(0, Play("Y40", (1, 1)).to_dict())]
    quietly(taps_of(pair))
    assert fall_rows(own) == FALL_SECOND

    # Her choice there is made as on any screen.
    after = await table.fall(alice, own, "right")
    assert table.decider(after) == world.bob.id
    log = await stored_log(db_url, table_id)
    assert [e.action for e in log][1:] == [Fall("right").to_dict()]


LOBBY_TAPPERS = {"start": "alice", "cancel": "alice", "join": "dave", "leave": "bob"}
"""Who presses each lobby button: the host starts and cancels, Dave joins, Bob leaves."""


@pytest.mark.parametrize("second", ["same", "place"])
@pytest.mark.parametrize("gap", GAPS)
@pytest.mark.parametrize("action", list(LOBBY_TAPPERS))
async def test_a_double_tap_in_the_lobby_acts_once_and_is_answered_quietly(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
    action: str,
    gap: float,
    second: str,
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    lobby = table.lobby()
    table_id = table.table_id()
    before = await stored_table(db_url, table_id)
    user = getattr(world, LOBBY_TAPPERS[action])

    pair = await user.double_click(
        lobby,
        custom_id=live_id(lobby, action),
        gap=gap,
        second="same" if second == "same" else "place",
    )
    await answered_and_still(world.fake, lobby, taps_of(pair))

    after = await stored_table(db_url, table_id)
    assert after.version == before.version + 1  # one change
    seated = {s.user_id for s in after.seats}
    assert {
        "start": after.status == "playing",
        "cancel": after.status == "cancelled",
        "join": world.dave.id in seated and len(after.seats) == 4,
        "leave": world.bob.id not in seated and len(after.seats) == 2,
    }[action]
    quietly(taps_of(pair))
    if action == "start":
        await table.settled_game()
        assert len(table.game_messages()) == 1  # one game begins


async def test_a_late_tap_in_the_lobby_by_someone_else_gets_its_answer(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    lobby = table.lobby()
    start, join = live_id(lobby, "start"), live_id(lobby, "join")
    await table.start(world.alice)
    await world.fake.wait_for(lambda: not lobby_controls(lobby) and lobby.settled, 10, "the card")

    # Bob's screen still showed Start and Dave's Join when Alice started the game.
    for user, custom_id in ((world.bob, start), (world.dave, join)):
        ix = await forged_click(user, lobby, custom_id)
        assert await private_answer(ix) == refusal_text(Why.ALREADY_STARTED)


@pytest.mark.parametrize("gap", GAPS)
async def test_a_double_tap_on_next_round_starts_one_round_and_is_answered_quietly(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str, gap: float
) -> None:
    await run_bot(test_state_file=last_tile_of_round_one(tmp_path))
    await table.open(world.alice, world.bob, world.carol)
    first = await table.start(world.alice)
    table_id = table.table_id()
    won = await table.play(world.alice, first)
    assert ("next", "") in button_actions(won)

    pair = await world.bob.double_click(won, custom_id=live_id(won, "next"), gap=gap)
    await answered_and_still(world.fake, won, taps_of(pair))

    quietly(taps_of(pair))
    log = await stored_log(db_url, table_id)
    assert [e.user_id for e in log if e.action == NextRound().to_dict()] == [world.bob.id]
    assert (await stored_game(db_url, table_id)).round == 2


@pytest.mark.parametrize("second", ["same", "place"])
async def test_the_double_tap_figures_count_every_tap_answered_and_no_second_move(
    second: Second,
) -> None:
    counts = await measure(tables=1, second=second)  # bench/taps.py at the suite's size
    steps = [c for by_step in counts.steps.values() for c in by_step.values()]
    assert len(steps) == len(GAPS) * 4 and counts.not_reached == 0
    assert all(c.doubled == 1 and c.answered == c.taps >= 1 for c in steps)
    assert (counts.failed, counts.second_moves, counts.second_falls) == (0, 0, 0)
