"""Turn the engine's events into one-line accounts a player can read in the channel.

>>> from engine import Event, Preview
>>> names = ["Léa", "Max"]
>>> narrate([
...     Event("placed", 0, "G60", (1, 1)),
...     Event("collapsed", 0, "G60", (1, 1), to_pile=(("B20", (0, 0)), ("Y40", (0, 2))),
...           detail="overweight"),
...     Event("fell", 0, "G60", (1, 1), (0, 0), detail="left"),
... ], names)
"Léa's green 60 was too heavy: it fell left; blue 20 and yellow 40 go under Léa's pile."

Only public events are told: which tiles a player drew stays private (only how many).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine import Event, Preview
from engine.tiles import WEIGHT, describe

DIE_FACES_TEXT = {
    "fire_stays": "fire (the incendiary stays)",
    "fire_removed": "fire (the incendiary burns out)",
    "explosion": "explosion",
    "smoke": "smoke (nothing happens)",
}


def tile_list(tiles: Iterable[str]) -> str:
    """``["B20", "Y40", "R2"]`` -> ``"blue 20, yellow 40 and red 2"``."""
    names = [describe(t) for t in tiles]
    if not names:
        return "nothing"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def _go(tiles: Sequence[str]) -> str:
    return "goes" if len(tiles) == 1 else "go"


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"player {seat + 1}"


def _possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def narrate(events: Iterable[Event], names: Sequence[str]) -> str:
    """One line telling ``events`` (one action's worth, or a whole turn) with player names.

    Returns ``""`` when nothing worth telling happened (a ``turn`` event alone).
    """
    parts: list[str] = []
    pending_collapse: tuple[str, list[str], int, str] | None = None  # tile, to_pile, owner, why
    for ev in events:
        who = _name(names, ev.player)
        if ev.kind == "placed" and ev.tile:
            parts.append(f"{who} played {describe(ev.tile)}")
        elif ev.kind == "collapsed" and ev.tile:
            lifted = [t for t, _ in ev.to_pile]
            pending_collapse = (ev.tile, lifted, ev.player, ev.detail)
        elif ev.kind == "fell" and ev.tile:
            if pending_collapse is not None and pending_collapse[0] == ev.tile:
                tile, lifted, owner, why = pending_collapse
                pending_collapse = None
                owner_name = _name(names, owner)
                reason = "was too heavy" if why == "overweight" else "matched neither tile below"
                line = f"{_possessive(owner_name)} {describe(tile)} {reason}: it fell {ev.detail}"
                if lifted:
                    line += (
                        f"; {tile_list(lifted)} {_go(lifted)} under {_possessive(owner_name)} pile"
                    )
                _replace_last_play(parts, tile)
                parts.append(line)
            else:
                parts.append(f"{describe(ev.tile)} fell {ev.detail} ({who} chose)")
        elif ev.kind == "exploded":
            gone = [t for t, _ in ev.out]
            lifted = [t for t, _ in ev.to_pile]
            line = f"{tile_list(gone)} exploded"
            if lifted:
                line += f"; {tile_list(lifted)} {_go(lifted)} under {_possessive(who)} pile"
            parts.append(line)
        elif ev.kind == "burnt" and ev.tile:
            lifted = [t for t, _ in ev.to_pile]
            line = f"{describe(ev.tile)} set the {ev.detail or 'straw'} on fire"
            if lifted:
                line += (
                    f": {tile_list(lifted)} burnt and {_go(lifted)} under {_possessive(who)} pile"
                )
            if ev.out:
                line += f"; {describe(ev.tile)} is out of the game"
            parts.append(line)
        elif ev.kind == "cursed":
            lifted = [t for t, _ in ev.to_pile]
            weight = WEIGHT[lifted[0]] if lifted else 0
            parts.append(
                f"curse! three {weight}s ({tile_list(lifted)}) go under {_possessive(who)} pile, "
                f"and {who} now bears the mayhem"
            )
        elif ev.kind == "rolled":
            parts.append(
                f"the fire die for {describe(ev.tile or '')} shows "
                f"{DIE_FACES_TEXT.get(ev.detail, ev.detail)}"
            )
        elif ev.kind == "won":
            parts.append(f"{who} has no tile left and wins the round")
        elif ev.kind == "dealt":
            parts.append("the tiles are dealt")
    if pending_collapse is not None:
        tile, lifted, owner, why = pending_collapse
        owner_name = _name(names, owner)
        reason = "is too heavy" if why == "overweight" else "matches neither tile below"
        line = f"{describe(tile)} {reason}"
        if _replace_last_play(parts, tile):
            line = f"{_possessive(owner_name)} {line}"
        if lifted:
            line += f": {tile_list(lifted)} {_go(lifted)} under {_possessive(owner_name)} pile"
        parts.append(line)
    if not parts:
        return ""
    text = "; ".join(parts)
    if any(name and text.startswith(name) for name in names):
        return text + "."  # a name is written as its owner wrote it, even first
    return text[0].upper() + text[1:] + "."


def _replace_last_play(parts: list[str], tile: str) -> bool:
    """Drop "X played <tile>" when the collapse line that follows already names the tile."""
    wanted = f" played {describe(tile)}"
    if parts and parts[-1].endswith(wanted):
        parts.pop()
        return True
    return False


def scores_line(names: Sequence[str], scores: Sequence[int]) -> str:
    """``"Léa 0, Max 7, Zoé 12"``, lowest first (lowest wins)."""
    order = sorted(range(len(scores)), key=lambda i: (scores[i], i))
    return ", ".join(f"{_name(names, i)} {scores[i]}" for i in order)


_PREVIEW_WORDS = {"collapsed": "collapse", "exploded": "explosion", "cursed": "curse"}


def describe_preview(preview: Preview, names: Sequence[str] = ()) -> str:
    """A short label for what a decision would do, told to the player who would take it
    (``"your pile"``): for a spot's button and the spot step's text.

    >>> from engine import Game, Play, preview
    >>> g = Game(2, pyramid={(0, 0): "Y30", (0, 2): "R40"}, hands=[["Y20", "B100"], ["G2"]])
    >>> describe_preview(preview(g, Play("Y20", (1, 1))))
    'fits'
    >>> describe_preview(preview(g, Play("B100", (1, 1))))
    'collapse: 2 tiles to your pile'
    """
    words: list[str] = []
    for ev in preview.mayhem:
        if ev.kind == "burnt":
            word = f"{ev.detail or 'straw'} fire"
        elif ev.kind == "rolled":
            word = f"fire die: {DIE_FACES_TEXT.get(ev.detail, ev.detail)}"
        else:
            word = _PREVIEW_WORDS.get(ev.kind, "")
        if word and word not in words:
            words.append(word)
    text = ", ".join(words) if words else ("fire die" if preview.die else "fits")
    gains = []
    for seat, count in enumerate(preview.to_piles):
        if count:
            pile = (
                "your pile" if seat == preview.player else f"{_possessive(_name(names, seat))} pile"
            )
            gains.append(f"{count} tile{'s' if count != 1 else ''} to {pile}")
    if gains:
        text += ": " + ", ".join(gains)
    if words and preview.die:
        text += "; then the fire die"
    if preview.winner is not None:
        who = "you" if preview.winner == preview.player else _name(names, preview.winner)
        text += f"; {who} {'win' if who == 'you' else 'wins'} the round"
    return text
