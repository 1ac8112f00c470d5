"""The store's errors: what a caller of :mod:`data.store` may have to handle."""

from __future__ import annotations


class StoreError(Exception):
    """Base class of the store's errors."""


class VersionConflict(StoreError):
    """The table changed since the caller read it: its decision has passed; nothing was written."""


class ChannelBusy(StoreError):
    """The channel already has an open table (``table_id`` names it)."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"channel already has table {table_id}")
        self.table_id = table_id


class NotFound(StoreError):
    """No such table (or it is not open any more)."""


class CorruptRecord(StoreError):
    """A stored row cannot be read (bad JSON, a version gap...). Only that table is affected.

    ``version`` is the table's stored version when it could be read, so that the table can still
    be closed with ``end_table(table_id, err.version, "aborted", now)`` and its channel freed.
    ``problem`` says what is wrong without quoting the game (it is logged, and may be posted to
    the operator's webhook); ``detail`` says it in full, which may name a tile of someone's hand
    (for ``python -m data check`` and the DEBUG log only).
    """

    def __init__(
        self, table_id: int, problem: str, version: int | None = None, *, detail: str | None = None
    ) -> None:
        super().__init__(f"table {table_id}: {problem}")
        self.table_id = table_id
        self.problem = problem
        self.version = version
        self.detail = detail if detail is not None else problem


class SchemaTooNew(StoreError):
    """The database was written by a newer version of the bot; refusing to touch it."""


class DatabaseDamaged(StoreError):
    """The database as a whole cannot be trusted: an existing file that is empty or not a
    database, a failed integrity check at start, or "malformed" found while reading or writing.

    Distinct from :class:`CorruptRecord` (one table's row). The message says what was found and
    what the server owner can do; the store never recreates or repairs the database by itself.
    """


class StorageUnusable(StoreError):
    """The place the database lives cannot take it: a full disk, a read-only file system or
    folder, no permission, the login refused. Trying again will not help until the server owner
    changes something; the message says what."""
