"""Numbered SQL migrations of the SQLite store, applied in order at start (see ``data.migrate``)."""
