"""Hints on practice tables (issue 32 §2) end to end, as players meet them: the lobby card and the
pictures say the table is a practice table and not rated; Hint on a turn's screen and on a fall's
answers privately, with no notification and nothing public, the line the coach's figures for that
player's view give; a double tap answers once; a Hint of a moment that has passed shows the newest
hand; a practice match leaves no rating; a French player reads it in French."""

from __future__ import annotations

import math
import re
from pathlib import Path

from bot.service import Hint, TableService, hint_seed
from bot.show.handtexts import OUT_OF_DATE_HAND
from bot.show.hinttexts import hint_line
from bot.show.recordtexts import NO_STATS
from data import open_store
from data.records import records_for
from engine import Play, View, view
from engine.ai.coach import Judgement, judge
from i18n import ENGLISH, catalogs
from render.narration import tile_in_text
from tests.fakediscord import Message, Perm
from tests.fakediscord.fixtures import World

from .conftest import MakeBot
from .driver import (
    TIMEOUT,
    TableDriver,
    actions,
    answered_and_still,
    button_actions,
    card_text,
    is_final,
    is_spot_step,
    stored_game,
    stored_settings,
    stored_table,
    table_of,
    turn_notices,
)
from .test_decisions import COLLAPSE, private_answer, write_state
from .test_records import SHORT, slash_answer

FRENCH = catalogs.language("fr")
NODES = 2000
"""The computer players' node limit of the end-to-end bot (``bot_config``): the hints' too."""

CHOICES = {
    # Alice has four tiles for two spots: some fit, some do not.
    "players": 3,
    "pyramid": {"0,0": "Y30", "0,2": "R10", "0,4": "B20"},
    "hands": [["Y40", "R6", "B100", "G2"], ["R2", "G4", "Y6"], ["B4", "Y4", "G6"]],
    "piles": [["R20", "G20"], ["G30"], ["B10"]],
    "active": 0,
}
PRACTICE_SAID = "A practice table: hints on, not rated."


def hint_version(screen: Message) -> int:
    """The table version a screen's Hint names (its decision)."""
    button = TableDriver.action_button(screen, "hint")
    return int(str(button["custom_id"]).split(":")[2])


def unbounded(v: View, seed: int) -> Judgement:
    """The coach of the bot's hints with its clock out of the way (bounded by the node limit
    only, as the bot's search is unless the machine is very slow)."""
    return judge(v, seed, time_budget_s=math.inf, node_limit=NODES, deals=32)


async def expected_hint(db_url: str, table_id: int, version: int, user_id: int) -> Hint:
    """The hint the table service works out for that decision from the stored table."""
    store = open_store(db_url)
    await store.open()
    try:
        return await TableService(store, coach=unbounded).hint(table_id, version, user_id)
    finally:
        await store.close()


def told(message: Message) -> str:
    """What a picture of the message says to a screen reader."""
    return " ".join(a.description or "" for a in message.attachments)


async def test_a_practice_tables_card_and_pictures_say_it_is_not_rated_and_hint_answers_privately(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await begin_practice(world, run_bot, table, tmp_path, CHOICES)
    lobby = table.lobby()
    assert "💡 **Practice table:** the **Hint** button of your turn" in card_text(lobby)
    assert "Not rated: this match changes no one's stats." in card_text(lobby)
    game = await table.start(world.alice)
    assert PRACTICE_SAID in told(game)
    screen = await table.hand_for(world.alice, game, turn=True)
    assert screen.channel.is_dm and PRACTICE_SAID in told(screen)
    assert actions(screen)[-1] == "hint"
    table_id, version = table.table_id(), hint_version(screen)
    public = len(table.bot_messages())
    notices = len(turn_notices(world.alice))
    shown = [r.content for r in screen.revisions]

    said = await table.hint(world.alice, screen)

    # Private, under the screen: no new direct message that notifies, nothing public, and the
    # screen as it was.
    assert said.ephemeral and said.channel.is_dm and not said.attachments
    assert len(table.bot_messages()) == public and len(turn_notices(world.alice)) == notices
    assert [r.content for r in screen.revisions] == shown
    # The coach's judgement of Alice's view, in the words of the line.
    h = await expected_hint(db_url, table_id, version, world.alice.id)
    assert said.content == hint_line(h, ENGLISH)
    state = await stored_game(db_url, table_id)
    judged = unbounded(view(state, 0), hint_seed(table_id, version))
    assert h.best.action == judged.best and isinstance(judged.best, Play)
    named = tile_in_text(judged.best.tile, ENGLISH)
    assert said.content.startswith(f"💡 **Play {named} on spot {h.best.spot}.** ")
    assert (await stored_game(db_url, table_id)).to_dict() == state.to_dict()  # nothing moved


async def test_a_fall_gets_a_hint_and_a_double_tap_answers_once(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await begin_practice(world, run_bot, table, tmp_path, COLLAPSE)
    game = await table.start(world.alice)
    falling = await table.play(world.alice, game)  # yellow 40 is too heavy: she chooses
    assert falling.channel.is_dm and actions(falling)[:2] == ["fall", "fall"]
    assert "hint" in actions(falling)
    table_id, version = table.table_id(), hint_version(falling)
    button = TableDriver.action_button(falling, "hint")
    taps = await world.alice.double_click(
        falling, custom_id=str(button["custom_id"]), gap=0.05, second="same"
    )
    pressed = [ix for ix in taps if ix is not None]
    await answered_and_still(world.fake, falling, pressed)
    await world.fake.wait_for(
        lambda: any(not m.loading for ix in pressed for m in ix.followups), TIMEOUT, "the hint"
    )
    answers = [m for ix in pressed for m in ix.followups]
    assert len(pressed) == 2 and len(answers) == 1 and answers[0].ephemeral
    h = await expected_hint(db_url, table_id, version, world.alice.id)
    assert h.decision == "fall"
    assert answers[0].content == hint_line(h, ENGLISH)
    assert re.match(r"💡 Press \*\*Fall (left|right)\*\*\. ", answers[0].content)
    # The fall is still hers to choose, on the same screen.
    assert [a for a, _ in button_actions(falling)][:2] == ["fall", "fall"]


async def test_a_hint_whose_moment_passed_shows_the_newest_hand(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    await begin_practice(world, run_bot, table, tmp_path, CHOICES)
    game = await table.start(world.alice)
    screen = await table.hand_for(world.alice, game, turn=True)
    old = TableDriver.action_button(screen, "hint")
    await table.play(world.alice, game, lambda labels: next(x for x in labels if "fits" in x))
    # Her turn is played; the Hint her phone still shows is pressed.
    before = len(screen.revisions)
    ix = await table.tap_seen(world.alice, screen, old)
    await world.fake.wait_for(
        lambda: len(screen.revisions) > before and screen.settled, TIMEOUT, "the newest hand"
    )
    assert ix.response_type == 6 and ix.followups == []  # on the screen itself
    assert OUT_OF_DATE_HAND in screen.content
    assert "hint" not in actions(screen)  # not her decision any more


async def test_a_practice_match_is_played_with_hints_and_leaves_no_rating(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, SHORT))
    table.hints.add(world.alice.id)
    await table.open(world.alice, hints=True)
    await table.add_computer(world.alice, "hard")
    game = await table.start(world.alice)
    final = await table.play_to_the_end(game, max_steps=100)
    assert is_final(final) and PRACTICE_SAID in told(final)
    assert len(table.hinted) >= 3  # a Hint before each of her decisions
    assert all(said.ephemeral and said.content.startswith("💡 ") for _, said, _ in table.hinted)
    stats = await slash_answer(world.alice, table, "fp stats")
    assert stats.content == ENGLISH.gettext(NO_STATS).format(who="Alice")
    store = open_store(db_url)
    await store.open()
    try:
        records = records_for(store)
        await records.rate_pending()
        assert await records.all_records(world.guild.id) == []
        [played] = await records.history(world.guild.id, world.alice.id, 5)
        assert played.table_id == table.table_id()  # still a match of her history
    finally:
        await store.close()


async def test_a_french_player_reads_the_card_the_picture_and_the_hint_in_french(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    world.bob.locale = "fr"
    await begin_practice(world, run_bot, table, tmp_path, {**CHOICES, "active": 1})
    game = await table.start(world.alice)
    screen = await table.hand_for(world.bob, game, turn=True)
    assert "Table d'entraînement, avec conseils, non classée." in told(screen)
    hint = TableDriver.action_button(screen, "hint")
    assert hint["label"] == "Conseil"
    said = await table.hint(world.bob, screen)
    h = await expected_hint(db_url, table.table_id(), hint_version(screen), world.bob.id)
    assert said.content == hint_line(h, FRENCH)
    assert said.content.startswith("💡 **Posez ") and "sur l'emplacement" in said.content
    assert not re.search(r"\b(the|your|tile|spot|pile|fits)\b", said.content), said.content
    assert not re.search(r"\S [:;!?]", said.content), said.content  # no-break spaces


async def begin_practice(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, state: dict[str, object]
) -> None:
    """Alice, Bob and Carol at a practice table dealt ``state``."""
    await run_bot(test_state_file=write_state(tmp_path, state))
    await table.open(world.alice, world.bob, world.carol, hints=True)


async def test_a_server_makes_its_new_tables_practice_tables_by_default(
    world: World, run_bot: MakeBot, table: TableDriver, db_url: str
) -> None:
    """``/fp-settings hints:True``: the server's new tables are practice tables unless opened
    with ``hints:False``; the answer says so."""
    await run_bot()
    admins = world.fake.create_role(world.guild, "admins", Perm.MANAGE_GUILD)
    world.fake.state.add_member(world.guild, world.carol.account, [admins])
    said = await private_answer(await table.slash(world.carol, "fp-settings", hints=True))
    assert "New tables are practice tables: the Hint button shows the move the expert" in said
    assert (await stored_settings(db_url, world.guild.id)).defaults.hints is True

    lobby = await table.open(world.alice)
    table_id = table_of(lobby)
    assert table_id is not None and (await stored_table(db_url, table_id)).options.hints
    assert "**Practice table:**" in card_text(lobby)
    rated = TableDriver(world.fake, world.general, table.users)
    lobby = await rated.open(world.alice, hints=False)
    table_id = table_of(lobby)
    assert table_id is not None and not (await stored_table(db_url, table_id)).options.hints
    assert "**Practice table:**" not in card_text(lobby)

    said = await private_answer(await table.slash(world.carol, "fp-settings", hints=False))
    assert "practice tables" not in said
    world.fake.assert_no_failed_interactions()


async def test_the_spot_step_has_a_hint_too_and_stays_as_it_is(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str
) -> None:
    """Once a tile is chosen, the spot step offers Hint at the end of Back's row (where no
    second tap of the step before lands): the same private answer as the tile step's."""
    await begin_practice(world, run_bot, table, tmp_path, CHOICES)
    game = await table.start(world.alice)
    screen = await table.hand_for(world.alice, game, turn=True)
    arg = next(a for k, a in button_actions(screen) if k == "play" and a.startswith("Y40."))
    revisions = len(screen.revisions)
    ix = await table.click_action(world.alice, screen, "play", arg)
    await table.screen_after(screen, revisions, "the spot step", ix, is_spot_step)
    button = TableDriver.action_button(screen, "hint")
    assert screen.place_of(str(button["custom_id"])) == (1, 1)  # after Back
    table_id, version = table.table_id(), hint_version(screen)
    shown = [r.content for r in screen.revisions]

    said = await table.hint(world.alice, screen)

    assert said.ephemeral and said.channel.is_dm
    h = await expected_hint(db_url, table_id, version, world.alice.id)
    assert said.content == hint_line(h, ENGLISH)
    assert [r.content for r in screen.revisions] == shown and is_spot_step(screen)
    world.fake.assert_no_failed_interactions()
