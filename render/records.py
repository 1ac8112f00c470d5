"""Pictures of records: a card of rows (a player's stats, a leaderboard's top ten).

One job: draw a title and rows of "label  value" in two columns, large enough to read at phone
width, in the table picture's colours. The words are the caller's (``bot/`` words them); a row
marked ``highlight`` is drawn in gold beside a "▶" mark (never colour alone).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from render import encode, fonts, theme

WIDTH: Final = 640
"""Card width: Discord shows it whole on a phone."""
PAD: Final = 24
TITLE_SIZE: Final = 30
ROW_SIZE: Final = 24
ROW_H: Final = 38
SUB_SIZE: Final = 18
MIN_VALUE_X: Final = 300
"""The value column starts here at the latest (further left when a value needs the room)."""
MARK: Final = "▶"


@dataclass(frozen=True)
class CardRow:
    """One row: a label on the left, a value on the right."""

    label: str
    value: str
    highlight: bool = False


def card_size(rows: int, subtitle: bool) -> tuple[int, int]:
    """The card's width and height for ``rows`` rows."""
    top = PAD + TITLE_SIZE + 12 + (SUB_SIZE + 10 if subtitle else 0)
    return WIDTH, top + rows * ROW_H + PAD


def value_x(rows: Sequence[CardRow]) -> int:
    """Where the value column starts: right-aligned room for the longest value."""
    f = fonts.bold(ROW_SIZE)
    widest = max((f.getlength(fonts.clean(r.value)) for r in rows), default=0.0)
    return int(min(MIN_VALUE_X, WIDTH - PAD - widest))


def card_image(title: str, rows: Sequence[CardRow], subtitle: str = "") -> Image.Image:
    """The card as an RGB image."""
    width, height = card_size(len(rows), bool(subtitle))
    vx = max(WIDTH // 3, value_x(rows))
    img = Image.new("RGB", (width, height), theme.BG)
    d = ImageDraw.Draw(img)
    title_font = fonts.bold(TITLE_SIZE)
    d.text((PAD, PAD), fonts.fit(fonts.clean(title), title_font, width - 2 * PAD), font=title_font,
           fill=theme.GOLD)  # fmt: skip
    y = PAD + TITLE_SIZE + 12
    if subtitle:
        sub = fonts.regular(SUB_SIZE)
        d.text((PAD, y), fonts.fit(fonts.clean(subtitle), sub, width - 2 * PAD), font=sub,
               fill=theme.TEXT_DIM)  # fmt: skip
        y += SUB_SIZE + 10
    label_font = fonts.regular(ROW_SIZE)
    value_font = fonts.bold(ROW_SIZE)
    for i, row in enumerate(rows):
        top = y + i * ROW_H
        if i % 2 == 0 or row.highlight:
            fill = theme.PANEL_ACTIVE if row.highlight else theme.PANEL
            d.rectangle((PAD // 2, top, width - PAD // 2, top + ROW_H - 4), fill=fill)
        colour = theme.GOLD if row.highlight else theme.TEXT
        label = (MARK + " " if row.highlight else "") + fonts.clean(row.label)
        d.text((PAD, top + 5), fonts.fit(label, label_font, vx - PAD - 12), font=label_font,
               fill=colour)  # fmt: skip
        d.text((vx, top + 5), fonts.fit(fonts.clean(row.value), value_font, width - vx - PAD),
               font=value_font, fill=colour)  # fmt: skip
    return img


def render_card(title: str, rows: Sequence[CardRow], subtitle: str = "") -> bytes:
    """PNG of a card (see :func:`card_image`)."""
    return encode.png(card_image(title, rows, subtitle))
