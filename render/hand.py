"""The hand picture: a player's own tiles, big, each named as its button names it."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from engine import View
from i18n import Language
from render import draw, encode, fonts, layout, narration, theme
from render.layout import Box, HandLayout


def hand_layout(view: View) -> HandLayout:
    """The layout :func:`render_hand` uses for ``view``."""
    return layout.hand_layout(len(view.hand or ()))


def render_hand(view: View, name: str, *, lang: Language) -> bytes:
    """PNG of ``view.hand`` (the viewer's own tiles, in hand order, each named as on its button)
    and the size of the viewer's pile. ``view`` must be a player's own view, not the public one.
    Every word is in ``lang``.
    """
    return encode.png(hand_image(view, name, lang=lang))


def hand_image(view: View, name: str, *, lang: Language) -> Image.Image:
    """The hand picture as an RGB image (before palette encoding)."""
    if view.hand is None or view.player is None:
        raise ValueError("render_hand needs a player's own view, not the public one")
    lay = hand_layout(view)
    img = Image.new("RGB", (lay.width, lay.height), theme.BG)
    d = ImageDraw.Draw(img)
    me = view.player
    fallback = lang.gettext("Player {number}").format(number=me + 1)
    who = fonts.clean(name, fallback) if isinstance(name, str) else fallback
    status, colour = _status(view, lang)
    sf = fonts.bold(layout.INFO_SIZE)
    status_w = int(sf.getlength(status))
    draw.text(d, (lay.width - layout.MARGIN, lay.title_y + 4), status, sf, colour, "ra")
    f = fonts.bold(layout.STATUS_SIZE)
    title = lang.gettext("{player}'s hand").format(player=who)
    title = fonts.fit(title, f, lay.width - 3 * layout.MARGIN - status_w)
    draw.text(d, (layout.MARGIN, lay.title_y), title, f, theme.TEXT)
    draw_tiles(img, d, lay.slots, view.hand, lay.code_y, lang)
    pile = view.pile_sizes[me] if me < len(view.pile_sizes) else 0
    _pile(d, lay, pile, lang)
    return img


def _status(view: View, lang: Language) -> tuple[str, theme.RGB]:
    p = view.pending
    if p is None:
        if view.winner == view.player:
            return (lang.gettext("You win!"), theme.GOLD)
        return (lang.gettext("Round over"), theme.GOLD)
    if p.player != view.player:
        return (
            lang.gettext("Waiting for player {number}").format(number=p.player + 1),
            theme.TEXT_DIM,
        )
    if p.kind == "play":
        return (lang.gettext("Your turn: play a tile"), theme.GOLD)
    if p.kind == "fall":
        return (lang.gettext("Your choice: left or right"), theme.GOLD)
    return (lang.gettext("Your roll: fire die"), theme.GOLD)


def _pile(d: ImageDraw.ImageDraw, lay: HandLayout, count: int, lang: Language) -> None:
    """The pile: a stack of tile backs with how many tiles it holds."""
    cards = lay.pile_cards
    for box in reversed(cards[: min(len(cards), count)]):
        d.rounded_rectangle(
            (box[0], box[1], box[2] - 1, box[3] - 1),
            radius=layout.PILE_RADIUS,
            fill=theme.BACK,
            outline=theme.INK,
            width=2,
        )
    top = cards[0]
    if count == 0:
        draw.ghost(d, top)
    centre = ((top[0] + top[2]) / 2, (top[1] + top[3]) / 2)
    draw.text(d, centre, str(count), fonts.bold(layout.PILE_COUNT_SIZE), theme.WHITE, "mm")
    x = (lay.pile[0] + lay.pile[2]) / 2
    f = fonts.bold(layout.SMALL_SIZE)
    room = lay.pile[2] - lay.pile[0]
    # TRANSLATORS: under the number of tiles in the player's pile (a narrow column).
    said = lang.pgettext("pile", "in your pile")
    draw.text(d, (x, lay.code_y), fonts.fit(said, f, room), f, theme.TEXT, "ma")
    f = fonts.regular(layout.SMALL_SIZE)
    # TRANSLATORS: two short lines under the pile, in a narrow column: "refills" / "your hand".
    lines = (lang.pgettext("pile", "refills"), lang.pgettext("pile", "your hand"))
    for k, line in enumerate(lines):
        y = lay.desc_y + k * layout.HAND_DESC_LINE_H
        draw.text(d, (x, y), fonts.fit(line, f, room), f, theme.TEXT_DIM, "ma")


def tile_label_lines(tile: str, width: int, lang: Language) -> tuple[str, ...]:
    """The words under a tile in hand: its name as its button shows it (``"yellow 40"``, broken
    at spaces to fit ``width`` pixels in the label font), then its material when the name does
    not say it (``"wood"``).

    >>> from i18n import ENGLISH
    >>> tile_label_lines("Y40", 150, lang=ENGLISH), tile_label_lines("B7", 150, lang=ENGLISH)
    (('yellow 40', 'wood'), ('blue', 'blowtorch', '(7)'))
    """
    f = fonts.bold(layout.HAND_LABEL_SIZE)
    lines: list[str] = []
    for word in narration.tile_name(tile, lang).split(" "):
        if lines and f.getlength(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    material = narration.material_word(tile, lang)
    return (*lines, material) if material else tuple(lines)


def draw_tiles(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    slots: Sequence[Box],
    hand: Sequence[str],
    label_y: int,
    lang: Language,
) -> None:
    """The tiles of a hand in ``slots`` (empty places outlined), each with its label lines
    from ``label_y`` down: the name in bold as on its button, the material dimmer."""
    first = slots[0]
    ts = draw.tile_set(first[2] - first[0], first[3] - first[1], lang=lang)
    gap = slots[1][0] - first[2] if len(slots) > 1 else layout.HAND_GAP
    name_font = fonts.bold(layout.HAND_LABEL_SIZE)
    material_font = fonts.regular(layout.SMALL_SIZE)
    for i, box in enumerate(slots):
        if i >= len(hand):
            draw.ghost(d, box)
            continue
        tile = hand[i]
        draw.paste_tile(img, ts, tile, box)
        cx = (box[0] + box[2]) / 2
        room = box[2] - box[0] + gap - 4
        lines = tile_label_lines(tile, room, lang)
        material = narration.material_word(tile, lang)
        for k, line in enumerate(lines):
            y = label_y + k * layout.HAND_DESC_LINE_H
            is_material = bool(material) and k == len(lines) - 1
            f = material_font if is_material else name_font
            colour = theme.TEXT_DIM if is_material else theme.TEXT
            draw.text(d, (cx, y), fonts.fit(line, f, room), f, colour, "ma")
