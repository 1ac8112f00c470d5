"""The words of breaks (issue 31) in French and English: every notice, line and answer of a
player away and of a paused game reads as French in French (the game's words, the no-break
space before : ; ! ?), says the same in English as the tests elsewhere quote, and fits
Discord's limits."""

from __future__ import annotations

from dataclasses import replace

import i18n
from bot.service import AwayChange, Resumed, TableService, WentAway
from bot.show import breaktexts, lobbytexts, turntexts
from bot.show.texts import MAX_CONTENT
from i18n import ENGLISH

from .conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, lobby, state
from .test_french_texts import french

FRENCH = i18n.catalogs.language("fr")
DAY = 24 * 3600


async def test_every_word_of_a_break_in_french_and_in_english(service: TableService) -> None:
    t = await lobby(service, ALICE, BOB, CAROL)
    await service.start_from_state(t, ALICE, state(active=1))
    change = await service.go_away(GUILD, BOB, 3 * DAY)
    away = await service.board_of(t)
    paused = (await service.pause(CHANNEL, ALICE, "Ann", "thé", DAY, may_manage=False)).board
    went = WentAway(away, BOB, 1, 2.0e9, 2, True, "fr")
    resumed = Resumed(paused, "Ann", 5400.0)
    for lang in (FRENCH, ENGLISH):
        texts = [
            breaktexts.away_prompt(away, lang),
            breaktexts.played_for_away(away, 1, "expert", lang),
            breaktexts.pause_line(paused, lang),
            breaktexts.paused(paused, lang),
            breaktexts.resumed(resumed, turntexts.prompt_line(paused, lang, spectator=False), lang),
            breaktexts.went_away(went, lang),
            breaktexts.went_away(replace(went, dm=False), lang),
            breaktexts.away_seat(2.0e9, lang),
            breaktexts.lobby_pause(paused, lang),
            breaktexts.went_away_dm(went, "Club des pyramides", lang),
            breaktexts.away_set(change, lang),
            breaktexts.away_ended(change, lang),
            breaktexts.away_ended(AwayChange(GUILD, BOB, None, changed=False), lang),
            breaktexts.pause_done(paused, lang),
            breaktexts.resume_done(paused, lang),
            lobbytexts.lobby_seats(away, lang),
        ]
        assert all(0 < len(x) <= MAX_CONTENT for x in texts)
        if lang is FRENCH:
            for text in texts:
                french(text)
    assert breaktexts.resumed(resumed, "", FRENCH) == (
        "▶️ Ann a repris la partie\u00a0: chaque délai est repoussé de 2 heures, la durée "
        "de la pause."
    )
    assert breaktexts.resumed(resumed, "", ENGLISH) == (
        "▶️ Ann resumed the game: every clock moved on by 2 hours, the time it was paused."
    )
    # The card's mark stays true once the time has come, unedited: Discord counts it live
    # ("de retour dans 3 jours", then "de retour il y a 2 heures").
    back = f"<t:{int(away.away[1])}:R>"
    assert f"2. user12 · 💤 de retour {back}" in lobbytexts.lobby_seats(away, FRENCH)
    assert f"2. user12 · 💤 back {back}" in lobbytexts.lobby_seats(away, ENGLISH)
    # The mention when no direct message tells them how to come back.
    assert breaktexts.went_away(replace(went, dm=False), ENGLISH).endswith(
        f"<@{BOB}>, `/fp away off:True` brings you back."
    )
