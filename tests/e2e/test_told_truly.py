"""What a screen or a post says about what happened to its reader is true, end to end: a
time-out is told as a time-out, the next round's first screen tells the round before, the post
that ended a round stops promising the next one once it started, the curse's fall with two
players and the turn after it are one screen and one push (and a fall the clock decided is told
as the computer's choice, not theirs), and an abort tells everyone once and leaves no question
asked. A post written before a restart loses its question as well, read back from Discord."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot import emoji as em
from bot.app import Bot
from bot.service import NEXT_ROUND_PAUSE_S
from bot.show.handtexts import fell
from engine import Game
from i18n import ENGLISH
from tests.fakediscord import InProcessBot, Message, Perm
from tests.fakediscord.fixtures import StartBot, World

from .conftest import MakeBot, MovableClock, bot_config
from .driver import (
    TIMEOUT,
    TableDriver,
    answer,
    button_actions,
    is_players_turn,
    stored_game,
    stored_table,
    table_of,
    turn_notices,
)
from .test_decisions import COLLAPSE, begin, write_state
from .test_private_turns import live, press, tile_arg

TIMED_OUT = f"{em.TIMED_OUT} Your time ran out: a computer player decided for you."


async def test_a_time_out_closes_the_screen_saying_a_computer_decided_for_the_player(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, clock: MovableClock
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await table.open(world.alice, world.bob, world.carol, time_limit=3600)
    game = await table.start(world.alice)
    screen = await table.hand_for(world.alice, game, turn=True)
    assert screen.channel.is_dm and is_players_turn(screen)
    clock.advance(3601)  # Alice does not play: a computer plays her turn, and its fall
    after = await table.settled_game(game.id)
    assert TableDriver.decider(after) == world.bob.id
    await world.fake.wait_for(
        lambda: screen.settled and not screen.buttons(), TIMEOUT, "her screen closed"
    )
    said = screen.content.splitlines()
    assert said[0] == TIMED_OUT
    assert em.PLAYED not in screen.content  # not the tick of a move she made
    # The turn as posted, told to her: her own screen says "You played", never her name.
    assert said[1].startswith("You played") and "Alice" not in screen.content
    assert said[1].replace("You played", "Alice played", 1) in after.content


def last_tile_of_round_one(tmp_path: Path) -> str:
    """A two-round match where Alice is about to play her last tile of round 1 (red 10 at B)."""
    game = Game.from_dict(
        {
            "players": 3,
            "pyramid": {"0,0": "Y30", "0,2": "R10"},
            "hands": [["Y40"], ["R2", "G2"], ["B4", "Y4"]],
            "piles": [[], ["R20"], ["B10"]],
            "active": 0,
        }
    )
    game.rounds = 2
    path = tmp_path / "state.json"
    path.write_text(json.dumps(game.to_dict()))
    return str(path)


async def round_won(world: World, table: TableDriver) -> Message:
    """Alice wins round 1 of 2; the post that says so."""
    await table.open(world.alice, world.bob, world.carol)
    first = await table.start(world.alice)
    won = await table.play(world.alice, first)
    assert ("next", "") in button_actions(won) and "Alice wins round 1 of 2." in won.content
    return won


async def test_the_others_next_screen_says_a_computer_played_for_a_player_out_of_time(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, clock: MovableClock
) -> None:
    """Alice's time runs out: the thread's post says so in its first line, and Bob's screen for
    his turn, which has no such line, tells her move as the computer's."""
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await table.open(world.alice, world.bob, world.carol, time_limit=3600)
    game = await table.start(world.alice)
    clock.advance(3601)  # Alice does not play: a computer plays her turn, and its fall
    after = await table.settled_game(game.id)
    assert TableDriver.decider(after) == world.bob.id
    played = next(line for line in after.content.splitlines() if line.startswith("Alice played"))
    screen = await table.hand_for(world.bob, after, turn=True)
    recap = [line for line in screen.content.splitlines() if line.startswith("> ")]
    computer = played.replace("Alice played", "A computer player played", 1)
    assert recap[0] == f"> {computer[:-1]} for Alice."
    assert not any(line.startswith("> Alice played") for line in recap)


async def test_the_next_rounds_first_screen_tells_who_won_the_round_and_the_standings(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await run_bot(test_state_file=last_tile_of_round_one(tmp_path))
    won = await round_won(world, table)
    await table.click_action(world.bob, won, "next")
    dealt = await table.settled_game(won.id)
    second = await stored_game(db_url, table.table_id())
    assert second.round == 2
    first = (world.alice, world.bob, world.carol)[second.active]
    assert TableDriver.decider(dealt) == first.id
    screen = await table.hand_for(first, dealt, turn=True)
    assert screen.channel.is_dm and is_players_turn(screen)
    lines = screen.content.splitlines()
    winner = "You win" if first is world.alice else "Alice wins"  # told to its reader
    told = lines.index(f"{em.ROUND_WON} {winner} round 1 of 2.")
    assert lines[told + 1] == "Standings after round 1 of 2 (lower wins):"
    assert lines[told + 2] == "1. Alice: 0 (this round 0)"
    # The post that ended round 1 no longer says when the next one starts, nor offers it.
    await world.fake.wait_for(lambda: won.settled and not won.buttons(), TIMEOUT, "the end post")
    assert "next round starts" not in won.content
    assert "Alice wins round 1 of 2." in won.content  # what happened stays


async def test_the_round_end_post_says_when_the_next_round_starts_and_not_once_it_has(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    clock: MovableClock,
    db_url: str,
) -> None:
    await run_bot(test_state_file=last_tile_of_round_one(tmp_path))
    won = await round_won(world, table)
    # When, as Discord shows a moment to each reader ("in 2 minutes"): the table's deadline.
    deadline = (await stored_table(db_url, table.table_id())).deadline
    assert deadline is not None
    assert f"The next round starts <t:{int(deadline)}:R>, or at once with **Next round**." in (
        won.content.splitlines()
    )
    clock.advance(NEXT_ROUND_PAUSE_S + 1)  # nobody presses Next round
    await table.settled_game(won.id)
    await world.fake.wait_for(
        lambda: won.settled and "next round starts" not in won.content,
        TIMEOUT,
        "the end post without its promise",
    )
    assert not button_actions(won) and "Alice wins round 1 of 2." in won.content


TWO_PLAYER_CURSE = {
    # Alice plays green 10 on yellow 10 and red 10: cursed, the three 10s go under Bob's pile
    # (the previous player), who then chooses where blue 30 falls; with two players, the turn
    # that follows is his too.
    "players": 2,
    "options": {"curse": True, "fire_die": False},
    "pyramid": {"0,0": "Y10", "0,2": "R10", "0,4": "B20", "1,3": "B30"},
    "hands": [["G10", "Y2"], ["R2", "G2"]],
    "piles": [["R20"], ["G20"]],
    "active": 0,
}


async def test_with_two_players_the_curses_fall_and_the_turn_after_it_are_one_screen(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, TWO_PLAYER_CURSE))
    await table.open(world.alice, world.bob)
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)
    # Bob is told once: a screen in his direct messages that asks where blue 30 falls.
    screen = await table.fall_screen(world.bob, falling)
    assert turn_notices(world.bob) == [screen]
    revisions = len(falling.revisions)
    await press(table, world.bob, screen, "fall", "left")
    after = await table.after_fall(falling, revisions)
    assert TableDriver.decider(after) == world.bob.id
    # The screen he answered keeps what he decided, and goes on with his turn: his tiles live.
    assert screen.content.startswith(fell("left", ENGLISH, "B30"))
    assert live(screen, "play") == 2 and live(screen, "fall") == 0
    await asyncio.sleep(0.5)  # anything else on its way to him lands
    assert turn_notices(world.bob) == [screen] and not screen.deleted
    assert screen.content.startswith(fell("left", ENGLISH, "B30"))
    assert world.bob.id not in after.notified
    # He plays on it, as on any screen of his.
    await press(table, world.bob, screen, "play", tile_arg(screen, "R2"))
    spot = next(arg for a, arg in button_actions(screen) if a == "spot")
    await press(table, world.bob, screen, "spot", spot)
    await table.settled_game(after.id)


async def test_a_curses_fall_the_clock_decided_is_told_as_the_computers_choice(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, clock: MovableClock
) -> None:
    """Bob does not answer where blue 30 falls: a computer player chooses for him. Neither the
    thread nor his next screen says he chose."""
    await run_bot(test_state_file=write_state(tmp_path, TWO_PLAYER_CURSE))
    await table.open(world.alice, world.bob, time_limit=3600)
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)
    screen = await table.fall_screen(world.bob, falling)
    revisions = len(falling.revisions)
    clock.advance(3601)  # Bob does not choose
    after = await table.after_fall(falling, revisions)
    assert TableDriver.decider(after) == world.bob.id
    said = after.content.splitlines()
    assert said[0].startswith(f"{em.TIMED_OUT} Bob's time ran out")
    fell_line = next(line for line in said if line.startswith("Blue 30 fell"))
    assert fell_line.endswith("(a computer player chose for Bob).")
    turn = await world.fake.wait_for(
        lambda: next((m for m in turn_notices(world.bob) if m is not screen), None),
        TIMEOUT,
        "Bob's turn",
    )
    recap = [line for line in turn.content.splitlines() if "Blue 30 fell" in line]
    assert recap == [f"> {fell_line.replace('for Bob', 'for you')}"]
    assert "(you chose)" not in turn.content


async def test_an_abort_tells_everyone_at_the_table_once_and_leaves_no_question_asked(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await begin(world, run_bot, table, tmp_path, dict(COLLAPSE, active=1))
    game = await table.start(world.alice)
    assert TableDriver.decider(game) == world.bob.id and "your turn" in game.content
    ix = await table.slash(world.alice, "fp abort")
    await answer(ix)
    notice = await world.fake.wait_for(
        lambda: next((m for m in table.bot_messages() if "aborted" in m.content), None),
        TIMEOUT,
        "the abort's notice",
    )
    # Everyone else seated there is pinged once, by the notice.
    assert sorted(notice.notified) == sorted([world.bob.id, world.carol.id])
    assert world.bob.mention in notice.content and world.carol.mention in notice.content
    # The game's last post asks nobody anything any more: no "your turn", no button.
    await world.fake.wait_for(
        lambda: game.settled and not game.buttons() and "your turn" not in game.content,
        TIMEOUT,
        "the game's post without its question",
    )
    assert f"<@{world.bob.id}>" not in game.content
    assert table_of(game) is None


async def shown_before_stopping(world: World, db_url: str, table: TableDriver) -> None:
    """Wait until the table's last move is recorded as shown, so that the restart does not
    post it again."""

    async def shown() -> bool:
        record = await stored_table(db_url, table.table_id())
        return record.shown_version == record.version

    for _ in range(100):
        if await shown():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the table's last move was never recorded as shown")


async def restarted_after_round_one(
    world: World,
    start_bot: StartBot,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
    clock: MovableClock,
    code: str = "en",
) -> tuple[Message, InProcessBot]:
    """Alice wins round 1 of 2, then the bot restarts: the new process never saw the post that
    ended the round, nor its words."""
    config = bot_config(db_url, test_state_file=last_tile_of_round_one(tmp_path))
    runner = await start_bot(Bot(config, clock=clock))
    if code == "fr":
        world.fake.set_guild_locale(world.guild, "fr")
        await table.open(world.alice, world.bob, world.carol)
        won = await table.play(world.alice, await table.start(world.alice))
        assert "Alice gagne la manche 1 sur 2." in won.content
    else:
        won = await round_won(world, table)
    await shown_before_stopping(world, db_url, table)
    await runner.stop()
    await runner.restart(Bot(config, clock=clock))
    return won, runner


@pytest.mark.parametrize(
    ("code", "clicked", "promise", "told"),
    [
        ("en", True, "next round starts", "Alice wins round 1 of 2."),
        ("en", False, "next round starts", "Alice wins round 1 of 2."),
        ("fr", False, "manche suivante commence", "Alice gagne la manche 1 sur 2."),
    ],
)
async def test_after_a_restart_the_round_end_post_stops_promising_once_the_next_round_starts(
    world: World,
    start_bot: StartBot,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
    clock: MovableClock,
    code: str,
    clicked: bool,
    promise: str,
    told: str,
) -> None:
    """The round starts by Bob's click on that very post, or by itself once its time is up."""
    won, _ = await restarted_after_round_one(world, start_bot, table, tmp_path, db_url, clock, code)
    assert promise in won.content and button_actions(won)
    if clicked:
        await table.click_action(world.bob, won, "next")
    else:
        clock.advance(NEXT_ROUND_PAUSE_S + 1)  # nobody presses Next round
    await table.settled_game(won.id)
    await world.fake.wait_for(
        lambda: won.settled and promise not in won.content and not won.buttons(),
        TIMEOUT,
        "the end post without its promise",
    )
    assert told in won.content


async def restarted_at_bobs_turn(
    world: World,
    start_bot: StartBot,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
    clock: MovableClock,
) -> Message:
    """A game where Bob is to play, then the bot restarts; the game's post, asking him."""
    config = bot_config(db_url, test_state_file=write_state(tmp_path, dict(COLLAPSE, active=1)))
    runner = await start_bot(Bot(config, clock=clock))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    assert "your turn" in game.content and game.buttons()
    await shown_before_stopping(world, db_url, table)
    await runner.stop()
    await runner.restart(Bot(config, clock=clock))
    return game


async def test_after_a_restart_an_abort_leaves_no_question_asked(
    world: World,
    start_bot: StartBot,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
    clock: MovableClock,
) -> None:
    game = await restarted_at_bobs_turn(world, start_bot, table, tmp_path, db_url, clock)
    await answer(await table.slash(world.alice, "fp abort"))
    await world.fake.wait_for(
        lambda: game.settled and not game.buttons() and "your turn" not in game.content,
        TIMEOUT,
        "the game's post without its question",
    )
    assert "begins!" in game.content  # what it said stays


async def test_after_a_restart_without_read_message_history_an_abort_still_takes_the_buttons_off(
    world: World,
    start_bot: StartBot,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
    clock: MovableClock,
) -> None:
    """Discord refuses to read a message back without Read Message History: the post cannot
    lose its words then, but its buttons go all the same."""
    game = await restarted_at_bobs_turn(world, start_bot, table, tmp_path, db_url, clock)
    world.fake.set_permissions(world.games, "bot", deny=Perm.READ_MESSAGE_HISTORY)
    await answer(await table.slash(world.alice, "fp abort"))
    await world.fake.wait_for(
        lambda: game.settled and not game.buttons(), TIMEOUT, "the game's post, closed"
    )
    reads = world.fake.requests_to("GET /channels/{channel_id}/messages/{message_id}")
    assert [r.error_code for r in reads] == [50013]
