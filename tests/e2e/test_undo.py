"""Undo a turn before anyone else sees it (issue 31 §1), through Discord as players meet it: a
tile played waits on its player's screen with **Undo** and **Done** for the table's window;
until then nothing of it is posted, drawn or sent to anyone. Undo puts the table back as it was,
Done or the window's end hands the turn on; a fire-die roll or a decision passed by the curse
hands it on at once, and the screen says why there is no Undo. In English and in French."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, cast

import pytest

import i18n
from bot import emoji as em
from bot.app import Bot
from bot.cogs.timers import Timers
from bot.errors import Why
from bot.show import handtexts
from data.store import Table
from i18n import Language
from render.narration import tile_in_text
from tests.fakediscord import FakeUser, Message
from tests.fakediscord.fixtures import StartBotProcess, World

from .conftest import MakeBot, MovableClock
from .driver import (
    TIMEOUT,
    TableDriver,
    actions,
    answer,
    answered_and_still,
    button_actions,
    held_token_of,
    is_players_turn,
    is_spot_step,
    refusal_text,
    stored_log,
    stored_table,
    tile_codes,
    turn_notices,
)
from .test_decisions import CURSE, FIRE, TWO_SPOTS, write_state
from .test_restart_and_time import process_env, set_clock

WINDOW = 30
LANGS = ("en-US", "fr")
"""The Discord locales the tests speak: the server's and the player's client's."""


def speaking(world: World, code: str) -> Language:
    """The table's posts and every player's client in ``code``; its words."""
    world.fake.set_guild_locale(world.guild, code)
    return i18n.catalogs.language(i18n.catalogs.language_for(code))


async def begin(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, state: dict[str, Any]
) -> Bot:
    bot = await run_bot(test_state_file=write_state(tmp_path, state))
    await table.open(world.alice, world.bob, world.carol, undo=WINDOW)
    return bot


async def polls(world: World, bot: Bot, count: int) -> None:
    """Until the bot's timer loop has looked at the due timers ``count`` more times."""
    timers = cast(Timers, bot.get_cog("Timers"))
    done = timers.poll.current_loop + count
    await world.fake.wait_for(lambda: timers.poll.current_loop >= done, TIMEOUT, "the timers")


def seen_by_others(table: TableDriver, world: World) -> tuple[object, ...]:
    """Everything anyone but Alice could see: the table's public messages as they stand (with
    their edits), and Bob's and Carol's direct messages."""
    public = tuple((m.id, len(m.revisions)) for m in table.bot_messages())
    dms = tuple((m.id, len(m.revisions)) for u in (world.bob, world.carol) for m in u.dms())
    return public, dms


async def pick(table: TableDriver, user: FakeUser, screen: Message, tile: str, spot: str) -> None:
    """``user`` presses the tile ``tile`` (its code) then spot ``spot`` on their screen."""
    arg = next(a for k, a in button_actions(screen) if k == "play" and a.startswith(f"{tile}."))
    before = len(screen.revisions)
    ix = await table.click_action(user, screen, "play", arg)
    await table.screen_after(screen, before, "the spot step", ix, is_spot_step)
    await table.click_spot(user, screen, spot)


async def press(table: TableDriver, user: FakeUser, screen: Message, action: str) -> None:
    """``user`` presses Undo or Done on their screen; until the screen shows its answer."""
    before = len(screen.revisions)
    await table.click_action(user, screen, action, held_token_of(screen))
    await table.screen_after(screen, before, f"the screen after {action}")


def same_table(a: Table, b: Table) -> bool:
    """Two records of a table in the same state: the game, the version its buttons carry, its
    deadline and reminder, nothing held back."""
    return (a.state, a.version, a.deadline, a.reminder_at, a.held) == (
        b.state,
        b.version,
        b.deadline,
        b.reminder_at,
        b.held,
    )


@pytest.mark.parametrize("code", LANGS)
async def test_a_misplaced_tile_is_taken_back_before_anyone_sees_it(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
    code: str,
) -> None:
    lang = speaking(world, code)
    await begin(world, run_bot, table, tmp_path, TWO_SPOTS)
    world.alice.locale = code
    game = await table.start(world.alice)
    table_id = table.table_id()
    screen = await table.hand_for(world.alice, game, turn=True)
    assert screen.channel.is_dm
    before = await stored_table(db_url, table_id)
    tiles = tile_codes(screen)
    seen = seen_by_others(table, world)

    # Yellow 40 on the gap in the bottom row (spot B), not on top (A): a slip of the finger.
    await pick(table, world.alice, screen, "Y40", "B")
    # Her screen shows her turn played, with Undo and Done; her hand before its draw.
    assert [a for a, _ in button_actions(screen)] == ["undo", "done"]
    assert tile_codes(screen) == []
    waits = lang.gettext(
        "**Undo** takes it back; **Done** hands it on now. It is handed on by itself {when}."
    ).split("{when}")[0]
    assert waits in screen.content
    assert (
        lang.gettext("**Your turn is played** at {table} in {where}: nobody has seen it yet.")[:12]
        in screen.content
    )
    # Its picture says so too, not "Waiting for Bob to play": Bob has not been told.
    (picture,) = screen.attachments
    said = picture.description or ""
    assert handtexts.held_headline(lang) in said.splitlines()
    assert world.bob.name not in said.splitlines()[1]
    # Nothing of it is told: no post, no edit, no direct message; nothing drawn or stored.
    assert seen_by_others(table, world) == seen
    stored = await stored_table(db_url, table_id)
    assert stored.state == before.state and await stored_log(db_url, table_id) == []

    await press(table, world.alice, screen, "undo")
    # The same screen shows her turn again, her tiles as before; the table is as it was.
    assert is_players_turn(screen) and tile_codes(screen) == tiles
    assert handtexts.undone(lang) in screen.content
    assert same_table(await stored_table(db_url, table_id), before)
    assert await stored_log(db_url, table_id) == []
    assert seen_by_others(table, world) == seen

    # She plays it where she meant to, and hands it on: the others see that turn only.
    await pick(table, world.alice, screen, "Y40", "A")
    await press(table, world.alice, screen, "done")
    nxt = await table.settled_game(game.id)
    assert TableDriver.decider(nxt) == world.bob.id
    log = await stored_log(db_url, table_id)
    assert [(a.user_id, a.action) for a in log] == [(world.alice.id, {"play": "Y40", "at": "1,1"})]
    assert [m.id for m in table.game_messages() if m.id > game.id] == [nxt.id]


@pytest.mark.parametrize("code", LANGS)
async def test_done_hands_the_turn_on_at_once_and_the_next_player_is_told_once(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
    code: str,
) -> None:
    lang = speaking(world, code)
    await begin(world, run_bot, table, tmp_path, TWO_SPOTS)
    world.alice.locale = code
    game = await table.start(world.alice)
    screen = await table.hand_for(world.alice, game, turn=True)
    told = len(turn_notices(world.bob))
    await pick(table, world.alice, screen, "Y40", "A")
    assert "done" in actions(screen)
    await press(table, world.alice, screen, "done")
    nxt = await table.settled_game(game.id)
    assert TableDriver.decider(nxt) == world.bob.id
    await world.fake.wait_for(
        lambda: len(turn_notices(world.bob)) == told + 1, TIMEOUT, "Bob's turn by DM"
    )
    # Her screen is closed with the turn's account, told to her in her language; she drew red
    # 20.
    assert screen.buttons() == []
    played = lang.gettext("you played {tile}").format(tile=tile_in_text("Y40", lang))
    assert screen.content.startswith(f"{em.PLAYED} {played[:1].upper()}{played[1:]}.")
    assert "Alice" not in screen.content
    stored = await stored_table(db_url, table.table_id())
    assert stored.held is None and stored.state is not None
    assert stored.state["hands"][0] == ["R6", "R20"]
    assert len(turn_notices(world.bob)) == told + 1


async def test_a_window_that_ends_hands_the_turn_on_by_itself(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
    clock: MovableClock,
) -> None:
    bot = await begin(world, run_bot, table, tmp_path, TWO_SPOTS)
    game = await table.start(world.alice)
    screen = await table.hand_for(world.alice, game, turn=True)
    told = len(turn_notices(world.bob))
    await pick(table, world.alice, screen, "Y40", "A")
    seen = seen_by_others(table, world)
    clock.advance(WINDOW - 5)  # not yet: the timers look, and leave it
    await polls(world, bot, 5)
    assert seen_by_others(table, world) == seen
    clock.advance(5)
    nxt = await table.settled_game(game.id)
    assert TableDriver.decider(nxt) == world.bob.id
    await world.fake.wait_for(
        lambda: len(turn_notices(world.bob)) == told + 1, TIMEOUT, "Bob's turn by DM"
    )
    # Her screen no longer offers Undo or Done; her turn is in the log once, posted once.
    await world.fake.wait_for(lambda: not screen.buttons(), TIMEOUT, "her screen closed")
    await polls(world, bot, 5)
    log = await stored_log(db_url, table.table_id())
    assert [a.action for a in log] == [{"play": "Y40", "at": "1,1"}]
    assert [m.id for m in table.game_messages() if m.id > game.id] == [nxt.id]
    assert len(turn_notices(world.bob)) == told + 1


@pytest.mark.parametrize("code", LANGS)
async def test_no_undo_after_a_fire_die_roll_and_the_screen_says_why(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
    code: str,
) -> None:
    lang = speaking(world, code)
    await begin(world, run_bot, table, tmp_path, FIRE)
    world.alice.locale = code
    game = await table.start(world.alice)
    screen = await table.hand_for(world.alice, game, turn=True)
    await pick(table, world.alice, screen, "B7", "A")  # beside yellow 30 (wood)
    assert handtexts.no_undo("die", None, lang) in screen.content
    assert not {"undo", "done"} & set(actions(screen))
    # The turn, its roll included, is in the channel at once.
    await world.fake.wait_for(
        lambda: any(m.id > game.id for m in table.game_messages()), TIMEOUT, "the turn"
    )
    log = await stored_log(db_url, table.table_id())
    assert [next(iter(a.action)) for a in log][:2] == ["play", "die"]


@pytest.mark.parametrize("code", LANGS)
async def test_no_undo_once_the_curse_passes_a_decision_and_the_screen_says_to_whom(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
    code: str,
) -> None:
    lang = speaking(world, code)
    await begin(world, run_bot, table, tmp_path, CURSE)
    world.alice.locale = code
    game = await table.start(world.alice)
    screen = await table.hand_for(world.alice, game, turn=True)
    await pick(table, world.alice, screen, "G10", "A")
    assert handtexts.no_undo("passed", "Carol", lang) in screen.content
    assert not {"undo", "done"} & set(actions(screen))
    # Carol is asked where blue 30 falls, at once.
    falling = await table.settled_game(game.id)
    assert TableDriver.decider(falling) == world.carol.id
    assert "fall" in actions(await table.fall_screen(world.carol, falling))


async def test_undo_after_the_turn_was_handed_on_is_refused_with_the_reason(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    clock: MovableClock,
) -> None:
    await begin(world, run_bot, table, tmp_path, TWO_SPOTS)
    game = await table.start(world.alice)
    screen = await table.hand_for(world.alice, game, turn=True)
    await pick(table, world.alice, screen, "Y40", "A")
    # "My hand" in the channel shows her the same: her turn played, with Undo and Done.
    copy = await answer(await table.click(world.alice, game, "My hand"))
    assert copy.ephemeral and [a for a, _ in button_actions(copy)] == ["undo", "done"]
    await press(table, world.alice, screen, "done")
    await table.settled_game(game.id)
    ix = await table.click_action(world.alice, copy, "undo", held_token_of(copy))
    reply = await answer(ix)
    assert reply.ephemeral and reply.content == refusal_text(Why.TURN_HANDED_ON)


async def test_a_kill_inside_the_window_neither_loses_nor_doubles_the_turn(
    world: World,
    start_bot_process: StartBotProcess,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
) -> None:
    env = process_env(tmp_path, db_url, FP_TEST_STATE_FILE=write_state(tmp_path, TWO_SPOTS))
    set_clock(tmp_path, 0)
    proc = await start_bot_process("bot", env=env)
    await table.open(world.alice, world.bob, world.carol, undo=WINDOW)
    game = await table.start(world.alice)
    screen = await table.hand_for(world.alice, game, turn=True)
    told = len(turn_notices(world.bob))
    await pick(table, world.alice, screen, "Y40", "A")
    assert "done" in actions(screen)

    await proc.kill()  # like a crash, inside the window
    set_clock(tmp_path, WINDOW + 1)  # the window ends while the bot is down
    await proc.start()

    nxt = await table.settled_game(game.id)
    assert TableDriver.decider(nxt) == world.bob.id
    await world.fake.wait_for(
        lambda: len(turn_notices(world.bob)) == told + 1, TIMEOUT, "Bob's turn by DM"
    )
    log = await stored_log(db_url, table.table_id())
    assert [(a.user_id, a.action) for a in log] == [(world.alice.id, {"play": "Y40", "at": "1,1"})]
    # Handed on once: one post of that turn, one notice to Bob, even a while later.
    set_clock(tmp_path, WINDOW + 60)
    await asyncio.sleep(1.0)  # ten looks of its timer loop
    assert [m.id for m in table.game_messages() if m.id > game.id] == [nxt.id]
    assert len(turn_notices(world.bob)) == told + 1
    assert "Traceback" not in proc.output


@pytest.mark.parametrize("gap", [0.0, 0.1])
@pytest.mark.parametrize("action", ["undo", "done"])
async def test_a_double_tap_on_undo_or_done_does_one_thing_and_is_answered_quietly(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
    gap: float,
    action: str,
) -> None:
    await begin(world, run_bot, table, tmp_path, TWO_SPOTS)
    game = await table.start(world.alice)
    table_id = table.table_id()
    before = await stored_table(db_url, table_id)
    screen = await table.hand_for(world.alice, game, turn=True)
    await pick(table, world.alice, screen, "Y40", "A")
    cid = next(
        str(b["custom_id"]) for b in screen.buttons() if f":{action}:" in str(b.get("custom_id"))
    )
    first, second = await world.alice.double_click(screen, custom_id=cid, gap=gap, second="same")
    assert second is not None
    await answered_and_still(world.fake, screen, [first, second])
    for ix in (first, second):  # answered on the screen itself, no message of their own
        assert ix.response_type == 6 and ix.followups == [], ix
    log = await stored_log(db_url, table_id)
    if action == "undo":  # taken back once: the table as before, her turn on the screen
        assert same_table(await stored_table(db_url, table_id), before) and log == []
        assert is_players_turn(screen)
    else:  # handed on once: one post of the turn
        assert [a.action for a in log] == [{"play": "Y40", "at": "1,1"}]
        nxt = await table.settled_game(game.id)
        assert [m.id for m in table.game_messages() if m.id > game.id] == [nxt.id]


@pytest.mark.parametrize("gap", [0.0, 0.1])
async def test_a_double_tap_on_the_spot_holds_the_turn_once(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
    gap: float,
) -> None:
    await begin(world, run_bot, table, tmp_path, TWO_SPOTS)
    game = await table.start(world.alice)
    table_id = table.table_id()
    before = await stored_table(db_url, table_id)
    screen = await table.hand_for(world.alice, game, turn=True)
    arg = next(a for k, a in button_actions(screen) if k == "play" and a.startswith("Y40."))
    revisions = len(screen.revisions)
    ix = await table.click_action(world.alice, screen, "play", arg)
    await table.screen_after(screen, revisions, "the spot step", ix, is_spot_step)
    pair = await world.alice.double_click(
        screen, custom_id=table.spot_button(screen, "A"), gap=gap, second="same"
    )
    taps = [t for t in pair if t is not None]
    await answered_and_still(world.fake, screen, taps)
    for tap in taps:
        assert tap.response_type == 6 and tap.followups == [], tap
    held = (await stored_table(db_url, table_id)).held
    assert held is not None and len(held.actions) == 1
    assert (await stored_table(db_url, table_id)).version == before.version + 1
    assert [a for a, _ in button_actions(screen)] == ["undo", "done"]
