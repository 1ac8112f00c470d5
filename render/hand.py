"""The hand picture: a player's own tiles, big, each with the code its button uses."""

from __future__ import annotations

from PIL import Image, ImageDraw

from engine import View
from engine.tiles import MILLSTONE_CODE
from render import draw, encode, fonts, layout, theme
from render.layout import HandLayout
from render.scene import describe_tile


def hand_layout(view: View) -> HandLayout:
    """The layout :func:`render_hand` uses for ``view``."""
    return layout.hand_layout(len(view.hand or ()))


def render_hand(view: View, name: str) -> bytes:
    """PNG of ``view.hand`` (the viewer's own tiles, in hand order, each labelled with its code)
    and the size of the viewer's pile. ``view`` must be a player's own view, not the public one.
    """
    return encode.png(hand_image(view, name))


def hand_image(view: View, name: str) -> Image.Image:
    """The hand picture as an RGB image (before palette encoding)."""
    if view.hand is None or view.player is None:
        raise ValueError("render_hand needs a player's own view, not the public one")
    lay = hand_layout(view)
    img = Image.new("RGB", (lay.width, lay.height), theme.BG)
    d = ImageDraw.Draw(img)
    me = view.player
    who = fonts.clean(name, f"Player {me + 1}") if isinstance(name, str) else f"Player {me + 1}"
    status, colour = _status(view)
    sf = fonts.bold(layout.INFO_SIZE)
    status_w = int(sf.getlength(status))
    draw.text(d, (lay.width - layout.MARGIN, lay.title_y + 4), status, sf, colour, "ra")
    f = fonts.bold(layout.STATUS_SIZE)
    title = fonts.fit(f"{who}'s hand", f, lay.width - 3 * layout.MARGIN - status_w)
    draw.text(d, (layout.MARGIN, lay.title_y), title, f, theme.TEXT)
    first = lay.slots[0]
    ts = draw.tile_set(first[2] - first[0], first[3] - first[1])
    code_font = fonts.bold(layout.HAND_CODE_SIZE)
    desc_font = fonts.regular(layout.SMALL_SIZE)
    for i, box in enumerate(lay.slots):
        cx = (box[0] + box[2]) / 2
        if i < len(view.hand):
            tile = view.hand[i]
            draw.paste_tile(img, ts, tile, box)
            draw.text(d, (cx, lay.code_y), tile, code_font, theme.TEXT, "ma")
            room = box[2] - box[0] + layout.HAND_GAP
            for k, line in enumerate(_two_lines(tile)):
                y = lay.desc_y + k * layout.HAND_DESC_LINE_H
                draw.text(
                    d, (cx, y), fonts.fit(line, desc_font, room), desc_font, theme.TEXT_DIM, "ma"
                )
        else:
            draw.ghost(d, box)
    pile = view.pile_sizes[me] if me < len(view.pile_sizes) else 0
    _pile(d, lay, pile)
    return img


def _status(view: View) -> tuple[str, theme.RGB]:
    p = view.pending
    if p is None:
        return ("You win!" if view.winner == view.player else "Round over", theme.GOLD)
    if p.player != view.player:
        return (f"Waiting for player {p.player + 1}", theme.TEXT_DIM)
    if p.kind == "play":
        return ("Your turn: play a tile", theme.GOLD)
    if p.kind == "fall":
        return ("Your choice: left or right", theme.GOLD)
    return ("Your roll: fire die", theme.GOLD)


def _pile(d: ImageDraw.ImageDraw, lay: HandLayout, count: int) -> None:
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
    draw.text(d, (x, lay.code_y), "in your pile", f, theme.TEXT, "ma")
    f = fonts.regular(layout.SMALL_SIZE)
    for k, line in enumerate(("refills", "your hand")):
        y = lay.desc_y + k * layout.HAND_DESC_LINE_H
        draw.text(d, (x, y), line, f, theme.TEXT_DIM, "ma")


def _two_lines(tile: str) -> tuple[str, str]:
    """A tile's colour and material, one per line: ``("yellow", "wood")``."""
    if tile == MILLSTONE_CODE:
        return ("millstone", "all colours")
    words = describe_tile(tile).split(" ", 1)
    return (words[0], words[1] if len(words) > 1 else "")
