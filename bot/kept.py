"""The names of the Discord messages a table keeps: its lobby card, its newest board, the copy a
``/fp status`` posted, and each player's hand message in their direct messages.

The store keeps them by a text key; this is the one place that spells those keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

KeptKind = Literal["lobby", "board", "status", "hand"]


@dataclass(frozen=True)
class Kept:
    """One kept message of a table: ``Kept.LOBBY``, ``Kept.BOARD``, ``Kept.STATUS`` or
    ``Kept.hand(user_id)``."""

    kind: KeptKind
    user_id: int | None = None

    LOBBY: ClassVar[Kept]
    BOARD: ClassVar[Kept]
    STATUS: ClassVar[Kept]

    @classmethod
    def hand(cls, user_id: int) -> Kept:
        """A player's hand message in their direct messages."""
        return cls("hand", user_id)

    @property
    def key(self) -> str:
        """The key the store keeps it by (``"lobby"``, ``"hand:<user id>"``...)."""
        return self.kind if self.user_id is None else f"{self.kind}:{self.user_id}"

    def of(self, messages: dict[str, int]) -> int | None:
        """The id of this message among a table's kept messages, if it has one."""
        return messages.get(self.key)


Kept.LOBBY = Kept("lobby")
Kept.BOARD = Kept("board")
Kept.STATUS = Kept("status")
