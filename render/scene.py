"""What a picture shows, worked out from a view before any pixel is drawn.

:func:`table_scene` reads a :class:`engine.View` into a :class:`TableScene`: the tiles, the
labelled spots, the fall choice, the last move. It is plain data, so tests can check it and the
drawing code only has to place it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from engine import Event, Pos, View
from i18n import Language
from render import account, fonts, layout, narration
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


def player_name(names: Sequence[str], i: int, lang: Language) -> str:
    """Player ``i``'s name, drawable; ``Player N`` when missing or blank (seats count from 1)."""
    fallback = lang.gettext("Player {number}").format(number=i + 1)
    if 0 <= i < len(names) and isinstance(names[i], str):
        return fonts.clean(names[i], fallback)
    return fallback


@dataclass(frozen=True)
class Chips:
    """What the picture's chips show beyond the game itself (the bot's, not the rules'): the
    seats whose player is away, until when, and a paused game (on the chip of whoever decides
    next); a practice table (on the title's row)."""

    away: Mapping[int, float] = field(default_factory=dict)
    """Seat -> until when (unix time) of each player who is away: a computer plays for them."""
    paused: bool = False
    """The game is paused: the clock of whoever decides next does not run."""
    practice: bool = False
    """A practice table: its players may ask for hints, and its match is not rated."""
    computer_chose: frozenset[tuple[str, Pos]] = frozenset()
    """The falls of the last move, each as (tile, where it was), that a computer player chose
    for the person who bears them (after a curse: their time ran out, or they are away); the
    last move in words says so instead of "(Bob chose)"."""


NO_CHIPS: Final = Chips()
"""Chips that show the game only."""


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


def summary(
    events: Sequence[Event],
    names: Sequence[str],
    lang: Language,
    *,
    viewer: int | None,
    computer_chose: frozenset[tuple[str, Pos]] = frozenset(),
) -> tuple[str, ...]:
    """The last move in words, one line per event as :mod:`render.account` tells it to
    ``viewer`` (the seat whose own screen this is, as "you"; None for everyone; the first line
    opens with ``"Last move: "``), each broken at spaces onto rows of the table picture's
    width, never cut. At most :data:`render.layout.LAST_MOVE_LINES` rows: an account that needs
    more shows its first lines whole, then how many more it has. Empty without a placement.

    >>> from engine import Event
    >>> from i18n import ENGLISH
    >>> summary([Event("placed", 0, "Y30", (1, 1))], ["Ann"], lang=ENGLISH, viewer=None)
    ('Last move: Ann played yellow 30.',)
    >>> summary([Event("placed", 0, "Y30", (1, 1))], ["Ann"], lang=ENGLISH, viewer=0)
    ('Last move: You played yellow 30.',)
    """
    drawable = [player_name(names, i, lang) for i in range(max(len(names), _seats(events)))]
    lines = account.last_move(events, drawable, lang, viewer=viewer, computer_chose=computer_chose)
    f = fonts.regular(layout.INFO_SIZE)
    width = layout.CANVAS_W - 2 * layout.MARGIN
    return fold(lines, f, width, layout.LAST_MOVE_LINES, lambda n: account.more_lines(n, lang))


def fold(
    lines: Sequence[str],
    f: fonts.Font,
    width: int,
    max_rows: int,
    more: Callable[[int], str],
) -> tuple[str, ...]:
    """``lines``, each broken at spaces onto rows of at most ``width`` pixels (:func:`rows`),
    in at most ``max_rows`` rows. When they need more, the first lines that leave a row free
    are kept whole and the last row is ``more(n)``, ``n`` the number of lines left out: a line
    is shown whole or not at all."""
    wrapped = [rows(line, f, width, indent=CONTINUED) for line in lines]
    if sum(len(r) for r in wrapped) <= max_rows:
        return tuple(row for r in wrapped for row in r)
    kept: list[str] = []
    shown = 0
    for r in wrapped:
        if len(kept) + len(r) > max_rows - 1:
            break
        kept.extend(r)
        shown += 1
    return (*kept, fonts.fit(more(len(lines) - shown), f, width))


_UNBROKEN: Final = re.compile(r" (?![0-9(])")
"""Where a row may break: at a space, but not before a number (a tile's "green 120", "yellow
coal (1)" stays on one row)."""
CONTINUED: Final = "   "
"""What begins the rows a line of the last move continues on: a hanging indent, so that each
line of the account starts at the margin."""


def rows(text: str, f: fonts.Font, width: int, *, indent: str = "") -> tuple[str, ...]:
    """``text`` broken at spaces (not before a number) into rows of at most ``width`` pixels in
    ``f``, as many as it takes, the rows after the first beginning with ``indent`` (only a
    single word wider than a row is cut, with an ellipsis).

    >>> from render import fonts
    >>> rows("one two three", fonts.regular(24), 120, indent="  ")
    ('one two', '  three')
    """
    lines: list[str] = []
    line = ""
    for word in _UNBROKEN.split(text):
        candidate = f"{line} {word}" if line.strip() else f"{line}{word}"
        if f.getlength(candidate) <= width or not line.strip():
            line = candidate
            continue
        lines.append(fonts.fit(line, f, width))
        line = indent + word
    lines.append(fonts.fit(line, f, width))
    return tuple(lines)


def _seats(events: Sequence[Event]) -> int:
    return max((e.player + 1 for e in events), default=0)


def wrap(text: str, f: fonts.Font, width: int, max_lines: int) -> tuple[str, ...]:
    """``text`` broken at spaces into lines of at most ``width`` pixels in ``f``; at most
    ``max_lines`` lines, the last one cut with an ellipsis if the text goes on."""
    words = text.split(" ")
    lines: list[str] = []
    line = ""
    for k, word in enumerate(words):
        candidate = f"{line} {word}" if line else word
        if f.getlength(candidate) <= width or not line:
            line = candidate
            continue
        if len(lines) == max_lines - 1:
            rest = " ".join([line, *words[k:]])
            return (*lines, fonts.fit(rest, f, width))
        lines.append(line)
        line = word
    lines.append(fonts.fit(line, f, width))
    return tuple(lines)


def table_scene(
    view: View,
    names: Sequence[str],
    lang: Language,
    *,
    viewer: int | None,
    told: bool = True,
    chips: Chips = NO_CHIPS,
) -> TableScene:
    """Read ``view`` into what the table picture shows, its last move in words told to
    ``viewer`` (the seat whose own screen it is, as "you": "You played ..."; None for
    everyone). ``told``: with the last move in words; a picture that tells it otherwise, as a
    match's summary does, leaves them out."""
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
        last_move=(
            summary(events, names, lang, viewer=viewer, computer_chose=chips.computer_chose)
            if told
            else ()
        ),
    )


def match_over(view: View) -> bool:
    """Whether the view shows the end of the match: the last round is won."""
    return view.pending is None and view.winner is not None and view.round >= view.rounds


def crowned(view: View) -> frozenset[int]:
    """The seats the picture crowns: the match's winners (lowest total, RULES 7) once the match
    is over, the round's winner at the end of a round before that."""
    if view.pending is not None or view.winner is None:
        return frozenset()
    if view.rounds > 1 and match_over(view):
        return frozenset(narration.match_winners(view.scores))
    return frozenset({view.winner})


def status_line(view: View, names: Sequence[str], lang: Language) -> str:
    """Whose decision it is, in words (the picture's headline); at the end, who won: the round's
    winner named as the round's, the match's winner (lowest total) crowned at the match's end."""
    p = view.pending
    if p is None:
        if view.winner is not None:
            who = player_name(names, view.winner, lang)
            if view.rounds > 1 and match_over(view):
                won = sorted(crowned(view))
                drawable = [player_name(names, i, lang) for i in range(view.players)]
                line = narration.match_winner_headline(drawable, view.scores, lang)
                if won != [view.winner]:
                    line = lang.gettext("{headline} {player} won round {round}.").format(
                        headline=line, player=who, round=view.round
                    )
                return line
            if view.rounds > 1:
                return lang.gettext("{player} wins round {round} of {rounds}!").format(
                    player=who, round=view.round, rounds=view.rounds
                )
            return lang.gettext("{player} wins!").format(player=who)
        return lang.gettext("The round is over.")
    who = player_name(names, p.player, lang)
    if p.kind == "play":
        labels = list(spot_labels(view))
        if len(labels) == 1:
            return lang.gettext("{player} to play a tile on spot {spot}").format(
                player=who, spot=labels[0]
            )
        return lang.gettext("{player} to play a tile on spots {first}–{last}").format(
            player=who, first=labels[0], last=labels[-1]
        )
    if p.kind == "fall":
        if p.tile:
            return lang.gettext("{player}: where does {tile} fall? Left or right").format(
                player=who, tile=narration.tile_in_text(p.tile, lang)
            )
        return lang.gettext("{player}: where does the tile fall? Left or right").format(player=who)
    if p.kind == "die":
        return lang.gettext("The game rolls the fire die")
    return lang.gettext("Waiting for {player}").format(player=who)


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


def info_line(view: View, lang: Language) -> str:
    """Turn, round and options in play."""
    parts = [lang.gettext("Turn {turn}").format(turn=turn_number(view))]
    if view.rounds > 1:
        parts.append(
            lang.gettext("Round {round} of {rounds}").format(round=view.round, rounds=view.rounds)
        )
    if view.curse and view.fire_die:
        parts.append(lang.gettext("Options: curse, fire die"))
    elif view.curse:
        parts.append(lang.gettext("Options: curse"))
    elif view.fire_die:
        parts.append(lang.gettext("Options: fire die"))
    else:
        parts.append(lang.gettext("Standard rules"))
    # TRANSLATORS: between the parts of the picture's line "Turn 3 · Round 1 of 2 · ...".
    return lang.pgettext("info line", " · ").join(parts)
