"""A ``/fp-settings`` change is one record naming the settings it gives: it sets exactly those,
merges table defaults, and refuses a name or a type no setting has."""

from __future__ import annotations

import pytest

from bot.service import SettingsChange
from data.store import GuildSettings, TableDefaults


def test_a_change_sets_what_it_gives_and_merges_table_defaults() -> None:
    current = GuildSettings(7, reminder_s=60, defaults=TableDefaults(curse=True))
    change = SettingsChange.of(
        turn_limit_s=3600, reminder_s=None, defaults=TableDefaults(fire_die=True)
    )
    assert change.applied_to(current) == GuildSettings(
        7, turn_limit_s=3600, reminder_s=60, defaults=TableDefaults(curse=True, fire_die=True)
    )


def test_a_change_that_gives_nothing_is_empty() -> None:
    assert SettingsChange.of(turn_limit_s=None, defaults=TableDefaults()).given == {}


def test_a_setting_of_no_such_name_or_of_a_wrong_type_is_refused() -> None:
    with pytest.raises(ValueError, match="no such server setting"):
        SettingsChange.of(colour="red")
    with pytest.raises(ValueError, match="no such server setting"):
        SettingsChange.of(guild_locale="fr")
    with pytest.raises(ValueError, match="wrong type"):
        SettingsChange.of(turn_limit_s="soon").applied_to(GuildSettings(7))
