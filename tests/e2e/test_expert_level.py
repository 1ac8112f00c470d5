"""The expert level in the bot, end to end, in English and in French (issue 32): the host seats
an expert from the lobby's menu, worded in the reader's language, and it plays a whole match as
the bot plays it (with its own search budget), rated as its own pseudo-player; the server
chooses the computer that plays for its absent players (``/fp-settings stand_in``): a time-out
says which one played, and a seat left goes to it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from bot import emoji as em
from data import open_store
from data.records import computer_key, level_of, records_for
from tests.fakediscord import Perm
from tests.fakediscord.fixtures import World

from .conftest import MakeBot, MovableClock
from .driver import (
    TIMEOUT,
    TableDriver,
    answer,
    card_text,
    is_final,
    stored_log,
    stored_settings,
    stored_table,
    table_of,
)
from .test_breaks import DEAL, posts_with
from .test_decisions import write_state

SHORT = {
    "players": 2,
    "pyramid": {"0,0": "Y30", "0,2": "R10"},
    "hands": [["Y40", "B2", "G6", "R6"], ["R2", "G2", "B4", "Y4"]],
    "piles": [["B10", "G10"], ["Y10", "G20"]],
    "active": 0,
}
"""A short deal: Alice against a computer, four tiles each."""


@dataclass(frozen=True)
class Words:
    """What players read, in one language (quoted as players see them)."""

    guild_locale: str | None
    locale: str
    labels: list[str]  # the lobby menu's options
    expert_said: str  # the expert option's description
    seat: str  # the card's seat line, after the computer's name
    stats_option: str  # /fp stats's option naming a computer level
    stats_title: str
    settings: str  # /fp-settings, as the client names it
    stand_in: str  # its option
    settings_said: str
    timed_out_normal: str
    timed_out_expert: str
    left: str


ENGLISH = Words(
    None,
    "en-US",
    ["Easy computer", "Normal computer", "Hard computer", "Expert computer"],
    "Looks a few turns ahead in many possible games, expecting the best replies",
    "🤖 computer, expert",
    "computer",
    "**Stats of the computer (expert)** in this server",
    "fp-settings",
    "stand_in",
    "A computer player (expert) plays for a player whose time runs out, who is away or who "
    "leaves a game.",
    f"{em.TIMED_OUT} Alice's time ran out: a computer player (normal) made this move for them.",
    f"{em.TIMED_OUT} Bob's time ran out: a computer player (expert) made this move for them.",
    f"{em.LEFT} Carol left the game; a computer player (expert) takes the seat.",
)
FRENCH = Words(
    "fr",
    "fr",
    ["Ordinateur facile", "Ordinateur normal", "Ordinateur difficile", "Ordinateur expert"],
    "Prévoit quelques tours dans de nombreuses parties possibles, face aux meilleures réponses",
    "🤖 ordinateur, expert",
    "ordinateur",
    "**Statistiques de l'ordinateur (expert)** sur ce serveur",
    "fp-réglages",
    "remplaçant",
    "Un joueur ordinateur (expert) remplace celui dont le temps s'écoule, qui est absent ou qui "
    "quitte une partie.",
    f"{em.TIMED_OUT} Le temps d'Alice est écoulé\u00a0: un joueur ordinateur (normal) a joué "
    "ce coup à sa place.",
    f"{em.TIMED_OUT} Le temps de Bob est écoulé\u00a0: un joueur ordinateur (expert) a joué ce "
    "coup à sa place.",
    f"{em.LEFT} Carol a quitté la partie\u00a0; un joueur ordinateur (expert) prend sa place.",
)
LANGUAGES = [pytest.param(ENGLISH, id="en"), pytest.param(FRENCH, id="fr")]


@pytest.mark.parametrize("words", LANGUAGES)
async def test_the_host_seats_an_expert_that_plays_a_whole_match_rated_as_its_own_player(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path, db_url: str, words: Words
) -> None:
    # The computers search as the bot lets them in play: each level's own budget.
    await run_bot(
        test_state_file=write_state(tmp_path, SHORT), ai_time_budget_s=None, ai_node_limit=None
    )
    if words.guild_locale:
        world.fake.set_guild_locale(world.guild, words.guild_locale)
    lobby = await table.open(world.alice)
    (menu,) = lobby.selects()
    assert [o["value"] for o in menu["options"]] == ["easy", "normal", "hard", "expert"]
    assert [o["label"] for o in menu["options"]] == words.labels
    assert menu["options"][-1]["description"] == words.expert_said
    before = len(lobby.revisions)
    await world.alice.select(lobby, "expert")
    await world.fake.wait_for(
        lambda: len(lobby.revisions) > before and lobby.settled, TIMEOUT, "the expert seated"
    )
    seats = [line for line in card_text(lobby).splitlines() if line.startswith("2. ")]
    assert len(seats) == 1 and seats[0].endswith(words.seat)
    table_id = table_of(lobby)
    assert table_id is not None

    game = await table.start(world.alice)
    final = await table.play_to_the_end(game, max_steps=100)
    assert is_final(final)
    record = await stored_table(db_url, table_id)
    assert record.status == "finished"
    assert [(s.user_id, s.ai) for s in record.seats] == [(world.alice.id, None), (None, "expert")]
    assert [a for a in await stored_log(db_url, table_id) if a.seat == 1 and "play" in a.action]

    # Rated as a player of the server of its own: its stats by its name in the reader's
    # language, its record as "ai:expert".
    world.carol.locale = words.locale
    ix = await world.carol.slash("fp stats", table.channel, **{words.stats_option: "expert"})
    table.interactions.append(ix)
    shown = await answer(ix)
    assert shown.ephemeral and shown.content.startswith(words.stats_title)
    assert [a.filename for a in shown.images()] == ["stats.png"]
    store = open_store(db_url)
    await store.open()
    try:
        stats = await records_for(store).player_stats(world.guild.id, computer_key("expert"))
    finally:
        await store.close()
    assert stats is not None and stats.record.matches == 1
    assert level_of(stats.record.player) == "expert"


async def test_every_command_that_names_a_level_offers_the_expert_in_both_languages(
    world: World, run_bot: MakeBot
) -> None:
    await run_bot()
    (fp,) = [c.data for c in world.fake.commands(None) if c.name == "fp"]
    stats = next(o for o in fp["options"] if o["name"] == "stats")
    (settings,) = [c.data for c in world.fake.commands(None) if c.name == "fp-settings"]
    stand_in = next(o for o in settings["options"] if o["name"] == "stand_in")
    assert stand_in["name_localizations"] == {"fr": "remplaçant"}
    for option in (next(o for o in stats["options"] if o["name"] == "computer"), stand_in):
        choices = [(c["value"], c["name"], c["name_localizations"]) for c in option["choices"]]
        assert choices == [
            ("easy", "Computer (easy)", {"fr": "Ordinateur (facile)"}),
            ("normal", "Computer (normal)", {"fr": "Ordinateur (normal)"}),
            ("hard", "Computer (hard)", {"fr": "Ordinateur (difficile)"}),
            ("expert", "Computer (expert)", {"fr": "Ordinateur (expert)"}),
        ]


@pytest.mark.parametrize("words", LANGUAGES)
async def test_the_servers_stand_in_plays_time_outs_and_takes_a_seat_left(
    world: World,
    run_bot: MakeBot,
    table: TableDriver,
    tmp_path: Path,
    clock: MovableClock,
    db_url: str,
    words: Words,
) -> None:
    await run_bot(test_state_file=write_state(tmp_path, DEAL))
    if words.guild_locale:
        world.fake.set_guild_locale(world.guild, words.guild_locale)
    admins = world.fake.create_role(world.guild, "admins", Perm.MANAGE_GUILD)
    world.fake.state.add_member(world.guild, world.dave.account, [admins])
    world.dave.locale = words.locale
    await table.open(world.alice, world.bob, world.carol, time_limit=300)
    game = await table.start(world.alice)
    assert TableDriver.decider(game) == world.alice.id

    # Alice's time runs out: the server chose no stand-in, a normal computer plays for her.
    clock.advance(301)
    game = await table.settled_game(game.id)
    assert TableDriver.decider(game) == world.bob.id
    assert posts_with(table, words.timed_out_normal)

    # The server chooses the expert: Bob's time runs out, the expert plays for him.
    said = await answer(await table.slash(world.dave, words.settings, **{words.stand_in: "expert"}))
    assert said.ephemeral and words.settings_said in said.content
    assert (await stored_settings(db_url, world.guild.id)).stand_in == "expert"
    clock.advance(301)
    game = await table.settled_game(game.id)
    assert TableDriver.decider(game) == world.carol.id
    assert posts_with(table, words.timed_out_expert)
    assert not posts_with(table, words.timed_out_expert.replace("(expert)", "(normal)"))

    # Carol leaves: an expert takes her seat, and plays her turn at once.
    await table.leave_match(world.carol)
    await world.fake.wait_for(lambda: posts_with(table, words.left), TIMEOUT, "Carol's leaving")
    table_id = table.table_id()

    game = await table.settled_game(game.id)
    assert TableDriver.decider(game) == world.alice.id
    seats = (await stored_table(db_url, table_id)).seats
    assert (seats[2].ai, seats[2].user_id) == ("expert", None)
    log = await stored_log(db_url, table_id)
    assert [(a.seat, a.user_id) for a in log] == [(0, None), (1, None), (2, None)]
