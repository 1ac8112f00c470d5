"""The table picture: header, pyramid with spots or the fall choice, last move, tray, legend."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine import View
from i18n import Language
from render import draw, encode, fonts, layout, theme
from render.layout import Box, Layout, TableLayout
from render.narration import material_name
from render.scene import (
    NO_CHIPS,
    Chips,
    TableScene,
    crowned,
    info_line,
    match_over,
    player_name,
    status_line,
    table_scene,
)


def legend_words(lang: Language) -> tuple[tuple[str, str], ...]:
    """The legend of materials: a sample tile of each, and its word."""
    return (
        ("Y4", material_name("straw", lang)),
        ("R20", material_name("wood", lang)),
        ("B100", material_name("stone", lang)),
        ("G1", material_name("coal", lang)),
        ("B7", material_name("blowtorch", lang)),
        ("M200", lang.gettext("millstone: every colour")),
    )


def _layout(view: View, scene: TableScene, title: str | None) -> TableLayout:
    return layout.table_layout(
        view.players,
        scene.positions(),
        title=bool(title),
        last_move=len(scene.last_move),
        tray=bool(view.removed),
    )


def table_layout(
    view: View,
    names: Sequence[str],
    *,
    title: str | None = None,
    lang: Language,
    chips: Chips = NO_CHIPS,
) -> TableLayout:
    """The layout :func:`render_table` uses for these arguments (to find things in the picture)."""
    return _layout(view, table_scene(view, names, lang, viewer=None, chips=chips), title)


def render_table(
    view: View,
    names: Sequence[str],
    *,
    title: str | None = None,
    lang: Language,
    chips: Chips = NO_CHIPS,
) -> bytes:
    """PNG of the pyramid for the channel.

    Spots are labelled A, B, C... (the order of ``view.pending.spots``) when a play is pending;
    a pending fall shows the falling tile ringed in orange and an arrow pointing left or right
    in each landing place; the last move (``view.last_events``) is highlighted; the header
    holds the players with their hand and pile sizes, whose decision it is, the turn, round,
    scores and options; tiles out of the game are in a tray. ``names[i]`` is player i's name
    (any Unicode; missing names become "Player N"). Every word is in ``lang``. ``chips``: the
    seats whose player is away and a paused game, on the players' chips; a practice table, on
    the title's row.
    """
    return encode.png(table_image(view, names, title=title, lang=lang, chips=chips))


def table_image(
    view: View,
    names: Sequence[str],
    *,
    title: str | None = None,
    lang: Language,
    chips: Chips = NO_CHIPS,
) -> Image.Image:
    """The table picture as an RGB image (before palette encoding)."""
    scene = table_scene(view, names, lang, viewer=None, chips=chips)
    lay = _layout(view, scene, title)
    img = Image.new("RGB", (lay.width, lay.height), theme.BG)
    d = ImageDraw.Draw(img)
    _header(d, lay, view, names, scene, title, lang, chips)
    draw_pyramid(img, d, lay.pyramid, scene, lang)
    draw.ground(d, lay.ground)
    if lay.tray_y is not None:
        draw.tray(img, d, lay.tray_y, out_of_game(lang), view.removed, lang=lang)
    draw_legend(img, lay.legend_y, lang)
    return img


def out_of_game(lang: Language) -> str:
    """The label of the tray of tiles out of the game."""
    return lang.gettext("Out of the game:")


def practice_tag(lang: Language) -> tuple[str, str]:
    """The tag of a practice table on a picture's title row, and its short form."""
    return (
        lang.pgettext("chip", "☼ practice table: hints on, not rated"),
        lang.pgettext("chip", "☼ not rated"),
    )


def draw_title(
    d: ImageDraw.ImageDraw, y: int, width: int, title: str, lang: Language, chips: Chips
) -> None:
    """A picture's title at ``y``, and at the row's right end, in gold, the tag of a practice
    table (``chips``); the tag shrinks to its short form, then the title is cut, to share the
    row's ``width``."""
    x = layout.MARGIN
    f = fonts.regular(layout.TITLE_SIZE)
    name = fonts.clean(title)
    if chips.practice:
        tag_font = fonts.bold(layout.TITLE_SIZE)
        tag, short = practice_tag(lang)
        if f.getlength(name) + tag_font.getlength(tag) + layout.CHIP_PAD > width:
            tag = short
        tag_w = int(tag_font.getlength(tag)) + layout.CHIP_PAD
        draw.text(d, (x + width, y), tag, tag_font, theme.GOLD, "ra")
        width -= tag_w
    draw.text(d, (x, y), fonts.fit(name, f, width), f, theme.TEXT_DIM)


def _header(
    d: ImageDraw.ImageDraw,
    lay: TableLayout,
    view: View,
    names: Sequence[str],
    scene: TableScene,
    title: str | None,
    lang: Language,
    chips: Chips,
) -> None:
    width = lay.width - 2 * layout.MARGIN
    x = layout.MARGIN
    if title and lay.title_y is not None:
        draw_title(d, lay.title_y, width, title, lang, chips)
    f = fonts.bold(layout.STATUS_SIZE)
    colour = theme.GOLD if view.pending is None else theme.TEXT
    status = fonts.fit(status_line(view, names, lang), f, width)
    draw.text(d, (x, lay.status_y), status, f, colour)
    f = fonts.regular(layout.INFO_SIZE)
    draw.text(d, (x, lay.info_y), fonts.fit(info_line(view, lang), f, width), f, theme.TEXT_DIM)
    for i, box in enumerate(lay.chips):
        draw_chip(d, box, i, view, names, lang, chips)
    if lay.last_move_y is not None:
        f = fonts.regular(layout.INFO_SIZE)
        for k, line in enumerate(scene.last_move):  # one narration, wrapped: one colour
            y = lay.last_move_y + k * layout.LAST_MOVE_H
            draw.text(d, (x, y), line, f, theme.TEXT)


def draw_chip(
    d: ImageDraw.ImageDraw,
    box: Box,
    i: int,
    view: View,
    names: Sequence[str],
    lang: Language,
    chips: Chips = NO_CHIPS,
) -> None:
    """One player's chip: seat number, name, hand and pile sizes, score, and a tag.

    The player who must decide, or the winner (of the match, at its end), is ringed in gold.
    The name comes first: when it does not fit beside the tag, the tag shrinks to its symbol
    (the status line says the same in words). A player away (``chips``) is tagged so, with the
    day they come back; the decider's chip of a paused game says it is paused."""
    x0, y0, x1, y1 = box
    won = crowned(view)
    on = (view.pending is not None and i == view.pending.player) or i in won
    d.rounded_rectangle(
        (x0, y0, x1 - 1, y1 - 1),
        radius=layout.CHIP_RADIUS,
        fill=theme.PANEL_ACTIVE if on else theme.PANEL,
        outline=theme.GOLD if on else None,
        width=layout.CHIP_LINE,
    )
    parts = layout.chip_parts(box)
    b = parts.badge
    d.ellipse((b[0], b[1], b[2] - 1, b[3] - 1), fill=theme.GOLD if on else theme.TEXT_DIM)
    badge_centre = ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)
    draw.text(d, badge_centre, str(i + 1), fonts.bold(layout.CHIP_BADGE_SIZE), theme.INK, "mm")
    tag, short = _tag(view, i, won, lang, chips)
    tag_font = fonts.bold(layout.CHIP_COUNT_SIZE)
    name_font = fonts.bold(layout.CHIP_NAME_SIZE)
    name = player_name(names, i, lang)
    room = parts.right - parts.text_x
    if tag and name_font.getlength(name) + tag_font.getlength(tag) + layout.CHIP_PAD > room:
        tag = short
    tag_w = int(tag_font.getlength(tag)) + layout.CHIP_PAD if tag else 0
    if tag:
        draw.text(d, parts.tag_xy, tag, tag_font, theme.GOLD if on else theme.TEXT_DIM, "ra")
    name = fonts.fit(name, name_font, room - tag_w)
    draw.text(d, (parts.text_x, parts.name_y), name, name_font, theme.TEXT)
    hand = view.hand_sizes[i] if i < len(view.hand_sizes) else 0
    pile = view.pile_sizes[i] if i < len(view.pile_sizes) else 0
    if view.rounds > 1 and i < len(view.scores):
        counts = lang.gettext("hand {hand} · pile {pile} · score {score}").format(
            hand=hand, pile=pile, score=view.scores[i]
        )
    else:
        counts = lang.gettext("hand {hand} · pile {pile}").format(hand=hand, pile=pile)
    f = fonts.regular(layout.CHIP_COUNT_SIZE)
    counts = fonts.fit(counts, f, parts.right - parts.text_x)
    draw.text(d, (parts.text_x, parts.counts_y), counts, f, theme.TEXT_DIM, "ld")


def _tag(view: View, i: int, won: frozenset[int], lang: Language, chips: Chips) -> tuple[str, str]:
    """The chip's tag and its short form: ``("▶ to play", "▶")``; empty for most chips."""
    p = view.pending
    until = chips.away.get(i)
    if until is not None and not crowned(view):
        day = lang.format_day(until)
        return (lang.pgettext("chip", "☾ away until {day}").format(day=day), "☾")
    if p is not None and i == p.player and chips.paused:
        return (lang.pgettext("chip", "‖ paused"), "‖")
    if p is None:
        if i in won and match_over(view):
            return (lang.pgettext("chip", "★ winner"), "★")
        if view.winner == i:
            # Mid-match the round's winner is crowned as the round's, never as the match's.
            said = lang.pgettext("chip", "won round {round}").format(round=view.round)
            return (f"★ {said}", "★") if i in won else (said, "")
        return ("", "")
    if i == p.player:
        if p.kind == "play":
            return (lang.pgettext("chip", "▶ to play"), "▶")
        return (lang.pgettext("chip", "▶ decides"), "▶")
    if i == view.active:
        return (lang.pgettext("chip", "turn"), "")
    return ("", "")


def draw_pyramid(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    lay: Layout,
    scene: TableScene,
    lang: Language,
) -> None:
    """The pyramid of ``scene``: tiles, labelled spots, the fall choice with its arrows, the
    last move's marks."""
    bw, bh = lay.block_size
    for pos in scene.ghosts:
        draw.ghost(d, lay.pixel_box(pos))
    for letter, pos in scene.spots.items():
        draw.slot(d, lay.pixel_box(pos), letter, theme.SPOT_LINE, theme.SPOT_LINE)
    fall = scene.fall
    if fall is not None:
        for side, pos in ((-1, fall.left), (1, fall.right)):
            if pos not in scene.pyramid:
                draw.landing(d, lay.pixel_box(pos), side)
    draw.pyramid(img, lay, scene.pyramid, lang=lang)
    ring = max(3, bh // 16)
    if scene.placed is not None and (fall is None or scene.placed != fall.at):
        draw.ring(d, lay.pixel_box(scene.placed), theme.NEW_RING, ring)
    if fall is not None:
        box = lay.pixel_box(fall.at)
        draw.ring(d, box, theme.FALL_RING, ring + 1)
        width = max(3, bh // 10)
        centre = (box[0] + box[2]) / 2
        for side in (-1, 1):
            start = (centre + side * bw * 0.36, box[3] - bh * 0.22)
            end = (centre + side * bw * 0.62, box[3] + bh * 0.2)
            draw.arrow(d, start, end, theme.FALL_RING, width)
    if not scene.pyramid and not scene.spots and fall is None:
        f = fonts.regular(layout.INFO_SIZE)
        cx, cy = lay.centre((0, 0))
        draw.text(d, (cx, cy), lang.gettext("the table is empty"), f, theme.TEXT_DIM, "mm")


@lru_cache(maxsize=8)
def _legend_strip(lang: Language) -> Image.Image:
    """The legend in ``lang``, drawn once (it never changes); pictures paste it. Read-only once
    made.

    Entries go left to right and wrap onto :data:`render.layout.LEGEND_ROWS` rows."""
    width = layout.CANVAS_W - 2 * layout.MARGIN
    row_h = layout.LEGEND_H // layout.LEGEND_ROWS
    strip = Image.new("RGB", (width, layout.LEGEND_H), theme.BG)
    d = ImageDraw.Draw(strip)
    f = fonts.regular(layout.SMALL_SIZE)
    x = y = 0
    for tile, word in legend_words(lang):
        need = layout.MINI_W + 8 + int(f.getlength(word))
        if x and x + need > width:
            x, y = 0, y + row_h
        draw.mini_row(strip, x, y, [tile], (layout.MINI_W, layout.MINI_H), width, lang=lang)
        x += layout.MINI_W + 8
        draw.text(d, (x, y + layout.MINI_H // 2), word, f, theme.TEXT_DIM, "lm")
        x += int(f.getlength(word)) + 24
    return strip


def draw_legend(img: Image.Image, y: int, lang: Language) -> None:
    """The legend of materials in ``lang``, its top at ``y``."""
    img.paste(_legend_strip(lang), (layout.MARGIN, y))
