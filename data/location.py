"""Where the games are kept when ``DATABASE_URL`` does not say: a stable, stated place.

Never the folder the bot happens to be started from (started from another one, it would make a
new, empty database and every old button would answer "This table is closed"):

- ``$STATE_DIRECTORY/flaming_pyramids.db`` when systemd gives the service a state directory
  (``StateDirectory=`` in the unit);
- else the platform's folder for a user's application data: ``$XDG_DATA_HOME/flaming-pyramids/``
  (``~/.local/share/flaming-pyramids/``) on Linux, ``~/Library/Application Support/`` on macOS,
  ``%LOCALAPPDATA%`` on Windows (as ``platformdirs`` knows them).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import platformdirs

APP_NAME = "flaming-pyramids"
DB_FILE = "flaming_pyramids.db"
#: The database file of releases before 0.2, relative to the folder the bot was started from.
OLD_DEFAULT_FILE = DB_FILE


def default_database_path(env: Mapping[str, str] | None = None) -> Path:
    """The SQLite file used when ``DATABASE_URL`` is unset (an absolute path).

    >>> str(default_database_path({"STATE_DIRECTORY": "/var/lib/flaming-pyramids"}))
    '/var/lib/flaming-pyramids/flaming_pyramids.db'
    """
    env = os.environ if env is None else env
    # systemd joins several state directories with ':'; the first is the unit's own.
    state = (env.get("STATE_DIRECTORY") or "").split(":", 1)[0].strip()
    if state:
        return Path(state).absolute() / DB_FILE
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)).absolute() / DB_FILE


def default_database_url(env: Mapping[str, str] | None = None) -> str:
    """``sqlite:///`` and :func:`default_database_path`."""
    return f"sqlite:///{default_database_path(env)}"
