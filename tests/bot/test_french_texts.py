"""The bot's messages in French, the records' screens too: the same messages as in English,
each sentence whole in the catalog, the game's French vocabulary (tuile, pioche, emplacement,
glisse à gauche...), the French typography (a no-break space before : ; ! ?), within Discord's
limits; and which language each message is shown in (the table's for its posts, the player's for
their direct messages)."""

from __future__ import annotations

import re
from dataclasses import replace

import discord
import pytest
from babel.messages.pofile import read_po
from babel.support import NullTranslations

import i18n
from bot.errors import NotYourDecision, TableError, Why
from bot.languages import table_language
from bot.service import Hand, SpotChoice, TableService, spot_labels
from bot.show import answertexts, endtexts, handtexts, recordtexts, texts, turntexts, words
from bot.show import buttons as layouts
from bot.show.lobbycard import lobby_card
from data.records import BoardPage, PlayerRecord, PlayerStats
from engine import Game, view
from i18n import ENGLISH

from .conftest import ALICE, BOB, CAROL, lobby, play_tile, state
from .test_table_messages import card_labels, card_text, check_limits, payload, walk

DIGEST = "0123abcd"
"""A hand's fingerprint, as tile buttons carry it."""

FRENCH = i18n.catalogs.language("fr")
ENGLISH_WORDS = re.compile(r"\b(the|your|turn|tile|spot|pile|hand|round|Fall|table #)\b")
"""English words that a French message never contains (names and mentions aside)."""


def french(text: str) -> None:
    """``text`` reads as French: no English word of the game, French punctuation."""
    assert not ENGLISH_WORDS.search(text), text
    assert not re.search(r"\S [:;!?](\s|$|\*)", text), text  # a plain space before : ; ! ?


async def test_a_lobby_card_in_french(service: TableService) -> None:
    t = await lobby(service, ALICE, BOB)
    board = await service.add_ai(t, (await service.board_of(t)).version, ALICE, "hard")
    card = lobby_card(board, lang=FRENCH).to_components()
    text = card_text(card)
    assert "## 🔥 Flaming Pyramids — table n° 1" in text
    assert f"Hôte\u00a0: <@{ALICE}>" in text
    assert "sans malédiction · sans dé de feu · 1 manche · 24 heures par décision" in text
    assert "**Places (3/6)**" in text and "ordinateur, difficile" in text
    assert "**En attente de joueurs.** Rejoignez la table avec le bouton\u00a0;" in text
    french(text.replace("Flaming Pyramids", ""))
    labels = card_labels(card)
    assert labels[:5] == ["Comment jouer", "Rejoindre", "Quitter", "Lancer", "Annuler"]
    menu = next(c for c in walk(card) if c.get("type") == 3)
    assert menu["placeholder"] == "Ajouter un joueur ordinateur…"
    options = {o["label"]: o["description"] for o in menu["options"]}
    assert options["Ordinateur facile"] == "Joue au hasard une tuile qui peut se poser"
    # Discord's limits: a select option's label and description at most 100 characters.
    assert all(len(k) <= 100 and len(v) <= 100 for k, v in options.items())
    # The same card in English is word for word as before.
    english = card_text(lobby_card(board, lang=ENGLISH).to_components())
    assert "Host: <@" in english and "**Seats (3/6)**" in english and "computer, hard" in english


async def test_a_turn_post_and_its_buttons_in_french(service: TableService) -> None:
    t = await lobby(service, ALICE, BOB, CAROL)
    await service.start_from_state(t, ALICE, state(pyramid={"0,0": "Y2", "0,2": "R4"}))
    hand = await service.hand(t, ALICE)
    after = await play_tile(service, t, ALICE, "Y40", hand.digest)
    text = turntexts.step_content(after, FRENCH)
    assert "(trop de poids pour les deux tuiles dessous)" in text  # render/account's French
    assert (
        f"<@{ALICE}>, où glisse le jaune\u00a040\u00a0? Choisissez **Glisser à gauche** ou "
        "**Glisser à droite** (votre temps se termine <t:" in text
    )
    french(text)
    rows = payload(layouts.board_view(after.board, FRENCH))
    check_limits(rows)
    assert [b["label"] for b in rows[0]["components"]] == [
        "Glisser à gauche",
        "Glisser à droite",
        "Ma main",
    ]
    # English stays as it was.
    assert "Choose **Fall left** or **Fall right**" in turntexts.step_content(after, lang=ENGLISH)
    # A fall asked in the second row has a heading above it.
    falling = await service.hand(t, ALICE)
    rows = payload(layouts.hand_view(falling, fall_row=1, lang=FRENCH))
    check_limits(rows)
    assert [b["label"] for b in rows[0]["components"]] == ["Où glisse le jaune 40 ?"]
    assert [b["label"] for b in rows[1]["components"]][:2] == [
        "Glisser à gauche",
        "Glisser à droite",
    ]


async def test_a_turn_screen_in_french(service: TableService) -> None:
    t = await lobby(service, ALICE, BOB, CAROL)
    await service.start_from_state(t, ALICE, state(pyramid={"0,0": "Y30", "0,2": "R10"}))
    hand = await service.hand(t, ALICE)
    text = handtexts.hand_content(hand, guild_name="Club des pyramides", lang=FRENCH)
    first = text.splitlines()[0]
    assert first == (
        f"🔥 **À vous de jouer** à la table n° 1 dans <#{hand.channel_id}> sur Club des pyramides"
    )
    assert "Choisissez une tuile ci-dessous, puis son emplacement." in text
    french(text)
    rows = payload(layouts.hand_view(hand, fall_row=0, with_mode="channel", lang=FRENCH))
    check_limits(rows)
    labels = [b.get("label") for r in rows for b in r["components"]]
    assert "jaune 40 · stable" in labels and "Aller à la table" in labels
    assert "Toujours montrer ma main ici (pas de MP)" in labels
    choice = await service.play(t, ALICE, "Y40", hand.digest)
    assert isinstance(choice, SpotChoice)
    spots = handtexts.spot_content(choice, FRENCH)
    assert spots.startswith(
        "Où posez-vous **le jaune\u00a040**\u00a0? L'image montre les emplacements."
    )
    french(spots)
    labels = [
        b["label"] for r in payload(layouts.spot_view(choice, lang=FRENCH)) for b in r["components"]
    ]
    assert "Retour" in labels and any(label.endswith(" · stable") for label in labels)


def test_refusals_in_french() -> None:
    def quote(name: str) -> str:
        return texts.esc(name)

    assert words.refusal(TableError(Why.TILE_GONE), quote, FRENCH) == (
        "Cette tuile n'est plus dans votre main."
    )
    said = words.refusal(NotYourDecision("play", "Léa"), quote, FRENCH)
    assert (
        said == "C'est au tour de Léa, pas au vôtre. Vous serez prévenu quand ce sera votre tour."
    )
    need = TableError(Why.NEED_PLAYERS, detail={"min_seats": 2, "max_seats": 6, "seated": 1})
    assert words.refusal(need, quote, FRENCH).startswith(
        "Une partie se joue de 2 à 6 joueurs\u00a0; places occupées\u00a0: 1."
    )
    # Every refusal has its French words, with the same values.
    for why, english in words.REFUSALS.items():
        assert FRENCH.gettext(english) != english or why is Why.UNKNOWN_LEVEL, why
    assert (
        words.refusal(TableError(Why.TILE_GONE), quote, lang=ENGLISH)
        == "That tile is no longer in your hand."
    )


class OneSentence(NullTranslations):
    """A catalog of the given translations (every other message as written)."""

    def __init__(self, words: dict[str, str]) -> None:
        super().__init__()
        self.words = words

    def gettext(self, message: str) -> str:
        return self.words.get(message, message)


def test_a_refusal_elides_de_as_every_french_sentence_does() -> None:
    """A refusal's values come as a mapping (``format_map``): a French refusal elides "de"
    before a value that begins with a vowel all the same, and only there."""
    english = words.REFUSALS[Why.NOT_SHOWN_FORBIDDEN]
    fr = i18n.Language("fr", OneSentence({english: "Je ne peux pas publier de {what} ici."}))
    images = TableError(Why.NOT_SHOWN_FORBIDDEN, detail={"what": "images"})
    assert words.refusal(images, texts.esc, fr) == "Je ne peux pas publier d'images ici."
    posts = TableError(Why.NOT_SHOWN_FORBIDDEN, detail={"what": "messages"})
    assert words.refusal(posts, texts.esc, fr) == "Je ne peux pas publier de messages ici."
    # A name given by the service: quoted, and elided before.
    fr = i18n.Language("fr", OneSentence({english: "Ce n'est pas la table de {host}."}))
    hosted = TableError(Why.NOT_SHOWN_FORBIDDEN, names={"host": "Ève"})
    assert words.refusal(hosted, texts.esc, fr) == "Ce n'est pas la table d'Ève."


def test_answers_to_commands_in_french() -> None:
    assert answertexts.table_open(3, "https://x", FRENCH).startswith(
        "La table n° 3 est ouverte\u00a0: https://x\n"
    )
    assert texts.duration(86400, FRENCH) == "24 heures"
    assert texts.duration(3 * 86400, FRENCH) == "3 jours"
    assert texts.duration(60, FRENCH) == "1 minute"
    assert FRENCH.gettext(answertexts.MODE_CHOSEN["dm"]) == (
        "Désormais, vos mains vous arrivent en message privé."
    )
    assert handtexts.translated(endtexts.MATCH_OVER, FRENCH) == "🏁 La partie est terminée."
    assert handtexts.translated(handtexts.CLOSED, FRENCH) == "Cette table est fermée."
    assert texts.thread_name(12, FRENCH) == "Flaming Pyramids · table n° 12"
    assert handtexts.fell("left", FRENCH).endswith("La tuile glisse à gauche.")
    assert handtexts.fell("right", FRENCH, "R10").endswith("Le rouge\u00a010 glisse à droite.")
    assert handtexts.fell("right", i18n.ENGLISH, "R10").endswith("Red 10 falls right.")


async def test_a_table_posts_in_its_language_and_a_hand_in_its_players(
    service: TableService,
) -> None:
    t = await lobby(service, ALICE, BOB, CAROL)
    step = await service.start_from_state(t, ALICE, state())
    board = step.board
    assert table_language(board).code == "en"
    french_table = replace(board, table=replace(board.table, language="fr"))
    assert table_language(french_table).code == "fr"
    assert turntexts.step_content(step, lang=ENGLISH).startswith(
        "🔥 **Flaming Pyramids** — table #1 begins!"
    )
    said = turntexts.step_content(replace(step, board=french_table), table_language(french_table))
    assert said.startswith("🔥 **Flaming Pyramids** — la partie commence à la table n° 1\u00a0!")
    # A reminder by direct message, in its player's language.
    hand: Hand = replace(await service.hand(t, ALICE), language="fr")
    lang = i18n.catalogs.language(hand.language)
    assert handtexts.reminder_dm(board, lang).startswith(
        "⏳ Votre décision vous attend à la table n° 1 dans <#"
    )
    assert handtexts.hand_content(hand, lang=lang).startswith("🔥 **À vous de jouer**")


@pytest.mark.parametrize("lang", [i18n.ENGLISH, FRENCH], ids=["en", "fr"])
def test_many_spots_with_long_names_stay_within_discords_limits(lang: i18n.Language) -> None:
    game = Game.from_dict(state())
    spots = tuple((0, 2 * i) for i in range(47))
    choice = SpotChoice(
        1, 5, "Y40", spot_labels(spots), view(game, 0), ("x" * 32, "y" * 32, "z"), DIGEST
    )
    for page in range(-(-len(spots) // layouts.SPOTS_PER_PAGE)):
        check_limits(payload(layouts.spot_view(choice, page, lang=lang)))
    assert len(handtexts.spot_content(choice, lang)) <= texts.MAX_CONTENT


def test_every_french_message_puts_a_no_break_space_before_high_punctuation() -> None:
    with open(i18n.LOCALES_DIR / "fr" / "LC_MESSAGES" / "messages.po", "rb") as f:
        catalog = read_po(f)
    plain = re.compile(r"\S [:;!?](\s|$|\*|\))")
    wrong = [
        m.id
        for m in catalog
        if m.id
        for s in (m.string if isinstance(m.string, tuple) else (m.string,))
        if plain.search(s or "")
    ]
    assert wrong == []


def test_discord_buttons_reject_nothing_in_french() -> None:
    """The labels are at most 80 characters (Discord's limit), in French too."""
    labels = [
        FRENCH.pgettext("button", message)
        for message in (
            "Always show my hand here (no DMs)",
            "Send my hands by DM",
            "Remove computer",
            "More spots ({page}/{pages})",
        )
    ]
    assert all(len(label) <= 80 for label in labels)
    assert discord.ui.Button(label=labels[0]).label == labels[0]


def test_records_screens_in_french() -> None:
    record = PlayerRecord(
        1, "u:1", "Léa", mu=27.3456, sigma=2.1, matches=4, wins=2, tiles_left=10, streak=1,
        best_streak=2, tiles_taken=1,
    )  # fmt: skip
    stats = PlayerStats(record, rank=1, ranked_players=3, favourite_opening="Y40")
    text = recordtexts.stats_content(stats, FRENCH)
    assert text.splitlines()[0] == "**Statistiques de Léa** sur ce serveur"
    assert "Victoires\u00a0: **2 (50\u00a0%)**" in text
    assert "Cote\u00a0: **1421**" in text and "μ" not in text
    assert "Chaos subi\u00a0: **1 tuile reçue**" in text
    assert "Ouverture préférée\u00a0: **jaune 40**" in text
    assert "Rang sur ce serveur\u00a0: **1 sur 3**" in text
    # English as before, word for word.
    english = recordtexts.stats_content(stats, lang=ENGLISH)
    assert "Wins: **2 (50%)**" in english and "Rating: **1421**" in english
    assert "Mayhem suffered: **1 tile to pile**" in english
    board = BoardPage((record,), first_rank=1, total=1)
    said = recordtexts.board_content(board, FRENCH)
    assert said.startswith(
        "**Classement · page 1 sur 1** — Cote\u00a0: tout le monde part de 1000 · classé après "
        "3 parties"
    )
    assert "**Léa** 1421 · 4 parties, 2 victoires" in said
    no_match = words.refusal(TableError(Why.NO_MATCH), texts.esc, FRENCH)
    assert no_match == "Cette partie n'existe pas."
    assert recordtexts.history_content([], None, FRENCH) == (
        "**Parties récentes sur ce serveur**\u00a0: aucune terminée pour l'instant."
    )


# --- French as a French group writes it ----------------------------------------------------------


def test_a_computer_record_is_named_in_french() -> None:
    """A computer level's stats and leaderboard row name it in the reader's language, whatever
    name its record was stored under."""
    record = PlayerRecord(1, "ai:easy", "Computer (easy)", matches=3)
    stats = PlayerStats(record, rank=None, ranked_players=0, favourite_opening=None)
    assert recordtexts.stats_title(stats, FRENCH) == "Statistiques de l'ordinateur (facile)"
    assert "Computer" not in recordtexts.stats_content(stats, FRENCH)
    board = BoardPage((record,), first_rank=1, total=1)
    assert recordtexts.board_rows(board, lang=FRENCH)[0].label == "1. Ordinateur (facile)"
    assert "**Ordinateur (facile)**" in recordtexts.board_content(board, FRENCH)
    assert recordtexts.stats_title(stats, ENGLISH) == "Stats of the computer (easy)"


def test_the_records_rows_read_as_french() -> None:
    record = PlayerRecord(1, "u:1", "Léa", matches=1, tiles_taken=49)
    stats = PlayerStats(record, rank=None, ranked_players=0, favourite_opening=None)
    text = recordtexts.stats_content(stats, FRENCH)
    assert "Rang sur ce serveur\u00a0: **pas encore classé\u00a0: plus que 2 parties**" in text
    assert "Chaos subi\u00a0: **49 tuiles reçues**" in text
    assert FRENCH.pgettext("option description", "Whose stats (default: yours)") == (
        "Statistiques de ce joueur (par défaut\u00a0: les vôtres)"
    )


def test_the_narration_says_what_happened_in_french() -> None:
    """A tile that slides a second time "glisse encore à gauche" only after a slide to the left
    (never "encore à droite" after a slide to the left); it "s'effondre de nouveau"; a weight is
    "trop de poids" (not "son poids est trop lourd"); the die "indique" its face."""
    from engine import Event
    from render.account import turn_lines

    def told(second: str) -> list[str]:
        return turn_lines(
            [
                Event("placed", 0, "G60", (2, 1)),
                Event(
                    "collapsed", 0, "G60", (2, 1), to_pile=(("B20", (1, 1)),), detail="overweight"
                ),
                Event("fell", 0, "G60", (2, 1), (1, 0), detail="left"),
                Event(
                    "collapsed",
                    0,
                    "G60",
                    (1, 0),
                    to_pile=(("B2", (0, 0)), ("Y4", (0, 1))),
                    detail="overweight",
                ),
                Event("fell", 0, "G60", (1, 0), (0, 1), detail=second),
                Event("rolled", 0, "G60", detail="explosion"),
            ],
            ["Léa", "Max"],
            FRENCH,
            viewer=None,
        )

    said = told("right")
    assert said == [
        "Léa pose le vert 60.",
        "Le vert 60 s'effondre (trop de poids pour la tuile dessous) : le bleu 20 "
        "passe sous la pioche de Léa.",
        "Le vert 60 glisse à gauche.",
        "Le vert 60 s'effondre de nouveau (trop de poids pour les deux tuiles dessous) : "
        "le bleu 2 et le jaune 4 passent sous la pioche de Léa.",
        "Le vert 60 glisse à droite.",
        "Le dé de feu lancé pour le vert 60 indique : explosion.",
    ]
    assert "trop lourd" not in " ".join(said) and "donne" not in " ".join(said)
    assert told("left")[4] == "Le vert 60 glisse encore à gauche."


def test_the_refusals_and_hints_read_as_french() -> None:
    def refusal(why: Why) -> str:
        return words.refusal(TableError(why), texts.esc, FRENCH)

    assert refusal(Why.PASSED_MOMENT) == "Ce bouton n'est plus valable\u00a0; rien n'a été modifié."
    assert refusal(Why.MOVED_ON) == "Trop tard\u00a0: la partie a avancé."
    assert refusal(Why.ACTED_FIRST) == (
        "Trop tard\u00a0: quelqu'un a été plus rapide. Rien n'a été modifié."
    )
    assert refusal(Why.LOBBY_BUSY) == (
        "Quelqu'un modifie la table en ce moment\u00a0; veuillez réessayer."
    )
    assert FRENCH.gettext("Not your turn yet: your turn will come to you by direct message.") == (
        "Ce n'est pas encore votre tour\u00a0: il vous arrivera en message privé."
    )
    assert (
        FRENCH.gettext(
            "Each turn comes to its player with their hand (by direct message, or here with "
            "**My hand**)."
        )
        == "À son tour, chaque joueur reçoit sa main (en message privé, ou ici avec **Ma main**)."
    )


def test_one_word_per_thing_in_french() -> None:
    """Buttons say an infinitive; a tile is "posée" and "glisse"; the pile takes tiles "sous";
    the final standings are worded once."""
    assert FRENCH.pgettext("button", "Fall left") == "Glisser à gauche"
    assert FRENCH.pgettext("button", "Fall right") == "Glisser à droite"
    assert FRENCH.gettext("{player} plays {tile}") == "{player} pose {tile}"
    falls = FRENCH.ngettext(
        "{tiles} goes under {player}'s pile; {tile} falls",
        "{tiles} go under {player}'s pile; {tile} falls",
        2,
    )
    assert falls.endswith("{tile} glisse") and "tombe" not in falls
    to_pile = FRENCH.npgettext(
        "preview", "{count} tile to your pile", "{count} tiles to your pile", 2
    )
    assert to_pile == "{count} tuiles sous votre pioche"
    standings = "Classement final, tuiles restantes en main et en pioche"
    assert FRENCH.gettext(
        "Final standings, tiles left in hand and pile (lower wins): {scores}."
    ).startswith(standings + " (le plus petit total gagne)")
    assert FRENCH.ngettext(
        "Final standings, tiles left in hand and pile over {rounds} round (lower wins):",
        "Final standings, tiles left in hand and pile over {rounds} rounds (lower wins):",
        2,
    ).startswith(standings + " sur {rounds} manches (le plus petit total gagne)")


async def test_the_lobby_says_how_many_players_in_french(service: TableService) -> None:
    t = await lobby(service, ALICE, BOB)
    text = card_text(lobby_card(await service.board_of(t), lang=FRENCH).to_components())
    assert "l'hôte lance la partie (de 2 à 6 joueurs)" in text
    assert "à 2 à 6" not in text


def test_the_french_catalog_writes_one_apostrophe_and_one_numero() -> None:
    """The straight apostrophe throughout (as the elision of "de" writes it), and "n°"."""
    with (i18n.LOCALES_DIR / "fr" / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f)
    translated = [
        text
        for m in catalog
        if m.id
        for text in (m.string if isinstance(m.string, tuple) else (m.string,))
    ]
    assert not [t for t in translated if "\u2019" in t]
    assert not [t for t in translated if "nº" in t]
    assert any("n° {number}" in t for t in translated)
    elided = FRENCH.gettext("Stats of {player}").format(player="Ève")
    assert elided == "Statistiques d'Ève"
