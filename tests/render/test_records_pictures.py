"""The pictures of records: the stats and leaderboard card, the animated match summary and the
end of a match, checked pixel by pixel."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from engine import Game, view
from engine.scenario import load_state
from engine.tiles import ALL_TILES
from i18n import ENGLISH
from render import alttext, draw, layout, samples, theme
from render.account import narrate
from render.narration import tile_name
from render.records import LINE_H, PAD, TITLE_SIZE, WIDTH, CardRow, card_layout, render_card
from render.summary import (
    LAST_MS,
    LOOK_MS,
    MS_PER_CHAR,
    Moment,
    board_fits_under,
    body_top,
    end_image,
    frame_layout,
    render_summary,
    story_lines,
    summary_durations,
    summary_frames,
)
from render.table import table_image
from render.tilesleft import LEFT_TILE, TilesLeft, count_line, left_height, left_rows
from tests.render.test_languages import drawn_texts

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


NAMES = ["Ann", "Bob", "Cy"]


def played(turns: int | None, seed: int = 2) -> Game:
    """A three-player game with the curse, played ``turns`` tiles in (None: to its end) with the
    first legal action each time."""
    game = Game.new(3, seed, curse=True)
    while game.pending is not None and (turns is None or game.turn < turns):
        game.apply(game.legal_actions()[0], game.pending.player)
    return game


def moment(game: Game, title: str) -> Moment:
    """A moment told as the replay tells it."""
    v = view(game, None)
    return Moment(
        v, title, narrate(v.last_events, NAMES, ENGLISH, viewer=None) or "The tiles are dealt."
    )


def test_a_frame_shows_the_move_that_happened_not_the_next_players_prompt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The table picture of a moment asks the next player to play, on lettered spots; the
    summary's frame of it tells the move just played, in full, over the board it left."""
    m = moment(played(6), "Step 7 of 40")
    assert m.view.pending is not None and m.view.pending.kind == "play"
    live = table_image(m.view, NAMES, title=m.title, lang=ENGLISH)
    with drawn_texts(monkeypatch) as seen:
        [frame] = summary_frames([m], NAMES, lang=ENGLISH)
    said = "\n".join(seen.texts)
    assert "to play" not in said and "spot" not in said  # no headline nor chip asking for it
    assert " ".join(story_lines(m)) == m.story.replace("\n", " ") and seen.cut == {}
    assert "Turn 6 · Options: curse" in said  # the turn just played, not the next one
    # No lettered spot: the live picture has their fill, the frame none.
    assert theme.SPOT_FILL in _colours(live, (0, 0, live.width, live.height))
    assert theme.SPOT_FILL not in _colours(frame, (0, 0, frame.width, frame.height))
    assert theme.NEW_RING in _colours(frame, (0, 0, frame.width, frame.height))  # the tile played


def test_a_long_account_is_told_whole_on_as_many_lines_as_it_takes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The table picture tells the last move on a few rows at most (then how many lines it
    leaves out); the summary tells it all (here a collapse, two falls and an explosion)."""
    _, events, after = samples.jenny_turn()
    names = ["Jenny", "Bob", "Zoë", "Amir"]
    m = Moment(view(after), "Step 9 of 30", narrate(events, names, ENGLISH, viewer=None))
    lines = story_lines(m)
    assert len(lines) > layout.LAST_MOVE_LINES and " ".join(lines) == m.story.replace("\n", " ")
    with drawn_texts(monkeypatch) as seen:
        summary_frames([m], names, lang=ENGLISH)
    assert seen.cut == {} and seen.outside == []
    assert all(line in seen.texts for line in lines)


def test_each_frame_stays_for_the_time_its_words_take_to_read() -> None:
    short = moment(played(0), "The deal")
    _, events, after = samples.jenny_turn()
    long = Moment(view(after), "Step 9 of 30", narrate(events, NAMES, ENGLISH, viewer=None))
    end = moment(played(8), "The end")
    moments = [short, long, end]
    data = render_summary(moments, NAMES, lang=ENGLISH)
    with Image.open(io.BytesIO(data)) as gif:
        durations = []
        for i in range(gif.n_frames):
            gif.seek(i)
            durations.append(gif.info["duration"])
    want = [LOOK_MS + MS_PER_CHAR * (len(m.title) + len(m.story)) for m in moments]
    want[-1] += LAST_MS
    assert durations == summary_durations(moments) == want
    assert len(long.story) > len(short.story) and durations[1] > durations[0] + 2000


def test_every_frame_fills_the_canvas_and_the_board_stands_on_one_ground() -> None:
    """Frames share one layout: the deal's small board stands on the same ground as the end's
    pyramid, and every frame ends with its legend at the bottom, with no empty band below."""
    game = played(None)
    moments = [
        moment(played(0), "The deal"),
        moment(played(12), "Step 13"),
        moment(game, "The end"),
    ]
    left = tuple(TilesLeft(tuple(h), tuple(p)) for h, p in zip(game.hands, game.piles, strict=True))
    moments.append(Moment(view(game, None), "Tiles left", "Every player's tiles.", left))
    frames = summary_frames(moments, NAMES, lang=ENGLISH)
    lay = frame_layout(moments, NAMES, lang=ENGLISH)
    assert {f.size for f in frames} == {(lay.width, lay.height)}
    x0, y0, x1, y1 = lay.ground
    for i, frame in enumerate(frames):
        ink = ImageChops.difference(frame, Image.new("RGB", frame.size, theme.BG)).getbbox()
        assert ink is not None and ink[3] >= frame.height - 2 * layout.MARGIN, f"frame {i}"
        on_ground = _colours(frame, (x0, y0, x1, y1))
        board = board_fits_under(moments[i], lay, NAMES, ENGLISH)
        assert (theme.GROUND in on_ground) == board, f"frame {i}"


def test_the_end_lays_down_every_players_remaining_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    """At the end of a match every player's hand and pile are shown, tile by tile, under their
    name and how many they had left; the winners have a star."""
    game = played(None)
    assert game.pending is None and game.winner is not None
    v = view(game, None)
    left = tuple(TilesLeft(tuple(h), tuple(p)) for h, p in zip(game.hands, game.piles, strict=True))
    assert sum(t.count for t in left) > 0
    m = Moment(v, "Tiles left", "Every player's tiles when the match ended.", left)
    with drawn_texts(monkeypatch) as seen:
        frames = summary_frames([moment(game, "The end"), m], NAMES, lang=ENGLISH)
        end = end_image(
            Moment(v, "Replay · 40/40", "The match is over.", left), NAMES, lang=ENGLISH
        )
    said = "\n".join(seen.texts)
    assert seen.cut == {}
    for seat, tiles in enumerate(left):
        star = "★ " if seat == game.winner else ""
        if tiles.count:
            tiles_word = "tile" if tiles.count == 1 else "tiles"
            assert f"{star}{NAMES[seat]}: {tiles.count} {tiles_word} left" in said
        else:
            assert f"{star}{NAMES[seat]}: no tile left" in said
    assert "hand:" in said and ("pile:" in said) == any(t.pile for t in left)
    small = frame_layout([moment(game, "The end"), m], NAMES, lang=ENGLISH).left_tile
    for picture, top, size in (
        (frames[-1], body_top(len(story_lines(m))), small),
        (end, body_top(1), LEFT_TILE),
    ):
        ts = draw.tile_set(*size, lang=ENGLISH)
        shown = [t for row in left_rows(left, top, ENGLISH, size) for t in row.tiles]
        assert sorted(t for t, _, _ in shown) == sorted(x for t in left for x in (*t.hand, *t.pile))
        for tile, x, y in shown:
            inner = (x + 8, y + 8, x + size[0] - 8, y + size[1] - 8)
            face = ts.face(tile).crop((8, 8, size[0] - 8, size[1] - 8))
            assert picture.crop(inner).tobytes() == face.convert("RGB").tobytes(), tile
    # The end's picture also shows the board the last move left.
    assert theme.GROUND in _colours(end, (0, 0, end.width, end.height))
    # Its description, and the summary's, name the same tiles for a screen reader.
    told = alttext.end_text(v, left, NAMES, title="Replay · 40/40", lang=ENGLISH)
    summed = alttext.summary_text([(v, "The end")], NAMES, lang=ENGLISH, left=left)
    for said in (told, summed):
        assert "Every player's tiles left:" in said and len(said) <= alttext.LIMIT
        for seat, tiles in enumerate(left):
            named = ", ".join(tile_name(t, ENGLISH) for t in tiles.hand)
            assert count_line(seat, tiles, NAMES, ENGLISH) in said
            assert not tiles.hand or f"hand: {named}" in said


def test_many_tiles_left_shrink_to_the_room_the_boards_leave() -> None:
    """Four players with ten tiles each: rather than every frame growing an empty band for the
    last one, the tiles left are drawn a size smaller, in the room the board's frames have."""
    names = ["Jenny", "Bob", "Zoë", "Amir"]
    board = Moment(view(samples.mid_game(), None), "Step 12 of 40", "Bob played yellow 4.")
    tiles = sorted(ALL_TILES)
    left = tuple(
        TilesLeft(tuple(tiles[10 * i : 10 * i + 5]), tuple(tiles[10 * i + 5 : 10 * i + 10]))
        for i in range(4)
    )
    end = Moment(board.view, "Tiles left", "Every player's tiles.", left)
    alone = frame_layout([board], names, lang=ENGLISH)
    both = frame_layout([board, end], names, lang=ENGLISH)
    assert left_height(left, ENGLISH) > alone.ground[1] - body_top(1)  # too tall at full size
    assert both.left_tile < LEFT_TILE and both.height == alone.height
    frames = summary_frames([board, end], names, lang=ENGLISH)
    assert {f.size for f in frames} == {(alone.width, alone.height)}


def test_the_last_frame_keeps_the_final_board_under_the_tiles_left_when_it_fits() -> None:
    """A pyramid that collapsed to one row, and few tiles left: the last frame shows them over
    the board the match ended on, rather than an empty space where the board was."""
    names = ["Ann", "Bob"]
    game = load_state(
        {
            "players": 2,
            "pyramid": {"0,0": "Y30", "0,2": "R10", "0,4": "B20", "1,1": "Y40", "1,3": "R20"},
            "hands": [["G100"], ["Y2"]],
            "piles": [[], []],
            "active": 0,
        }
    )
    moments = [Moment(view(game, None), "The deal", "The tiles are dealt.")]
    while game.pending is not None:
        game.apply(game.legal_actions()[0], game.pending.player)
        moments.append(moment(game, "Step"))
    assert game.winner == 1 and max(r for r, _ in game.pyramid) == 0  # it all came down
    left = tuple(TilesLeft(tuple(h), tuple(p)) for h, p in zip(game.hands, game.piles, strict=True))
    moments.append(Moment(view(game, None), "Tiles left", "Every player's tiles.", left))
    lay = frame_layout(moments, names, lang=ENGLISH)
    assert board_fits_under(moments[-1], lay, names, ENGLISH)
    frames = summary_frames(moments, names, lang=ENGLISH)
    # The same board, in the same place, as in the frame of the last move.
    below = body_top(len(story_lines(moments[-1]))) + left_height(left, ENGLISH, lay.left_tile)
    area = (lay.ground[0], below + layout.PYRAMID_PAD, lay.ground[2], lay.ground[3])
    assert frames[-1].crop(area).tobytes() == frames[-2].crop(area).tobytes()
    assert theme.GROUND in _colours(frames[-1], area)
