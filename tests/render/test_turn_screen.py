"""The turn screen: the board and the viewer's own hand in one picture, readable on a phone.

Checked on real pixels: the viewer's hand and nobody else's, the spots lettered exactly as the
spot buttons are, the fall step's arrows, the texts' height once shown 400 px wide, and names
that are not cut on their owner's turn.
"""

from __future__ import annotations

import dataclasses
import io

import pytest
from PIL import Image, ImageDraw

from engine import Game, Play, view
from engine.tiles import ALL_TILES
from i18n import ENGLISH, catalogs
from render import (
    draw,
    encode,
    fonts,
    layout,
    narration,
    render_spot_screen,
    render_turn_screen,
    samples,
    turn_screen_layout,
)
from render import theme as th
from render.labels import labelled_spots
from render.layout import (
    CHIP_NAME_SIZE,
    INFO_H,
    LAST_MOVE_H,
    MARGIN,
    READABLE_CAP,
    SCREEN_HAND_HEAD_H,
    STATUS_H,
    TITLE_H,
    chip_parts,
)
from render.legibility import first_glyph_height, phone
from render.screen import ended, spot_status, viewer_status
from tests.render.conftest import decode, flat, inner, mode_colour, pixels, ring_pixels, share

NAMES = ("Hal", "Bob", "Ida", "Kim")
"""Names whose first letter is a capital without descender (for the height measures)."""


def test_the_public_view_has_no_hand_and_cannot_make_a_turn_screen() -> None:
    with pytest.raises(ValueError, match="own view"):
        render_turn_screen(view(samples.mid_game()), NAMES, lang=ENGLISH)


def test_the_screen_shows_the_viewers_hand_in_order_below_the_board() -> None:
    game = samples.mid_game()
    v = view(game, 1)
    assert v.hand == ("Y6", "G2", "Y2")
    img = decode(render_turn_screen(v, NAMES, lang=ENGLISH))
    lay = turn_screen_layout(v, NAMES, lang=ENGLISH)
    assert (img.width, img.height) == (lay.width, lay.height)
    assert lay.slots[0][1] > lay.ground[3]  # the hand is below the board
    for tile, box in zip(v.hand, lay.slots, strict=False):
        assert mode_colour(img, inner(box, 0.1)) == th.TILE_FILL[tile[0]], tile
    for box in lay.slots[len(v.hand) :]:  # the free places are outlined, empty
        assert mode_colour(img, inner(box)) == th.BG
        assert share(ring_pixels(img, box, -2, -1), th.GHOST_LINE) > 0.1


def test_another_players_hand_never_changes_the_screen() -> None:
    """Privacy: two games that differ only in what Ida holds give Bob the same picture."""
    a = samples.mid_game()
    b = samples.mid_game()
    b.hands[2] = ["B100", "R60"]  # same size, other tiles
    assert view(a, 1).hand == view(b, 1).hand
    assert render_turn_screen(view(a, 1), NAMES, lang=ENGLISH) == render_turn_screen(
        view(b, 1), NAMES, lang=ENGLISH
    )
    assert render_turn_screen(view(a, 2), NAMES, lang=ENGLISH) != render_turn_screen(
        view(b, 2), NAMES, lang=ENGLISH
    )


def spot_as_its_button_letter(letter: str, size: tuple[int, int]) -> Image.Image:
    """A spot drawn alone with ``letter``, encoded as the pictures are."""
    im = Image.new("RGB", size, th.BG)
    draw.slot(ImageDraw.Draw(im), (0, 0, *size), letter, th.SPOT_LINE, th.SPOT_LINE)
    return encode.to_palette(im).convert("RGB")


def test_the_spots_carry_the_letters_of_the_spot_buttons() -> None:
    v = view(samples.mid_game(), 1)
    assert v.pending is not None and v.pending.kind == "play"
    img = decode(render_turn_screen(v, NAMES, lang=ENGLISH))
    pyr = turn_screen_layout(v, NAMES, lang=ENGLISH).pyramid
    labelled = labelled_spots(v.pending.spots)  # what the buttons are labelled with
    assert [letter for letter, _ in labelled] == ["A", "B", "C", "D"]
    for letter, pos in labelled:
        box = pyr.pixel_box(pos)
        shown = img.crop(box)
        assert shown.tobytes() == spot_as_its_button_letter(letter, shown.size).tobytes(), letter
    assert viewer_status(v, NAMES, lang=ENGLISH) == (
        "Your turn: pick a tile below, then a spot A–D",
        True,
    )


def test_the_fall_step_draws_the_falling_tile_and_arrows_to_its_landing_places() -> None:
    v = view(samples.jenny_fall(), 0)
    assert v.pending is not None and v.pending.kind == "fall" and v.pending.at is not None
    img = decode(render_turn_screen(v, NAMES, lang=ENGLISH))
    pyr = turn_screen_layout(v, NAMES, lang=ENGLISH).pyramid
    assert share(ring_pixels(img, pyr.pixel_box(v.pending.at), 2, 6), th.FALL_RING) > 0.3
    r, x = v.pending.at
    for side, pos in ((-1, (r - 1, x - 1)), (1, (r - 1, x + 1))):
        box = pyr.pixel_box(pos)
        assert share(ring_pixels(img, box, -2, -1), th.FALL_RING) > 0.25, pos
        x0, y0, x1, y1 = inner(box, 0.15)
        crop = img.crop((x0, y0, x1, y1))
        w, h = crop.size
        px = flat(crop)
        heights = [sum(px[y * w + c] == th.TEXT for y in range(h)) for c in range(w)]
        columns = [c for c in range(w) if heights[c]]
        mid = (columns[0] + columns[-1]) // 2
        left, right = max(heights[: mid + 1]), max(heights[mid + 1 :])
        head, tail = (left, right) if side < 0 else (right, left)
        assert head > 2 * tail, (pos, head, tail)  # the head is on the side it points to
    assert viewer_status(v, NAMES, lang=ENGLISH) == (
        "Where does yellow coal (1) fall? ◀ left or right ▶",
        True,
    )


def test_the_fall_question_fits_the_screen_whole_for_the_longest_tile_name() -> None:
    """The question is never cut before its "right ▶" (it was, with "Your choice: " before it)."""
    longest = max((narration.tile_name(t, lang=ENGLISH) for t in ALL_TILES), key=len)
    text = f"Where does {longest} fall? ◀ left or right ▶"
    f = fonts.bold(layout.STATUS_SIZE)
    assert f.getlength(text) <= layout.CANVAS_W - 2 * layout.MARGIN
    assert fonts.fit(text, f, layout.CANVAS_W - 2 * layout.MARGIN) == text


def test_the_decider_after_a_curse_gets_the_fall_on_their_own_screen() -> None:
    game = Game.from_dict(
        {
            "players": 3,
            "options": {"curse": True, "fire_die": False},
            "pyramid": {"0,0": "Y10", "0,2": "R10", "0,4": "B20", "1,3": "B30"},
            "hands": [["G10", "Y2"], ["R2", "G2"], ["B2", "Y4"]],
            "piles": [["R20"], ["G20"], ["B10"]],
            "active": 0,
        }
    )
    game.apply(Play("G10", (1, 1)))
    assert game.pending is not None and game.pending.player == 2  # Ida, cursed, decides
    v = view(game, 2)
    assert viewer_status(v, NAMES, lang=ENGLISH)[1] is True
    img = decode(render_turn_screen(v, NAMES, lang=ENGLISH))
    lay = turn_screen_layout(v, NAMES, lang=ENGLISH)
    assert [mode_colour(img, inner(b, 0.1)) for b in lay.slots[:2]] == [
        th.TILE_FILL["B"],
        th.TILE_FILL["Y"],
    ]
    assert viewer_status(view(game, 0), NAMES, lang=ENGLISH) == (
        "Waiting for Ida to choose where a tile falls",
        False,
    )


@pytest.mark.parametrize("case", ["turn", "fall"])
def test_every_text_of_the_screen_is_readable_at_phone_width(case: str) -> None:
    game = samples.mid_game() if case == "turn" else samples.jenny_fall()
    v = view(game, 1 if case == "turn" else 0)
    img = decode(render_turn_screen(v, NAMES, title="Table #2", lang=ENGLISH))
    lay = turn_screen_layout(v, NAMES, title="Table #2", lang=ENGLISH)
    small, scale = phone(img)
    right = img.width - MARGIN
    assert lay.title_y is not None and lay.last_move_y is not None
    boxes = {
        "title 'Table #2'": (MARGIN, lay.title_y, right, lay.title_y + TITLE_H),
        "status 'Your turn' / 'Your choice'": (
            MARGIN,
            lay.status_y,
            right,
            lay.status_y + STATUS_H,
        ),
        "turn line 'Turn'": (MARGIN, lay.info_y, right, lay.info_y + INFO_H),
        "'Last move'": (MARGIN, lay.last_move_y, right, lay.last_move_y + LAST_MOVE_H),
        "'Your hand'": (MARGIN, lay.hand_head_y, right - 400, lay.hand_head_y + SCREEN_HAND_HEAD_H),
    }
    for box in lay.chips:
        parts = chip_parts(box)
        name = (parts.text_x, parts.name_y, parts.right - 150, parts.name_y + CHIP_NAME_SIZE + 6)
        boxes[f"name in chip {box}"] = name
    for what, box in boxes.items():
        assert first_glyph_height(small, box, scale) >= READABLE_CAP, what


def test_a_long_name_is_not_cut_on_its_own_turn() -> None:
    """ "Computer 1 (hard)" with "▶ to play" beside it used to become "Computer 1 (h…"."""
    game = samples.mid_game()
    names = ("Hal", "Computer 1 (hard)", "Ida", "Kim")
    v = view(game, 1)
    img = decode(render_turn_screen(v, names, lang=ENGLISH))
    parts = chip_parts(turn_screen_layout(v, names, lang=ENGLISH).chips[1])
    full = fonts.bold(CHIP_NAME_SIZE).getlength("Computer 1 (hard)")
    row = (parts.text_x, parts.name_y, parts.right, parts.name_y + CHIP_NAME_SIZE)
    crop = img.crop(row)
    w, h = crop.size
    px = flat(crop)
    inked = [c for c in range(w) if any(px[y * w + c] == th.TEXT for y in range(h))]
    # The whole name (its ink ends within a letter's side bearing of its advance), no ellipsis:
    # cut, "Computer 1 (h…" was 60 px shorter.
    assert inked and inked[-1] - inked[0] >= full - 8
    assert th.GOLD in set(pixels(img, row))  # and still a gold mark of whose turn it is


def test_the_screen_is_a_png_of_reasonable_size() -> None:
    for v in (view(samples.mid_game(), 1), view(samples.jenny_fall(), 0)):
        data = render_turn_screen(v, NAMES, title="Table #2", lang=ENGLISH)
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert len(data) < 200_000
        assert Image.open(io.BytesIO(data)).width == 960


def test_an_empty_hand_shows_empty_places() -> None:
    v = dataclasses.replace(view(samples.mid_game(), 1), hand=())
    img = decode(render_turn_screen(v, NAMES, lang=ENGLISH))
    lay = turn_screen_layout(v, NAMES, lang=ENGLISH)
    assert all(mode_colour(img, inner(b)) == th.BG for b in lay.slots)


def test_the_spot_screen_draws_the_chosen_tile_faintly_at_each_spot_under_its_letter() -> None:
    """The spot step of Bob's green 2: his turn screen (his hand below the board), green 2
    drawn at each spot as it would go there, under the spot's letter, and ringed in his hand;
    the headline asks him where he plays it."""
    v = view(samples.mid_game(), 1)
    assert v.hand == ("Y6", "G2", "Y2") and v.pending is not None
    img = decode(render_spot_screen(v, NAMES, "G2", lang=ENGLISH))
    lay = turn_screen_layout(v, NAMES, lang=ENGLISH)
    assert (img.width, img.height) == (lay.width, lay.height)
    faint = th.mix(th.TILE_FILL["G"], th.BG, 0.5)
    plain = decode(render_turn_screen(v, NAMES, lang=ENGLISH))
    for letter, pos in labelled_spots(v.pending.spots):
        x0, y0, x1, y1 = lay.pyramid.pixel_box(pos)
        assert mode_colour(img, inner(((x0 + x1) // 2, y0, x1, y1))) == faint, letter
        at_left = inner((x0, y0, x0 + (x1 - x0) * 2 // 5, y1), 0.2)
        assert share(pixels(img, at_left), th.SPOT_LINE) > 0.1, letter  # its letter
        assert img.crop((x0, y0, x1, y1)).tobytes() != plain.crop((x0, y0, x1, y1)).tobytes()
    assert share(ring_pixels(img, lay.slots[1], 2, 4), th.GOLD) > 0.5
    for other in (0, 2):
        assert share(ring_pixels(img, lay.slots[other], 2, 4), th.GOLD) == 0
    assert spot_status(v, "G2", lang=ENGLISH) == "Where do you play green 2? Spots A–D"


@pytest.mark.parametrize("code", ["en", "fr"])
def test_the_spot_question_fits_the_screen_whole_for_every_tile(code: str) -> None:
    lang = catalogs.language(code)
    v = view(Game(2, pyramid={(0, 0): "Y30", (0, 2): "R40", (0, 6): "B20"}, hands=[["R7"], []]), 0)
    f = fonts.bold(layout.STATUS_SIZE)
    for tile in ALL_TILES:
        text = spot_status(v, tile, lang)
        assert fonts.fit(text, f, layout.CANVAS_W - 2 * layout.MARGIN) == text, text


def test_a_spot_screen_is_only_for_a_tile_of_the_viewers_hand_on_their_turn() -> None:
    game = samples.mid_game()
    with pytest.raises(ValueError, match="own view"):
        render_spot_screen(view(game), NAMES, "G2", lang=ENGLISH)
    with pytest.raises(ValueError, match="viewer's hand"):
        render_spot_screen(view(game, 1), NAMES, "B100", lang=ENGLISH)
    theirs = view(game, 2)
    assert theirs.hand and theirs.pending is not None and theirs.pending.player != 2
    with pytest.raises(ValueError, match="viewer's hand"):
        render_spot_screen(theirs, NAMES, theirs.hand[0], lang=ENGLISH)


def test_the_end_of_a_round_on_the_winners_own_screen_says_you() -> None:
    game = Game(2, rounds=3, pyramid={(0, 0): "Y20", (0, 2): "R40"}, hands=[["Y10"], ["G2"]])
    game.piles = [[], []]
    game.apply(Play("Y10", (1, 1)))
    assert viewer_status(view(game, 0), NAMES, lang=ENGLISH) == ("You win round 1 of 3!", False)
    assert viewer_status(view(game, 1), NAMES, lang=ENGLISH) == (
        "Hal wins round 1 of 3!",
        False,
    )


def test_the_end_of_the_match_on_ones_own_screen_says_you() -> None:
    """Round 2 of 2: Hal wins the round with his last tile, but Bob's total is lower."""
    game = Game(
        2,
        rounds=2,
        pyramid={(0, 0): "Y20", (0, 2): "R40"},
        hands=[["Y10"], ["G2", "B2"]],
        piles=[[], ["R2"]],
        active=0,
    )
    game.round, game.scores = 2, [10, 0]
    game.apply(Play("Y10", (1, 1)))
    assert ended(view(game, 1), NAMES, lang=ENGLISH) == "You win the match! Hal won round 2."
    assert ended(view(game, 0), NAMES, lang=ENGLISH) == "Bob wins the match! You won round 2."
    assert ended(view(game), NAMES, lang=ENGLISH) == "Bob wins the match! Hal won round 2."
    game.scores = [3, 3]  # a shared match
    assert ended(view(game, 1), NAMES, lang=ENGLISH) == (
        "You share the match with Hal! Hal won round 2."
    )
