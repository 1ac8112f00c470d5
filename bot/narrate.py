"""The narration of the game, for the bot's texts: re-exported from :mod:`render.narration`.

One narration serves the texts and the pictures' captions, so it lives beside the pictures; this
module keeps the bot's imports working.
"""

from __future__ import annotations

from render.narration import (
    DIE_FACES_TEXT,
    describe_preview,
    last_move,
    match_winner_line,
    match_winners,
    narrate,
    result_lines,
    round_winner_line,
    scores_line,
    sentences,
    standings,
    tile_list,
    tile_name,
)

__all__ = [
    "DIE_FACES_TEXT",
    "describe_preview",
    "last_move",
    "match_winner_line",
    "match_winners",
    "narrate",
    "result_lines",
    "round_winner_line",
    "scores_line",
    "sentences",
    "standings",
    "tile_list",
    "tile_name",
]
