"""Who speaks which language, as the table service keeps it: a player's hands and reminders carry
the language their client was last seen in; a new table's posts take the language ``/fp-settings``
chose for the server, else the server's own, else English; a click in an unchanged language
writes nothing."""

from __future__ import annotations

import pytest

from bot.service import Reminder, SettingsChange, SpotChoice, TableService
from data.store import GuildSettings, Store

from .conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, ManualClock, lobby, make_service, state

#: Two players; Alice's one tile ends the match when she plays it.
TWO = state(players=2, hands=[["Y40"], ["R2", "G2"]], piles=[[], ["G20"]])


async def test_a_hand_carries_its_players_language_as_their_client_was_last_seen(
    service: TableService, store: Store, clock: ManualClock
) -> None:
    await service.note_languages(ALICE, "fr", GUILD, "en-US")
    await service.note_languages(BOB, "en-GB", GUILD, "en-US")
    t = await lobby(service, ALICE, BOB, CAROL)
    step = await service.start_from_state(t, ALICE, state())
    assert {h.user_id: h.language for h in step.hands} == {ALICE: "fr", BOB: "en", CAROL: "en"}
    assert (await service.hand(t, ALICE)).language == "fr"
    # Another bot process reads the same: the language is kept, not only remembered.
    other = make_service(store, clock)
    assert (await other.hand(t, ALICE)).language == "fr"
    # Alice switches her client to English: her next click says so.
    await service.note_languages(ALICE, "en-GB", GUILD, "en-US")
    assert (await other.hand(t, ALICE)).language == "en"
    # A language the bot has no catalog for is English; a regional French is French.
    await service.note_languages(BOB, "ko", GUILD, "en-US")
    await service.note_languages(CAROL, "fr-CA", GUILD, "en-US")
    assert (await other.hand(t, BOB)).language == "en"
    assert (await other.hand(t, CAROL)).language == "fr"


async def test_a_reminder_carries_its_players_language(
    service: TableService, clock: ManualClock
) -> None:
    await service.note_languages(ALICE, "fr")  # from a direct message: no server
    t = await lobby(service, ALICE, BOB, turn_limit_s=3600, reminder_s=600)
    await service.start_from_state(t, ALICE, TWO)
    clock.advance(3600 - 600 + 1)
    [reminder] = await service.tick()
    assert isinstance(reminder, Reminder) and reminder.user_id == ALICE
    assert reminder.language == "fr"


async def test_a_click_in_the_language_the_store_holds_writes_nothing(
    service: TableService, store: Store, clock: ManualClock
) -> None:
    """What the process remembers is what the store holds: another process's write (here,
    straight into the store) goes unnoticed by clicks until a read of the player's preferences
    or the server's settings refreshes it, which shows that those clicks wrote nothing."""
    await service.note_languages(ALICE, "fr", GUILD, "fr")
    assert (await store.get_prefs(ALICE)).language == "fr"
    assert (await store.get_guild_settings(GUILD)).guild_locale == "fr"
    await store.set_player_language(ALICE, "en")
    await store.set_guild_locale(GUILD, "de")
    for _ in range(3):
        await service.note_languages(ALICE, "fr", GUILD, "fr")
    assert (await store.get_prefs(ALICE)).language == "en"  # not written again
    assert (await store.get_guild_settings(GUILD)).guild_locale == "de"
    # Reading them (a hand, a new table) refreshes what the process remembers...
    t = await lobby(service, ALICE, BOB)
    await service.start_from_state(t, ALICE, TWO)
    assert (await service.hand(t, ALICE)).language == "en"
    # ...so the next click writes the language again.
    await service.note_languages(ALICE, "fr", GUILD, "fr")
    assert (await store.get_prefs(ALICE)).language == "fr"
    assert (await store.get_guild_settings(GUILD)).guild_locale == "fr"
    # A player first seen in the language the store already holds is read, not written.
    fresh = make_service(store, clock)
    await store.set_player_language(BOB, "fr")
    await fresh.note_languages(BOB, "fr")
    await store.set_player_language(BOB, "en")
    await fresh.note_languages(BOB, "fr")
    assert (await store.get_prefs(BOB)).language == "en"


async def test_a_new_table_speaks_the_chosen_language_else_the_servers_else_english(
    service: TableService, store: Store, clock: ManualClock
) -> None:
    async def opened(channel: int) -> str:
        board = await service.new_table(GUILD, channel, ALICE, "Alice")
        assert board.language == board.table.language
        assert (await store.get_table(board.table_id)).language == board.language
        return board.language

    assert await opened(CHANNEL) == "en"  # a server never seen
    await service.note_languages(BOB, "en-US", GUILD, "fr")
    french = await opened(CHANNEL + 1)
    assert french == "fr"
    await service.settings(GUILD, SettingsChange.of(language="en"))
    assert await opened(CHANNEL + 2) == "en"
    assert (await store.get_guild_settings(GUILD)).language == "en"
    # The table opened in French stays French.
    assert (
        await service.board_of((await service.table_in_channel(CHANNEL + 1)).id)
    ).language == "fr"
    current = await service.settings(GUILD, SettingsChange.of(language="server"))
    assert (current.language, current.guild_locale) == (None, "fr")
    assert await opened(CHANNEL + 3) == "fr"
    # A choice holds whatever the server's own language becomes.
    await service.settings(GUILD, SettingsChange.of(language="fr"))
    await service.note_languages(BOB, "en-US", GUILD, "en-US")
    assert await opened(CHANNEL + 4) == "fr"
    # Another server keeps its own.
    await service.note_languages(BOB, "en-US", GUILD + 1, "en-GB")
    board = await service.new_table(GUILD + 1, CHANNEL + 5, ALICE, "Alice")
    assert board.language == "en"
    # Other settings leave the choice as it is.
    await service.settings(GUILD, SettingsChange.of(turn_limit_s=3600))
    assert (await store.get_guild_settings(GUILD)).language == "fr"


async def test_a_rematch_takes_the_servers_language_of_now(service: TableService) -> None:
    t = await lobby(service, ALICE, BOB)
    await service.start_from_state(t, ALICE, TWO)
    hand = await service.hand(t, ALICE)
    choice = await service.play(t, ALICE, "Y40", hand.digest)
    assert isinstance(choice, SpotChoice)
    await service.choose_spot(t, choice.version, ALICE, "Y40", choice.spots[0][1])
    assert (await service.board_of(t)).table.status == "finished"
    assert (await service.board_of(t)).language == "en"
    await service.settings(GUILD, SettingsChange.of(language="fr"))
    again = await service.rematch(t, BOB, "Bob")
    assert again.language == "fr"


async def test_a_language_that_is_not_a_choice_is_refused_and_changes_nothing(
    service: TableService, store: Store
) -> None:
    await service.settings(GUILD, SettingsChange.of(language="fr"))
    for wrong in ("de", "french", "", "FR"):
        with pytest.raises(ValueError):
            await service.settings(GUILD, SettingsChange.of(language=wrong, turn_limit_s=3600))
    assert await store.get_guild_settings(GUILD) == GuildSettings(GUILD, language="fr")
