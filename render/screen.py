"""The turn screen: one picture with the board and the viewer's own hand, for the viewer only.

A player deciding on a phone needs the pyramid (with the spots lettered as the buttons are, or the
falling tile with arrows to its two landing places) and the tiles of their hand (named as the
buttons name them) on one screen. :func:`render_turn_screen` draws both, one above the other,
at the width of the table picture so that every text stays readable once Discord shows it
400 px wide. :func:`render_spot_screen` is the same screen once a tile is chosen: that tile drawn
where each spot would put it, under the spot's letter, and ringed in the hand.

It holds a hand, so it takes a player's own :class:`engine.View` (``view(game, player)``), never
the public one, and draws that player's hand only: it is for that player's private message.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PIL import Image, ImageDraw

from engine import View
from i18n import Language
from render import draw, encode, fonts, layout, narration, theme
from render.hand import draw_tiles
from render.layout import Box, ScreenLayout
from render.scene import (
    NO_CHIPS,
    Chips,
    TableScene,
    crowned,
    info_line,
    match_over,
    player_name,
    spot_labels,
    status_line,
    table_scene,
)
from render.table import draw_chip, draw_pyramid, draw_title, out_of_game


def _own(view: View) -> tuple[int, tuple[str, ...]]:
    if view.player is None or view.hand is None:
        raise ValueError("a turn screen shows a hand: it needs a player's own view")
    return view.player, view.hand


def turn_screen_layout(
    view: View, names: Sequence[str], *, title: str | None = None, lang: Language
) -> ScreenLayout:
    """The layout :func:`render_turn_screen` uses for these arguments."""
    _own(view)
    return _layout(view, table_scene(view, names, lang, viewer=view.player), title)


def _layout(view: View, scene: TableScene, title: str | None) -> ScreenLayout:
    return layout.screen_layout(
        view.players,
        scene.positions(),
        title=bool(title),
        last_move=len(scene.last_move),
        tray=bool(view.removed),
        hand_slots=len(view.hand or ()),
    )


def render_spot_screen(
    view: View,
    names: Sequence[str],
    tile: str,
    *,
    title: str | None = None,
    lang: Language,
    chips: Chips = NO_CHIPS,
) -> bytes:
    """PNG of the spot step: the turn screen (:func:`render_turn_screen`) of a play of the
    viewer's, once they chose ``tile`` from their hand. At each spot ``tile`` is drawn faintly
    where the spot would put it, under the spot's letter (as on the spot buttons); in the hand
    it is ringed; the headline asks the viewer where they play it. ``chips``: as the turn
    screen's."""
    me, hand = _own(view)
    p = view.pending
    if p is None or p.kind != "play" or p.player != me or tile not in hand:
        raise ValueError("a spot screen shows a tile of the viewer's hand on their turn")
    return encode.png(_screen_image(view, names, title, lang, tile, chips=chips))


def render_turn_screen(
    view: View,
    names: Sequence[str],
    *,
    title: str | None = None,
    headline: str | None = None,
    lang: Language,
    chips: Chips = NO_CHIPS,
) -> bytes:
    """PNG of the board with ``view``'s own hand below it, for that player's private screen.

    - A play for the viewer: the spots are lettered A, B, C... as the spot buttons are
      (:mod:`render.labels`), and the headline asks for a tile, then a spot.
    - A fall for the viewer (after a collapse, or after a curse made them responsible): the
      falling tile is ringed, with arrows to its two landing places, each showing an arrow that
      points left or right as the buttons do.
    - Anyone else's decision, or the end of the round: the board as it is, and who is awaited
      or who won.

    ``view`` must be a player's own view (``engine.view(game, player)``); the public view, which
    has no hand, raises ValueError. Only that player's hand is drawn. ``names[i]`` is seat i's
    name (any Unicode; missing names become "Player N"). Every word is in ``lang``. ``chips``:
    the players away and a pause, on their chips, and a practice table, on the title's row (as
    :func:`render.table.render_table`).
    """
    return encode.png(
        turn_screen_image(view, names, title=title, headline=headline, lang=lang, chips=chips)
    )


def turn_screen_image(
    view: View,
    names: Sequence[str],
    *,
    title: str | None = None,
    headline: str | None = None,
    lang: Language,
    chips: Chips = NO_CHIPS,
) -> Image.Image:
    """The turn screen as an RGB image (before palette encoding); ``headline`` in place of the
    one the view asks (:func:`viewer_status`), for a screen whose moment the view cannot tell
    (a turn played but held back: nobody else knows of it yet)."""
    return _screen_image(view, names, title, lang, None, headline, chips)


def _screen_image(
    view: View,
    names: Sequence[str],
    title: str | None,
    lang: Language,
    chosen: str | None,
    told: str | None = None,
    chips: Chips = NO_CHIPS,
) -> Image.Image:
    """The turn screen; with ``chosen``, the spot step of that tile (:func:`render_spot_screen`)."""
    me, hand = _own(view)
    scene = table_scene(view, names, lang, viewer=me, chips=chips)
    lay = _layout(view, scene, title)
    img = Image.new("RGB", (lay.width, lay.height), theme.BG)
    d = ImageDraw.Draw(img)
    width = lay.width - 2 * layout.MARGIN
    x = layout.MARGIN
    if title and lay.title_y is not None:
        draw_title(d, lay.title_y, width, title, lang, chips)
    if told is not None:
        headline, mine = told, True
    elif chosen is None:
        headline, mine = viewer_status(view, names, lang)
    else:
        headline, mine = spot_status(view, chosen, lang), True
    f = fonts.bold(layout.STATUS_SIZE)
    colour = theme.GOLD if mine or view.pending is None else theme.TEXT
    draw.text(d, (x, lay.status_y), fonts.fit(headline, f, width), f, colour)
    f = fonts.regular(layout.INFO_SIZE)
    draw.text(d, (x, lay.info_y), fonts.fit(info_line(view, lang), f, width), f, theme.TEXT_DIM)
    for i, box in enumerate(lay.chips):
        draw_chip(d, box, i, view, names, lang, chips)
    if lay.last_move_y is not None:
        for k, line in enumerate(scene.last_move):
            y = lay.last_move_y + k * layout.LAST_MOVE_H
            draw.text(d, (x, y), line, f, theme.TEXT)
    draw_pyramid(img, d, lay.pyramid, scene, lang)
    if chosen is not None:
        for letter, pos in scene.spots.items():
            _tile_at_spot(img, d, lay.pyramid.pixel_box(pos), chosen, letter, lang)
    draw.ground(d, lay.ground)
    if lay.tray_y is not None:
        draw.tray(img, d, lay.tray_y, out_of_game(lang), view.removed, lang=lang)
    _hand_head(d, lay, view, me, lang)
    draw_tiles(img, d, lay.slots, hand, lay.label_y, lang)
    if chosen is not None:
        box = lay.slots[hand.index(chosen)]
        draw.ring(d, box, theme.GOLD, max(3, (box[3] - box[1]) // 16))
    return img


SPOT_TILE_SHOWN: Final = 0.5
"""How much of the chosen tile's face shows at a spot (the rest is the background): enough to
know the tile, faint enough to see that it is not placed yet. Its fill then lands exactly on
the palette's half blend of that fill and the background (:mod:`render.theme`)."""


SPOT_LETTER_AT: Final = 0.2
"""Where a spot's letter stands over the chosen tile: this share of the block's width from its
left edge, over the tile's colour badge, left of its number (which stays readable)."""


def _tile_at_spot(
    img: Image.Image, d: ImageDraw.ImageDraw, box: Box, tile: str, letter: str, lang: Language
) -> None:
    """``tile`` drawn faintly at a spot's ``box`` (its colour's letter in ``lang``), in the
    spot's dashed outline, with the spot's ``letter`` as large as on an empty spot, outlined in
    ink, at the tile's left."""
    x0, y0, x1, y1 = box
    h = y1 - y0
    faces = draw.tile_set(x1 - x0, h, lang=lang)
    face = faces.face(tile).convert("RGB")
    faint = Image.blend(Image.new("RGB", face.size, theme.BG), face, SPOT_TILE_SHOWN)
    img.paste(faint, (x0, y0), faces.mask)
    draw.dashed_box(d, box, theme.SPOT_LINE, max(2, h // 22), max(4, h // 7))
    f = fonts.bold(max(8, int(h * (0.62 if len(letter) == 1 else 0.46))))
    d.text(
        (x0 + (x1 - x0) * SPOT_LETTER_AT, (y0 + y1) / 2),
        letter,
        font=f,
        fill=theme.SPOT_LINE,
        anchor="mm",
        stroke_width=max(2, h // 16),
        stroke_fill=theme.INK,
    )


def spot_status(view: View, tile: str, lang: Language) -> str:
    """The spot step's headline, told to the viewer: which tile, which spots.

    >>> from i18n import ENGLISH
    >>> from engine import Game, view
    >>> g = Game(2, pyramid={(0, 0): "Y30", (0, 2): "R40"}, hands=[["Y20"], ["G2"]])
    >>> spot_status(view(g, 0), "Y20", lang=ENGLISH)
    'Where do you play yellow 20? Spot A'
    """
    labels = list(spot_labels(view))
    named = narration.tile_in_text(tile, lang)
    if len(labels) == 1:
        return lang.gettext("Where do you play {tile}? Spot {spot}").format(
            tile=named, spot=labels[0]
        )
    return lang.gettext("Where do you play {tile}? Spots {first}–{last}").format(
        tile=named, first=labels[0], last=labels[-1]
    )


def viewer_status(view: View, names: Sequence[str], lang: Language) -> tuple[str, bool]:
    """The screen's headline, told to the viewer, and whether the decision is theirs.

    >>> from i18n import ENGLISH
    >>> from engine import Game, view
    >>> g = Game(2, pyramid={(0, 0): "Y30", (0, 2): "R40"}, hands=[["Y20"], ["G2"]])
    >>> viewer_status(view(g, 0), ["Ann", "Bob"], lang=ENGLISH)
    ('Your turn: pick a tile below, then spot A', True)
    >>> viewer_status(view(g, 1), ["Ann", "Bob"], lang=ENGLISH)
    ('Waiting for Ann to play', False)
    """
    p = view.pending
    if p is None:
        return ended(view, names, lang), False
    who = player_name(names, p.player, lang)
    if p.player != view.player:
        if p.kind == "play":
            return lang.gettext("Waiting for {player} to play").format(player=who), False
        if p.kind == "fall":
            return lang.gettext("Waiting for {player} to choose where a tile falls").format(
                player=who
            ), False
        return status_line(view, names, lang), False
    # The screen is the viewer's own: their name would only push the question out of the line.
    if p.kind == "play":
        labels = list(spot_labels(view))
        if len(labels) == 1:
            text = lang.gettext("Your turn: pick a tile below, then spot {spot}").format(
                spot=labels[0]
            )
        else:
            text = lang.gettext("Your turn: pick a tile below, then a spot {first}–{last}").format(
                first=labels[0], last=labels[-1]
            )
        return text, True
    if p.kind == "fall":
        if p.tile:
            text = lang.gettext("Where does {tile} fall? ◀ left or right ▶").format(
                tile=narration.tile_in_text(p.tile, lang)
            )
        else:
            text = lang.gettext("Where does the tile fall? ◀ left or right ▶")
        return text, True
    return status_line(view, names, lang), False


def ended(view: View, names: Sequence[str], lang: Language) -> str:
    """The end of a round or of the match on the viewer's own screen: the viewer, when they won,
    is "you" (:func:`render.scene.status_line` names everyone else, as the channel does).

    >>> from i18n import ENGLISH
    >>> from engine import Game, Play, view
    >>> g = Game(2, pyramid={(0, 0): "Y30", (0, 2): "R40"}, hands=[["Y20"], ["G2"]])
    >>> _ = g.apply(Play("Y20", (1, 1)))
    >>> ended(view(g, 0), ["Ann", "Bob"], lang=ENGLISH), ended(view(g, 1), ["Ann", "Bob"], ENGLISH)
    ('You win!', 'Ann wins!')
    """
    me = view.player
    if me is None or view.winner is None:
        return status_line(view, names, lang)
    if view.rounds > 1 and match_over(view):
        won = sorted(crowned(view))
        if me not in won and view.winner != me:
            return status_line(view, names, lang)
        drawable = [player_name(names, i, lang) for i in range(view.players)]
        others = [i for i in won if i != me]
        if me not in won:
            line = narration.match_winner_headline(drawable, view.scores, lang)
        elif others:
            line = lang.ngettext(
                "You share the match with {players}!",
                "You share the match with {players}!",
                len(others),
            ).format(players=narration.names_and(others, drawable, lang))
        else:
            line = lang.gettext("You win the match!")
        if won == [view.winner]:
            return line
        if view.winner == me:
            return lang.gettext("{headline} You won round {round}.").format(
                headline=line, round=view.round
            )
        return lang.gettext("{headline} {player} won round {round}.").format(
            headline=line, player=drawable[view.winner], round=view.round
        )
    if view.winner != me:
        return status_line(view, names, lang)
    if view.rounds > 1:
        return lang.gettext("You win round {round} of {rounds}!").format(
            round=view.round, rounds=view.rounds
        )
    return lang.gettext("You win!")


def _hand_head(
    d: ImageDraw.ImageDraw, lay: ScreenLayout, view: View, me: int, lang: Language
) -> None:
    """The line that opens the hand: whose it is, and how many tiles wait in the pile."""
    x0, x1 = layout.MARGIN, lay.width - layout.MARGIN
    y = lay.hand_head_y
    d.line([(x0, y), (x1, y)], fill=theme.PANEL, width=2)
    pile = view.pile_sizes[me] if me < len(view.pile_sizes) else 0
    right = lang.ngettext("{count} tile in your pile", "{count} tiles in your pile", pile).format(
        count=pile
    )
    f = fonts.regular(layout.INFO_SIZE)
    cy = y + layout.SCREEN_HAND_HEAD_H // 2 + 2
    draw.text(d, (x1, cy), right, f, theme.TEXT_DIM, "rm")
    f = fonts.bold(layout.INFO_SIZE)
    room = x1 - x0 - int(fonts.regular(layout.INFO_SIZE).getlength(right)) - layout.MARGIN
    head = fonts.fit(lang.gettext("Your hand (only you see it)"), f, room)
    draw.text(d, (x0, cy), head, f, theme.TEXT, "lm")
