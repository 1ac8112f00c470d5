"""The letters a person reads on the pictures: the spots' letters and the colours' letters.

The spots' letters are the engine's notation (:mod:`engine.notation`), so that the pictures and
the buttons use one definition. A colour's letter is not: the engine writes yellow ``Y`` in its
files and exports (a file format, RULES 8), but a reader sees the first letter of the colour's
name in their own language, French ``J`` for jaune. :func:`colour_letters` is the one place
that maps a colour to the letter a reader sees; every tile the pictures draw takes it from
there, and the colour's shape stays tied to the colour (:data:`render.theme.TILE_SHAPE`).

>>> from i18n import ENGLISH, catalogs
>>> colour_letters(ENGLISH).code("Y40"), colour_letters(catalogs.language("fr")).code("Y40")
('Y40', 'J40')
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from engine.notation import labelled_spots, spot_label
from i18n import Language

log = logging.getLogger(__name__)

COLOUR_CODES: Final = ("Y", "R", "G", "B", "M")
"""The engine's colour letters (RULES 1): yellow, red, green, blue, and ``M`` the millstone."""


@dataclass(frozen=True)
class ColourLetters:
    """Each colour's letter as one language writes it, in the order of :data:`COLOUR_CODES`."""

    letters: tuple[str, ...]
    """The letters of yellow, red, green, blue and the millstone."""

    def __getitem__(self, colour: str) -> str:
        """The letter of the engine's colour ``colour`` (``"Y"``); an unknown one as it is."""
        if colour in COLOUR_CODES:
            return self.letters[COLOUR_CODES.index(colour)]
        return colour

    def code(self, tile: str) -> str:
        """A tile's short name as the reader writes it: ``"Y40"`` in English, ``"J40"`` in
        French (its colour's letter, then its weight)."""
        return self[tile[:1]] + tile[1:]


ENGLISH_LETTERS: Final = ColourLetters(COLOUR_CODES)
"""The English letters, which are the engine's."""


@lru_cache(maxsize=16)
def colour_letters(lang: Language) -> ColourLetters:
    """The colours' letters in ``lang``: the first letter of each colour's name (French
    ``J R V B M``: jaune, rouge, vert, bleu, meule). A catalog whose letters are not five
    different single letters would make two colours look alike: the English letters then."""
    found = (
        # TRANSLATORS: the letter of the colour yellow, drawn on every yellow tile of the
        # pictures: the first letter of "yellow" in your language (French "J" for jaune).
        # Yellow, red, green, blue and the millstone need five different letters: if two
        # colours' names begin alike, choose another letter of one of them.
        str(lang.pgettext("colour letter", "Y")),
        # TRANSLATORS: the letter of the colour red on its tiles (see yellow's): French "R".
        str(lang.pgettext("colour letter", "R")),
        # TRANSLATORS: the letter of the colour green on its tiles (see yellow's): French "V".
        str(lang.pgettext("colour letter", "G")),
        # TRANSLATORS: the letter of the colour blue on its tiles (see yellow's): French "B".
        str(lang.pgettext("colour letter", "B")),
        # TRANSLATORS: the letter on the millstone, which has every colour (see yellow's): the
        # first letter of "millstone" in your language, French "M" for meule.
        str(lang.pgettext("colour letter", "M")),
    )
    if len(set(found)) != len(found) or any(len(x) != 1 or not x.isalpha() for x in found):
        log.warning("colour letters of %s are not five different letters: %s", lang.code, found)
        return ENGLISH_LETTERS
    return ColourLetters(found)


def colour_letter(colour: str, lang: Language) -> str:
    """The letter a reader of ``lang`` sees for the engine's colour ``colour`` (``"Y"``).

    >>> from i18n import ENGLISH, catalogs
    >>> colour_letter("G", ENGLISH), colour_letter("G", catalogs.language("fr"))
    ('G', 'V')
    """
    return colour_letters(lang)[colour]


__all__ = [
    "COLOUR_CODES",
    "ENGLISH_LETTERS",
    "ColourLetters",
    "colour_letter",
    "colour_letters",
    "labelled_spots",
    "spot_label",
]
