"""What the operator's outputs never show: the bot's token and the database's password, in any
log line, traceback, one-line report or alert (an error of a library may quote them), and, in
alerts (which leave the machine for a Discord channel), any tile of the game: a player's hand is
theirs alone.

The rest of the code never puts a secret or a hand into a message on purpose; this is the net
under it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Final

from data import url_secrets
from engine.tiles import ALL_TILES

MASK: Final = "***"
MIN_SECRET: Final = 4
"""Shorter values are not masked wherever they appear (a password "ab" would mask every "ab" of
the log); the URL itself is still shown without its password."""
TILE: Final = re.compile(r"\b(?:" + "|".join(sorted(ALL_TILES, key=len, reverse=True)) + r")\b")
"""A tile's name (``Y40``, ``G100``...) as a word."""
TILE_SHOWN: Final = "[a tile]"


class Redactor:
    """Masks given secrets in any text."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        # Longest first: a secret that contains another is masked whole.
        self.secrets = sorted({s for s in secrets if len(s) >= MIN_SECRET}, key=len, reverse=True)

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Redactor:
        """The secrets of the bot's settings: ``DISCORD_TOKEN``, ``DATABASE_URL``'s password
        and the token of ``ERROR_WEBHOOK_URL`` (its last part: whoever has it can post there)."""
        token = (env.get("DISCORD_TOKEN") or "").strip()
        hook = (env.get("ERROR_WEBHOOK_URL") or "").strip().rstrip("/")
        hook_token = hook.rsplit("/", 1)[-1] if "/webhooks/" in hook else ""
        return cls([token, hook_token, *url_secrets((env.get("DATABASE_URL") or "").strip())])

    def __call__(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, MASK)
        return text


def without_tiles(text: str) -> str:
    """``text`` with every tile's name replaced (for what leaves the machine).

    >>> without_tiles("tile G100 appears twice")
    'tile [a tile] appears twice'
    """
    return TILE.sub(TILE_SHOWN, text)


class RedactingFormatter(logging.Formatter):
    """A log formatter whose output (the message, and any traceback) never shows a secret."""

    def __init__(self, fmt: str, redact: Callable[[str], str]) -> None:
        super().__init__(fmt)
        self.redact = redact

    def format(self, record: logging.LogRecord) -> str:
        return self.redact(super().format(record))
