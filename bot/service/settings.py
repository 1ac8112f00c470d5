"""What one ``/fp-settings`` asks: a server's settings changed, as one record.

The settings themselves are declared once, in :class:`data.store.GuildSettings` (a field, its
type and its default). A change names the settings it gives by those fields' names, so that a
new setting passes from the command to the store with no code of its own on the way: the
command gives it, :meth:`SettingsChange.applied_to` sets it (a field of a wrong name or type is
a ValueError), and whatever uses it reads it from the record the store answers.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType

from data.store import GuildSettings, TableDefaults

_CHOICES = frozenset(f.name for f in fields(GuildSettings)) - {"guild_id", "guild_locale"}


@dataclass(frozen=True)
class SettingsChange:
    """The settings one ``/fp-settings`` gives, by their names in
    :class:`~data.store.GuildSettings`; the others stay as they are. Table defaults given
    (:class:`~data.store.TableDefaults`) are merged into the server's."""

    given: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def of(cls, **given: object) -> SettingsChange:
        """The change giving each setting that is not None (nor table defaults with none set).

        >>> SettingsChange.of(reminder_s=0, turn_limit_s=None).given
        mappingproxy({'reminder_s': 0})
        """
        kept = {
            name: value
            for name, value in given.items()
            if value is not None and not (isinstance(value, TableDefaults) and not value.to_dict())
        }
        unknown = kept.keys() - _CHOICES
        if unknown:
            raise ValueError(f"no such server setting: {sorted(unknown)}")
        return cls(MappingProxyType(kept))

    def applied_to(self, current: GuildSettings) -> GuildSettings:
        """``current`` with the settings given; a value of the wrong type is a ValueError."""
        changed: dict[str, object] = {}
        for name, value in self.given.items():
            if isinstance(value, TableDefaults):
                old = getattr(current, name)
                value = TableDefaults.from_dict({**old.to_dict(), **value.to_dict()})
            changed[name] = value
        new = replace(current, **changed)  # type: ignore[arg-type]  # checked just below
        read_back = GuildSettings.from_choices(new.guild_id, new.choices(), new.guild_locale)
        if read_back != new:
            raise ValueError(f"a server setting of the wrong type in {dict(self.given)!r}")
        return new
