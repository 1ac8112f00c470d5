"""The rules of Flaming Pyramids, as ``RULES.md`` states them. Pure Python, standard library only.

The main entry points:

- :class:`Game` (``Game.new(players, seed, curse=..., fire_die=...)``), with
  :meth:`Game.legal_actions`, :meth:`Game.apply`, :meth:`Game.to_dict` / :meth:`Game.from_dict`;
- the actions :class:`Play`, :class:`Fall`, :class:`Die`, :class:`NextRound`;
- :class:`Pending` (what the game waits for) and :class:`Event` (what happened);
- :func:`view` (what one player may see) and :class:`EngineError` (anything not allowed), with
  :class:`IllegalMoveError` and its subclasses for actions not allowed now;
- :func:`labelled_spots`: the letters people use for the spots (:mod:`engine.notation`);
- :func:`preview` (what a decision would do, up to the next one, without doing it) and
  :func:`fitting_tiles` (the tiles of the hand that fit somewhere without mayhem).
"""

from engine.game import Game, fits, legal_actions, replay, spots, standings, step
from engine.model import (
    DIE_FACES,
    Action,
    BadActionError,
    BadPlayerError,
    BadPositionError,
    BadSetupError,
    BadSpotError,
    BadStateError,
    Die,
    EngineError,
    Event,
    Fall,
    IllegalMoveError,
    MatchOverError,
    NextRound,
    NoPreviewError,
    NotInHandError,
    NotYourDecisionError,
    Pending,
    Play,
    Pos,
    RoundOverError,
    UnknownTileError,
    WrongDecisionError,
    action_from_dict,
    neighbours,
    parse_pos,
    pos_str,
    reading_key,
)
from engine.notation import labelled_spots, spot_label
from engine.preview import Preview, fitting_tiles, preview, previews
from engine.view import View, before_draw, view

__all__ = [
    "DIE_FACES",
    "Action",
    "BadActionError",
    "BadPlayerError",
    "BadPositionError",
    "BadSetupError",
    "BadSpotError",
    "BadStateError",
    "Die",
    "EngineError",
    "Event",
    "Fall",
    "Game",
    "IllegalMoveError",
    "MatchOverError",
    "NextRound",
    "NoPreviewError",
    "NotInHandError",
    "NotYourDecisionError",
    "Pending",
    "Play",
    "Pos",
    "Preview",
    "RoundOverError",
    "UnknownTileError",
    "View",
    "WrongDecisionError",
    "action_from_dict",
    "before_draw",
    "fits",
    "fitting_tiles",
    "labelled_spots",
    "legal_actions",
    "neighbours",
    "parse_pos",
    "pos_str",
    "preview",
    "previews",
    "reading_key",
    "replay",
    "spot_label",
    "spots",
    "standings",
    "step",
    "view",
]
