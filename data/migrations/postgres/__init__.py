"""Numbered SQL migrations of the PostgreSQL store, applied in order at start (see
``data.pgmigrate``)."""
