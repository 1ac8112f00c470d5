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

>>> from i18n import ENGLISH
>>> names = ["Léa", "Max"]
>>> for part in sentences([
...     Event("placed", 0, "G60", (1, 1)),
...     Event("collapsed", 0, "G60", (1, 1), to_pile=(("B20", (0, 0)), ("Y40", (0, 2))),
...           detail="overweight"),
...     Event("fell", 0, "G60", (1, 1), (0, 0), detail="left"),
... ], names, lang=ENGLISH): print(part.replace(": ", ":\\n"))
Léa played green 60, too heavy for the two tiles below:
blue 20 and yellow 40 went under Léa's pile, and green 60 fell left

Only public events are told: which tiles a player drew stays private (only how many).

Every function takes the reader's language (``lang``, never by default): the sentences are
whole messages of the catalogs (``i18n/locales``), with named placeholders, so a language may
order them its own way. A tile has two forms: its name alone, as a button or a label shows it
(:func:`tile_name`: "yellow 40", French "jaune 40"), and its name inside a sentence
(:func:`tile_in_text`: the same in English, "le jaune 40", "la meule (200)" in French, whose
sentences are written so that nothing else agrees with the tile).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from engine import Event, Preview
from engine.tiles import BLOWTORCH, COAL, MATERIAL, MILLSTONE_CODE, WEIGHT, is_tile
from i18n import Language

DIE_FACES_TEXT: Final = {
    "fire_stays": "fire (the incendiary stays)",
    "fire_removed": "fire (the incendiary burns out)",
    "explosion": "explosion",
    "smoke": "smoke (nothing happens)",
}
"""The fire die's faces in English words (RULES 6); :func:`die_face` says them in a language."""

MAYHEM_AFTER_CURSE: Final = ("collapsed", "fell", "exploded", "burnt", "rolled")
"""Events after a curse that the curse's responsible player bears or decides."""


def _names(lang: Language) -> dict[str, str]:
    """The tiles' names alone, one message per colour and kind (each language agrees them its
    way), as a button or a label shows them."""
    return {
        # TRANSLATORS: a tile's name alone, as its button and the pictures' labels show it.
        "Y": lang.pgettext("tile", "yellow {weight}"),
        "R": lang.pgettext("tile", "red {weight}"),
        "G": lang.pgettext("tile", "green {weight}"),
        "B": lang.pgettext("tile", "blue {weight}"),
        "Y1": lang.pgettext("tile", "yellow coal ({weight})"),
        "G1": lang.pgettext("tile", "green coal ({weight})"),
        "R7": lang.pgettext("tile", "red blowtorch ({weight})"),
        "B7": lang.pgettext("tile", "blue blowtorch ({weight})"),
        MILLSTONE_CODE: lang.pgettext("tile", "millstone ({weight})"),
    }


def _names_in_text(lang: Language) -> dict[str, str]:
    """The tiles' names inside a sentence (with an article where the language needs one)."""
    return {
        # TRANSLATORS: a tile named inside a sentence ("Léa played {tile}"): with its article
        # if your language needs one. The sentences that use it avoid agreeing with it.
        "Y": lang.pgettext("tile in a sentence", "yellow {weight}"),
        "R": lang.pgettext("tile in a sentence", "red {weight}"),
        "G": lang.pgettext("tile in a sentence", "green {weight}"),
        "B": lang.pgettext("tile in a sentence", "blue {weight}"),
        "Y1": lang.pgettext("tile in a sentence", "yellow coal ({weight})"),
        "G1": lang.pgettext("tile in a sentence", "green coal ({weight})"),
        "R7": lang.pgettext("tile in a sentence", "red blowtorch ({weight})"),
        "B7": lang.pgettext("tile in a sentence", "blue blowtorch ({weight})"),
        MILLSTONE_CODE: lang.pgettext("tile in a sentence", "millstone ({weight})"),
    }


def _name_key(code: str) -> str:
    return code if code in ("Y1", "G1", "R7", "B7", MILLSTONE_CODE) else code[:1]


# --- names ----------------------------------------------------------------------------------------


def tile_name(code: str, lang: Language) -> str:
    """The one name of a tile, as its button shows it: ``"yellow 40"``, ``"red blowtorch (7)"``
    (:func:`engine.tiles.describe` in English; ``"jaune 40"``, ``"chalumeau rouge (7)"`` in
    French).

    >>> from i18n import ENGLISH
    >>> tile_name("Y40", ENGLISH), tile_name("M200", ENGLISH), tile_name("X9", ENGLISH)
    ('yellow 40', 'millstone (200)', 'X9')
    """
    if not is_tile(code):
        return code
    return _names(lang)[_name_key(code)].format(weight=WEIGHT[code])


def tile_in_text(code: str, lang: Language) -> str:
    """A tile named inside a sentence: :func:`tile_name` in English, with its article where the
    language needs one (``"le jaune 40"``, ``"la meule (200)"``)."""
    if not is_tile(code):
        return code
    return _names_in_text(lang)[_name_key(code)].format(weight=WEIGHT[code])


def material_word(code: str, lang: Language) -> str:
    """The tile's material as a word (``"wood"``), or ``""`` for an unknown code or a material
    that :func:`tile_name` already says (coal, blowtorch, the millstone)."""
    material = MATERIAL.get(code, "")
    if material in ("", COAL, BLOWTORCH) or code == MILLSTONE_CODE:
        return ""
    return material_name(material, lang)


def material_name(material: str, lang: Language) -> str:
    """A material (``engine.tiles.STRAW``...) as a word: ``"straw"``, French ``"paille"``."""
    words = {
        "straw": lang.pgettext("material", "straw"),
        "wood": lang.pgettext("material", "wood"),
        "stone": lang.pgettext("material", "stone"),
        "coal": lang.pgettext("material", "coal"),
        "blowtorch": lang.pgettext("material", "blowtorch"),
    }
    return words.get(material, material)


def side_word(side: str, lang: Language) -> str:
    """``"left"`` or ``"right"`` as a fall's direction (French ``"à gauche"``)."""
    if side == "left":
        return lang.pgettext("fall side", "left")
    if side == "right":
        return lang.pgettext("fall side", "right")
    return side


def _joined(words: Sequence[str], lang: Language) -> str:
    """``a``, ``a and b``, ``a, b and c``, in the language's words."""
    if len(words) <= 1:
        return "".join(words)
    # TRANSLATORS: the last two items of a list: "blue 20, yellow 40 and red 2".
    last = lang.pgettext("list", "{items} and {last}")
    # TRANSLATORS: between the first items of a list.
    comma = lang.pgettext("list", ", ")
    return last.format(items=comma.join(words[:-1]), last=words[-1])


def tile_list(tiles: Iterable[str], lang: Language) -> str:
    """``["B20", "Y40", "R2"]`` -> ``"blue 20, yellow 40 and red 2"`` (each as in a sentence).

    >>> from i18n import ENGLISH
    >>> en = ENGLISH
    >>> tile_list([], en), tile_list(["B20"], en), tile_list(["B20", "Y40", "R2"], en)
    ('nothing', 'blue 20', 'blue 20, yellow 40 and red 2')
    """
    words = [tile_in_text(t, lang) for t in tiles]
    if not words:
        return lang.pgettext("no tiles", "nothing")
    return _joined(words, lang)


def player_name(names: Sequence[str], seat: int, lang: Language) -> str:
    """Seat ``seat``'s name as given; ``Player N`` (from 1) when missing or blank."""
    if 0 <= seat < len(names) and isinstance(names[seat], str) and names[seat].strip():
        return names[seat]
    return lang.gettext("Player {number}").format(number=seat + 1)


def die_face(face: str, lang: Language) -> str:
    """A face of the fire die in words."""
    words = {
        "fire_stays": lang.pgettext("die face", "fire (the incendiary stays)"),
        "fire_removed": lang.pgettext("die face", "fire (the incendiary burns out)"),
        "explosion": lang.pgettext("die face", "explosion"),
        "smoke": lang.pgettext("die face", "smoke (nothing happens)"),
    }
    return words.get(face, face.replace("_", " "))


def _reason_key(supports: int, detail: str) -> tuple[int, str]:
    return (2 if supports >= 2 else 1, "overweight" if detail == "overweight" else "mismatch")


def collapsed_sentence(tile: str, supports: int, detail: str, lang: Language) -> str:
    """A collapse said of ``tile`` (already named), from the number of tiles below it (RULES 4).

    >>> from i18n import ENGLISH
    >>> collapsed_sentence("green 60", 2, "mismatch", lang=ENGLISH)
    'green 60 matched neither tile below in colour or weight'
    >>> collapsed_sentence("green 60", 1, "mismatch", lang=ENGLISH)
    'green 60 did not fit on the tile below (not its colour)'
    """
    key = _reason_key(supports, detail)
    texts = {
        (2, "overweight"): lang.gettext("{tile} was too heavy for the two tiles below"),
        (2, "mismatch"): lang.gettext("{tile} matched neither tile below in colour or weight"),
        (1, "overweight"): lang.gettext("{tile} did not fit on the tile below (heavier than it)"),
        (1, "mismatch"): lang.gettext("{tile} did not fit on the tile below (not its colour)"),
    }
    return texts[key].format(tile=tile)


# --- a turn -------------------------------------------------------------------------------------


class _Teller:
    """The sentences of one run of events, with who placed which tile and who decides."""

    def __init__(self, names: Sequence[str], lang: Language) -> None:
        self.names = names
        self.lang = lang
        self.placer: dict[str, int] = {}
        self.active: int | None = None
        self.parts: list[str] = []
        self.placed_last: str | None = None
        """The tile whose placement is the last clause told (a collapse or a fire joins it)."""

    def who(self, seat: int) -> str:
        return player_name(self.names, seat, self.lang)

    def tile(self, code: str) -> str:
        """A tile, with the name of who placed it when that was this turn."""
        seat = self.placer.get(code)
        if seat is None:
            return tile_in_text(code, self.lang)
        # TRANSLATORS: a tile with the player who placed it this turn: "Léa's green 60".
        return self.lang.gettext("{player}'s {tile}").format(
            player=self.who(seat), tile=tile_in_text(code, self.lang)
        )

    def pile(self, tiles: Sequence[str], seat: int) -> str:
        return self.lang.ngettext(
            "{tiles} went under {player}'s pile", "{tiles} went under {player}'s pile", len(tiles)
        ).format(tiles=tile_list(tiles, self.lang), player=self.who(seat))

    def then(self, clause: str, consequence: str) -> str:
        # TRANSLATORS: what happened, then what it caused: "X collapsed: Y went under Z's pile".
        return self.lang.gettext("{what}: {consequence}").format(
            what=clause, consequence=consequence
        )

    def also(self, clause: str, more: str) -> str:
        # TRANSLATORS: two facts of one mayhem: "A exploded and left the game; B went under...".
        return self.lang.gettext("{what}; {more}").format(what=clause, more=more)

    def fell(self, code: str, side: str, seat: int, *, again: bool) -> str:
        """``"and green 60 fell left"``, ``" again"``, ``"(sam chose)"``: after a collapse."""
        lang = self.lang
        tile, where = tile_in_text(code, lang), side_word(side, lang)
        own = seat == self.active
        if again:
            text = (
                lang.gettext("and {tile} fell {side} again")
                if own
                else lang.gettext("and {tile} fell {side} again ({player} chose)")
            )
        else:
            text = (
                lang.gettext("and {tile} fell {side}")
                if own
                else lang.gettext("and {tile} fell {side} ({player} chose)")
            )
        return text.format(tile=tile, side=where, player=self.who(seat))


def sentences(events: Iterable[Event], names: Sequence[str], lang: Language) -> list[str]:
    """What ``events`` tell, one clause per fact, in order (without final stops).

    The collapse of the tile just placed joins its placement ("Léa played green 60, too heavy
    for ..."), and a fall joins the collapse that caused it, so each fact is said once.
    """
    evs = list(events)
    t = _Teller(names, lang)
    parts = t.parts
    i = 0
    while i < len(evs):
        ev = evs[i]
        nxt = evs[i + 1] if i + 1 < len(evs) else None
        joins = (
            ev.tile is not None
            and t.placed_last == ev.tile
            and i > 0
            and evs[i - 1].kind == "placed"
        )
        t.placed_last = None
        if ev.kind == "placed" and ev.tile:
            t.active = ev.player
            parts.append(
                lang.gettext("{player} played {tile}").format(
                    player=t.who(ev.player), tile=tile_in_text(ev.tile, lang)
                )
            )
            t.placer[ev.tile] = ev.player
            t.placed_last = ev.tile
        elif ev.kind == "collapsed" and ev.tile:
            lifted = [x for x, _ in ev.to_pile]
            key = _reason_key(len(lifted), ev.detail)
            again = i > 0 and evs[i - 1].kind == "fell" and evs[i - 1].tile == ev.tile
            if joins:
                line = _after_placing(parts.pop(), key, lang)
            elif again:  # the tile just told falling: no need to name it twice
                line = _there(key, lang)
            else:
                line = collapsed_sentence(t.tile(ev.tile), len(lifted), ev.detail, lang)
            if lifted:
                line = t.then(line, t.pile(lifted, ev.player))
            if nxt is not None and nxt.kind == "fell" and nxt.tile == ev.tile:
                # TRANSLATORS: a collapse, then the fall it caused: "…, and green 60 fell left".
                line = lang.gettext("{what}, {fall}").format(
                    what=line, fall=t.fell(ev.tile, nxt.detail, nxt.player, again=again)
                )
                i += 1
            parts.append(line)
        elif ev.kind == "fell" and ev.tile:
            tile, side = t.tile(ev.tile), side_word(ev.detail, lang)
            text = (
                lang.gettext("{tile} was in free air and fell {side}")
                if ev.player == t.active
                else lang.gettext("{tile} was in free air and fell {side} ({player} chose)")
            )
            parts.append(text.format(tile=tile, side=side, player=t.who(ev.player)))
        elif ev.kind == "exploded":
            gone = [x for x, _ in ev.out]
            lifted = [x for x, _ in ev.to_pile]
            line = lang.ngettext(
                "{tiles} exploded and left the game",
                "{tiles} exploded and left the game",
                len(gone),
            ).format(tiles=tile_list(gone, lang))
            if lifted:
                line = t.also(line, t.pile(lifted, ev.player))
            parts.append(line)
        elif ev.kind == "burnt" and ev.tile:
            parts.append(_burnt(t, ev, joins, parts))
        elif ev.kind == "cursed":
            lifted = [x for x, _ in ev.to_pile]
            weight = WEIGHT.get(lifted[0], 0) if lifted else 0
            line = t.then(
                lang.gettext("a curse, three tiles of weight {weight}").format(weight=weight),
                t.pile(lifted, ev.player),
            )
            if any(e.kind in MAYHEM_AFTER_CURSE for e in evs[i + 1 :]):
                line = t.also(
                    line,
                    lang.gettext(
                        "for the rest of this turn {player} takes the tiles that leave the "
                        "pyramid and chooses where they fall"
                    ).format(player=t.who(ev.player)),
                )
            parts.append(line)
        elif ev.kind == "rolled":
            tile = tile_in_text(ev.tile, lang) if ev.tile else lang.gettext("the tile")
            parts.append(
                lang.gettext("the fire die for {tile} showed {face}").format(
                    tile=tile, face=die_face(ev.detail, lang)
                )
            )
        elif ev.kind == "won":
            parts.append(
                lang.gettext("{player} has no tile left in hand or pile").format(
                    player=t.who(ev.player)
                )
            )
        elif ev.kind == "dealt":
            parts.append(lang.gettext("the tiles are dealt"))
        i += 1
    return parts


def _after_placing(placed: str, key: tuple[int, str], lang: Language) -> str:
    """A collapse joined to the placement told just before: "Léa played green 60, too heavy
    for the two tiles below"."""
    texts = {
        (2, "overweight"): lang.gettext("{placed}, too heavy for the two tiles below"),
        (2, "mismatch"): lang.gettext(
            "{placed}, which matched neither tile below in colour or weight"
        ),
        (1, "overweight"): lang.gettext(
            "{placed}, which did not fit on the tile below (heavier than it)"
        ),
        (1, "mismatch"): lang.gettext(
            "{placed}, which did not fit on the tile below (not its colour)"
        ),
    }
    return texts[key].format(placed=placed)


def _there(key: tuple[int, str], lang: Language) -> str:
    """A collapse of the tile that just fell: "there it was too heavy for ..."."""
    texts = {
        (2, "overweight"): lang.gettext("there it was too heavy for the two tiles below"),
        (2, "mismatch"): lang.gettext("there it matched neither tile below in colour or weight"),
        (1, "overweight"): lang.gettext("there it did not fit on the tile below (heavier than it)"),
        (1, "mismatch"): lang.gettext("there it did not fit on the tile below (not its colour)"),
    }
    return texts[key]


def _burnt(t: _Teller, ev: Event, joins: bool, parts: list[str]) -> str:
    lang = t.lang
    assert ev.tile is not None
    lifted = [x for x, _ in ev.to_pile]
    wood = ev.detail == "wood"
    if joins:
        placed = parts.pop()
        line = (
            lang.gettext("{placed}, which set fire to the wood")
            if wood
            else lang.gettext("{placed}, which set fire to the straw")
        ).format(placed=placed)
        # TRANSLATORS: the incendiary just played, named by its material: "the coal".
        it = (
            lang.gettext("the blowtorch")
            if MATERIAL[ev.tile] == BLOWTORCH
            else lang.gettext("the coal")
        )
    else:
        line = (
            lang.gettext("{tile} set fire to the wood")
            if wood
            else lang.gettext("{tile} set fire to the straw")
        ).format(tile=t.tile(ev.tile))
        it = tile_in_text(ev.tile, lang)
    if lifted:
        line = t.then(
            line,
            lang.ngettext(
                "{tiles} burnt and went under {player}'s pile",
                "{tiles} burnt and went under {player}'s pile",
                len(lifted),
            ).format(tiles=tile_list(lifted, lang), player=t.who(ev.player)),
        )
    if ev.out:
        line = t.also(line, lang.gettext("{tile} left the game").format(tile=it))
    return line


def narrate(events: Iterable[Event], names: Sequence[str], lang: Language) -> str:
    """One line telling ``events`` (one action's worth, or a whole turn) with player names.

    Returns ``""`` when nothing worth telling happened (a ``turn`` event alone). A name keeps
    the case its owner wrote it in, even at the start of the line.
    """
    parts = sentences(events, names, lang)
    if not parts:
        return ""
    # TRANSLATORS: between the clauses of one turn's account.
    text = lang.pgettext("clauses", "; ").join(parts)
    if not any(name and text.startswith(name) for name in names):
        text = text[0].upper() + text[1:]
    # TRANSLATORS: a turn's account as a sentence: its final stop.
    return lang.gettext("{account}.").format(account=text)


def last_move(events: Iterable[Event], names: Sequence[str], lang: Language) -> str:
    """The picture's last-move line: ``"Last move: "`` and the narration of the turn; empty
    without a placement."""
    evs = list(events)
    if not any(e.kind == "placed" for e in evs):
        return ""
    return lang.gettext("Last move: {account}").format(account=narrate(evs, names, lang))


# --- results --------------------------------------------------------------------------------------


def scores_line(names: Sequence[str], scores: Sequence[int], lang: Language) -> str:
    """``"Léa 0, Max 7, Zoé 12"``, lowest first (lowest wins)."""
    order = sorted(range(len(scores)), key=lambda i: (scores[i], i))
    return lang.pgettext("list", ", ").join(
        lang.gettext("{player} {score}").format(player=player_name(names, i, lang), score=scores[i])
        for i in order
    )


def match_winners(scores: Sequence[int]) -> list[int]:
    """The seats with the lowest total (RULES 7: lowest wins; ties share the win)."""
    if not scores:
        return []
    best = min(scores)
    return [i for i, s in enumerate(scores) if s == best]


def names_and(seats: Sequence[int], names: Sequence[str], lang: Language) -> str:
    """``"Léa"``, ``"Léa and Max"``, ``"Léa, Max and Zoé"``."""
    return _joined([player_name(names, i, lang) for i in seats], lang)


def round_winner_line(
    names: Sequence[str], winner: int, round_no: int, rounds: int, lang: Language
) -> str:
    """The round's winner, named as the round's: ``"Léa wins round 2 of 3."``."""
    who = player_name(names, winner, lang)
    if rounds <= 1:
        return lang.gettext("{player} wins the round.").format(player=who)
    return lang.gettext("{player} wins round {round} of {rounds}.").format(
        player=who, round=round_no, rounds=rounds
    )


def match_winner_line(names: Sequence[str], totals: Sequence[int], lang: Language) -> str:
    """The match's winners (lowest total), crowned: ``"Max wins the match."``."""
    won = match_winners(totals)
    return lang.ngettext(
        "{players} wins the match.", "{players} share the match.", len(won)
    ).format(players=names_and(won, names, lang))


def match_winner_headline(names: Sequence[str], totals: Sequence[int], lang: Language) -> str:
    """The match's winners as a picture's headline: ``"Max wins the match!"``."""
    won = match_winners(totals)
    return lang.ngettext(
        "{players} wins the match!", "{players} share the match!", len(won)
    ).format(players=names_and(won, names, lang))


def standings(
    names: Sequence[str],
    totals: Sequence[int],
    *,
    round_scores: Sequence[int] | None = None,
    lang: Language,
) -> list[str]:
    """The one standings table: a line per player, lowest total first (lowest wins), equal
    totals sharing a rank, each with this round's tiles when given.

    >>> from i18n import ENGLISH
    >>> standings(["Léa", "Max", "Zoé"], [7, 0, 7], round_scores=[3, 0, 5], lang=ENGLISH)
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
        who = player_name(names, seat, lang)
        if round_scores is not None and seat < len(round_scores):
            line = lang.gettext("{rank}. {player}: {total} (this round {score})").format(
                rank=rank, player=who, total=totals[seat], score=round_scores[seat]
            )
        else:
            line = lang.gettext("{rank}. {player}: {total}").format(
                rank=rank, player=who, total=totals[seat]
            )
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
    lang: Language,
) -> list[str]:
    """What a post says when a round ends: the round's winner named once, as the round's; at the
    end of the match its winners (lowest total, RULES 7) crowned; then the one standings table.

    >>> from i18n import ENGLISH
    >>> for line in result_lines(["Léa", "Max"], winner=0, round_no=2, rounds=2,
    ...                          round_scores=[0, 2], totals=[9, 4], lang=ENGLISH):
    ...     print(line)
    Léa wins round 2 of 2.
    Max wins the match with the lowest total.
    Final standings, tiles left in hand and pile over 2 rounds (lower wins):
    1. Max: 4 (this round 2)
    2. Léa: 9 (this round 0)
    """
    who = player_name(names, winner, lang)
    if rounds <= 1:
        head = [lang.gettext("{player} wins the game.").format(player=who)]
        table = standings(names, round_scores, lang=lang)
        return [*head, lang.gettext("Tiles left in hand and pile (lower wins):"), *table]
    table = standings(names, totals, round_scores=round_scores, lang=lang)
    if round_no < rounds:
        return [
            round_winner_line(names, winner, round_no, rounds, lang),
            lang.gettext("Standings after round {round} of {rounds} (lower wins):").format(
                round=round_no, rounds=rounds
            ),
            *table,
        ]
    won = match_winners(totals)
    if won == [winner]:
        head = [
            lang.gettext("{player} wins round {round} and the match with the lowest total.").format(
                player=who, round=round_no
            )
        ]
    else:
        head = [
            round_winner_line(names, winner, round_no, rounds, lang),
            lang.ngettext(
                "{players} wins the match with the lowest total.",
                "{players} share the match with the lowest total.",
                len(won),
            ).format(players=names_and(won, names, lang)),
        ]
    over = lang.ngettext(
        "Final standings, tiles left in hand and pile over {rounds} round (lower wins):",
        "Final standings, tiles left in hand and pile over {rounds} rounds (lower wins):",
        rounds,
    ).format(rounds=rounds)
    return [*head, over, *table]


# --- what a decision would do ----------------------------------------------------------------


def describe_preview(preview: Preview, names: Sequence[str] = (), *, lang: Language) -> str:
    """A short label for what a decision would do, told to the player who would take it
    (``"your pile"``): for a spot's button and the spot step's text.

    >>> from i18n import ENGLISH
    >>> from engine import Game, Play, preview
    >>> g = Game(2, pyramid={(0, 0): "Y30", (0, 2): "R40"}, hands=[["Y20", "B100"], ["G2"]])
    >>> describe_preview(preview(g, Play("Y20", (1, 1))), lang=ENGLISH)
    'fits'
    >>> describe_preview(preview(g, Play("B100", (1, 1))), lang=ENGLISH)
    'collapse: 2 tiles to your pile'
    """
    words: list[str] = []
    for ev in preview.mayhem:
        if ev.kind == "burnt":
            word = (
                lang.pgettext("preview", "wood fire")
                if ev.detail == "wood"
                else lang.pgettext("preview", "straw fire")
            )
        elif ev.kind == "rolled":
            word = lang.pgettext("preview", "fire die: {face}").format(
                face=die_face(ev.detail, lang)
            )
        elif ev.kind == "collapsed":
            word = lang.pgettext("preview", "collapse")
        elif ev.kind == "exploded":
            word = lang.pgettext("preview", "explosion")
        elif ev.kind == "cursed":
            word = lang.pgettext("preview", "curse")
        else:
            word = ""
        if word and word not in words:
            words.append(word)
    comma = lang.pgettext("list", ", ")
    if words:
        text = comma.join(words)
    else:
        text = (
            lang.pgettext("preview", "fire die")
            if preview.die
            else lang.pgettext("preview", "fits")
        )
    gains = []
    for seat, count in enumerate(preview.to_piles):
        if count:
            if seat == preview.player:
                gain = lang.npgettext(
                    "preview", "{count} tile to your pile", "{count} tiles to your pile", count
                )
            else:
                gain = lang.npgettext(
                    "preview",
                    "{count} tile to {player}'s pile",
                    "{count} tiles to {player}'s pile",
                    count,
                )
            gains.append(gain.format(count=count, player=player_name(names, seat, lang)))
    if gains:
        text = lang.pgettext("preview", "{what}: {piles}").format(
            what=text, piles=comma.join(gains)
        )
    if words and preview.die:
        text = lang.pgettext("preview", "{what}; then the fire die").format(what=text)
    if preview.winner is not None:
        if preview.winner == preview.player:
            text = lang.pgettext("preview", "{what}; you win the round").format(what=text)
        else:
            text = lang.pgettext("preview", "{what}; {player} wins the round").format(
                what=text, player=player_name(names, preview.winner, lang)
            )
    return text


__all__ = [
    "DIE_FACES_TEXT",
    "collapsed_sentence",
    "describe_preview",
    "die_face",
    "last_move",
    "match_winner_headline",
    "match_winner_line",
    "match_winners",
    "material_name",
    "material_word",
    "names_and",
    "narrate",
    "player_name",
    "result_lines",
    "round_winner_line",
    "scores_line",
    "sentences",
    "side_word",
    "standings",
    "tile_in_text",
    "tile_list",
    "tile_name",
]
