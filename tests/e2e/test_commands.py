"""The other commands: a busy channel, missing permissions, status, rules, leave, abort,
settings and the hand delivery mode."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot import emoji
from bot.errors import Why
from bot.show import answertexts
from data import Table
from i18n import ENGLISH
from tests.fakediscord import CommandNotSynced, Message, Perm
from tests.fakediscord.fixtures import World

from .conftest import MakeBot
from .driver import (
    TIMEOUT,
    TableDriver,
    actions,
    answer,
    button_actions,
    card_text,
    is_game_message,
    refusal_text,
    stored_channel_table,
    stored_game,
    stored_prefs,
    stored_settings,
    stored_table,
    table_of,
    tile_codes,
)
from .test_decisions import COLLAPSE, private_answer, write_state


def newest(messages: list[Message], seen: int) -> list[Message]:
    """The messages (newest first) posted after the first ``seen`` ones."""
    return messages[: len(messages) - seen]


async def test_second_table_in_a_busy_channel_links_to_the_first(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str
) -> None:
    await run_bot()
    lobby = await table.open(world.alice)
    ix = await table.slash(world.bob, "fp new")
    answer = await private_answer(ix)
    link = f"https://discord.com/channels/{world.guild.id}/{world.games.id}/{lobby.id}"
    assert answer == answertexts.channel_busy(
        link, lang=ENGLISH
    )  # the show side's words, with the first's link
    still = await stored_channel_table(db_url, world.games.id)
    assert still is not None and still.id == table_of(lobby) and still.host_id == world.alice.id
    # Another channel may have its own table, with the same player.
    other = TableDriver(world.fake, world.general, table.users)
    second = await other.open(world.alice, world.bob)
    assert second.id != lobby.id


async def test_missing_permissions_are_reported_to_the_host(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    await run_bot()
    world.fake.set_permissions(world.games, "bot", deny=Perm.ATTACH_FILES | Perm.EMBED_LINKS)
    ix = await table.slash(world.alice, "fp new")
    answer = await private_answer(ix)
    assert "Attach Files" in answer and "Embed Links" in answer
    assert table.bot_messages() == []  # no table was opened


async def test_only_the_host_starts_and_outsiders_cannot_leave(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str
) -> None:
    await run_bot()
    lobby = await table.open(world.alice, world.bob)
    table_id = table_of(lobby)
    assert table_id is not None
    version = (await stored_table(db_url, table_id)).version
    ix = await table.click(world.bob, lobby, "Start")
    assert await private_answer(ix) == refusal_text(Why.HOST_ONLY_START)
    ix = await table.click(world.carol, lobby, "Leave")
    assert await private_answer(ix) == refusal_text(Why.NO_SEAT)
    record = await stored_table(db_url, table_id)
    assert record.status == "lobby" and record.version == version  # nothing changed
    await table.click(world.alice, lobby, "Start")
    await table.settled_game()
    version = (await stored_table(db_url, table_id)).version
    ix = await table.slash(world.carol, "fp leave")
    assert await private_answer(ix) == refusal_text(Why.NOT_PLAYING)
    assert (await stored_table(db_url, table_id)).version == version


async def test_cancel_frees_the_channel(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str
) -> None:
    await run_bot()
    lobby = await table.open(world.alice, world.bob)
    table_id = table_of(lobby)
    assert table_id is not None
    seen = len(lobby.revisions)
    await table.click(world.alice, lobby, "Cancel")
    await world.fake.wait_for(
        lambda: len(lobby.revisions) > seen and lobby.settled, TIMEOUT, "cancel"
    )
    assert lobby.buttons() == [] and lobby.selects() == []
    assert "Cancelled by the host" in card_text(lobby)
    assert (await stored_table(db_url, table_id)).status == "cancelled"
    await table.slash(world.bob, "fp new")
    await world.fake.wait_for(lambda: table.lobby().id != lobby.id, TIMEOUT, "a new lobby")


async def test_status_rules_hand_mode(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    posted = len(table.bot_messages())
    ix = await table.slash(world.dave, "fp status")  # anyone may ask: Dave does not play
    watched = await answer(ix)
    assert watched.ephemeral and watched.images() and "table #1" in watched.content
    assert watched.buttons() == []  # the players' buttons would only refuse him
    assert len(table.bot_messages()) == posted  # nothing public in the thread
    ix = await table.slash(world.carol, "fp status")  # a player: the picture in the thread
    status = await answer(ix)
    assert is_game_message(status) and not status.ephemeral
    assert ("hand", "") in button_actions(status)
    game = status  # the newest picture of the table
    ix = await table.slash(world.dave, "fp rules")
    rules = await answer(ix)
    assert rules.ephemeral and len(rules.images()) == 2
    # RULES 5: not everything goes under the player's pile (incendiaries leave the game; the
    # curse sends tiles to the previous player's pile).
    text = rules.embed_text()
    assert "Everything that leaves the pyramid goes under your pile" not in text
    assert "the incendiary that started the fire leaves the game" in text
    assert "they leave the game" in text and "**previous** player's pile" in text
    # Bob asks for his hands privately from now on.
    ix = await table.slash(world.bob, "fp hand", mode="channel")
    hand = await answer(ix)
    assert hand.ephemeral and "R2" in tile_codes(hand)
    assert (await stored_prefs(db_url, world.bob.id)).hand_mode == "channel"

    def hands_by_dm() -> int:
        """Bob's DMs that show a hand (a hand message is posted with its picture)."""
        return len([m for m in world.bob.dms() if m.revisions[0].attachments])

    dms_before = hands_by_dm()
    table.private_only.add(world.bob.id)
    after = await table.play(world.alice, game)  # Alice's fall choice comes next
    after = await table.step(after)
    assert TableDriver.decider(after) == world.bob.id
    after = await table.step(after)  # Bob plays; his new hand is not sent by DM
    assert hands_by_dm() == dms_before
    version = (await stored_table(db_url, table.table_id())).version
    ix = await table.slash(world.dave, "fp hand")
    assert await private_answer(ix) == refusal_text(Why.NOT_PLAYING)
    assert (await stored_table(db_url, table.table_id())).version == version


@pytest.mark.parametrize(
    ("server", "to_play", "to_fall"),
    [
        ("en", "**Alice** to play (time ends <t:", "**Alice** decides where yellow 40 falls"),
        ("fr", "À **Alice** de jouer (son temps se termine <t:", "**Alice** décide où glisse le"),
    ],
)
async def test_a_spectators_status_tells_them_who_decides_in_the_tables_language(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    server: str,
    to_play: str,
    to_fall: str,
) -> None:
    """Dave does not play: his /fp status says who is to play, in the table's language, as a
    spectator reads it; not the players' "@Alice, your turn" (which pings nobody here)."""
    if server == "fr":
        world.fake.set_guild_locale(world.guild, "fr")
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    played = await table.slash(world.dave, "fp status")
    watched = (await answer(played)).content
    assert watched.splitlines()[-1].startswith(f"{emoji.TURN} {to_play}"), watched
    assert "<@" not in watched and "your turn" not in watched and "à vous" not in watched
    # Alice's yellow 40 collapses: her fall, told to Dave about her, with its deadline.
    await table.play(world.alice, game)
    falling = (await answer(await table.slash(world.dave, "fp status"))).content
    line = falling.splitlines()[-1]
    assert line.startswith(f"{emoji.TURN} {to_fall}") and "<t:" in line, falling
    assert "<@" not in falling and "**Fall left**" not in falling


async def test_leave_a_running_game_and_abort(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    table_id = table.table_id()
    await table.leave_match(world.alice)
    record = await stored_table(db_url, table_id)
    assert dict(record.departed) == {0: world.alice.id}  # a computer player took her seat
    assert record.seats[0].user_id is None and record.seats[0].ai is not None
    # Alice's pending decisions are now made by a computer; then it is Bob's turn.
    nxt = await table.settled_game(game.id)
    assert TableDriver.decider(nxt) == world.bob.id
    ix = await table.slash(world.bob, "fp abort")
    assert await private_answer(ix) == refusal_text(Why.ABORT_WHO)
    assert (await stored_table(db_url, table_id)).status == "playing"
    posted = len(table.bot_messages())
    ix = await table.slash(world.alice, "fp abort")  # the host, even after leaving
    await private_answer(ix)
    assert (await stored_table(db_url, table_id)).status == "aborted"
    await world.fake.wait_for(  # and the table says so where it is played
        lambda: len(table.bot_messages()) > posted, TIMEOUT, "abort"
    )
    ix = await table.slash(world.bob, "fp status")
    assert await private_answer(ix) == refusal_text(Why.NO_TABLE_HERE)


async def test_settings_are_for_admins(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str
) -> None:
    await run_bot()
    # Discord does not even show the command to a member who cannot manage the server.
    (fp_settings,) = [c for c in world.fake.commands() if c.name == "fp-settings"]
    assert int(fp_settings.data["default_member_permissions"]) == Perm.MANAGE_GUILD
    with pytest.raises(CommandNotSynced, match="hidden from bob"):
        await table.slash(world.bob, "fp-settings", time_limit=3600)
    default = (await stored_settings(db_url, world.guild.id)).turn_limit_s
    assert default != 3600  # not changed
    admin_role = world.fake.create_role(world.guild, "admins", Perm.MANAGE_GUILD)
    world.fake.state.add_member(world.guild, world.carol.account, [admin_role])
    ix = await table.slash(world.carol, "fp-settings", time_limit=3600)
    await private_answer(ix)
    assert (await stored_settings(db_url, world.guild.id)).turn_limit_s == 3600
    ix = await table.slash(world.carol, "fp-settings", reminder=3600, curse=True)
    await private_answer(ix)
    settings = await stored_settings(db_url, world.guild.id)
    assert (settings.turn_limit_s, settings.reminder_s, settings.defaults.curse) == (
        3600,
        3600,
        True,
    )
    lobby = await table.open(world.alice)
    table_id = table_of(lobby)
    assert table_id is not None
    options = (await stored_table(db_url, table_id)).options
    assert options.curse is True and options.turn_limit_s == 3600
    # A table's own option still wins over the server's default.
    other = TableDriver(world.fake, world.general, table.users)
    lobby = await other.open(world.alice, curse=False)
    table_id = table_of(lobby)
    assert table_id is not None
    assert (await stored_table(db_url, table_id)).options.curse is False


async def test_new_table_options(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str
) -> None:
    await run_bot()
    lobby = await table.open(
        world.alice, world.bob, curse=True, fire_die=True, rounds=3, time_limit=900, max_seats=2
    )
    table_id = table_of(lobby)
    assert table_id is not None
    options = (await stored_table(db_url, table_id)).options
    assert (options.curse, options.fire_die, options.rounds) == (True, True, 3)
    assert (options.turn_limit_s, options.max_seats) == (900, 2)
    ix = await table.click(world.carol, lobby, "Join")
    assert await private_answer(ix) == refusal_text(Why.TABLE_FULL)
    seats = (await stored_table(db_url, table_id)).seats
    assert [s.user_id for s in seats] == [world.alice.id, world.bob.id]
    game = await table.start(world.alice)
    assert "curse on" not in game.content  # the options are said once, on the lobby card
    state = await stored_game(db_url, table_id)
    assert (state.round, state.rounds, state.curse, state.fire_die) == (1, 3, True, True)


async def test_a_channel_manager_aborts_a_table_they_do_not_host(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str
) -> None:
    await run_bot()
    lobby = await table.open(world.alice, world.bob)
    table_id = table_of(lobby)
    assert table_id is not None
    ix = await table.slash(world.dave, "fp abort")
    assert await private_answer(ix) == refusal_text(Why.ABORT_WHO)
    assert (await stored_table(db_url, table_id)).status == "lobby"
    moderators = world.fake.create_role(world.guild, "moderators", Perm.MANAGE_CHANNELS)
    world.fake.state.add_member(world.guild, world.dave.account, [moderators])
    posted = len(table.bot_messages())
    ix = await table.slash(world.dave, "fp abort")
    await private_answer(ix)
    assert (await stored_table(db_url, table_id)).status == "aborted"
    await world.fake.wait_for(  # the channel is told, naming who closed it
        lambda: any("Dave" in m.content for m in newest(table.bot_messages(), posted)),
        TIMEOUT,
        "abort",
    )


async def test_hands_in_the_channel_for_good_with_the_button(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    hand = await answer(await table.click(world.alice, game, "My hand"))
    assert hand.ephemeral and "Y40" in tile_codes(hand)
    assert ("mode", "channel") in button_actions(hand)
    ix = await table.click(world.alice, hand, "Always show my hand here (no DMs)")
    await private_answer(ix)
    assert (await stored_prefs(db_url, world.alice.id)).hand_mode == "channel"
    dms_before = len(world.alice.dms())
    # Alice plays from the private hand; her new hand is not sent by DM, only on request.
    before = len(hand.revisions)
    await table.click(world.alice, hand, table.tile_labels(hand)[0])
    await table.screen_after(hand, before, "the spot step")
    await table.click_spot(world.alice, hand, "A")
    # Her own fall is asked on that same private screen; the thread gets the turn once done.
    assert "fall" in actions(hand) and table.latest_game().id == game.id
    after = await table.fall(world.alice, hand)
    assert TableDriver.decider(after) == world.bob.id
    assert len(world.alice.dms()) == dms_before
    hand = await answer(await table.click(world.alice, after, "My hand"))
    assert hand.ephemeral and "B2" in tile_codes(hand)
    assert ("mode", "dm") in button_actions(hand)


async def test_commands_go_to_the_development_server_when_one_is_set(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str
) -> None:
    await run_bot(dev_guild_id=world.guild.id)
    assert sorted(c.name for c in world.fake.commands(guild=world.guild)) == ["fp", "fp-settings"]
    assert world.fake.commands() == []  # nothing global
    lobby = await table.open(world.alice)  # and they work there
    assert ("join", "") in button_actions(lobby)
    table_id = table_of(lobby)
    assert table_id is not None
    assert (await stored_table(db_url, table_id)).status == "lobby"


async def test_the_host_adds_computer_players_of_each_level(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str
) -> None:
    await run_bot()
    lobby = await table.open(world.alice, world.bob)
    table_id = table_of(lobby)
    assert table_id is not None
    (menu,) = lobby.selects()
    assert [o["value"] for o in menu["options"]] == ["easy", "normal", "hard", "expert"]
    ix = await world.bob.select(lobby, "easy")
    assert await private_answer(ix) == refusal_text(Why.HOST_ONLY_ADD_AI)
    assert len((await stored_table(db_url, table_id)).seats) == 2
    for level in ("easy", "hard"):
        await table.add_computer(world.alice, level)
    assert "computer, easy" in card_text(lobby) and "computer, hard" in card_text(lobby)
    record = await stored_table(db_url, table_id)
    assert [s.ai for s in record.seats] == [None, None, "easy", "hard"]
    assert record.options.max_seats == 6


async def test_choosing_the_hand_mode_where_there_is_no_game(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str
) -> None:
    await run_bot()
    ix = await table.slash(world.bob, "fp hand", mode="channel")
    reply = await private_answer(ix)
    assert refusal_text(Why.NO_TABLE_HERE) in reply  # no hand to show here
    assert (await stored_prefs(db_url, world.bob.id)).hand_mode == "channel"  # but noted
    # The choice holds at the next game: Bob gets no hand by DM.
    await table.open(world.alice, world.bob)
    game = await table.start(world.alice)
    if table.decider(game) == world.bob.id:  # Bob begins: pinged in the channel
        assert game.notified == [world.bob.id]
        game = await table.step(game)
    await world.fake.wait_for(lambda: table.hand_message(world.alice), TIMEOUT, "Alice's turn")
    assert table.hand_message(world.bob) is None
    hand = await answer(await table.click(world.bob, game, "My hand"))
    assert hand.ephemeral and len(tile_codes(hand)) == 5


async def test_help_lists_every_registered_command_in_one_private_screen(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    await run_bot()
    ix = await table.slash(world.dave, "fp help")
    shown = await answer(ix)
    assert shown.ephemeral and not shown.buttons()
    text = shown.embed_text()
    (fp,) = [c.data for c in world.fake.commands(None) if c.name == "fp"]
    registered = [o["name"] for o in fp["options"]]
    assert {"new", "rules", "stats", "leaderboard", "help"} <= set(registered)
    for name in registered:  # every command Discord offers, each with what it does
        option = next(o for o in fp["options"] if o["name"] == name)
        assert f"`/fp {name}" in text and option["description"] in text
    assert "`/fp new [curse] [fire_die]" in text  # optional options in brackets
    assert "`/fp replay match`" in text  # a required one without
    assert "**How to play:**" in text


async def test_leaving_a_running_game_asks_first_and_a_stale_confirmation_changes_nothing(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await table.open(world.alice, world.bob, world.carol)
    await table.start(world.alice)
    table_id = table.table_id()
    posted = len(table.bot_messages())
    # /fp leave only asks, privately: Bob is still seated and the table is told nothing.
    asks = [await answer(await table.slash(world.bob, "fp leave")) for _ in range(2)]
    for ask in asks:
        assert ask.ephemeral and ask.content == ENGLISH.gettext(answertexts.LEAVE_CONFIRM)
        ((label, style),) = [(b.get("label"), b.get("style")) for b in ask.buttons()]
        assert label == "Leave the match" and style == discord.ButtonStyle.danger.value
    record = await stored_table(db_url, table_id)
    assert not record.departed and record.seats[1].user_id == world.bob.id
    assert len(table.bot_messages()) == posted
    # The button leaves, as /fp leave did: a computer player takes his seat.
    before = len(asks[0].revisions)
    await table.click_action(world.bob, asks[0], "quit")
    await table._wait_for_edit(asks[0], before)
    assert asks[0].content == answertexts.you_left(True, lang=ENGLISH) and not asks[0].buttons()
    record = await stored_table(db_url, table_id)
    assert dict(record.departed) == {1: world.bob.id}
    # A second confirmation, once he left, and /fp leave again: he is told he left already
    # (not that he never played here), privately, and nothing changes.
    again = await table.click_action(world.bob, asks[1], "quit")
    assert await private_answer(again) == refusal_text(Why.LEFT_MATCH)
    assert refusal_text(Why.LEFT_MATCH) == (
        "You already left this match; a computer player plays your seat."
    )
    ix = await table.slash(world.bob, "fp leave")
    assert await private_answer(ix) == refusal_text(Why.LEFT_MATCH)
    assert (await stored_table(db_url, table_id)).departed == record.departed
    # A confirmation clicked after the game ended: answered privately, nothing changes.
    ask = await answer(await table.slash(world.carol, "fp leave"))
    await private_answer(await table.slash(world.alice, "fp abort"))
    ended = await stored_table(db_url, table_id)
    late = await table.click_action(world.carol, ask, "quit")
    assert await private_answer(late) == refusal_text(Why.TABLE_CLOSED)
    after = await stored_table(db_url, table_id)
    assert (after.status, after.departed, after.version) == (
        "aborted",
        ended.departed,
        ended.version,
    )
    assert after.seats[2].user_id == world.carol.id


async def test_leaving_a_lobby_is_immediate(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str
) -> None:
    await run_bot()
    await table.open(world.alice, world.bob)
    table_id = table.table_id()
    ix = await table.slash(world.bob, "fp leave")
    assert await private_answer(ix) == answertexts.you_left(False, lang=ENGLISH)
    assert [s.user_id for s in (await stored_table(db_url, table_id)).seats] == [world.alice.id]


async def test_a_lobby_that_starts_while_leave_reads_it_asks_to_confirm_and_is_not_left(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The host's Start lands in the instant after Bob's /fp leave read the table as a lobby:
    the game has begun, so he is asked, as in any running game, and keeps his seat. (The
    bot's store is wrapped only to put the Start at that instant; it reads as before.)"""
    # The game stays in the channel where Bob typed (no thread), as when threads are not allowed.
    world.fake.set_permissions(world.games, "bot", deny=Perm.CREATE_PUBLIC_THREADS)
    bot = await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await table.open(world.alice, world.bob, world.carol)
    table_id = table.table_id()
    store = bot.service.store
    read = store.open_table_in_channel
    starting: list[bool] = []

    async def read_then_start(channel_id: int) -> Table | None:
        found = await read(channel_id)
        if not starting:
            starting.append(True)
            await table.start(world.alice)
        return found

    monkeypatch.setattr(store, "open_table_in_channel", read_then_start)
    ask = await answer(await table.slash(world.bob, "fp leave"))
    assert starting and (await stored_table(db_url, table_id)).status == "playing"
    assert ask.ephemeral and ask.content == ENGLISH.gettext(answertexts.LEAVE_CONFIRM), ask
    assert [a for a, _ in button_actions(ask)] == ["quit"]
    record = await stored_table(db_url, table_id)
    assert not record.departed and record.seats[1].user_id == world.bob.id
