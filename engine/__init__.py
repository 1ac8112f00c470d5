"""The rules of Flaming Pyramids, as ``RULES.md`` states them. Pure Python, standard library only.

The main entry points:

- :class:`Game` (``Game.new(players, seed, curse=..., fire_die=...)``), with
  :meth:`Game.legal_actions`, :meth:`Game.apply`, :meth:`Game.to_dict` / :meth:`Game.from_dict`;
- the actions :class:`Play`, :class:`Fall`, :class:`Die`, :class:`NextRound`;
- :class:`Pending` (what the game waits for) and :class:`Event` (what happened);
- :func:`view` (what one player may see) and :class:`EngineError` (anything not allowed);
- :func:`preview` (what a decision would do, up to the next one, without doing it) and
  :func:`fitting_tiles` (the tiles of the hand that fit somewhere without mayhem).
"""

from engine.game import Game, fits, legal_actions, replay, spots, step
from engine.model import (
    DIE_FACES,
    Action,
    Die,
    EngineError,
    Event,
    Fall,
    NextRound,
    Pending,
    Play,
    Pos,
    action_from_dict,
    neighbours,
    parse_pos,
    pos_str,
    reading_key,
)
from engine.preview import Preview, fitting_tiles, preview, previews
from engine.view import View, view

__all__ = [
    "DIE_FACES",
    "Action",
    "Die",
    "EngineError",
    "Event",
    "Fall",
    "Game",
    "NextRound",
    "Pending",
    "Play",
    "Pos",
    "Preview",
    "View",
    "action_from_dict",
    "fits",
    "fitting_tiles",
    "legal_actions",
    "neighbours",
    "parse_pos",
    "pos_str",
    "preview",
    "previews",
    "reading_key",
    "replay",
    "spots",
    "step",
    "view",
]
