"""The words of a picture for someone who cannot see it: each attachment's alt text (Discord's
``description``, read aloud by a screen reader), from the same data the picture is drawn from.

One job: a picture's description, in the reader's language, worked out from the view and the
scene (:func:`render.scene.table_scene`) the picture itself is drawn from, so the two never
disagree. What a description says, in the order a screen reader reads it:

- the picture's title, and whose decision it is, told to the viewer on their own screens
  ("Your turn: choose a tile of your hand, then one of the 4 spots, A to D.");
- on a player's own screens only, their hand (the tiles that simply fit marked as their
  buttons are) and their pile; on the spot step, what playing the chosen tile on each spot
  would do, as the spot buttons say it;
- the pyramid row by row from the top, every place from the left: a tile by its name as its
  button names it (:func:`render.narration.tile_name`: colour and weight), ``empty``, or the
  spot's letter where a tile may go; the tile just played, the falling tile and its two landing
  places marked;
- each player's hand size, pile size and score; the turn, round and options; the last move;
  the tiles out of the game;
- at the end of a match (a replay's last step, a summary's last frame), every player's tiles
  left, hand and pile, as the picture lays them down.

A channel picture's description never names a tile of any hand: :func:`table_text` never reads
``view.hand`` (the public view has none anyway), only the hand sizes everyone sees. Only the end
of a match, once it is over, names every player's tiles left, as its picture shows them
(:func:`end_text`, :func:`summary_text`).

A description is at most :data:`LIMIT` characters (Discord's limit). On a big table the least
needed parts go first, in this order: the tiles out of the game, the last move (the message's
text tells it too), the turn and options line, long names shortened in the players' list, the
players' list, the hand on the spot step (its buttons show it), the explanation of how the rows
are read; the whole is cut with an ellipsis only if it is still too long. Whose decision it is,
the viewer's own hand on their screen, the spots' outcomes and the pyramid's rows are never
dropped.

Pure functions of their arguments, like the rest of ``render/``: no Discord, nothing drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine import Event, Pos, Preview, View
from i18n import Language
from render.account import last_move, turn_lines
from render.narration import (
    describe_preview,
    material_word,
    player_name,
    tile_in_text,
    tile_name,
)
from render.records import CardRow
from render.scene import (
    NO_CHIPS,
    Chips,
    TableScene,
    info_line,
    spot_labels,
    status_line,
    table_scene,
)
from render.tilesleft import TilesLeft, count_line, hand_word, pile_word

LIMIT: Final = 1024
"""Discord's longest attachment description (``MessageAttachmentRequest.description``)."""
SHORT_NAME: Final = 12
"""Characters of a name kept in the players' list of a description that is too long."""
ELLIPSIS: Final = "…"


# --- fitting the limit ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Part:
    """One part of a description: its wordings, fullest first (``""``: left out), and how soon
    it is shortened when the whole is too long (0: never; the highest first)."""

    forms: tuple[str, ...]
    drop: int = 0


def clip(text: str, limit: int = LIMIT) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis where it was cut.

    >>> clip("yellow 40, red 2", 12)
    'yellow 40, …'
    """
    if len(text) <= limit:
        return text
    return text[: limit - len(ELLIPSIS)] + ELLIPSIS


def _fit(parts: Sequence[_Part], limit: int = LIMIT) -> str:
    """The parts joined one per line, shortened in their order of :attr:`_Part.drop` until the
    whole is within ``limit``; cut (:func:`clip`) only if nothing more can be shortened."""
    chosen = [0] * len(parts)

    def joined() -> str:
        return "\n".join(f for p, k in zip(parts, chosen, strict=True) if (f := p.forms[k]))

    text = joined()
    while len(text) > limit:
        left = [k for k, p in enumerate(parts) if p.drop and chosen[k] + 1 < len(p.forms)]
        if not left:
            break
        chosen[max(left, key=lambda k: (parts[k].drop, k))] += 1
        text = joined()
    return clip(text, limit)


def spoken(text: str) -> str:
    """A text worded for a picture, for the ear: the picture's separator dots become commas."""
    return text.replace(" · ", ", ")


# --- the pieces -----------------------------------------------------------------------------------


def _name(names: Sequence[str], seat: int, lang: Language, *, short: bool = False) -> str:
    name = player_name(names, seat, lang)
    if short and len(name) > SHORT_NAME:
        return name[: SHORT_NAME - 1] + ELLIPSIS
    return name


def decision(view: View, names: Sequence[str], lang: Language, *, viewer: int | None) -> str:
    """Whose decision it is and what it is; told to ``viewer`` when it is theirs (None: the
    channel, which tells nobody in particular). At the end of a round, who won."""
    p = view.pending
    if p is None:
        return status_line(view, names, lang)
    who = _name(names, p.player, lang)
    mine = viewer is not None and p.player == viewer
    if p.kind == "play":
        labels = list(spot_labels(view))
        values = {"player": who, "count": len(labels), "first": labels[0], "last": labels[-1]}
        if len(labels) == 1 and mine:
            return lang.gettext("Your turn: choose a tile of your hand, then spot {spot}.").format(
                spot=labels[0]
            )
        if len(labels) == 1:
            return lang.gettext("{player} to play a tile on spot {spot}.").format(
                player=who, spot=labels[0]
            )
        if mine:
            return lang.ngettext(
                "Your turn: choose a tile of your hand, then one of the {count} spot, "
                "{first} to {last}.",
                "Your turn: choose a tile of your hand, then one of the {count} spots, "
                "{first} to {last}.",
                len(labels),
            ).format(**values)
        return lang.ngettext(
            "{player} to play a tile on one of the {count} spot, {first} to {last}.",
            "{player} to play a tile on one of the {count} spots, {first} to {last}.",
            len(labels),
        ).format(**values)
    if p.kind == "fall":
        tile = tile_in_text(p.tile, lang) if p.tile else lang.gettext("the tile")
        if mine:
            return lang.gettext("Your decision: where does {tile} fall, left or right?").format(
                tile=tile
            )
        return lang.gettext("{player} chooses where {tile} falls, left or right.").format(
            player=who, tile=tile
        )
    return lang.gettext("The game rolls the fire die.")


def _place(pos: Pos, scene: TableScene, lang: Language) -> str | None:
    """What one place of the pyramid shows, or None when it is empty."""
    fall = scene.fall
    tile = scene.pyramid.get(pos)
    if fall is not None and pos == fall.at:
        return lang.gettext("{tile} (falling)").format(tile=tile_name(fall.tile, lang))
    if tile is not None:
        if pos == scene.placed:
            return lang.gettext("{tile} (just played)").format(tile=tile_name(tile, lang))
        return tile_name(tile, lang)
    if fall is not None and pos == fall.left:
        return lang.gettext("landing place if it falls left")
    if fall is not None and pos == fall.right:
        return lang.gettext("landing place if it falls right")
    for letter, spot in scene.spots.items():
        if spot == pos:
            return lang.gettext("spot {letter}").format(letter=letter)
    return None


def pyramid_rows(scene: TableScene, lang: Language) -> list[str]:
    """The pyramid row by row from the top, each place from the left (empty: none).

    Every row is read on one grid: place ``n`` of a row rests on places ``n`` and ``n + 1`` of
    the row below, so a row starts as far left as anything of any row reaches (leading places
    said as empty), and ends at its last tile, spot or landing place."""
    shown = set(scene.pyramid) | set(scene.spots.values())
    if scene.fall is not None:
        shown |= {scene.fall.at, scene.fall.left, scene.fall.right}
    if not shown:
        return []
    left = min(x - r for r, x in shown)
    right = max(x + r for r, x in shown)
    comma = lang.pgettext("list", ", ")
    rows = []
    for r in range(max(r for r, _ in shown), -1, -1):
        said: list[str] = []
        empty = 0
        for x in range(left + r, right - r + 1, 2):
            what = _place((r, x), scene, lang)
            if what is None:
                empty += 1
                continue
            if empty:
                said.append(_empty(empty, lang))
                empty = 0
            said.append(what)
        if not said:
            said.append(_empty(1, lang))
        rows.append(lang.gettext("Row {row}: {places}.").format(row=r + 1, places=comma.join(said)))
    return rows


def _empty(count: int, lang: Language) -> str:
    if count == 1:
        return lang.pgettext("place", "empty")
    return lang.npgettext("place", "{count} empty place", "{count} empty places", count).format(
        count=count
    )


def pyramid_heading(lang: Language) -> str:
    """The sentence that opens the pyramid's rows, and how to read them."""
    return lang.gettext(
        "Pyramid, top row first; place N rests on places N and N+1 of the row below."
    )


def _pyramid(scene: TableScene, lang: Language) -> _Part:
    """The pyramid's rows under their heading; on a big table, under a shorter heading."""
    rows = pyramid_rows(scene, lang)
    if not rows:
        return _Part((lang.gettext("The table is empty."),))
    short = lang.gettext("Pyramid, top row first:")
    return _Part(("\n".join([pyramid_heading(lang), *rows]), "\n".join([short, *rows])), drop=1)


def _players(
    view: View,
    names: Sequence[str],
    lang: Language,
    *,
    viewer: int | None,
    short: bool,
    chips: Chips = NO_CHIPS,
) -> str:
    said = []
    for seat in range(view.players):
        who = _name(names, seat, lang, short=short)
        if seat == viewer:
            who = lang.gettext("{player} (you)").format(player=who)
        until = chips.away.get(seat)
        if until is not None:
            who = lang.gettext("{player} (away until {day})").format(
                player=who, day=lang.format_day(until)
            )
        hand = view.hand_sizes[seat] if seat < len(view.hand_sizes) else 0
        pile = view.pile_sizes[seat] if seat < len(view.pile_sizes) else 0
        if view.rounds > 1 and seat < len(view.scores):
            said.append(
                lang.gettext("{player}: {hand} in hand, {pile} in pile, score {score}").format(
                    player=who, hand=hand, pile=pile, score=view.scores[seat]
                )
            )
        else:
            said.append(
                lang.gettext("{player}: {hand} in hand, {pile} in pile").format(
                    player=who, hand=hand, pile=pile
                )
            )
    return lang.gettext("Players: {players}.").format(
        players=lang.pgettext("clauses", "; ").join(said)
    )


def _out_of_game(view: View, lang: Language) -> str:
    if not view.removed:
        return ""
    tiles = lang.pgettext("list", ", ").join(tile_name(t, lang) for t in view.removed)
    return lang.gettext("Out of the game: {tiles}.").format(tiles=tiles)


def _hand(view: View, fitting: Sequence[str], lang: Language) -> str:
    """The viewer's own hand and pile (their screens only): each tile with its material, as
    the picture labels it, and marked as its button is when it fits somewhere."""
    comma = lang.pgettext("list", ", ")
    me = view.player if view.player is not None else 0
    pile = view.pile_sizes[me] if me < len(view.pile_sizes) else 0
    piled = lang.ngettext("{count} tile in your pile", "{count} tiles in your pile", pile).format(
        count=pile
    )
    tiles = []
    for t in view.hand or ():
        notes = [w for w in (material_word(t, lang),) if w]
        if t in fitting:
            notes.append(lang.pgettext("preview", "fits"))
        said = tile_name(t, lang)
        if notes:
            said = lang.gettext("{tile} ({what})").format(tile=said, what=comma.join(notes))
        tiles.append(said)
    if not tiles:
        return lang.gettext("Your hand is empty; {pile}.").format(pile=piled)
    return lang.gettext("Your hand: {tiles}; {pile}.").format(tiles=comma.join(tiles), pile=piled)


def _paused(chips: Chips, lang: Language) -> _Part:
    """A practice table and a paused game, as the picture's chips show them (nothing
    otherwise)."""
    said = [
        lang.gettext("A practice table: hints on, not rated.") if chips.practice else "",
        lang.gettext("The game is paused: no clock runs.") if chips.paused else "",
    ]
    return _Part((" ".join(s for s in said if s),))


def _title(title: str | None) -> str:
    """A picture's title as the first sentence of its description."""
    said = spoken(title or "").strip()
    return said + "." if said and not said.endswith((".", "!", "?", ":")) else said


def _board(
    view: View,
    names: Sequence[str],
    scene: TableScene,
    lang: Language,
    *,
    viewer: int | None,
    last: bool = True,
    chips: Chips = NO_CHIPS,
) -> list[_Part]:
    """The parts every picture of a board has, in reading order after its headline (with the
    players away its ``chips`` show)."""
    told = (
        " ".join(
            last_move(
                view.last_events,
                names,
                lang,
                viewer=viewer,
                computer_chose=chips.computer_chose,
            )
        )
        if last
        else ""
    )
    return [
        _Part((spoken(info_line(view, lang)) + ".", ""), drop=4),
        _pyramid(scene, lang),
        _Part(
            (
                _players(view, names, lang, viewer=viewer, short=False, chips=chips),
                _players(view, names, lang, viewer=viewer, short=True, chips=chips),
                "",
            ),
            drop=3,
        ),
        _Part((told, ""), drop=5),
        _Part((_out_of_game(view, lang), ""), drop=6),
    ]


# --- the pictures -----------------------------------------------------------------------------


def table_text(
    view: View,
    names: Sequence[str],
    *,
    title: str | None = None,
    lang: Language,
    chips: Chips = NO_CHIPS,
) -> str:
    """The description of the table picture (:func:`render.render_table`) of ``view``: the
    channel's picture, never naming a tile of any hand, even from a player's own view."""
    scene = table_scene(view, names, lang, viewer=None)
    return _fit(
        [
            _Part((_title(title),)),
            _Part((decision(view, names, lang, viewer=None),)),
            _paused(chips, lang),
            *_board(view, names, scene, lang, viewer=None, chips=chips),
        ]
    )


def screen_text(
    view: View,
    names: Sequence[str],
    *,
    title: str | None = None,
    fitting: Sequence[str] = (),
    headline: str | None = None,
    lang: Language,
    chips: Chips = NO_CHIPS,
) -> str:
    """The description of a player's turn screen (:func:`render.render_turn_screen`): their
    own view, their hand with the tiles of ``fitting`` marked as their buttons mark them;
    ``headline`` in place of the decision the view asks, as the picture says it."""
    if view.player is None or view.hand is None:
        raise ValueError("a turn screen shows a hand: it needs a player's own view")
    scene = table_scene(view, names, lang, viewer=view.player)
    return _fit(
        [
            _Part((_title(title),)),
            _Part((headline or decision(view, names, lang, viewer=view.player),)),
            _paused(chips, lang),
            _Part((_hand(view, fitting, lang),)),
            *_board(view, names, scene, lang, viewer=view.player, chips=chips),
        ]
    )


def spots_text(
    view: View,
    names: Sequence[str],
    tile: str,
    previews: Sequence[Preview] | None,
    *,
    title: str | None = None,
    lang: Language,
    chips: Chips = NO_CHIPS,
) -> str:
    """The description of the spot step's picture: where ``tile`` may go, and what playing it
    on each spot would do (``previews``, in the order of the spots; None: the table shows no
    previews), spots that would do the same said together; then the chooser's hand (``view``
    is their own) and the board (with what its ``chips`` show)."""
    scene = table_scene(view, names, lang, viewer=view.player)
    labels = list(scene.spots)
    comma = lang.pgettext("list", ", ")
    question = lang.gettext("Where do you play {tile}?").format(tile=tile_in_text(tile, lang))
    if previews is None:
        outcomes = [lang.gettext("Spots: {spots}.").format(spots=comma.join(labels))]
    else:
        grouped: dict[str, list[str]] = {}
        for label, preview in zip(labels, previews, strict=False):
            grouped.setdefault(describe_preview(preview, names, lang=lang), []).append(label)
        outcomes = [
            lang.gettext("{spots}: {what}.").format(spots=comma.join(spots), what=what)
            for what, spots in grouped.items()
        ]
    mine = _hand(view, (), lang) if view.hand is not None else ""
    return _fit(
        [
            _Part((_title(title),)),
            _Part((" ".join([question, *outcomes]),)),
            _paused(chips, lang),
            _Part((mine, ""), drop=2),
            *_board(view, names, scene, lang, viewer=view.player, chips=chips),
        ]
    )


def turn_text(
    events: Sequence[Event],
    after: View,
    names: Sequence[str],
    *,
    title: str | None = None,
    lang: Language,
    chips: Chips = NO_CHIPS,
) -> str:
    """The description of a turn's animation (:func:`render.render_turn`): what happened, as
    the narration tells it, then the board it ends on, as :func:`table_text` says it."""
    scene = table_scene(after, names, lang, viewer=None)
    account = " ".join(
        turn_lines(events, names, lang, viewer=None, computer_chose=chips.computer_chose)
    )
    animation = lang.gettext("Animation of the move, ending on the board: {account}").format(
        account=account
    )
    return _fit(
        [
            _Part((_title(title),)),
            _Part((animation, ""), drop=5),
            _Part((decision(after, names, lang, viewer=None),)),
            _paused(chips, lang),
            *_board(after, names, scene, lang, viewer=None, last=False, chips=chips),
        ]
    )


def tiles_left_text(
    left: Sequence[TilesLeft], names: Sequence[str], *, short: bool = False, lang: Language
) -> str:
    """Every player's tiles at the end of a match, as its pictures lay them down
    (:mod:`render.tilesleft`): how many each had left, then (unless ``short``) their hand and
    their pile, tile by tile."""
    comma = lang.pgettext("list", ", ")
    lines = [lang.gettext("Every player's tiles left:")]
    for seat, tiles in enumerate(left):
        said = [count_line(seat, tiles, names, lang)]
        if not short:
            for word, part in ((hand_word(lang), tiles.hand), (pile_word(lang), tiles.pile)):
                if part:
                    said.append(f"{word} {comma.join(tile_name(t, lang) for t in part)}")
        lines.append(lang.pgettext("clauses", "; ").join(said) + ".")
    return "\n".join(lines)


def end_text(
    view: View,
    left: Sequence[TilesLeft],
    names: Sequence[str],
    *,
    title: str | None = None,
    lang: Language,
) -> str:
    """The description of a match's end (:func:`render.summary.render_end`): its title, every
    player's tiles left, then the board the last move left."""
    scene = table_scene(view, names, lang, viewer=None)
    return _fit(
        [
            _Part((_title(title),)),
            _Part((decision(view, names, lang, viewer=None),)),
            _Part(
                (
                    tiles_left_text(left, names, lang=lang),
                    tiles_left_text(left, names, short=True, lang=lang),
                ),
                drop=2,
            ),
            *_board(view, names, scene, lang, viewer=None),
        ]
    )


def summary_text(
    moments: Sequence[tuple[View, str]],
    names: Sequence[str],
    *,
    lang: Language,
    left: Sequence[TilesLeft] | None = None,
) -> str:
    """The description of a match's animated summary (:func:`render.summary.render_summary`):
    each moment's caption and what it shows, every player's tiles left when the summary ends
    on them (``left``), then the final board."""
    if not moments:
        raise ValueError("a summary needs at least one moment")
    head = lang.ngettext(
        "Animation of {count} moment of the match:",
        "Animation of {count} moments of the match:",
        len(moments),
    ).format(count=len(moments))
    told, short = [head], [head]
    for v, caption in moments:
        now = decision(v, names, lang, viewer=None)
        what = " ".join(last_move(v.last_events, names, lang, viewer=None)) or now
        told.append(lang.gettext("{caption}: {what}").format(caption=spoken(caption), what=what))
        short.append(lang.gettext("{caption}: {what}").format(caption=spoken(caption), what=now))
    final, _ = moments[-1]
    scene = table_scene(final, names, lang, viewer=None)
    info, pyramid, players, _, out = _board(final, names, scene, lang, viewer=None, last=False)
    tiles: tuple[str, ...] = ("",)
    if left is not None:
        tiles = (
            tiles_left_text(left, names, lang=lang),
            tiles_left_text(left, names, short=True, lang=lang),
            "",
        )
    return _fit(
        [
            _Part(("\n".join(told), "\n".join(short)), drop=1),
            _Part(tiles, drop=2),
            _Part((lang.gettext("The final board:"), ""), drop=2),
            info,
            _Part((*pyramid.forms, ""), drop=2),
            players,
            out,
        ]
    )


def card_text(title: str, rows: Sequence[CardRow], subtitle: str = "", *, lang: Language) -> str:
    """The description of a records card (:func:`render.records.render_card`): its title, its
    subtitle and every row, label then value."""
    lines = [_title(title), _title(subtitle)]
    lines += [
        lang.gettext("{label}: {value}.").format(label=spoken(r.label), value=spoken(r.value))
        for r in rows
    ]
    return clip("\n".join(line for line in lines if line))


def scenario_file(number: int, *, lang: Language) -> str:
    """The description of a match's exported file (not a picture: what it holds)."""
    return lang.gettext(
        "The whole match of table #{number} as a file: every hand as it was dealt and every move."
    ).format(number=number)


__all__ = [
    "LIMIT",
    "card_text",
    "clip",
    "decision",
    "pyramid_heading",
    "pyramid_rows",
    "scenario_file",
    "screen_text",
    "spoken",
    "spots_text",
    "summary_text",
    "table_text",
    "turn_text",
]
