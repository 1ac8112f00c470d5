"""The pictures of records: the stats and leaderboard card, and the animated match summary,
checked pixel by pixel."""

from __future__ import annotations

import io

from PIL import Image

from engine import Game, view
from i18n import ENGLISH
from render import encode, theme
from render.records import LINE_H, PAD, TITLE_SIZE, WIDTH, CardRow, card_layout, render_card
from render.summary import FRAME_MS, LAST_MS, render_summary, summary_frames

ROWS = [
    CardRow("1. Alice", "12 matches · 1420"),
    CardRow("2. Computer (hard)", "30 matches · 1368", highlight=True),
    CardRow("3. Bob", "3 matches · 998"),
]


def _colours(img: Image.Image, box: tuple[int, int, int, int]) -> set[tuple[int, int, int]]:
    found = img.crop(box).getcolors(maxcolors=1 << 24) or []
    return {colour for _, colour in found}


def test_a_card_has_its_title_in_gold_and_every_row_drawn_with_its_value() -> None:
    data = render_card("Leaderboard · page 1 of 1", ROWS, "Rating")
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data)).convert("RGB")
    lay = card_layout("Leaderboard · page 1 of 1", ROWS, "Rating")
    assert (
        img.size == (lay.width, lay.height) == (WIDTH, lay.rows[-1].top + lay.rows[-1].height + PAD)
    )
    assert img.getpixel((1, 1)) == theme.BG
    assert theme.GOLD in _colours(img, (PAD, PAD, img.width - PAD, PAD + TITLE_SIZE))
    for row, placed in zip(ROWS, lay.rows, strict=True):
        # Short labels and values share one line: the label on the left, the value right-aligned.
        assert placed.label == ((("▶ ") if row.highlight else "") + row.label,)
        assert placed.value_line == 0 and placed.height == lay.rows[0].height
        y = placed.top
        label = _colours(img, (PAD, y, img.width // 2 - 40, y + LINE_H))
        value = _colours(img, (img.width // 2 + 40, y, img.width - PAD, y + LINE_H))
        text = theme.GOLD if row.highlight else theme.TEXT
        assert text in label and text in value, row
    # The highlighted row is marked by its panel, its gold text and the "▶" before its label
    # (never colour alone): ink at the left edge where a plain row's label has none.
    first, marked = lay.rows[0], lay.rows[1]
    plain_left = _colours(img, (PAD, first.top, PAD + 20, first.top + LINE_H))
    marked_left = _colours(img, (PAD, marked.top, PAD + 20, marked.top + LINE_H))
    assert theme.GOLD in marked_left and theme.GOLD not in plain_left
    assert theme.PANEL_ACTIVE in _colours(img, (PAD // 2, marked.top, img.width, marked.top + 20))


def test_a_long_label_wraps_and_a_long_value_goes_under_its_label_nothing_is_cut() -> None:
    rows = [
        CardRow("Tuiles restantes en moyenne du début à la fin", "200 tuiles reçues"),
        CardRow("Rang sur ce serveur", "pas encore classé : plus que 2 parties"),
    ]
    lay = card_layout("Statistiques de l'ordinateur (difficile) sur ce serveur", rows)
    assert len(lay.title) == 2 and " ".join(lay.title) == (
        "Statistiques de l'ordinateur (difficile) sur ce serveur"
    )
    wrapped, below = lay.rows
    assert len(wrapped.label) == 2 and wrapped.value_line == 0
    assert " ".join(wrapped.label) == rows[0].label
    assert wrapped.height == 2 * LINE_H + (lay.rows[0].height - 2 * LINE_H)
    assert below.label == (rows[1].label,) and below.value_line == 1
    assert below.value == rows[1].value and below.top == wrapped.top + wrapped.height


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
