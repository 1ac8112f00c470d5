"""The pictures of records: the stats and leaderboard card, and the animated match summary,
checked pixel by pixel."""

from __future__ import annotations

import io

from PIL import Image

from engine import Game, view
from i18n import ENGLISH
from render import encode, theme
from render.records import PAD, ROW_H, TITLE_SIZE, CardRow, card_size, render_card, value_x
from render.summary import FRAME_MS, LAST_MS, render_summary, summary_frames

ROWS = [
    CardRow("1. Alice", "21.0 · 12 matches"),
    CardRow("2. Computer (hard)", "18.4 · 30 matches", highlight=True),
    CardRow("3. Bob", "9.9 · 3 matches"),
]


def _colours(img: Image.Image, box: tuple[int, int, int, int]) -> set[tuple[int, int, int]]:
    found = img.crop(box).getcolors(maxcolors=1 << 24) or []
    return {colour for _, colour in found}


def test_a_card_has_its_title_in_gold_and_every_row_drawn_with_its_value() -> None:
    data = render_card("Leaderboard · page 1 of 1", ROWS, "Conservative rating")
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data)).convert("RGB")
    assert img.size == card_size(len(ROWS), True)
    assert img.getpixel((1, 1)) == theme.BG
    assert theme.GOLD in _colours(img, (PAD, PAD, img.width - PAD, PAD + TITLE_SIZE))
    top = PAD + TITLE_SIZE + 12 + 18 + 10
    vx = value_x(ROWS)
    for i, row in enumerate(ROWS):
        y = top + i * ROW_H
        label = _colours(img, (PAD, y, vx - 12, y + ROW_H - 4))
        value = _colours(img, (vx, y, img.width - PAD, y + ROW_H - 4))
        text = theme.GOLD if row.highlight else theme.TEXT
        assert text in label and text in value, row
    # The highlighted row is marked by its panel, its gold text and the "▶" before its label
    # (never colour alone): ink at the left edge where a plain row's label has none.
    plain_left = _colours(img, (PAD, top, PAD + 20, top + ROW_H - 4))
    marked_left = _colours(img, (PAD, top + ROW_H, PAD + 20, top + 2 * ROW_H - 4))
    assert theme.GOLD in marked_left and theme.GOLD not in plain_left
    assert theme.PANEL_ACTIVE in _colours(img, (PAD // 2, top + ROW_H, img.width, top + 2 * ROW_H))


def test_the_summary_is_one_gif_of_the_moments_each_drawn_as_the_table_picture() -> None:
    game = Game.new(3, 2, curse=True)
    first = view(game, None)
    while game.pending is not None and game.turn < 6:
        game.apply(game.legal_actions()[0], game.pending.player)
    later = view(game, None)
    moments = [(first, "The deal"), (later, "Step 6"), (later, "The end")]
    names = ["Ann", "Bob", "Cy"]
    data = render_summary(moments, names, lang=ENGLISH)
    assert data[:6] == b"GIF89a"
    frames = summary_frames(moments, names, lang=ENGLISH)
    assert len({f.size for f in frames}) == 1
    with Image.open(io.BytesIO(data)) as gif:
        assert gif.n_frames == 3 and gif.size == frames[0].size
        durations = []
        for i in range(gif.n_frames):
            gif.seek(i)
            durations.append(gif.info["duration"])
            want = encode.to_palette(frames[i]).convert("RGB")
            assert gif.convert("RGB").tobytes() == want.tobytes(), f"frame {i}"
    assert durations == [FRAME_MS, FRAME_MS, LAST_MS]
