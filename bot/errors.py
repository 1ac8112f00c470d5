"""Domain errors of the table service: refusals a user may read.

Every :class:`TableError` carries a short, polite message that is safe to show privately to the
person who asked (it never reveals a hand). The Discord adapter turns them into ephemeral replies
in one place; anything else that goes wrong is logged and the user is told the game is safe.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping


class TableError(Exception):
    """A request the table service refused; nothing was changed.

    ``message`` is meant for the user who asked; ``code`` names the kind of refusal for programs
    and tests. A refusal that names players gives ``names`` (``{"name": "Bob"}``) and refers to
    them as ``{name}`` in ``message``: :meth:`worded` lets the adapter quote each name for where
    it is shown (Discord's markdown escaped), ``message`` holds the names as written.
    """

    code = "refused"

    def __init__(
        self,
        message: str,
        *,
        table_id: int | None = None,
        names: Mapping[str, str] | None = None,
    ) -> None:
        self.template = message
        self.names = dict(names or {})
        self.message = message.format_map(self.names) if self.names else message
        super().__init__(self.message)
        self.table_id = table_id

    def worded(self, quote: Callable[[str], str]) -> str:
        """The message with every name passed through ``quote``."""
        if not self.names:
            return self.message
        return self.template.format_map({k: quote(v) for k, v in self.names.items()})


class NoTable(TableError):
    """There is no open table where the user asked (or it has closed)."""

    code = "no_table"


class TableExists(TableError):
    """The channel already has an open table; ``table_id`` names it, ``message_id`` is its
    latest message (to link to), if known."""

    code = "table_exists"

    def __init__(self, message: str, *, table_id: int, message_id: int | None = None) -> None:
        super().__init__(message, table_id=table_id)
        self.message_id = message_id


class NotSeated(TableError):
    """The user has no seat at this table."""

    code = "not_seated"


class NotAllowed(TableError):
    """The user may not do this (not the host, not an admin, lobby full...)."""

    code = "not_allowed"


class NotYourDecision(TableError):
    """Somebody else must decide now: ``decision`` (``"play"``, ``"fall"``, or None when
    nobody does) and ``owner``, the name of who must (as written). The adapter words it."""

    code = "not_your_decision"

    def __init__(
        self, decision: str | None, owner: str | None, *, table_id: int | None = None
    ) -> None:
        super().__init__(
            f"not your decision: {decision or 'nothing'} is pending", table_id=table_id
        )
        self.decision = decision
        self.owner = owner


class Stale(TableError):
    """The button belongs to a moment that has passed (a double click, an old message)."""

    code = "stale"


class HandChanged(Stale):
    """A tile button of a hand that is no longer the player's latest (the adapter answers with
    the hand as it is now)."""

    code = "hand_changed"


class BadRequest(TableError):
    """An option or an argument that makes no sense (a bad number of rounds...)."""

    code = "bad_request"


class NotShown(TableError):
    """The action was recorded but its message could not be posted (Discord refused it)."""

    code = "not_shown"
