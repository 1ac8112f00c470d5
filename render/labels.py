"""The letters people use for the spots: one definition for the pictures and the buttons.

The engine knows a spot by its position (``"1,3"``, RULES 2); people pick it by letter. The letter
is notation for people, not a rule, so it lives here with the drawing: the table picture writes
``A``, ``B``, ``C``... on the spots, and the bot, which imports this module, puts the same letters
on its buttons. Spots are labelled in the order the engine lists them (reading order, RULES 3).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import Pos


def spot_label(i: int) -> str:
    """The ``i``-th spot label: ``A`` ... ``Z``, then ``AA``, ``AB``, ... (bijective base 26).

    >>> spot_label(0), spot_label(25), spot_label(26), spot_label(27)
    ('A', 'Z', 'AA', 'AB')
    """
    out = ""
    n = i + 1
    while n:
        n, rem = divmod(n - 1, 26)
        out = chr(ord("A") + rem) + out
    return out


def labelled_spots(spots: Sequence[Pos]) -> tuple[tuple[str, Pos], ...]:
    """``(("A", pos), ("B", pos), ...)``: the spots in the order given, each with its label.

    >>> labelled_spots([(1, 1), (0, 4)])
    (('A', (1, 1)), ('B', (0, 4)))
    """
    return tuple((spot_label(i), p) for i, p in enumerate(spots))
