"""Breaks end to end, in English and in French (issue 31, "Step away without stalling the table"):
a player who steps away (``/fp away``) has each decision made at once by a computer, with no
direct message and no mention, the lobby card saying so, until a click on "I'm back"; the clock
running out on two decisions in a row sets a player away by itself, told once to them and once
to the table; a paused game stops its clocks, across a restart of the bot, and every deadline
moves on by the time paused."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

import i18n
from bot.show.texts import table_name
from data import open_store
from tests.fakediscord import FakeUser, Message
from tests.fakediscord.fixtures import StartBotProcess, World

from .conftest import MakeBot, MovableClock
from .driver import (
    TIMEOUT,
    TableDriver,
    answer,
    card_text,
    stored_log,
    stored_table,
    turn_notices,
)
from .test_decisions import pinged, write_state
from .test_restart_and_time import process_env, set_clock

DEAL = {
    # Alice plays first; everyone has turns enough for the tests, whoever plays them.
    "players": 3,
    "pyramid": {"0,0": "Y30", "0,2": "R10"},
    "hands": [["Y40", "B2", "R6", "G4"], ["R2", "G2", "Y6", "B6"], ["B4", "Y4", "R4", "G6"]],
    "piles": [["R20", "B20", "Y20"], ["G20", "R30", "B30"], ["B10", "G10", "Y10"]],
    "active": 0,
}


@dataclass(frozen=True)
class Words:
    """What players read, in one language (the catalogs' words, quoted as players see them)."""

    locale: str
    away: str  # the command, as the reader's client names it
    off: str  # its option
    pause: str
    reason: str  # its options
    length: str
    away_answer: str
    back: str  # the button
    welcome: str
    played_for: str
    away_on_card: str
    went_away: str
    went_away_dm: str
    paused: str
    resumed: str


FR = i18n.catalogs.language("fr")
ENGLISH = Words(
    "en-US",
    "fp away",
    "off",
    "fp pause",
    "reason",
    "length",
    "💤 You are away in this server until <t:",
    "I'm back",
    "Welcome back: your decisions are yours again.",
    "💤 Bob is away: a computer player (normal) made this move for them.",
    "2. Bob · 💤 back <t:",
    "💤 Alice's time ran out on 2 decisions in a row: a computer player now plays for them",
    "💤 Your time ran out on 2 decisions in a row at table #1 in <#",
    "⏸️ Alice paused the game until <t:",
    "▶️ The pause is over: every clock moved on by 1 hour, the time it was paused.",
)
FRENCH = Words(
    "fr",
    "fp absence",
    "fin",
    "fp pause",
    "raison",
    "durée",
    "💤 Vous êtes absent de ce serveur jusqu'au <t:",
    "Je suis de retour",
    "Bon retour\u00a0! Vos décisions redeviennent les vôtres.",
    "💤 Bob n'est pas là\u00a0: un joueur ordinateur (normal) a joué ce coup à sa place.",
    "2. Bob · 💤 de retour <t:",
    "💤 Le temps d'Alice s'est écoulé sur 2 décisions d'affilée\u00a0: un joueur ordinateur",
    f"💤 Votre temps s'est écoulé sur 2 décisions d'affilée à la {table_name(1, lang=FR)} dans <#",
    "⏸️ Alice a mis la partie en pause jusqu'au <t:",
    "▶️ La pause est finie\u00a0: chaque délai est repoussé de 1 heure, la durée de la pause.",
)
LANGUAGES = [pytest.param(ENGLISH, id="en"), pytest.param(FRENCH, id="fr")]


def speak(world: World, words: Words) -> None:
    """The server and every player in ``words``' language (the table is opened before, with
    the driver's English commands: the server's language is the table's)."""
    if words is FRENCH:
        world.fake.set_guild_locale(world.guild, "fr")
    for user in world.users:
        user.locale = words.locale


def posts_with(table: TableDriver, text: str) -> list[str]:
    """The table's posts in its channel and thread that contain ``text``."""
    return [m.content for m in table.bot_messages() if text in m.content]


async def until_decides(table: TableDriver, game: Message, user: FakeUser) -> Message:
    """Play on, as the players whose turn it is, until ``user`` must decide."""
    for _ in range(20):
        if TableDriver.decider(game) == user.id:
            return game
        game = await table.step(game)
    raise AssertionError(f"{user.name} never had to decide")


@pytest.mark.parametrize("words", LANGUAGES)
async def test_away_a_computer_plays_at_once_unannounced_until_i_m_back_is_clicked(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
    words: Words,
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, DEAL))
    if words is FRENCH:
        world.fake.set_guild_locale(world.guild, "fr")
    lobby = await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    speak(world, words)
    assert TableDriver.decider(game) == world.alice.id

    # Bob steps away, privately answered with the button that brings him back.
    ix = await table.slash(world.bob, words.away)
    said = await answer(ix)
    assert said.ephemeral and said.content.startswith(words.away_answer)
    assert said.labels() == [words.back]
    await world.fake.wait_for(
        lambda: words.away_on_card in card_text(lobby), TIMEOUT, "the card showing Bob away"
    )

    # His turn comes and goes at once: the computer's move, no DM, no mention of him.
    after = await table.play(world.alice, game)
    assert TableDriver.decider(after) == world.carol.id
    assert posts_with(table, words.played_for)
    log = await stored_log(db_url, table.table_id())
    assert [(a.seat, a.user_id) for a in log] == [(0, world.alice.id), (1, None)]
    assert turn_notices(world.bob) == []
    assert not [m for m in table.game_messages() if world.bob.id in pinged(world, m)]

    # One click on "I'm back": the answer says so (its button gone), the card too.
    before = len(said.revisions)
    await table.click(world.bob, said, words.back)
    await world.fake.wait_for(
        lambda: len(said.revisions) > before and said.settled, TIMEOUT, "the answer edited"
    )
    assert said.content == words.welcome and said.buttons() == []
    await world.fake.wait_for(
        lambda: words.away_on_card not in card_text(lobby), TIMEOUT, "the card without away"
    )

    # His next turn is his own again: told by direct message, played by him.
    after = await until_decides(table, after, world.bob)
    await world.fake.wait_for(lambda: turn_notices(world.bob), TIMEOUT, "Bob told of his turn")
    assert len(turn_notices(world.bob)) == 1
    await table.step(after)
    log = await stored_log(db_url, table.table_id())
    assert (log[-1].seat, log[-1].user_id) == (1, world.bob.id)


@pytest.mark.parametrize("words", LANGUAGES)
async def test_two_time_outs_in_a_row_set_a_player_away_told_once_to_them_and_to_the_table(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    clock: MovableClock,
    db_url: str,
    words: Words,
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, DEAL))
    if words is FRENCH:
        world.fake.set_guild_locale(world.guild, "fr")
    lobby = await table.open(world.alice, world.bob, world.carol, time_limit=300)
    game = await table.start(world.alice)
    speak(world, words)
    assert TableDriver.decider(game) == world.alice.id
    # Alice looks at her hand (her client's language is noted), then leaves it be.
    await answer(await table.click_action(world.alice, game, "hand"))

    clock.advance(301)  # Alice's clock runs out once: the computer plays that turn only
    after = await table.settled_game(game.id)
    assert TableDriver.decider(after) == world.bob.id
    assert not posts_with(table, words.went_away)
    after = await until_decides(table, after, world.alice)
    clock.advance(301)  # and a second time in a row: she is away now
    await world.fake.wait_for(
        lambda: posts_with(table, words.went_away), TIMEOUT, "the table told she is away"
    )
    dm = await world.alice.wait_for_dm(lambda m: words.went_away_dm in m.content, timeout=TIMEOUT)
    assert dm.labels()[0] == words.back
    await world.fake.wait_for(
        lambda: "1. Alice · 💤" in card_text(lobby), TIMEOUT, "the card showing Alice away"
    )

    # From now on her turns are the computer's at once, with no clock to wait for.
    after = await table.settled_game(after.id)
    assert TableDriver.decider(after) == world.bob.id
    after = await table.step(after)  # Bob, then Carol; then Alice's turn is played at once
    while TableDriver.decider(after) != world.bob.id:
        after = await table.step(after)
    log = await stored_log(db_url, table.table_id())
    alices = [(a.user_id, a.action.get("play") is not None) for a in log if a.seat == 0]
    assert [who for who, placed in alices if placed] == [None, None, None]
    # Told once each: the table, and Alice by one direct message.
    assert len(posts_with(table, words.went_away)) == 1
    assert [m.id for m in world.alice.dms() if words.went_away_dm in m.content] == [dm.id]

    # Her click on "I'm back" in that message: her decisions are hers again.
    before = len(dm.revisions)
    await table.click(world.alice, dm, words.back)
    await world.fake.wait_for(
        lambda: len(dm.revisions) > before and dm.settled, TIMEOUT, "the DM edited"
    )
    assert dm.content == words.welcome and dm.buttons() == []
    store = open_store(db_url)
    await store.open()
    try:
        assert await store.absence(world.guild.id, world.alice.id) is None
    finally:
        await store.close()


@pytest.mark.parametrize("words", LANGUAGES)
async def test_a_pause_across_a_restart_moves_every_deadline_by_the_time_paused(
    world: World,
    start_bot_process: StartBotProcess,
    table: TableDriver,
    tmp_path: Path,
    db_url: str,
    words: Words,
) -> None:
    env = process_env(tmp_path, db_url, FP_TEST_STATE_FILE=write_state(tmp_path, DEAL))
    set_clock(tmp_path, 0)
    proc = await start_bot_process("bot", env=env)
    if words is FRENCH:
        world.fake.set_guild_locale(world.guild, "fr")
    lobby = await table.open(world.alice, world.bob, world.carol, time_limit=3600)
    game = await table.start(world.alice)
    speak(world, words)
    table_id = table.table_id()
    before = await stored_table(db_url, table_id)
    assert before.deadline is not None and before.reminder_at is not None

    set_clock(tmp_path, 600)  # ten minutes of Alice's hour go by, then she pauses the game
    ix = await table.slash(
        world.alice, words.pause, options={words.reason: "dinner", words.length: 3600}
    )
    said = await answer(ix)
    assert said.ephemeral
    await world.fake.wait_for(
        lambda: posts_with(table, words.paused), TIMEOUT, "the thread told of the pause"
    )
    assert posts_with(table, words.paused)[0].splitlines()[0].endswith(": dinner")
    await world.fake.wait_for(lambda: "⏸️" in card_text(lobby), TIMEOUT, "the card paused")
    paused = await stored_table(db_url, table_id)
    assert paused.pause is not None and paused.reminder_at is None
    assert paused.deadline == paused.pause.until

    # The bot is down while the pause ends; nothing is reminded in the meantime.
    await proc.kill()
    set_clock(tmp_path, 600 + 3600 + 900)
    await proc.start()
    await world.fake.wait_for(
        lambda: posts_with(table, words.resumed[:20]), TIMEOUT, "the thread told it goes on"
    )
    resumed = await stored_table(db_url, table_id)
    assert resumed.pause is None
    assert resumed.deadline is not None and resumed.reminder_at is not None
    moved = resumed.deadline - before.deadline
    # Every deadline moved on by the time paused: from the pause to the restart that ended it.
    assert 3600 + 900 <= moved < 3600 + 900 + 60
    assert resumed.reminder_at - before.reminder_at == pytest.approx(moved)
    assert not [m for m in world.alice.dms() if "⏳" in m.content]  # no reminder meanwhile
    # And the game goes on from the same buttons.
    after = await table.play(world.alice, game)
    assert TableDriver.decider(after) == world.bob.id
    assert "Traceback" not in proc.output
