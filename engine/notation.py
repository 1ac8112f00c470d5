"""How people write what the engine knows: the letters of the spots.

The engine knows a spot by its position (``"1,3"``, RULES 2); people pick it by letter. The
letters are notation, as python-chess keeps SAN beside its board: one definition here serves the
pictures (the letters drawn on the spots) and the bot (the same letters on its buttons). Spots
are lettered in the order the engine lists them (reading order, RULES 3).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.model import Pos


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
