"""A small seeded random generator whose whole state is one integer.

The game keeps its generator inside its state (RULES 7: the seed decides the shuffle and the
first player; RULES 6: the fire die). ``random.Random`` would serialise to 625 integers; SplitMix64
is one 64-bit integer, exact in JSON, fast in pure Python, and good enough for shuffling tiles.

>>> a, b = Rng(7), Rng(7)
>>> [a.below(6) for _ in range(5)] == [b.below(6) for _ in range(5)]
True
"""

from __future__ import annotations

from typing import Final, TypeVar

_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15

T = TypeVar("T")


class Rng:
    """SplitMix64. ``state`` is the whole state: save it, restore it, and the future is the same."""

    __slots__ = ("state",)

    def __init__(self, state: int = 0) -> None:
        self.state = state & _MASK

    def __repr__(self) -> str:
        return f"Rng({self.state})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other.state == self.state

    def __hash__(self) -> int:
        return hash(self.state)

    def next64(self) -> int:
        """The next 64-bit value."""
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            v = self.next64()
            if v < limit:
                return v % n

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates).

        Each step takes one 64-bit value modulo the step's size: for lists of tiles (at most 45)
        the bias is below 45 / 2**64, far beyond anything a game could show, and the shuffle
        costs a third of one made with :meth:`below`.
        """
        z = self.state
        for i in range(len(items) - 1, 0, -1):
            z = (z + _GOLDEN) & _MASK
            v = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            v = ((v ^ (v >> 27)) * 0x94D049BB133111EB) & _MASK
            j = (v ^ (v >> 31)) % (i + 1)
            items[i], items[j] = items[j], items[i]
        self.state = z

    def copy(self) -> Rng:
        return Rng(self.state)
