"""A turn's account: the engine's events in, one short line per event out.

The table's posts, a player's closed screen and their "since your last move" recap, the replay
of a finished match, and the last-move lines drawn on the pictures all tell a turn with these
lines, so the texts and the pictures say the same thing in the same words. A player reads a
cascade the way it happened, one fact a line: a tile placed; a collapse and whose pile its
tiles went under; which way a tile fell; what burnt; what exploded; a curse. Pure functions of
their arguments: no Discord, no database, no Pillow. Tiles are named as their buttons name them
(:mod:`render.narration`).

What the lines promise (RULES 5 and 6):

- "again" is said only when it is true: a tile "collapsed again" when it collapses a second
  time in the turn, and "fell left again" only when its fall before was to the left too;
- a fire is named by what burnt (straw, wood, or both), not by what the incendiary could burn:
  a blowtorch that burns only straw "set fire to the straw";
- a tile is credited to the player who *placed* it only when somebody else bears the mayhem (a
  curse passed it on): its placement is told on the line above;
- on a player's own screen the player is "you" (``viewer``): "You played green 60.", "went under
  your pile", "(you chose)"; everyone else is named;
- a fall is "(Bob chose)" only when Bob chose it: one a computer player chose for him (his time
  ran out, or he is away) says so (``computer_chose``), and so does a tile a computer player
  played for him, where no line above says it ("A computer player played green 10 for Bob.");
- nobody "rolls" the fire die: the game rolls it (RULES 6), so the die "showed" a face;
- the round's win is not told here (a post names the round's winner once, in its result
  line): the account tells that the player has no tile left.

>>> from i18n import ENGLISH
>>> for line in turn_lines([
...     Event("placed", 0, "G60", (1, 1)),
...     Event("collapsed", 0, "G60", (1, 1), to_pile=(("B20", (0, 0)), ("Y40", (0, 2))),
...           detail="overweight"),
...     Event("fell", 0, "G60", (1, 1), (0, 0), detail="left"),
... ], ["Léa", "Max"], lang=ENGLISH, viewer=None): print(line)
Léa played green 60.
Green 60 collapsed (too heavy for the two tiles below): blue 20 and yellow 40 went under Léa's pile.
Green 60 fell left.

Only public events are told: which tiles a player drew stays private.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import Final, Literal

from engine import Event, Pos
from engine.tiles import BLOWTORCH, MATERIAL, STRAW, WEIGHT, WOOD
from i18n import Language
from render.narration import (
    die_face,
    player_name,
    side_word,
    tile_in_text,
    tile_list,
    tile_name,
)

MAYHEM_AFTER_CURSE: Final = ("collapsed", "fell", "exploded", "burnt", "rolled")
"""Events after a curse that the curse's responsible player bears or decides."""

FallAgain = Literal["collapsed", "free_air"]
"""Why a tile that already fell this turn must fall once more (see :func:`fall_again`)."""


def _reason(supports: int, detail: str, again: bool, lang: Language) -> str:
    """``"{tile} collapsed (too heavy for the two tiles below)"``, by the number of tiles it
    rested on (RULES 4) and whether it collapsed before this turn."""
    key = (2 if supports >= 2 else 1, "overweight" if detail == "overweight" else "mismatch")
    if again:
        texts = {
            (2, "overweight"): lang.gettext(
                "{tile} collapsed again (too heavy for the two tiles below)"
            ),
            (2, "mismatch"): lang.gettext(
                "{tile} collapsed again (neither tile below matches its colour or weight)"
            ),
            (1, "overweight"): lang.gettext("{tile} collapsed again (heavier than the tile below)"),
            (1, "mismatch"): lang.gettext(
                "{tile} collapsed again (not the colour of the tile below)"
            ),
        }
    else:
        texts = {
            (2, "overweight"): lang.gettext("{tile} collapsed (too heavy for the two tiles below)"),
            (2, "mismatch"): lang.gettext(
                "{tile} collapsed (neither tile below matches its colour or weight)"
            ),
            (1, "overweight"): lang.gettext("{tile} collapsed (heavier than the tile below)"),
            (1, "mismatch"): lang.gettext("{tile} collapsed (not the colour of the tile below)"),
        }
    return texts[key]


def burnt_materials(ev: Event) -> tuple[str, ...]:
    """What a ``burnt`` event burnt: ``("straw",)``, ``("wood",)`` or ``("straw", "wood")``,
    read from the tiles that burnt, not from what the incendiary could have burnt (a blowtorch
    next to straw alone burns straw: RULES 5.4).

    >>> burnt_materials(Event("burnt", 0, "R7", (0, 0), to_pile=(("G2", (0, 2)),), detail="wood"))
    ('straw',)
    """
    found = {MATERIAL.get(t) for t, _ in ev.to_pile}
    materials = tuple(m for m in (STRAW, WOOD) if m in found)
    return materials or ((WOOD,) if ev.detail == WOOD else (STRAW,))


def _fire(ev: Event, lang: Language) -> str:
    """``"{tile} set fire to the straw"``: named by the material of the tiles that burnt."""
    materials = burnt_materials(ev)
    if len(materials) > 1:
        return lang.gettext("{tile} set fire to the straw and the wood")
    if materials == (WOOD,):
        return lang.gettext("{tile} set fire to the wood")
    return lang.gettext("{tile} set fire to the straw")


class _Teller:
    """The lines of one run of events: who placed which tile, and what each tile did; told to
    ``viewer`` (a seat, or None for everyone), who reads about themselves as "you"."""

    def __init__(
        self,
        names: Sequence[str],
        lang: Language,
        viewer: int | None,
        computer_chose: Collection[tuple[str, Pos]] = (),
    ) -> None:
        self.names = names
        self.lang = lang
        self.viewer = viewer
        self.computer_chose = computer_chose
        """The placements and falls (tile, where it was) a computer player chose for a person:
        their time ran out, or they are away."""
        self.placer: dict[str, int] = {}
        self.collapsed: set[str] = set()
        """Tiles that collapsed earlier in this run."""
        self.fell: dict[str, str] = {}
        """Each tile's latest fall in this run: ``"left"`` or ``"right"``."""

    def who(self, seat: int) -> str:
        return player_name(self.names, seat, self.lang)

    def me(self, seat: int | None) -> bool:
        """Whether ``seat`` is the reader, told about as "you"."""
        return seat is not None and seat == self.viewer

    def tile(self, code: str, bearer: int) -> str:
        """A tile in a sentence, with the name of who placed it this turn when ``bearer``, who
        bears its mayhem, is somebody else (after a curse)."""
        seat = self.placer.get(code)
        if seat is None or seat == bearer:
            return tile_in_text(code, self.lang)
        if self.me(seat):
            # TRANSLATORS: a tile the reader placed this turn: "your green 60". {tile} is the
            # tile's name alone, as its button shows it (no article).
            return self.lang.gettext("your {tile}").format(tile=tile_name(code, self.lang))
        # TRANSLATORS: a tile with the player who placed it this turn: "Léa's green 60".
        return self.lang.gettext("{player}'s {tile}").format(
            player=self.who(seat), tile=tile_in_text(code, self.lang)
        )

    def pile(self, tiles: Sequence[str], seat: int) -> str:
        if self.me(seat):
            return self.lang.ngettext(
                "{tiles} went under your pile", "{tiles} went under your pile", len(tiles)
            ).format(tiles=tile_list(tiles, self.lang))
        return self.lang.ngettext(
            "{tiles} went under {player}'s pile", "{tiles} went under {player}'s pile", len(tiles)
        ).format(tiles=tile_list(tiles, self.lang), player=self.who(seat))

    def then(self, clause: str, consequence: str) -> str:
        # TRANSLATORS: what happened, then what it caused: "X collapsed: Y went under Z's pile".
        return self.lang.gettext("{what}: {consequence}").format(
            what=clause, consequence=consequence
        )

    def also(self, clause: str, more: str) -> str:
        # TRANSLATORS: two facts of one event: "A burnt and went under Léa's pile; B left...".
        return self.lang.gettext("{what}; {more}").format(what=clause, more=more)

    def placed(self, ev: Event) -> str:
        assert ev.tile is not None
        self.placer[ev.tile] = ev.player
        if (ev.tile, ev.at) in self.computer_chose:
            said = (
                self.lang.gettext("a computer player played {tile} for you")
                if self.me(ev.player)
                else self.lang.gettext("a computer player played {tile} for {player}")
            )
        else:
            said = (
                # TRANSLATORS: the reader's own placement; its first letter is made a capital.
                self.lang.gettext("you played {tile}")
                if self.me(ev.player)
                else self.lang.gettext("{player} played {tile}")
            )
        return said.format(player=self.who(ev.player), tile=tile_in_text(ev.tile, self.lang))

    def collapse(self, ev: Event) -> str:
        assert ev.tile is not None
        lifted = [x for x, _ in ev.to_pile]
        again = ev.tile in self.collapsed
        self.collapsed.add(ev.tile)
        line = _reason(len(lifted), ev.detail, again, self.lang).format(
            tile=self.tile(ev.tile, ev.player)
        )
        return self.then(line, self.pile(lifted, ev.player)) if lifted else line

    def fall(self, ev: Event, *, after_collapse: bool) -> str:
        """``"Green 60 fell left"``; ``"again"`` only after a fall to the same side."""
        assert ev.tile is not None
        lang = self.lang
        again = self.fell.get(ev.tile) == ev.detail
        self.fell[ev.tile] = ev.detail
        own = ev.player == self.active()
        mine = self.me(ev.player)
        if not own and (ev.tile, ev.at) in self.computer_chose:
            return self.fall_for(ev, after_collapse=after_collapse, again=again, mine=mine)
        if not after_collapse:
            if own:
                text = lang.gettext("{tile} was in free air and fell {side}")
            elif mine:
                text = lang.gettext("{tile} was in free air and fell {side} (you chose)")
            else:
                text = lang.gettext("{tile} was in free air and fell {side} ({player} chose)")
        elif again:
            if own:
                text = lang.gettext("{tile} fell {side} again")
            elif mine:
                text = lang.gettext("{tile} fell {side} again (you chose)")
            else:
                text = lang.gettext("{tile} fell {side} again ({player} chose)")
        elif own:
            text = lang.gettext("{tile} fell {side}")
        elif mine:
            text = lang.gettext("{tile} fell {side} (you chose)")
        else:
            text = lang.gettext("{tile} fell {side} ({player} chose)")
        return text.format(
            tile=tile_in_text(ev.tile, lang),
            side=side_word(ev.detail, lang),
            player=self.who(ev.player),
        )

    def fall_for(self, ev: Event, *, after_collapse: bool, again: bool, mine: bool) -> str:
        """A fall of someone else's turn that a computer player chose for the person who bears
        it (after a curse): ``"Blue 30 fell left (a computer player chose for Bob)"``."""
        assert ev.tile is not None
        lang = self.lang
        if not after_collapse:
            text = (
                lang.gettext(
                    "{tile} was in free air and fell {side} (a computer player chose for you)"
                )
                if mine
                else lang.gettext(
                    "{tile} was in free air and fell {side} (a computer player chose for {player})"
                )
            )
        elif again:
            text = (
                lang.gettext("{tile} fell {side} again (a computer player chose for you)")
                if mine
                else lang.gettext("{tile} fell {side} again (a computer player chose for {player})")
            )
        else:
            text = (
                lang.gettext("{tile} fell {side} (a computer player chose for you)")
                if mine
                else lang.gettext("{tile} fell {side} (a computer player chose for {player})")
            )
        return text.format(
            tile=tile_in_text(ev.tile, lang),
            side=side_word(ev.detail, lang),
            player=self.who(ev.player),
        )

    def active(self) -> int | None:
        """Who played this turn's tile (the first placement told), if one was told."""
        return next(iter(self.placer.values()), None)

    def burn(self, ev: Event) -> str:
        assert ev.tile is not None
        lang = self.lang
        burnt = [x for x, _ in ev.to_pile]
        line = _fire(ev, lang).format(tile=self.tile(ev.tile, ev.player))
        if burnt:
            went = (
                lang.ngettext(
                    "{tiles} burnt and went under your pile",
                    "{tiles} burnt and went under your pile",
                    len(burnt),
                )
                if self.me(ev.player)
                else lang.ngettext(
                    "{tiles} burnt and went under {player}'s pile",
                    "{tiles} burnt and went under {player}'s pile",
                    len(burnt),
                )
            )
            line = self.then(
                line, went.format(tiles=tile_list(burnt, lang), player=self.who(ev.player))
            )
        if ev.out:
            # TRANSLATORS: the incendiary that started the fire, named by its kind: "the coal".
            it = (
                lang.gettext("the blowtorch")
                if MATERIAL.get(ev.tile) == BLOWTORCH
                else lang.gettext("the coal")
            )
            line = self.also(line, lang.gettext("{tile} left the game").format(tile=it))
        return line

    def explosion(self, ev: Event) -> str:
        gone = [x for x, _ in ev.out]
        lifted = [x for x, _ in ev.to_pile]
        line = self.lang.ngettext(
            "{tiles} exploded and left the game",
            "{tiles} exploded and left the game",
            len(gone),
        ).format(tiles=tile_list(gone, self.lang))
        return self.then(line, self.pile(lifted, ev.player)) if lifted else line

    def curse(self, ev: Event) -> str:
        lifted = [x for x, _ in ev.to_pile]
        weight = WEIGHT.get(lifted[0], 0) if lifted else 0
        return self.then(
            self.lang.gettext("a curse, three tiles of weight {weight}").format(weight=weight),
            self.pile(lifted, ev.player),
        )


def _clauses(
    events: Iterable[Event],
    names: Sequence[str],
    lang: Language,
    viewer: int | None,
    computer_chose: Collection[tuple[str, Pos]] = (),
) -> list[str]:
    """One clause per event worth telling (without capital or final stop), told to ``viewer``."""
    evs = list(events)
    t = _Teller(names, lang, viewer, computer_chose)
    said: list[str] = []
    for i, ev in enumerate(evs):
        if ev.kind == "placed" and ev.tile:
            said.append(t.placed(ev))
        elif ev.kind == "collapsed" and ev.tile:
            said.append(t.collapse(ev))
        elif ev.kind == "fell" and ev.tile:
            before = evs[i - 1] if i else None
            after_collapse = (
                before is not None and before.kind == "collapsed" and before.tile == ev.tile
            )
            said.append(t.fall(ev, after_collapse=after_collapse))
        elif ev.kind == "exploded":
            said.append(t.explosion(ev))
        elif ev.kind == "burnt" and ev.tile:
            said.append(t.burn(ev))
        elif ev.kind == "cursed":
            said.append(t.curse(ev))
            if any(e.kind in MAYHEM_AFTER_CURSE for e in evs[i + 1 :]):
                bears = (
                    lang.gettext(
                        "for the rest of this turn you take the tiles that leave the pyramid "
                        "and choose where they fall"
                    )
                    if t.me(ev.player)
                    else lang.gettext(
                        "for the rest of this turn {player} takes the tiles that leave the "
                        "pyramid and chooses where they fall"
                    )
                )
                said.append(bears.format(player=t.who(ev.player)))
        elif ev.kind == "rolled":
            tile = tile_in_text(ev.tile, lang) if ev.tile else lang.gettext("the tile")
            said.append(
                lang.gettext("the fire die for {tile} showed {face}").format(
                    tile=tile, face=die_face(ev.detail, lang)
                )
            )
        elif ev.kind == "won":
            empty = (
                lang.gettext("you have no tile left in hand or pile")
                if t.me(ev.player)
                else lang.gettext("{player} has no tile left in hand or pile")
            )
            said.append(empty.format(player=t.who(ev.player)))
        elif ev.kind == "dealt":
            said.append(lang.gettext("the tiles are dealt"))
    return said


def _sentence(clause: str, names: Sequence[str], lang: Language) -> str:
    """A clause as a line: a capital first letter, unless it starts with a player's name (which
    keeps the case its owner wrote it in), and its final stop."""
    if not any(name and clause.startswith(name) for name in names):
        clause = clause[:1].upper() + clause[1:]
    # TRANSLATORS: a line of a turn's account as a sentence: its final stop.
    return lang.gettext("{account}.").format(account=clause)


def turn_lines(
    events: Iterable[Event],
    names: Sequence[str],
    lang: Language,
    *,
    viewer: int | None,
    computer_chose: Collection[tuple[str, Pos]] = (),
) -> list[str]:
    """What ``events`` (one action's worth, or a whole turn) tell, one short line per event, in
    order; none when nothing worth telling happened (a ``turn`` event alone). Told to
    ``viewer``: on a player's own screen their seat, whom the lines call "you" ("You played
    green 60.", "went under your pile"); None for everyone (the channel, the records).
    ``computer_chose``: the falls, each as (tile, where it was), that a computer player chose
    for the person who bears them (after a curse, when their time ran out or they are away),
    told so instead of "(Bob chose)"; and the placements, as (tile, spot), it made for a person,
    told so instead of "Bob played"."""
    clauses = _clauses(events, names, lang, viewer, computer_chose)
    return [_sentence(c, names, lang) for c in clauses]


def narrate(
    events: Iterable[Event],
    names: Sequence[str],
    lang: Language,
    *,
    viewer: int | None,
    most: int | None = None,
    computer_chose: Collection[tuple[str, Pos]] = (),
) -> str:
    """:func:`turn_lines` as one text, a line each (at most ``most`` lines, see
    :func:`capped`), told to ``viewer``: ``""`` when nothing worth telling happened."""
    lines = turn_lines(events, names, lang, viewer=viewer, computer_chose=computer_chose)
    return "\n".join(lines if most is None else capped(lines, most, lang))


def capped(lines: Sequence[str], most: int, lang: Language) -> list[str]:
    """``lines`` if there are at most ``most`` (at least 2); else the first ``most - 1`` and a
    last one saying how many more there are (:func:`more_lines`).

    >>> from i18n import ENGLISH
    >>> capped(["a", "b", "c", "d"], 3, lang=ENGLISH)
    ['a', 'b', '…and 2 more events.']
    """
    if len(lines) <= most:
        return list(lines)
    kept = max(1, most - 1)
    return [*lines[:kept], more_lines(len(lines) - kept, lang)]


def last_move(
    events: Iterable[Event],
    names: Sequence[str],
    lang: Language,
    *,
    viewer: int | None,
    computer_chose: Collection[tuple[str, Pos]] = (),
) -> list[str]:
    """The pictures' last-move lines: ``"Last move: "`` and the first line of the turn's
    account (told to ``viewer``, see :func:`turn_lines`), then its other lines; none without a
    placement."""
    evs = list(events)
    if not any(e.kind == "placed" for e in evs):
        return []
    lines = turn_lines(evs, names, lang, viewer=viewer, computer_chose=computer_chose)
    if not lines:
        return []
    first = lang.gettext("Last move: {account}").format(account=lines[0])
    return [first, *lines[1:]]


def more_lines(count: int, lang: Language) -> str:
    """The line that stands for ``count`` lines of an account a picture has no room for."""
    return lang.ngettext(
        "…and {count} more event.",
        "…and {count} more events.",
        count,
    ).format(count=lang.format_decimal(count))


def fall_again(events: Iterable[Event], tile: str) -> FallAgain | None:
    """Why ``tile``, asked where it falls, must fall once more this turn: ``"collapsed"`` when
    it fell already and collapsed again where it landed, ``"free_air"`` when it fell already
    and is in free air now; ``None`` when this is its first fall of the turn.

    >>> placed = Event("placed", 0, "G40", (2, 2))
    >>> first = Event("collapsed", 0, "G40", (2, 2), detail="mismatch")
    >>> fell = Event("fell", 0, "G40", (2, 2), (1, 1), detail="left")
    >>> again = Event("collapsed", 0, "G40", (1, 1), detail="mismatch")
    >>> fall_again([placed, first], "G40"), fall_again([placed, first, fell, again], "G40")
    (None, 'collapsed')
    """
    evs = list(events)
    if not any(e.kind == "fell" and e.tile == tile for e in evs):
        return None
    last = evs[-1]
    if last.kind == "collapsed" and last.tile == tile:
        return "collapsed"
    return "free_air"


__all__ = [
    "FallAgain",
    "burnt_materials",
    "capped",
    "fall_again",
    "last_move",
    "more_lines",
    "narrate",
    "turn_lines",
]
