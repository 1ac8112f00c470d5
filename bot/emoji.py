"""Every emoji the bot shows, in one place.

Discord refuses a button whose emoji is not one of its emoji (400, 50035,
``BUTTON_COMPONENT_INVALID_EMOJI``): a Unicode symbol such as 🂠 (PLAYING CARD BACK) is not
enough. ``tests/bot/test_emoji.py`` checks each name here against the Unicode emoji list, and
that no other module of the bot writes an emoji of its own.
"""

from __future__ import annotations

from typing import Final

HAND: Final = "🃏"
"""The "My hand" button and the first line of a hand."""
COMPUTER: Final = "🤖"
"""A computer player: its seat on the lobby card and the options of its "add a computer" menu."""
HOW_TO_PLAY: Final = "❔"
"""The lobby card's "How to play"."""
GOLD: Final = "🥇"
SILVER: Final = "🥈"
BRONZE: Final = "🥉"
MEDALS: Final = (GOLD, SILVER, BRONZE)
"""The first three places of a finished match's podium."""
FALL_LEFT: Final = "⬅️"
FALL_RIGHT: Final = "➡️"
"""The fall buttons; ``FALL_RIGHT`` also marks whose turn it is."""
TURN: Final = FALL_RIGHT
FIRE_DIE: Final = "🎲"
FIRE: Final = "🔥"
"""A game or a round begins."""
TIMED_OUT: Final = "⏰"
ROUND_WON: Final = "🏆"
MATCH_OVER: Final = "🏁"
ABORTED: Final = "🛑"
PLAYED: Final = "✅"
"""A turn played; also the Done button of a turn held back for its undo window."""
UNDO: Final = "↩️"
"""The Undo button of a turn held back, and the note of a turn taken back."""
RESTARTED: Final = "♻️"
LEFT: Final = "👋"
REMINDER: Final = "⏳"
AWAY: Final = "💤"
"""A player who is away (a computer plays for them), and the button that brings them back."""
PAUSED: Final = "⏸️"
RESUMED: Final = "▶️"
"""A game paused (``/fp pause``), and going on again."""
HINT: Final = "💡"
"""A practice table's Hint button, its answer, and the card's line that says hints are on."""
WARNING: Final = "⚠️"
"""A message of the table is not in its channel yet (Discord refused it)."""
SHARE: Final = "📣"
"""Post one's stats (shown privately) in the channel."""
FIRST: Final = "⏮️"
BACK: Final = "◀️"
NEXT: Final = "▶️"
LAST: Final = "⏭️"
"""Stepping through a replay, or the leaderboard's pages."""
SUMMARY: Final = "🎞️"
"""A match's animated summary."""
EXPORT: Final = "📄"
"""A match as a scenario file."""
TURNING_POINTS: Final = "🔍"
"""A replay's Turning points: the moves that cost the most."""
YELLOW: Final = "🟨"
RED: Final = "🟥"
GREEN: Final = "🟩"
BLUE: Final = "🟦"
MULTI: Final = "⬜"

COLOURS: Final = {"Y": YELLOW, "R": RED, "G": GREEN, "B": BLUE, "M": MULTI}
"""A tile's colour letter -> the square shown on its button."""

ALL: Final = (
    HAND,
    COMPUTER,
    FALL_LEFT,
    FALL_RIGHT,
    FIRE_DIE,
    FIRE,
    TIMED_OUT,
    ROUND_WON,
    MATCH_OVER,
    ABORTED,
    PLAYED,
    UNDO,
    RESTARTED,
    LEFT,
    REMINDER,
    WARNING,
    SHARE,
    FIRST,
    BACK,
    NEXT,
    LAST,
    SUMMARY,
    EXPORT,
    TURNING_POINTS,
    YELLOW,
    RED,
    GREEN,
    BLUE,
    MULTI,
    HOW_TO_PLAY,
    GOLD,
    SILVER,
    BRONZE,
    AWAY,
    PAUSED,
    RESUMED,
    HINT,
)
"""Every emoji above, for the test that checks them."""
