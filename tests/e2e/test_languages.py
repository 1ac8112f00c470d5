"""``/fp rules`` and ``/fp help`` in each reader's language: a French client (``locale`` "fr")
reads them in French, pictures included, with the commands named as its client names them; an
English client in the same server reads English; a player who switches their client's language
reads the new one at their next command."""

from __future__ import annotations

import i18n
from bot import rules
from bot.errors import TableError, Why
from bot.show import texts, words
from engine import view
from i18n import ENGLISH
from render import alttext, render_table
from tests.fakediscord.fixtures import World

from .conftest import MakeBot
from .driver import TableDriver, answer

FRENCH = i18n.catalogs.language("fr")


async def test_a_french_client_reads_the_rules_in_french_and_an_english_one_in_english(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    await run_bot()
    world.alice.locale = "fr"
    shown = await answer(await table.slash(world.alice, "fp règles"))
    assert shown.ephemeral and len(shown.images()) == 2
    text = shown.embed_text()
    assert text.startswith("Flaming Pyramids en bref")
    for french in (
        "**But du jeu\u00a0:**",
        "**Règle de construction\u00a0:**",
        "La meule a toutes les couleurs",
        "passent sous **votre** pioche",
        "la tuile incendiaire qui a allumé le feu est retirée du jeu",
        "sous la pioche du joueur **précédent**",
        "*dé de feu*",
        "Le jaune 40 tient sur le jaune 30 et le rouge 10",
    ):
        assert french in text, french
    for english in ("Goal", "pile", "millstone", "Yellow 40"):
        assert english not in text, english
    fits = next(a for a in shown.images() if a.filename == "fits.png")
    # Read aloud in French too: its title, then the example's pyramid row by row.
    assert fits.description == alttext.table_text(
        view(rules._fits_example(), None), ["Léa", "Max"], title="Une tuile qui tient", lang=FRENCH
    )
    assert fits.description.startswith("Une tuile qui tient.\n")
    assert "Étage 2\u00a0: jaune 40, " in fits.description
    # The picture is the table picture in French, as render/ draws it (its title too).
    assert fits.data == render_table(
        view(rules._fits_example(), None), ["Léa", "Max"], title="Une tuile qui tient", lang=FRENCH
    )

    english = await answer(await table.slash(world.bob, "fp rules"))
    text = english.embed_text()
    assert text.startswith("Flaming Pyramids in short")
    assert "**previous** player's pile" in text and "pioche" not in text
    assert next(a for a in english.images() if a.filename == "fits.png").data != fits.data

    world.alice.locale = "en-GB"  # Alice switches her client to English
    again = await answer(await table.slash(world.alice, "fp rules"))
    assert again.embed_text() == text


async def test_a_french_client_reads_every_command_in_french_in_the_help(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    await run_bot()
    world.dave.locale = "fr"
    shown = await answer(await table.slash(world.dave, "fp aide"))
    assert shown.ephemeral
    text = shown.embed_text()
    assert text.startswith("Flaming Pyramids\u00a0: toutes les commandes")
    (fp,) = [c.data for c in world.fake.commands(None) if c.name == "fp"]
    for option in fp["options"]:  # each command as a French client shows it, and what it does
        name = (option.get("name_localizations") or {}).get("fr", option["name"])
        description = (option.get("description_localizations") or {}).get(
            "fr", option["description"]
        )
        assert f"`/fp {name}" in text and description in text, name
    assert "`/fp nouvelle [malédiction] [dé_de_feu]" in text  # options in French, in brackets
    assert "`/fp revoir partie`\u00a0:" in text  # a required option without brackets
    assert "**Comment jouer\u00a0:** `/fp nouvelle` ouvre une table ici" in text
    assert "`/fp règles` résume les règles" in text
    assert "`/fp new" not in text and "How to play" not in text

    english = await answer(await table.slash(world.carol, "fp help"))
    text = english.embed_text()
    assert "`/fp new [curse] [fire_die]" in text and "**How to play:** `/fp new`" in text
    assert "nouvelle" not in text


async def test_a_french_player_at_an_english_table_reads_their_own_answers_in_french(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    """The server's table speaks English in its thread; what answers a French player's own
    clicks (their hand, a refusal) is French, from their next click after they switch."""
    await run_bot()
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    people = {u.id: u for u in (world.alice, world.bob, world.carol)}
    decider = people[table.decider(game) or 0]
    other = next(u for u in people.values() if u is not decider)
    decider.locale = "fr"  # the player whose turn it is switches their client to French
    world.dave.locale = "fr"
    # The thread's posts stay English: the table's language.
    assert "your turn" in game.content and "My hand" in game.labels()
    assert "à vous" not in game.content and "Ma main" not in game.labels()

    mine = await answer(await table.click(decider, game, "My hand"))
    assert mine.ephemeral
    first = mine.content.splitlines()[0]
    assert first.startswith("🔥 **À vous de jouer** à la table n° 1 dans <#"), first
    assert "Choisissez une tuile ci-dessous, puis son emplacement." in mine.content
    assert "Your turn" not in mine.content and "Pick a tile" not in mine.content
    assert "Aller à la table" in mine.labels()
    assert "Go to the table" not in mine.labels()
    assert all(said_in_french(a.description) for a in mine.images())

    # A French stranger is refused in French; an English one in English.
    refused = await answer(await table.click(world.dave, game, "My hand"))
    french_refusal = words.refusal(TableError(Why.NOT_PLAYING), texts.esc, FRENCH)
    assert refused.content == french_refusal
    assert refused.content.startswith("Vous ne jouez pas à cette table")
    world.dave.locale = "en-US"  # and back to English: the next answer is English
    again = await answer(await table.click(world.dave, game, "My hand"))
    assert again.content == words.refusal(TableError(Why.NOT_PLAYING), texts.esc, lang=ENGLISH)

    # Another player, in English, sees their hand in English at the same table.
    theirs = await answer(await table.click(other, game, "My hand"))
    assert theirs.content.splitlines()[0].startswith("🃏 Your hand at table #1 in <#")
    # The thread is still English after all these clicks.
    assert all("à vous" not in m.content for m in table.game_messages())


def french_said(text: str) -> bool:
    """Whether a message of the bot's is in French (words English never uses here)."""
    return any(w in text for w in ("À vous de jouer", "votre tour", "Votre tour", " à la table"))


def said_in_french(description: str | None) -> bool:
    """Whether a picture of a player's screen is described in French (:mod:`render.alttext`):
    their hand, then the pyramid by floors."""
    return bool(description) and all(
        w in (description or "") for w in ("Votre main\u00a0: ", "Étage 1\u00a0: ")
    )


def english_said(text: str) -> bool:
    return any(w in text for w in ("Your turn", "your turn", " at table #"))


async def test_a_whole_game_each_in_their_own_language_in_private_and_the_servers_in_the_thread(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    """An English server, Bob's client in French: every screen Bob gets by DM is French, every
    one Alice and Carol get is English, and the thread is English, for a whole game."""
    await run_bot(seed=877)
    world.bob.locale = "fr"
    await table.open(world.alice, world.bob, world.carol)  # Bob's Join notes his language
    game = await table.start(world.alice)
    final = await table.play_to_the_end(game)
    screens = {u.name: [m for m in u.dms() if m.revisions[0].attachments] for u in world.users[:3]}
    assert all(screens.values())
    for m in screens["bob"]:
        first = m.revisions[0].content
        assert french_said(first) and not english_said(first), first
        assert all(said_in_french(a.description) for a in m.revisions[0].attachments)
    for name in ("alice", "carol"):
        for m in screens[name]:
            first = m.revisions[0].content
            assert english_said(first) and not french_said(first), first
    for m in table.game_messages():
        assert not french_said(m.content), m.content
    assert "Rematch" in final.labels()


async def test_a_french_server_plays_in_french_in_the_thread_and_an_english_player_reads_english(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    """The reverse: a French server's table posts in French (thread name, posts, buttons), and
    Alice, whose client is English, gets her screens in English; when she switches to French,
    the next screen she opens is French."""
    await run_bot(seed=877)
    world.fake.set_guild_locale(world.guild, "fr")
    for u in (world.bob, world.carol):
        u.locale = "fr"
    await table.open(world.alice, world.bob, world.carol)
    game = await table.start(world.alice)
    thread = table.thread()
    assert thread is not None and "table n° 1" in thread.name
    assert french_said(game.content) or "a joué" in game.content, game.content
    assert "Ma main" in game.labels() and "My hand" not in game.labels()
    for _ in range(6):  # two turns each
        game = await table.step(game)
    for m in table.game_messages():
        assert not english_said(m.content), m.content
    alices = [m for m in world.alice.dms() if m.revisions[0].attachments]
    assert alices and all(english_said(m.revisions[0].content) for m in alices)
    bobs = [m for m in world.bob.dms() if m.revisions[0].attachments]
    assert bobs and all(french_said(m.revisions[0].content) for m in bobs)
    # Alice switches her client to French: the next answer to her click is French.
    world.alice.locale = "fr"
    mine = await answer(await table.click_action(world.alice, game, "hand"))
    assert french_said(mine.content) or "Votre main" in mine.content, mine.content
