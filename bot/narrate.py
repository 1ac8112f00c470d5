"""The narration of the game, for the bot's texts: re-exported from :mod:`render.narration` and
:mod:`render.account` (a turn told one short line per event).

One narration serves the texts and the pictures' captions, so it lives beside the pictures; this
module keeps the bot's imports working.
"""

from __future__ import annotations

from render.account import capped, fall_again, last_move, narrate, turn_lines
from render.narration import (
    DIE_FACES_TEXT,
    describe_preview,
    match_winner_line,
    match_winners,
    result_lines,
    round_winner_line,
    scores_line,
    standings,
    tile_list,
    tile_name,
)

__all__ = [
    "DIE_FACES_TEXT",
    "capped",
    "describe_preview",
    "fall_again",
    "last_move",
    "match_winner_line",
    "match_winners",
    "narrate",
    "result_lines",
    "round_winner_line",
    "scores_line",
    "standings",
    "tile_list",
    "tile_name",
    "turn_lines",
]
