"""Pictures of records: a card of rows (a player's stats, a leaderboard's page).

One job: draw a title and rows of "label  value", large enough to read at phone width, in the
table picture's colours, with every word whole. The words are the caller's (``bot/`` words
them); a row marked ``highlight`` is drawn in gold beside a "▶" mark (never colour alone).

Model first, pixels second: :func:`card_layout` decides every line of the card (the title and a
label wrap onto more lines rather than being cut; a value too wide to share its row's line goes
on the line under its label), and :func:`card_image` only draws it. A value is right-aligned, so
that the numbers of a column line up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from render import draw, encode, fonts, theme

WIDTH: Final = 640
"""Card width: Discord shows it whole on a phone."""
PAD: Final = 24
TITLE_SIZE: Final = 30
TITLE_LINE_H: Final = 38
ROW_SIZE: Final = 24
LINE_H: Final = 30
"""One line of a row."""
ROW_PAD: Final = 8
"""A row's height beyond its lines (a one-line row is :data:`ROW_H` tall)."""
ROW_H: Final = LINE_H + ROW_PAD
SUB_SIZE: Final = 18
SUB_LINE_H: Final = 24
GAP: Final = 20
"""The least space between a label and its value on one line."""
MIN_LABEL_W: Final = 160
"""A label shares its line with its value only when it has at least this much room."""
MARK: Final = "▶"
INNER: Final = WIDTH - 2 * PAD


@dataclass(frozen=True)
class CardRow:
    """One row: a label on the left, a value on the right."""

    label: str
    value: str
    highlight: bool = False


@dataclass(frozen=True)
class RowLayout:
    """Where one row goes: its top, its height, and its label's and value's lines."""

    top: int
    height: int
    label: tuple[str, ...]
    """The label's lines, the first beside the value (or above it)."""
    value: str
    value_line: int
    """The line the value is drawn on: 0 beside the label's first line, or the line after the
    label's last when it needs the room."""


@dataclass(frozen=True)
class CardLayout:
    """Every line of a card and where it goes."""

    width: int
    height: int
    title: tuple[str, ...]
    subtitle: tuple[str, ...]
    rows: tuple[RowLayout, ...]


def wrapped(text: str, f: fonts.Font, width: float) -> list[str] | None:
    """``text`` broken at spaces into lines at most ``width`` pixels wide in ``f``; None when a
    word alone is wider (nothing here cuts a word).

    >>> wrapped("Tiles left on average", fonts.regular(24), 400)
    ['Tiles left on average']
    >>> wrapped("Tiles left on average", fonts.regular(24), 150)
    ['Tiles left', 'on average']
    """
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if fonts.length(candidate, f) <= width:
            line = candidate
            continue
        if not line or fonts.length(word, f) > width:
            return None
        lines.append(line)
        line = word
    lines.append(line)
    return lines


def _lines(text: str, f: fonts.Font, width: float) -> tuple[str, ...]:
    """``text`` on as many lines as it needs; a word wider than the card (a name with no
    space, say) is the only thing ever cut."""
    return tuple(wrapped(text, f, width) or [fonts.fit(text, f, width)])


def _row(row: CardRow, top: int) -> RowLayout:
    label = (MARK + " " if row.highlight else "") + fonts.clean(row.label)
    value = fonts.clean(row.value)
    value_w = fonts.length(value, fonts.bold(ROW_SIZE))
    if value_w > INNER:
        value = fonts.fit(value, fonts.bold(ROW_SIZE), INNER)
    room = INNER - value_w - GAP
    beside = wrapped(label, fonts.regular(ROW_SIZE), room) if room >= MIN_LABEL_W else None
    if beside is not None:
        lines, value_line = tuple(beside), 0
    else:
        lines = _lines(label, fonts.regular(ROW_SIZE), INNER)
        value_line = len(lines)
    count = max(len(lines), value_line + 1)
    return RowLayout(top, count * LINE_H + ROW_PAD, lines, value, value_line)


def card_layout(title: str, rows: Sequence[CardRow], subtitle: str = "") -> CardLayout:
    """Every line of the card of ``rows`` under ``title`` (and ``subtitle``)."""
    title_lines = _lines(fonts.clean(title), fonts.bold(TITLE_SIZE), INNER)
    y = PAD + len(title_lines) * TITLE_LINE_H + 4
    sub_lines: tuple[str, ...] = ()
    if subtitle:
        sub_lines = _lines(fonts.clean(subtitle), fonts.regular(SUB_SIZE), INNER)
        y += len(sub_lines) * SUB_LINE_H + 6
    placed = []
    for row in rows:
        r = _row(row, y)
        placed.append(r)
        y += r.height
    return CardLayout(WIDTH, y + PAD, title_lines, sub_lines, tuple(placed))


def card_image(title: str, rows: Sequence[CardRow], subtitle: str = "") -> Image.Image:
    """The card as an RGB image (see :func:`card_layout`)."""
    lay = card_layout(title, rows, subtitle)
    img = Image.new("RGB", (lay.width, lay.height), theme.BG)
    d = ImageDraw.Draw(img)
    for k, line in enumerate(lay.title):
        draw.text(d, (PAD, PAD + k * TITLE_LINE_H), line, fonts.bold(TITLE_SIZE), theme.GOLD)
    sub_y = PAD + len(lay.title) * TITLE_LINE_H + 4
    for k, line in enumerate(lay.subtitle):
        y = sub_y + k * SUB_LINE_H
        draw.text(d, (PAD, y), line, fonts.regular(SUB_SIZE), theme.TEXT_DIM)
    label_font = fonts.regular(ROW_SIZE)
    value_font = fonts.bold(ROW_SIZE)
    for i, (row, placed) in enumerate(zip(rows, lay.rows, strict=True)):
        top = placed.top
        if i % 2 == 0 or row.highlight:
            fill = theme.PANEL_ACTIVE if row.highlight else theme.PANEL
            d.rectangle((PAD // 2, top, lay.width - PAD // 2, top + placed.height - 4), fill=fill)
        colour = theme.GOLD if row.highlight else theme.TEXT
        for k, line in enumerate(placed.label):
            draw.text(d, (PAD, top + 5 + k * LINE_H), line, label_font, colour)
        value_y = top + 5 + placed.value_line * LINE_H
        draw.text(d, (lay.width - PAD, value_y), placed.value, value_font, colour, "ra")
    return img


def render_card(title: str, rows: Sequence[CardRow], subtitle: str = "") -> bytes:
    """PNG of a card (see :func:`card_image`)."""
    return encode.png(card_image(title, rows, subtitle))
