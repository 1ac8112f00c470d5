"""One narration of the game: the words a player can trust for tiles, players, falls, fires, the
results of a round and what a decision would do.

Every text that names a tile or tells what happened words it here or in :mod:`render.account`
(a turn told one short line per event, from these words), so the texts and the pictures say the
same thing in the same words. Pure functions of their arguments: no Discord, no database, no
Pillow.

What the words promise:

- a tile is named one way everywhere, as its button names it (:func:`tile_name`, which is
  :func:`engine.tiles.describe`): "yellow 40", "blue blowtorch (7)";
- a tile on one tile below "does not fit on the tile below"; "matched neither tile below" only when
  there were two;
- nobody "rolls" the fire die: the game rolls it (RULES 6), so the die "showed" a face;
- a round's winner is named once, as the round's, and the match's winners (lowest total) crowned.

>>> from i18n import ENGLISH
>>> collapsed_sentence(tile_in_text("G60", ENGLISH), 2, "overweight", lang=ENGLISH)
'green 60 was too heavy for the two tiles below'

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

from engine import Preview
from engine.tiles import BLOWTORCH, COAL, MATERIAL, MILLSTONE_CODE, WEIGHT, is_tile
from i18n import Language

DIE_FACES_TEXT: Final = {
    "fire_stays": "fire (the incendiary stays)",
    "fire_removed": "fire (the incendiary burns out)",
    "explosion": "explosion",
    "smoke": "smoke (nothing happens)",
}
"""The fire die's faces in English words (RULES 6); :func:`die_face` says them in a language."""


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
    names: Sequence[str],
    winner: int,
    round_no: int,
    rounds: int,
    lang: Language,
    *,
    viewer: int | None,
) -> str:
    """The round's winner, named as the round's: ``"Léa wins round 2 of 3."``; on the winner's
    own screen (``viewer``), ``"You win round 2 of 3."``."""
    if winner == viewer:
        if rounds <= 1:
            return lang.gettext("You win the round.")
        return lang.gettext("You win round {round} of {rounds}.").format(
            round=round_no, rounds=rounds
        )
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
    viewer: int | None,
) -> list[str]:
    """What a post says when a round ends: the round's winner named once, as the round's (on
    the winner's own screen, ``viewer``, as "you"); at the end of the match its winners (lowest
    total, RULES 7) crowned; then the one standings table.

    >>> from i18n import ENGLISH
    >>> for line in result_lines(["Léa", "Max"], winner=0, round_no=2, rounds=2,
    ...                          round_scores=[0, 2], totals=[9, 4], lang=ENGLISH, viewer=None):
    ...     print(line)
    Léa wins round 2 of 2.
    Max wins the match with the lowest total.
    Final standings, tiles left in hand and pile over 2 rounds (lower wins):
    1. Max: 4 (this round 2)
    2. Léa: 9 (this round 0)
    """
    who = player_name(names, winner, lang)
    mine = winner == viewer
    if rounds <= 1:
        head = [
            lang.gettext("You win the game.")
            if mine
            else lang.gettext("{player} wins the game.").format(player=who)
        ]
        table = standings(names, round_scores, lang=lang)
        return [*head, lang.gettext("Tiles left in hand and pile (lower wins):"), *table]
    table = standings(names, totals, round_scores=round_scores, lang=lang)
    if round_no < rounds:
        return [
            round_winner_line(names, winner, round_no, rounds, lang, viewer=viewer),
            lang.gettext("Standings after round {round} of {rounds} (lower wins):").format(
                round=round_no, rounds=rounds
            ),
            *table,
        ]
    won = match_winners(totals)
    if won == [winner] and mine:
        head = [
            lang.gettext("You win round {round} and the match with the lowest total.").format(
                round=round_no
            )
        ]
    elif won == [winner]:
        head = [
            lang.gettext("{player} wins round {round} and the match with the lowest total.").format(
                player=who, round=round_no
            )
        ]
    else:
        head = [
            round_winner_line(names, winner, round_no, rounds, lang, viewer=viewer),
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
    "match_winner_headline",
    "match_winner_line",
    "match_winners",
    "material_name",
    "material_word",
    "names_and",
    "player_name",
    "result_lines",
    "round_winner_line",
    "scores_line",
    "side_word",
    "standings",
    "tile_in_text",
    "tile_list",
    "tile_name",
]
