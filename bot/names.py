"""Player names as their owners wrote them, minus what could take over a line of text.

A display name may carry anything Unicode allows. Two kinds of characters are removed wherever a
name is kept or shown (:func:`clean`): control characters (line breaks, NUL...) and the invisible
bidirectional controls (U+202A-U+202E embeddings and overrides, U+2066-U+2069 isolates, the
marks U+200E, U+200F and U+061C). An override such as U+202E in a name would reverse the rest of
the line it is put in ("It is ...'s turn" read backwards); removing these characters changes
nothing that can be seen in a name written in one direction, works the same in text and in
pictures, and cannot be left unbalanced, which wrapping the name in an isolate could be (a name
ending in U+2069 closes the isolate early). Everything else, letters, case, emoji, stays as
written.

Computer players get short names of their own (:data:`COMPUTER_NAMES`), distinct at their table
from each other and from the people seated there; their level is shown beside the name where
the seats are listed, not in every sentence.

Names are cleaned when a player takes a seat, and again wherever one is shown (names kept
before this cleaning existed); :func:`bot.show.texts.esc` then escapes Discord's markdown and
mentions for text. This module has no Discord in it: the table service uses it too.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Final

BIDI_CONTROLS: Final = frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
)
"""Characters that change the direction of the text around them."""


def clean(name: str) -> str:
    """``name`` without control characters and bidirectional controls.

    >>> clean("Ann\\u202eevil"), clean("Léa **bold**"), clean("a\\nb")
    ('Annevil', 'Léa **bold**', 'ab')
    """
    return "".join(
        ch for ch in name if ch not in BIDI_CONTROLS and unicodedata.category(ch) != "Cc"
    )


COMPUTER_NAMES: Final = (
    "Bolt",
    "Cog",
    "Chip",
    "Rivet",
    "Servo",
    "Gizmo",
    "Widget",
    "Sprocket",
    "Pixel",
    "Byte",
)
"""The names computer players take, first free first: short (whole in a picture's 400 pixels,
beside a score), machine-like (not read as a person's), each starting with its own sound."""


def computer_name(taken: Iterable[str]) -> str:
    """The first of :data:`COMPUTER_NAMES` that none of ``taken`` is (compared without case),
    else ``"Bot N"`` with the first free N.

    >>> computer_name([]), computer_name(["bolt", "Ann"]), computer_name(COMPUTER_NAMES)
    ('Bolt', 'Cog', 'Bot 1')
    """
    used = {clean(n).casefold() for n in taken}
    for name in COMPUTER_NAMES:
        if name.casefold() not in used:
            return name
    n = 1
    while f"bot {n}" in used:
        n += 1
    return f"Bot {n}"
