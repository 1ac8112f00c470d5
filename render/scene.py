"""What a picture shows, worked out from a view before any pixel is drawn.

:func:`table_scene` reads a :class:`engine.View` into a :class:`TableScene`: the tiles, the
labelled spots, the fall choice, the last move. It is plain data, so tests can check it and the
drawing code only has to place it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import Event, Pos, View, reading_key
from engine.tiles import COLOUR_NAMES, MATERIAL, MILLSTONE_CODE, WEIGHT
from render import fonts
from render.labels import labelled_spots


def spot_labels(view: View) -> dict[str, Pos]:
    """``{"A": pos, "B": pos, ...}`` for the spots of a pending play.

    Labels follow ``view.pending.spots``, which the engine lists in reading order (RULES 2), so
    label ``i`` is ``pending.spots[i]``. These are the letters on the picture; the bot puts the
    same letters on its buttons. Empty unless a play is pending.
    """
    p = view.pending
    if p is None or p.kind != "play":
        return {}
    return dict(labelled_spots(p.spots))


def player_name(names: Sequence[str], i: int) -> str:
    """Player ``i``'s name, drawable; ``Player N`` when missing or blank (seats count from 1)."""
    fallback = f"Player {i + 1}"
    if 0 <= i < len(names) and isinstance(names[i], str):
        return fonts.clean(names[i], fallback)
    return fallback


def describe_tile(tile: str) -> str:
    """Colour and material in words, e.g. ``yellow wood``, ``blue blowtorch``, ``millstone``."""
    if tile == MILLSTONE_CODE:
        return "millstone · all colours"
    if tile not in MATERIAL:
        return "unknown tile"
    return f"{COLOUR_NAMES[tile[0]]} {MATERIAL[tile]}"


def tile_list(tiles: Sequence[str]) -> str:
    """``"B6"``, ``"B6 and R30"``, ``"B6, R30 and R4"``."""
    if not tiles:
        return "nothing"
    if len(tiles) == 1:
        return tiles[0]
    return ", ".join(tiles[:-1]) + " and " + tiles[-1]


@dataclass(frozen=True, slots=True)
class Fall:
    """A pending fall choice: ``tile`` at ``at`` lands on ``left`` or ``right``."""

    tile: str
    at: Pos
    left: Pos
    right: Pos


@dataclass(frozen=True, slots=True)
class TableScene:
    """Everything the table picture shows, as data."""

    pyramid: dict[Pos, str]
    spots: dict[str, Pos]
    """Spot labels in reading order (empty unless a play is pending)."""
    fall: Fall | None
    """The pending fall choice, if any."""
    placed: Pos | None
    """Where the tile placed in the last move is now, if it is still in the pyramid."""
    ghosts: frozenset[Pos]
    """Empty positions that tiles left in the last move (drawn faintly)."""
    last_move: tuple[str, ...]
    """Lines telling the last move (none before the first move of a round)."""

    def positions(self) -> set[Pos]:
        """Every position the picture must show."""
        shown = set(self.pyramid) | set(self.spots.values()) | set(self.ghosts)
        if self.fall is not None:
            shown |= {self.fall.at, self.fall.left, self.fall.right}
        return shown


def _placed_now(events: Sequence[Event], pyramid: dict[Pos, str]) -> Pos | None:
    """Follow the tile placed in ``events`` through its falls; None if it is gone."""
    where: Pos | None = None
    tile: str | None = None
    for e in events:
        if e.kind == "placed" and e.at is not None:
            where, tile = e.at, e.tile
        elif e.kind == "fell" and tile is not None and e.tile == tile and e.at == where:
            where = e.to
    if where is not None and tile is not None and pyramid.get(where) == tile:
        return where
    return None


def _left_from(events: Sequence[Event]) -> set[Pos]:
    left: set[Pos] = set()
    for e in events:
        if e.kind in ("collapsed", "burnt", "exploded", "cursed"):
            left.update(p for _, p in e.to_pile)
            left.update(p for _, p in e.out)
        elif e.kind == "fell" and e.at is not None:
            left.add(e.at)
    return left


def summary(events: Sequence[Event], names: Sequence[str]) -> tuple[str, ...]:
    """A turn's events in words: who played what and what the mayhem did (first line), and
    where tiles went (second line, if any left the pyramid). Empty without a placement.

    >>> from engine import Event
    >>> summary([Event("placed", 0, "Y30", (1, 1))], ["Ann"])
    ('Last move: Ann played Y30 (yellow wood).',)
    >>> summary([Event("placed", 0, "Y1", (1, 1)),
    ...          Event("burnt", 0, "Y1", (1, 1), to_pile=(("B6", (1, 3)),), out=(("Y1", (1, 1)),),
    ...                detail="straw")], ["Ann"])[1]
    "Under Ann's pile: B6 · out of the game: Y1."
    """
    placed = next((e for e in events if e.kind == "placed"), None)
    if placed is None or placed.tile is None:
        return ()
    who = player_name(names, placed.player)
    parts: list[str] = []
    gained: dict[int, list[str]] = {}
    out: list[str] = []
    for e in events:
        if e.kind == "collapsed":
            parts.append("collapse")
        elif e.kind == "fell":
            parts.append(f"fell {e.detail}")
        elif e.kind == "exploded":
            parts.append("explosion")
        elif e.kind == "burnt":
            parts.append(f"{e.detail} fire")
        elif e.kind == "cursed":
            parts.append(f"curse on {player_name(names, e.player)}")
        elif e.kind == "rolled":
            parts.append(f"fire die: {e.detail.replace('_', ' ')}")
        if e.kind in ("collapsed", "burnt", "exploded", "cursed") and e.to_pile:
            gained.setdefault(e.player, []).extend(t for t, _ in e.to_pile)
        out.extend(t for t, _ in e.out)
    first = f"Last move: {who} played {placed.tile} ({describe_tile(placed.tile)})"
    first += (": " + ", ".join(parts) if parts else "") + "."
    moved = [f"Under {player_name(names, p)}'s pile: {', '.join(t)}" for p, t in gained.items()]
    if out:
        moved.append(f"out of the game: {', '.join(out)}")
    if not moved:
        return (first,)
    return (first, " · ".join(moved) + ".")


def table_scene(view: View, names: Sequence[str]) -> TableScene:
    """Read ``view`` into what the table picture shows."""
    pyramid = dict(view.pyramid)
    fall = None
    p = view.pending
    if p is not None and p.kind == "fall" and p.at is not None:
        r, x = p.at
        tile = p.tile or pyramid.get(p.at, "")
        fall = Fall(tile, p.at, (r - 1, x - 1), (r - 1, x + 1))
    spots = spot_labels(view)
    events = view.last_events
    taken = set(spots.values())
    if fall is not None:
        taken |= {fall.left, fall.right}
    ghosts = frozenset(q for q in _left_from(events) if q not in pyramid and q not in taken)
    return TableScene(
        pyramid=pyramid,
        spots=spots,
        fall=fall,
        placed=_placed_now(events, pyramid),
        ghosts=ghosts,
        last_move=summary(events, names),
    )


def status_line(view: View, names: Sequence[str]) -> str:
    """Whose decision it is, in words (the picture's headline)."""
    p = view.pending
    if p is None:
        if view.winner is not None:
            who = player_name(names, view.winner)
            if view.rounds > 1:
                return f"{who} wins round {view.round} of {view.rounds}!"
            return f"{who} wins!"
        return "The round is over."
    who = player_name(names, p.player)
    if p.kind == "play":
        labels = list(spot_labels(view))
        where = f"spot {labels[0]}" if len(labels) == 1 else f"spots {labels[0]}–{labels[-1]}"
        return f"{who} to play: a tile from the hand on {where}"
    if p.kind == "fall":
        return f"{who}: where does {p.tile} fall? Left or right"
    if p.kind == "die":
        return f"{who}: roll the fire die"
    return f"Waiting for {who}"


def turn_number(view: View) -> int:
    """The turn people count, from 1: the turn being played, or the last one once the round is
    over. (``view.turn`` counts the tiles played so far, so it is 0 before the first play.)

    >>> from engine import Game, view
    >>> turn_number(view(Game.new(3, seed=1)))
    1
    """
    p = view.pending
    if p is not None and p.kind == "play":
        return view.turn + 1
    return max(1, view.turn)


def info_line(view: View) -> str:
    """Turn, round and options in play."""
    parts = [f"Turn {turn_number(view)}"]
    if view.rounds > 1:
        parts.append(f"Round {view.round} of {view.rounds}")
    options = [name for name, on in (("curse", view.curse), ("fire die", view.fire_die)) if on]
    parts.append("Options: " + ", ".join(options) if options else "No options")
    return " · ".join(parts)


def weight_word(tile: str) -> str:
    """The weight as text (``"200"``); ``"?"`` for an unknown code."""
    w = WEIGHT.get(tile)
    return "?" if w is None else str(w)


def sorted_positions(positions: set[Pos]) -> list[Pos]:
    """Positions in reading order."""
    return sorted(positions, key=reading_key)
