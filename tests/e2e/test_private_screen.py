"""Every decision on one private screen, read as the player reads it: the hand, the spot step
with what each spot would do, the fall choice for whoever must make it, screens a move made
obsolete, and the end of the match."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bot.app import Bot
from bot.errors import Why
from bot.kept import Kept
from bot.service import Hand
from bot.show.endtexts import MATCH_OVER
from bot.show.message import Message as Shown
from tests.fakediscord import Message
from tests.fakediscord.fixtures import World

from .conftest import MakeBot, MovableClock
from .driver import (
    TIMEOUT,
    TableDriver,
    answer,
    button_actions,
    is_final,
    is_players_turn,
    lobby_controls,
    not_yours_text,
    refusal_text,
    stored_game,
    stored_table,
    table_of,
    tile_codes,
)
from .test_decisions import COLLAPSE, CURSE, begin, private_answer, write_state

LAST_TILE = {
    # Alice holds one tile: yellow 40 at B (beside red 10) simply fits, and she wins the match.
    "players": 3,
    "pyramid": {"0,0": "Y30", "0,2": "R10", "0,6": "B20"},
    "hands": [["Y40"], ["R2", "G2"], ["B4", "Y4"]],
    "piles": [[], ["G20"], ["B10"]],
    "active": 0,
}


def spot_ids(screen: Message) -> list[str]:
    return [b["custom_id"] for b in screen.buttons() if ":spot:" in (b.get("custom_id") or "")]


async def press(table: TableDriver, user: object, screen: Message, label: str) -> Message:
    """Press a button on a private screen and wait until that same message shows the answer."""
    before = len(screen.revisions)
    await table.click(user, screen, label)  # type: ignore[arg-type]
    return await table.screen_after(screen, before, f"the screen after {label}")


async def test_a_tile_turns_the_same_message_into_the_spot_step_that_says_what_each_spot_does(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    game = await table.start(world.alice)
    hand = await answer(await table.click(world.alice, game, "My hand"))
    # The tile step: it is her turn (with its time limit), and the tile that fits is marked.
    assert is_players_turn(hand) and "<t:" in hand.content
    assert table.tile_labels(hand) == ["yellow 40", "blue 2 · fits"]
    ephemerals = len(world.alice.ephemerals(world.games))
    await press(table, world.alice, hand, "yellow 40")
    # The same message now asks for the spot, even though yellow 40 has only one.
    assert len(world.alice.ephemerals(world.games)) == ephemerals  # no new message
    # Her tiles stay where they were (yellow 40 chosen), then Back, then the spots.
    assert [(a, arg.split("@")[0].split(".")[0]) for a, arg in button_actions(hand)] == [
        ("play", "Y40"),
        ("play", "B2"),
        ("back", ""),
        ("spot", "Y40"),
    ]
    # What the spot would do, said on the screen and on its button (the subject here).
    assert "**A** · collapse: 2 tiles to your pile" in hand.content
    assert hand.labels()[2:] == ["Back", "A · collapse: 2 tiles to your pile"]
    assert [a.filename for a in hand.images()] == ["spots.png"]
    assert table.latest_game().id == game.id  # nothing is played by the tile alone
    # Back: the tiles again, on the same message.
    await press(table, world.alice, hand, "Back")
    assert tile_codes(hand) == ["Y40", "B2"]
    assert [a.filename for a in hand.images()] == ["turn.png"]


FALLS = [("fall", "left"), ("fall", "right")]


def falls(screen: Message) -> list[tuple[str, str]]:
    """The fall buttons a screen offers (live)."""
    return [b for b in button_actions(screen) if b[0] == "fall"]


async def test_the_fall_is_asked_on_the_screen_of_whoever_must_decide_it(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await begin(world, run_bot, table, tmp_path, CURSE)
    game = await table.start(world.alice)
    carol = await answer(await table.click(world.carol, game, "My hand"))
    assert not is_players_turn(carol) and tile_codes(carol)  # her tiles, grey: not her turn
    falling = await table.play(world.alice, game)
    state = await stored_game(db_url, table.table_id())
    assert state.pending is not None and state.pending[:2] == ("fall", 2)  # Carol's
    assert state.pending.tile == "B30"
    # The curse hands the fall of blue 30 to Carol: her open screen asks her, with the buttons.
    await world.fake.wait_for(lambda: falls(carol) == FALLS and carol.settled, TIMEOUT, "fall")
    # Alice, who played, is told whose decision it is, by name as Carol wrote it.
    ix = await table.click(world.alice, falling, "Fall left")
    assert await private_answer(ix) == not_yours_text("fall", "Carol")
    # She is told once, by a new screen in her direct messages that asks the same.
    dm = await table.fall_screen(world.carol, falling)
    assert falls(dm) == FALLS
    # She opens her hand again in the channel: the new message asks the same, and the older
    # private one there loses its buttons.
    copy = await answer(await table.click(world.carol, falling, "My hand"))
    assert falls(copy) == FALLS
    await world.fake.wait_for(
        lambda: carol.settled and not carol.buttons(), TIMEOUT, "the older screen retired"
    )
    revisions = len(falling.revisions)
    await press(table, world.carol, copy, "Fall right")
    after = await table.after_fall(falling, revisions)
    assert TableDriver.decider(after) == world.bob.id
    assert not is_players_turn(copy) and not falls(copy)  # her hand again, not her turn
    # Answered there, the question is closed everywhere: her DM screen too.
    await world.fake.wait_for(
        lambda: dm.settled and not dm.buttons(), TIMEOUT, "her DM screen closed"
    )


async def test_a_stranger_is_told_they_are_not_playing_here(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    ix = await table.click(world.dave, game, "My hand")
    assert await private_answer(ix) == refusal_text(Why.NOT_PLAYING)


async def test_at_the_end_every_screen_says_the_match_is_over_with_no_live_button(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    clock: MovableClock,
    db_url: str,
) -> None:
    await begin(world, run_bot, table, tmp_path, LAST_TILE)
    lobby = table.lobby()
    lobby_revisions = len(lobby.revisions)
    game = await table.start(world.alice)
    # Start's own answer (the lobby card, its buttons gone) is in before the clock jumps.
    await world.fake.wait_for(
        lambda: (
            len(lobby.revisions) > lobby_revisions and not lobby_controls(lobby) and lobby.settled
        ),
        TIMEOUT,
        "the lobby card after Start",
    )
    # Carol opens her hand privately, then 16 minutes pass: too late for the bot to edit it.
    carol = await answer(await table.click(world.carol, game, "My hand"))
    clock.advance(16 * 60)
    world.fake.advance_time(16 * 60)
    bob = await answer(await table.click(world.bob, game, "My hand"))
    alice_dm = await table.hand_for(world.alice, game, turn=True)
    assert alice_dm.channel.is_dm
    final = await table.play(world.alice, game, spot="B")
    assert is_final(final) and TableDriver.decider(final) is None
    record = await stored_table(db_url, table.table_id())
    assert record.status == "finished"
    # Alice's screen, closed by her own last click, says the match is over; Bob's open
    # screen is closed by the bot itself.
    await world.fake.wait_for(
        lambda: alice_dm.settled and not alice_dm.buttons(), TIMEOUT, "Alice's screen closed"
    )
    assert MATCH_OVER in alice_dm.content
    assert table.hand_message(world.bob) is None  # he had nothing to decide: no DM
    for screen in (bob,):
        await world.fake.wait_for(
            lambda s=screen: s.settled and not [b for b in s.buttons() if not b.get("url")],
            TIMEOUT,
            "Bob's screens to close",
        )
    assert not bob.images() and not tile_codes(bob)  # no hand left to show
    # The screen the bot could no longer close has no tile to press: Carol opened it while
    # she waited, and a screen that cannot act has no live tile button.
    assert table.tile_labels(carol) == [] and len(table.tile_labels(carol, grey=True)) == 2
    # My hand on an old game message says the same, privately.
    ix = await table.click(world.carol, game, "My hand")
    assert await private_answer(ix) == MATCH_OVER
    assert (await stored_table(db_url, table.table_id())).version == record.version


async def test_a_move_links_the_table_to_its_newest_board_message(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await begin(world, run_bot, table, tmp_path, COLLAPSE)
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)
    after = await table.fall(world.alice, falling)
    bob = await answer(await table.click(world.bob, after, "My hand"))
    links = [b["url"] for b in bob.buttons() if b.get("url")]
    newest = table.latest_game()
    assert links and links[0].endswith(f"/{newest.id}")


async def test_a_table_without_previews_shows_bare_spots(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    lobby = await table.open(world.alice, world.bob, world.carol, preview=False)
    table_id = table_of(lobby)
    assert table_id is not None
    assert (await stored_table(db_url, table_id)).options.preview is False
    game = await table.start(world.alice)
    hand = await answer(await table.click(world.alice, game, "My hand"))
    assert table.tile_labels(hand) == table.tiles(hand)  # no tile marked as fitting
    assert tile_codes(hand) == ["Y40", "B2"]
    await press(table, world.alice, hand, "yellow 40")
    assert hand.labels()[2:] == ["Back", "A"] and "collapse" not in hand.content


SPOT = "A · collapse: 2 tiles to your pile"
SPOT_STEP = ["play", "play", "back", "spot"]
"""Her spot step's buttons: her two tiles, Back, the one spot."""


@dataclass
class DmSpotStep:
    """Alice's turn: she pressed a tile on her hand in DMs, which shows the spot step; ``late``
    is the hand that began her turn, as a delivery still on its way would carry it."""

    bot: Bot
    game: Message
    dm: Message
    late: Hand


async def dm_spot_step(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> DmSpotStep:
    bot = await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    table_id = table_of(game)
    assert table_id is not None
    dm = await world.fake.wait_for(
        lambda: table.hand_message(world.alice), TIMEOUT, "Alice's hand by DM"
    )
    late = await bot.service.hand(table_id, world.alice.id)
    await press(table, world.alice, dm, "yellow 40")
    assert [a for a, _ in button_actions(dm)] == SPOT_STEP
    return DmSpotStep(bot, game, dm, late)


async def the_spot_is_still_played(table: TableDriver, world: World, step: DmSpotStep) -> None:
    """The spot step stays as she left it, and the spot she picks on it is played."""
    assert [a for a, _ in button_actions(step.dm)] == SPOT_STEP
    before = len(step.dm.revisions)
    await table.click(world.alice, step.dm, SPOT)
    await table.screen_after(step.dm, before, "her fall on the screen")
    assert falls(step.dm) == FALLS  # played: her own fall is asked there next


async def test_a_late_delivery_of_the_hand_never_replaces_the_spot_step_under_the_next_click(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    step = await dm_spot_step(world, run_bot, table, tmp_path)
    revisions = len(step.dm.revisions)
    await step.bot.desk.show.hands.deliver(step.late)
    assert len(step.dm.revisions) == revisions
    await the_spot_is_still_played(table, world, step)


async def test_a_hand_edited_in_by_another_process_never_replaces_the_spot_step(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    # Run as several processes, the hand in direct messages is clicked in shard 0's process,
    # while the move before it may have been made in the process of the table's server, whose
    # edit of that hand (paced behind pictures) can land after the spot step was shown. That
    # process knows only what the store says the message shows: its edit goes through
    # ``edit_kept`` directly.
    step = await dm_spot_step(world, run_bot, table, tmp_path)
    revisions = len(step.dm.revisions)
    outbox = step.bot.desk.show.outbox
    partial = outbox.message(step.dm.channel.id, step.dm.id)
    edited = await outbox.edit_kept(
        step.late.table_id,
        Kept.hand(world.alice.id),
        step.late.version,
        partial,
        Shown("the late hand"),
    )
    assert not edited
    assert len(step.dm.revisions) == revisions
    await the_spot_is_still_played(table, world, step)
