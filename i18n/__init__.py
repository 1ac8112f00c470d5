"""Languages: which ones the project speaks, which one a Discord user gets, and their words.

The one package that knows languages, shared by ``bot/`` (its messages, commands, rules) and
``render/`` (every word a picture draws); it imports neither. A language is a compiled gettext
catalog ``<directory>/<language>/LC_MESSAGES/messages.mo`` (its source ``messages.po`` beside
it, the template ``<directory>/messages.pot``), one domain for the whole project: the languages
are discovered from the catalogs present, so a new one is one ``.po`` file, picked up with no
change to the code (``docs/translating.md`` says how to add one). English is the language of
the source strings and needs no catalog; it is also what anyone gets whose language has none.

Discord names a user's language by a locale tag (``interaction.locale``, ``guild_locale``:
``"fr"``, ``"en-US"``, ``"pt-BR"``, ...); :meth:`Catalogs.language_for` maps it to the best
language there is. Everything else takes a language as returned by it.

>>> catalogs.language_for("fr"), catalogs.language_for("en-GB"), catalogs.language_for("ko")
('fr', 'en', 'en')
>>> catalogs.for_locale("fr").pgettext("command name", "new")
'nouvelle'
"""

from __future__ import annotations

import datetime
import logging
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Final

import babel.dates
import babel.numbers
from babel import Locale, UnknownLocaleError
from babel.support import NullTranslations, Translations

log = logging.getLogger(__name__)

DOMAIN: Final = "messages"
"""The catalogs' gettext domain: ``messages.pot``, ``messages.po``, ``messages.mo``."""
SOURCE_LANGUAGE: Final = "en"
"""The language the strings are written in, and everyone's language where there is no other."""
LOCALES_DIR: Final = Path(__file__).with_name("locales")
"""Where the project's catalogs are (package data)."""
ALIASES: Final[dict[str, str]] = {"no": "nb"}
"""Discord tags whose language a catalog names otherwise: Discord's ``no`` is Norwegian Bokmål,
``nb`` in CLDR and gettext."""

Number = int | float | Decimal


def N_(message: str) -> str:
    """Marks a string for extraction where it is defined; it is translated where it is shown."""
    return message


class Catalogs:
    """The languages of one folder of catalogs, each loaded once, on first use."""

    def __init__(self, directory: Path = LOCALES_DIR) -> None:
        self.directory = directory
        self._languages: frozenset[str] | None = None
        self._loaded: dict[str, NullTranslations] = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"Catalogs({self.directory!r})"

    @property
    def languages(self) -> frozenset[str]:
        """The languages with a compiled catalog, and English."""
        if self._languages is None:
            found = {SOURCE_LANGUAGE}
            if self.directory.is_dir():
                for entry in self.directory.iterdir():
                    if not (entry / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file():
                        continue
                    try:
                        Locale.parse(entry.name)
                    except (ValueError, UnknownLocaleError):
                        log.warning("catalog folder %s is not named after a language", entry)
                        continue
                    found.add(entry.name)
            self._languages = frozenset(found)
        return self._languages

    def language_for(self, locale: str | None) -> str:
        """The best language for a Discord locale tag (``"fr"``, ``"en-US"``, ``"pt-BR"``):
        the catalog of that exact locale, else of its language (``pt`` for ``pt-BR``), else of
        another variant of that language (``pt_PT``), else English.

        >>> catalogs.language_for("fr"), catalogs.language_for(None)
        ('fr', 'en')
        """
        if not locale:
            return SOURCE_LANGUAGE
        by_key = {language.lower(): language for language in self.languages}
        tag = locale.replace("-", "_").lower()
        if tag in by_key:
            return by_key[tag]
        base = tag.split("_", 1)[0]
        base = ALIASES.get(base, base)
        if base in by_key:
            return by_key[base]
        for key in sorted(by_key):
            if key.split("_", 1)[0] == base:
                return by_key[key]
        return SOURCE_LANGUAGE

    def translations(self, language: str) -> NullTranslations:
        """The loaded catalog of ``language`` (no translations for English or an unknown one)."""
        found = self._loaded.get(language)
        if found is not None:
            return found
        with self._lock:
            found = self._loaded.get(language)
            if found is None:
                if language in self.languages and language != SOURCE_LANGUAGE:
                    found = Translations.load(self.directory, [language], DOMAIN)
                else:
                    found = NullTranslations()
                self._loaded[language] = found
        return found

    def language(self, language: str) -> Language:
        """The words of ``language`` (English if it has no catalog here)."""
        if language not in self.languages:
            language = SOURCE_LANGUAGE
        return Language(language, self.translations(language))

    def for_locale(self, locale: str | None) -> Language:
        """The words of the best language for a Discord locale tag."""
        return self.language(self.language_for(locale))


_DE_PLACEHOLDER: Final = re.compile(r"\b([Dd])e \{(\w+)\}")
_VOWELS: Final = frozenset("AEIOUYÀÂÆÉÈÊËÎÏÔŒÙÛÜaeiouyàâæéèêëîïôœùûü")


class FrenchTemplate(str):
    """A French message whose ``format`` and ``format_map`` elide "de" before a value that
    begins with a vowel ("la pioche de {player}" with Alice: "la pioche d'Alice"), as French
    writes it. Only the "de" of the template, right before a placeholder, changes: never the
    value itself. Format the template itself, before gluing anything to it: a string built
    from it (``"🔥 " + template``) is a plain ``str`` again, which elides nothing.

    >>> FrenchTemplate("la pioche de {player}").format(player="Alice")
    "la pioche d'Alice"
    >>> FrenchTemplate("la pioche de {player}").format(player="Bob")
    'la pioche de Bob'
    >>> FrenchTemplate("au tour de {player}").format_map({"player": "Ève"})
    "au tour d'Ève"
    """

    def _elided(self, values: Mapping[str, object]) -> str:
        """The template with each "de {name}" whose value begins with a vowel as "d'{name}"."""

        def elide(m: re.Match[str]) -> str:
            value = values.get(m[2])
            if isinstance(value, str) and value[:1] in _VOWELS:
                return f"{m[1]}'{{{m[2]}}}"
            return m[0]

        return _DE_PLACEHOLDER.sub(elide, self)

    def format(self, *args: object, **kwargs: object) -> str:
        return str.format(self._elided(kwargs), *args, **kwargs)

    def format_map(self, mapping: Mapping[str, object]) -> str:  # type: ignore[override]
        return str.format_map(self._elided(mapping), mapping)


def _grammar(code: str, text: str) -> str:
    """``text`` as the language's formatting needs it (French: :class:`FrenchTemplate`)."""
    return FrenchTemplate(text) if code.split("_", 1)[0] == "fr" else text


@dataclass(frozen=True)
class Language:
    """One language's words and number formats. Its method names are the extraction keywords
    (``babel.cfg``, ``docs/translating.md``), so ``lang.pgettext("button", "Join")`` puts
    ``Join`` in the catalog template with its context.

    >>> fr = catalogs.language("fr")
    >>> fr.pgettext("option name", "rounds"), fr.format_decimal(2.5)
    ('manches', '2,5')
    """

    code: str
    """The catalog's language: ``"fr"``, ``"en"``, ``"pt_BR"``."""
    translations: NullTranslations

    def _(self, message: str) -> str:
        """The translation of ``message`` (itself where the catalog has none)."""
        return self.gettext(message)

    def gettext(self, message: str) -> str:
        return _grammar(self.code, self.translations.gettext(message))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form for ``n``: the language's plural rule may have more than two forms."""
        return _grammar(self.code, self.translations.ngettext(singular, plural, n))

    def pgettext(self, context: str, message: str) -> str:
        """The translation of ``message`` in ``context`` (a kind of place: "button", ...)."""
        return _grammar(self.code, str(self.translations.pgettext(context, message)))

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return _grammar(self.code, self.translations.npgettext(context, singular, plural, n))

    def format_decimal(self, number: Number) -> str:
        """A number as the language writes it: ``1,234.5`` in English, ``1 234,5`` in French."""
        return babel.numbers.format_decimal(number, locale=self.code)

    def format_day(self, when: float) -> str:
        """The day of a unix time (in UTC) as the language writes it short: ``Dec 24`` in
        English, ``24 déc.`` in French."""
        day = datetime.datetime.fromtimestamp(when, datetime.UTC)
        return str(babel.dates.format_skeleton("MMMd", day, locale=self.code))

    def format_percent(self, number: Number) -> str:
        """A share (0.25) as a percentage: ``25%`` in English, ``25 %`` in French."""
        return babel.numbers.format_percent(number, locale=self.code)


catalogs: Final = Catalogs()
"""The project's own catalogs."""

ENGLISH: Final = Language(SOURCE_LANGUAGE, NullTranslations())
"""The source strings themselves: the words of a text that no player reads (a log line, an
operator's alert), passed explicitly; no function takes it by default."""


def language_for(locale: str | None) -> str:
    """The best language for a Discord locale tag (:meth:`Catalogs.language_for`)."""
    return catalogs.language_for(locale)


def for_locale(locale: str | None) -> Language:
    """The words for a Discord locale tag (``interaction.locale``, ``guild_locale``)."""
    return catalogs.for_locale(locale)


__all__ = [
    "DOMAIN",
    "ENGLISH",
    "LOCALES_DIR",
    "N_",
    "SOURCE_LANGUAGE",
    "Catalogs",
    "Language",
    "catalogs",
    "for_locale",
    "language_for",
]
