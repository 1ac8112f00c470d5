"""One narration of the game: the engine's events in, sentences a player can trust out.

Every text that tells what happened (the table's posts, the "since your last move" lines of a
turn message, the last-move lines drawn on the pictures, the captions of the animation) words it
here, so the texts and the pictures say the same thing in the same words. Pure functions of their
arguments: no Discord, no database, no Pillow.

What the words promise:

- a tile is named one way everywhere, as its button names it (:func:`tile_name`, which is
  :func:`engine.tiles.describe`): "yellow 40", "blue blowtorch (7)";
- a tile is credited to the player who *placed* it (the ``placed`` event), never to whoever bears
  the mayhem once a curse has passed it on;
- a tile on one tile below "does not fit on the tile below"; "matched neither tile below" only when
  there were two;
- the curse says in plain words what it does (RULES 5.5): the three tiles go under the previous
  player's pile, who from then on takes this turn's tiles and chooses where they fall;
- nobody "rolls" the fire die: the game rolls it (RULES 6), so the die "showed" a face;
- the round's win is not told by :func:`narrate` (a post names the round's winner once, in its
  result line); :func:`narrate` tells that the player has no tile left.

>>> names = ["Léa", "Max"]
>>> for part in sentences([
...     Event("placed", 0, "G60", (1, 1)),
...     Event("collapsed", 0, "G60", (1, 1), to_pile=(("B20", (0, 0)), ("Y40", (0, 2))),
...           detail="overweight"),
...     Event("fell", 0, "G60", (1, 1), (0, 0), detail="left"),
... ], names): print(part.replace(": ", ":\\n"))
Léa played green 60, too heavy for the two tiles below:
blue 20 and yellow 40 went under Léa's pile, and green 60 fell left

Only public events are told: which tiles a player drew stays private (only how many).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from engine import Event, Preview
from engine.tiles import MATERIAL, WEIGHT, describe, is_tile

DIE_FACES_TEXT: Final = {
    "fire_stays": "fire (the incendiary stays)",
    "fire_removed": "fire (the incendiary burns out)",
    "explosion": "explosion",
    "smoke": "smoke (nothing happens)",
}
"""The fire die's faces in words (RULES 6)."""

MAYHEM_AFTER_CURSE: Final = ("collapsed", "fell", "exploded", "burnt", "rolled")
"""Events after a curse that the curse's responsible player bears or decides."""


# --- names ----------------------------------------------------------------------------------------


def tile_name(code: str) -> str:
    """The one name of a tile, as its button shows it: ``"yellow 40"``, ``"red blowtorch (7)"``.

    >>> tile_name("Y40"), tile_name("M200"), tile_name("X9")
    ('yellow 40', 'millstone (200)', 'X9')
    """
    return describe(code) if is_tile(code) else code


def material_word(code: str) -> str:
    """The tile's material as a word (``"wood"``), or ``""`` for an unknown code or a material
    that :func:`tile_name` already says (coal, blowtorch, the millstone)."""
    material = MATERIAL.get(code, "")
    return "" if material in ("coal", "blowtorch") or code == "M200" else material


def tile_list(tiles: Iterable[str]) -> str:
    """``["B20", "Y40", "R2"]`` -> ``"blue 20, yellow 40 and red 2"``.

    >>> tile_list([]), tile_list(["B20"]), tile_list(["B20", "Y40", "R2"])
    ('nothing', 'blue 20', 'blue 20, yellow 40 and red 2')
    """
    words = [tile_name(t) for t in tiles]
    if not words:
        return "nothing"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " and " + words[-1]


def player_name(names: Sequence[str], seat: int) -> str:
    """Seat ``seat``'s name as given; ``Player N`` (from 1) when missing or blank."""
    if 0 <= seat < len(names) and isinstance(names[seat], str) and names[seat].strip():
        return names[seat]
    return f"Player {seat + 1}"


def possessive(name: str) -> str:
    """``"Léa's"``, ``"James'"``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def die_face(face: str) -> str:
    """A face of the fire die in words."""
    return DIE_FACES_TEXT.get(face, face.replace("_", " "))


def collapse_reason(supports: int, detail: str) -> str:
    """Why a tile collapsed, from the number of tiles below it (RULES 4).

    >>> collapse_reason(2, "mismatch")
    'matched neither tile below in colour or weight'
    >>> collapse_reason(1, "mismatch")
    'did not fit on the tile below (not its colour)'
    """
    if supports >= 2:
        if detail == "overweight":
            return "too heavy for the two tiles below"
        return "matched neither tile below in colour or weight"
    if detail == "overweight":
        return "did not fit on the tile below (heavier than it)"
    return "did not fit on the tile below (not its colour)"


# --- a turn -------------------------------------------------------------------------------------


class _Teller:
    """The sentences of one run of events, with who placed which tile and who decides."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = names
        self.placer: dict[str, int] = {}
        self.active: int | None = None
        self.parts: list[str] = []

    def who(self, seat: int) -> str:
        return player_name(self.names, seat)

    def tile(self, code: str) -> str:
        """A tile, with the name of who placed it when that was this turn."""
        seat = self.placer.get(code)
        if seat is None:
            return tile_name(code)
        return f"{possessive(self.who(seat))} {tile_name(code)}"

    def chooser(self, seat: int) -> str:
        """``" (sam chose)"`` when the choice was not the player's whose turn it is."""
        return "" if seat == self.active else f" ({self.who(seat)} chose)"

    def pile(self, tiles: Sequence[str], seat: int) -> str:
        return f"{tile_list(tiles)} went under {possessive(self.who(seat))} pile"


def sentences(events: Iterable[Event], names: Sequence[str]) -> list[str]:
    """What ``events`` tell, one clause per fact, in order (without final stops).

    The collapse of the tile just placed joins its placement ("Léa played green 60, too heavy
    for ..."), and a fall joins the collapse that caused it, so each fact is said once.
    """
    evs = list(events)
    t = _Teller(names)
    parts = t.parts
    i = 0
    while i < len(evs):
        ev = evs[i]
        nxt = evs[i + 1] if i + 1 < len(evs) else None
        if ev.kind == "placed" and ev.tile:
            t.active = ev.player
            parts.append(f"{t.who(ev.player)} played {tile_name(ev.tile)}")
            t.placer[ev.tile] = ev.player
        elif ev.kind == "collapsed" and ev.tile:
            lifted = [x for x, _ in ev.to_pile]
            reason = collapse_reason(len(lifted), ev.detail)
            again = i > 0 and evs[i - 1].kind == "fell" and evs[i - 1].tile == ev.tile
            if _just_placed(evs, i, parts, ev.tile):
                line = f"{parts.pop()}, {_clause(reason)}"
            elif again:  # the tile just told falling: no need to name it twice
                line = f"there it {_sentence(reason)}"
            else:
                line = f"{t.tile(ev.tile)} {_sentence(reason)}"
            if lifted:
                line += f": {t.pile(lifted, ev.player)}"
            if nxt is not None and nxt.kind == "fell" and nxt.tile == ev.tile:
                line += f", and {tile_name(ev.tile)} fell {nxt.detail}"
                line += f"{' again' if again else ''}{t.chooser(nxt.player)}"
                i += 1
            parts.append(line)
        elif ev.kind == "fell" and ev.tile:
            parts.append(
                f"{t.tile(ev.tile)} was in free air and fell {ev.detail}{t.chooser(ev.player)}"
            )
        elif ev.kind == "exploded":
            gone = [x for x, _ in ev.out]
            lifted = [x for x, _ in ev.to_pile]
            line = f"{tile_list(gone)} exploded and left the game"
            if lifted:
                line += f"; {t.pile(lifted, ev.player)}"
            parts.append(line)
        elif ev.kind == "burnt" and ev.tile:
            lifted = [x for x, _ in ev.to_pile]
            fire = f"set fire to the {ev.detail or 'straw'}"
            if _just_placed(evs, i, parts, ev.tile):
                line, it = f"{parts.pop()}, which {fire}", f"the {MATERIAL[ev.tile]}"
            else:
                line, it = f"{t.tile(ev.tile)} {fire}", tile_name(ev.tile)
            if lifted:
                line += f": {tile_list(lifted)} burnt and went under "
                line += f"{possessive(t.who(ev.player))} pile"
            if ev.out:
                line += f"; {it} left the game"
            parts.append(line)
        elif ev.kind == "cursed":
            lifted = [x for x, _ in ev.to_pile]
            weight = WEIGHT.get(lifted[0], 0) if lifted else 0
            who = t.who(ev.player)
            line = f"a curse, three tiles of weight {weight}: {t.pile(lifted, ev.player)}"
            if any(e.kind in MAYHEM_AFTER_CURSE for e in evs[i + 1 :]):
                line += (
                    f"; for the rest of this turn {who} takes the tiles that leave the pyramid"
                    " and chooses where they fall"
                )
            parts.append(line)
        elif ev.kind == "rolled":
            tile = tile_name(ev.tile) if ev.tile else "the tile"
            parts.append(f"the fire die for {tile} showed {die_face(ev.detail)}")
        elif ev.kind == "won":
            parts.append(f"{t.who(ev.player)} has no tile left in hand or pile")
        elif ev.kind == "dealt":
            parts.append("the tiles are dealt")
        i += 1
    return parts


def _just_placed(evs: Sequence[Event], i: int, parts: Sequence[str], tile: str) -> bool:
    """Whether event ``i`` follows the placement of ``tile``, told last: it joins that clause."""
    return (
        i > 0
        and evs[i - 1].kind == "placed"
        and evs[i - 1].tile == tile
        and bool(parts)
        and parts[-1].endswith(f" played {tile_name(tile)}")
    )


def _clause(reason: str) -> str:
    """A reason after a comma: "too heavy for ...", "which did not fit ..."."""
    return reason if reason.startswith("too heavy") else f"which {reason}"


def _sentence(reason: str) -> str:
    """A reason after its subject: "was too heavy for ...", "did not fit ..."."""
    return f"was {reason}" if reason.startswith("too heavy") else reason


def narrate(events: Iterable[Event], names: Sequence[str]) -> str:
    """One line telling ``events`` (one action's worth, or a whole turn) with player names.

    Returns ``""`` when nothing worth telling happened (a ``turn`` event alone). A name keeps
    the case its owner wrote it in, even at the start of the line.
    """
    parts = sentences(events, names)
    if not parts:
        return ""
    text = "; ".join(parts)
    if any(name and text.startswith(name) for name in names):
        return text + "."
    return text[0].upper() + text[1:] + "."


def last_move(events: Iterable[Event], names: Sequence[str]) -> str:
    """The picture's last-move line: ``"Last move: "`` and the narration of the turn; empty
    without a placement."""
    evs = list(events)
    if not any(e.kind == "placed" for e in evs):
        return ""
    return f"Last move: {narrate(evs, names)}"


# --- results --------------------------------------------------------------------------------------


def scores_line(names: Sequence[str], scores: Sequence[int]) -> str:
    """``"Léa 0, Max 7, Zoé 12"``, lowest first (lowest wins)."""
    order = sorted(range(len(scores)), key=lambda i: (scores[i], i))
    return ", ".join(f"{player_name(names, i)} {scores[i]}" for i in order)


def match_winners(scores: Sequence[int]) -> list[int]:
    """The seats with the lowest total (RULES 7: lowest wins; ties share the win)."""
    if not scores:
        return []
    best = min(scores)
    return [i for i, s in enumerate(scores) if s == best]


def names_and(seats: Sequence[int], names: Sequence[str]) -> str:
    """``"Léa"``, ``"Léa and Max"``, ``"Léa, Max and Zoé"``."""
    words = [player_name(names, i) for i in seats]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def round_winner_line(names: Sequence[str], winner: int, round_no: int, rounds: int) -> str:
    """The round's winner, named as the round's: ``"Léa wins round 2 of 3."``."""
    if rounds <= 1:
        return f"{player_name(names, winner)} wins the round."
    return f"{player_name(names, winner)} wins round {round_no} of {rounds}."


def match_winner_line(names: Sequence[str], totals: Sequence[int]) -> str:
    """The match's winners (lowest total), crowned: ``"Max wins the match."``."""
    won = match_winners(totals)
    verb = "wins" if len(won) == 1 else "share"
    return f"{names_and(won, names)} {verb} the match."


def standings(
    names: Sequence[str],
    totals: Sequence[int],
    *,
    round_scores: Sequence[int] | None = None,
) -> list[str]:
    """The one standings table: a line per player, lowest total first (lowest wins), equal
    totals sharing a rank, each with this round's tiles when given.

    >>> standings(["Léa", "Max", "Zoé"], [7, 0, 7], round_scores=[3, 0, 5])
    ['1. Max: 0 (this round 0)', '2. Léa: 7 (this round 3)', '2. Zoé: 7 (this round 5)']
    """
    order = sorted(range(len(totals)), key=lambda i: (totals[i], i))
    lines: list[str] = []
    rank = 0
    previous: int | None = None
    for k, seat in enumerate(order):
        if totals[seat] != previous:
            rank = k + 1
            previous = totals[seat]
        line = f"{rank}. {player_name(names, seat)}: {totals[seat]}"
        if round_scores is not None and seat < len(round_scores):
            line += f" (this round {round_scores[seat]})"
        lines.append(line)
    return lines


def result_lines(
    names: Sequence[str],
    *,
    winner: int,
    round_no: int,
    rounds: int,
    round_scores: Sequence[int],
    totals: Sequence[int],
) -> list[str]:
    """What a post says when a round ends: the round's winner named once, as the round's; at the
    end of the match its winners (lowest total, RULES 7) crowned; then the one standings table.

    >>> for line in result_lines(["Léa", "Max"], winner=0, round_no=2, rounds=2,
    ...                          round_scores=[0, 2], totals=[9, 4]):
    ...     print(line)
    Léa wins round 2 of 2.
    Max wins the match with the lowest total.
    Final standings, tiles left in hand and pile over 2 rounds (lower wins):
    1. Max: 4 (this round 2)
    2. Léa: 9 (this round 0)
    """
    who = player_name(names, winner)
    if rounds <= 1:
        head = [f"{who} wins the game."]
        table = standings(names, round_scores)
        return [*head, "Tiles left in hand and pile (lower wins):", *table]
    table = standings(names, totals, round_scores=round_scores)
    if round_no < rounds:
        return [
            round_winner_line(names, winner, round_no, rounds),
            f"Standings after round {round_no} of {rounds} (lower wins):",
            *table,
        ]
    won = match_winners(totals)
    if won == [winner]:
        head = [f"{who} wins round {round_no} and the match with the lowest total."]
    else:
        verb = "wins" if len(won) == 1 else "share"
        head = [
            round_winner_line(names, winner, round_no, rounds),
            f"{names_and(won, names)} {verb} the match with the lowest total.",
        ]
    over = f"Final standings, tiles left in hand and pile over {rounds} rounds (lower wins):"
    return [*head, over, *table]


# --- what a decision would do ----------------------------------------------------------------

_PREVIEW_WORDS: Final = {"collapsed": "collapse", "exploded": "explosion", "cursed": "curse"}


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
            word = f"fire die: {die_face(ev.detail)}"
        else:
            word = _PREVIEW_WORDS.get(ev.kind, "")
        if word and word not in words:
            words.append(word)
    text = ", ".join(words) if words else ("fire die" if preview.die else "fits")
    gains = []
    for seat, count in enumerate(preview.to_piles):
        if count:
            pile = (
                "your pile"
                if seat == preview.player
                else f"{possessive(player_name(names, seat))} pile"
            )
            gains.append(f"{count} tile{'s' if count != 1 else ''} to {pile}")
    if gains:
        text += ": " + ", ".join(gains)
    if words and preview.die:
        text += "; then the fire die"
    if preview.winner is not None:
        who = "you" if preview.winner == preview.player else player_name(names, preview.winner)
        text += f"; {who} {'win' if who == 'you' else 'wins'} the round"
    return text
