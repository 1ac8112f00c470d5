"""The other commands: a busy channel, missing permissions, status, rules, leave, abort,
settings and the hand delivery mode."""

from __future__ import annotations

from pathlib import Path

from tests.fakediscord import Perm
from tests.fakediscord.fixtures import World

from .conftest import MakeBot
from .driver import TIMEOUT, TableDriver, answer, is_game_message
from .test_decisions import COLLAPSE, private_answer, write_state


async def test_second_table_in_a_busy_channel_links_to_the_first(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    await run_bot()
    lobby = await table.open(world.alice)
    ix = await table.slash(world.bob, "fp new")
    answer = await private_answer(ix)
    assert "already has a table" in answer and str(lobby.id) in answer
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
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    await run_bot()
    lobby = await table.open(world.alice, world.bob)
    ix = await table.click(world.bob, lobby, "Start")
    assert "Only the host" in await private_answer(ix)
    ix = await table.click(world.carol, lobby, "Leave")
    assert "no seat" in await private_answer(ix)
    await table.click(world.alice, lobby, "Start")
    await table.settled_game()
    ix = await table.slash(world.carol, "fp leave")
    assert "not playing" in await private_answer(ix)


async def test_cancel_frees_the_channel(world: World, run_bot: MakeBot, table: TableDriver) -> None:
    await run_bot()
    lobby = await table.open(world.alice, world.bob)
    await table.click(world.alice, lobby, "Cancel")
    await world.fake.wait_for(lambda: "Cancelled" in lobby.embed_text(), TIMEOUT, "cancel")
    assert lobby.buttons() == []
    await table.slash(world.bob, "fp new")
    await world.fake.wait_for(lambda: table.lobby().id != lobby.id, TIMEOUT, "a new lobby")


async def test_status_rules_hand_mode(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    ix = await table.slash(world.dave, "fp status")  # anyone may ask
    status = await answer(ix)
    assert is_game_message(status) and not status.ephemeral
    assert "My hand" in status.labels()
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
    assert hand.ephemeral and "red 2" in hand.labels()

    def hands_by_dm() -> int:
        return len([m for m in world.bob.dms() if "Your hand" in m.content])

    dms_before = hands_by_dm()
    table.private_only.add(world.bob.id)
    after = await table.play(world.alice, game)  # Alice's fall choice comes next
    after = await table.step(after)
    assert TableDriver.decider(after) == world.bob.id
    after = await table.step(after)  # Bob plays; his new hand is not sent by DM
    assert hands_by_dm() == dms_before
    ix = await table.slash(world.dave, "fp hand")
    assert "not playing" in await private_answer(ix)


async def test_leave_a_running_game_and_abort(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    ix = await table.slash(world.alice, "fp leave")
    assert "computer player took your seat" in await private_answer(ix)
    # Alice's pending decisions are now made by a computer; then it is Bob's turn.
    nxt = await table.settled_game(game.id)
    assert TableDriver.decider(nxt) == world.bob.id
    ix = await table.slash(world.bob, "fp abort")
    assert "Only the host" in await private_answer(ix)
    ix = await table.slash(world.alice, "fp abort")  # the host, even after leaving
    assert "closed" in await private_answer(ix)
    await world.fake.wait_for(
        lambda: any("aborted" in m.content for m in table.bot_messages()), TIMEOUT, "abort"
    )
    ix = await table.slash(world.bob, "fp status")
    assert "no Flaming Pyramids table" in await private_answer(ix)


async def test_settings_are_for_admins(world: World, run_bot: MakeBot, table: TableDriver) -> None:
    await run_bot()
    ix = await table.slash(world.bob, "fp settings", time_limit=3600)
    assert "Only members who can manage" in await private_answer(ix)
    admin_role = world.fake.create_role(world.guild, "admins", Perm.MANAGE_GUILD)
    world.fake.state.add_member(world.guild, world.carol.account, [admin_role])
    ix = await table.slash(world.carol, "fp settings", time_limit=3600)
    assert "1 hour per decision" in await private_answer(ix)
    ix = await table.slash(world.carol, "fp settings", reminder=3600, curse=True)
    reply = await private_answer(ix)
    assert "1 hour per decision, reminder 1 hour before the end, curse on" in reply
    lobby = await table.open(world.alice)
    assert "curse on" in lobby.embed_text() and "1 hour per decision" in lobby.embed_text()
    # A table's own option still wins over the server's default.
    other = TableDriver(world.fake, world.general, table.users)
    lobby = await other.open(world.alice, curse=False)
    assert "curse off" in lobby.embed_text()


async def test_new_table_options(world: World, run_bot: MakeBot, table: TableDriver) -> None:
    await run_bot()
    lobby = await table.open(
        world.alice, world.bob, curse=True, fire_die=True, rounds=3, time_limit=900, max_seats=2
    )
    text = lobby.embed_text()
    for shown in ("curse on", "fire die on", "3 rounds", "15 minutes per decision", "(2/2)"):
        assert shown in text, text
    ix = await table.click(world.carol, lobby, "Join")
    assert "full" in await private_answer(ix)
    game = await table.start(world.alice)
    assert "curse on" not in game.content  # the options are said once, on the lobby card
    hand = await table.hand_for(world.alice, game)
    assert "round 1/3" in hand.content


async def test_a_channel_manager_aborts_a_table_they_do_not_host(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    await run_bot()
    await table.open(world.alice, world.bob)
    ix = await table.slash(world.dave, "fp abort")
    assert "Only the host" in await private_answer(ix)
    moderators = world.fake.create_role(world.guild, "moderators", Perm.MANAGE_CHANNELS)
    world.fake.state.add_member(world.guild, world.dave.account, [moderators])
    ix = await table.slash(world.dave, "fp abort")
    assert "closed" in await private_answer(ix)
    await world.fake.wait_for(
        lambda: any("aborted by Dave" in m.content for m in table.bot_messages()), TIMEOUT, "abort"
    )


async def test_hands_in_the_channel_for_good_with_the_button(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, COLLAPSE))
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    hand = await answer(await table.click(world.alice, game, "My hand"))
    assert hand.ephemeral and "yellow 40" in table.tiles(hand)
    ix = await table.click(world.alice, hand, "Always show my hand here (no DMs)")
    assert "not DM your hands" in await private_answer(ix)
    dms_before = len(world.alice.dms())
    # Alice plays from the private hand; her new hand is not sent by DM, only on request.
    before = len(hand.revisions)
    await table.click(world.alice, hand, table.tile_labels(hand)[0])
    await table.screen_after(hand, before, "the spot step")
    await table.click_spot(world.alice, hand, "A")
    falling = await table.settled_game(game.id)
    after = await table.fall(world.alice, falling)
    assert TableDriver.decider(after) == world.bob.id
    assert len(world.alice.dms()) == dms_before
    hand = await answer(await table.click(world.alice, after, "My hand"))
    assert hand.ephemeral and "blue 2" in table.tiles(hand)
    assert "Send my hands by DM" in hand.labels()


async def test_commands_go_to_the_development_server_when_one_is_set(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    await run_bot(dev_guild_id=world.guild.id)
    assert [c.name for c in world.fake.commands(guild=world.guild)] == ["fp"]
    assert world.fake.commands() == []  # nothing global
    lobby = await table.open(world.alice)  # and they work there
    assert "Waiting for players" in lobby.embed_text()


async def test_the_host_adds_computer_players_of_each_level(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    await run_bot()
    lobby = await table.open(world.alice, world.bob)
    for level in ("easy", "normal", "hard"):
        assert f"Add computer ({level})" in lobby.labels()
    ix = await table.click(world.bob, lobby, "Add computer (easy)")
    assert "Only the host" in await private_answer(ix)
    for level in ("easy", "hard"):
        before = len(lobby.revisions)
        await table.click(world.alice, lobby, f"Add computer ({level})")
        await world.fake.wait_for(
            lambda b=before: len(lobby.revisions) > b and lobby.settled, TIMEOUT, "lobby edit"
        )
    text = lobby.embed_text()
    assert "Computer 1 (easy)" in text and "Computer 1 (hard)" in text and "(4/6)" in text


async def test_choosing_the_hand_mode_where_there_is_no_game(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    await run_bot()
    ix = await table.slash(world.bob, "fp hand", mode="channel")
    reply = await private_answer(ix)
    assert "will not DM your hands" in reply and "no Flaming Pyramids table" in reply
    # The choice holds at the next game: Bob gets no hand by DM.
    await table.open(world.alice, world.bob)
    game = await table.start(world.alice)
    await world.fake.wait_for(lambda: table.hand_message(world.alice), TIMEOUT, "Alice's hand")
    assert table.hand_message(world.bob) is None
    hand = await answer(await table.click(world.bob, game, "My hand"))
    assert hand.ephemeral and len(table.tile_labels(hand)) == 5


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
