"""The animation of a turn: frames that follow the events, as a GIF Discord plays inline."""

from __future__ import annotations

import io

from PIL import Image, ImageSequence

from engine import Event, Fall, Game, Play, View, view
from i18n import ENGLISH
from render import render_mayhem
from render import theme as th
from render.layout import frame_layout
from render.mayhem import _positions, frames, mayhem_images
from render.samples import jenny_turn
from tests.render.conftest import NAMES, inner, mode_colour, pixels, ring_pixels, share


def _gif_frames(data: bytes) -> list[Image.Image]:
    im = Image.open(io.BytesIO(data))
    assert im.format == "GIF"
    return [f.convert("RGB") for f in ImageSequence.Iterator(im)]


def test_a_calm_turn_needs_no_animation() -> None:
    g = Game(2, pyramid={(0, 0): "Y20", (0, 2): "R40"}, hands=[["Y10"], ["G2"]], piles=[[], []])
    before = view(g)
    events = g.apply(Play("Y10", (1, 1)))
    assert render_mayhem(before, events, NAMES, lang=ENGLISH) is None
    assert render_mayhem(before, [], NAMES, lang=ENGLISH) is None


def test_jennys_chain_reaction_is_animated_step_by_step() -> None:
    before, events, after = jenny_turn()
    data = render_mayhem(before, events, NAMES, lang=ENGLISH)
    assert data is not None
    assert len(data) < 1_000_000
    gif = Image.open(io.BytesIO(data))
    assert gif.is_animated and gif.info.get("loop") == 1
    assert gif.width <= 1000
    shown = _gif_frames(data)
    fs = frames(before, events, NAMES, lang=ENGLISH)
    assert len(shown) == len(fs)
    heads = [f.caption[0] for f in fs]
    assert heads[0].startswith("Jenny plays yellow coal (1)")
    assert heads.count("Collapse!") == 4 and "Explosion!" in heads
    # two falls, each with its in-between frames and a landing
    assert [h for h in heads if "falls" in h] == ["Yellow coal (1) falls right"] * 8
    lay = frame_layout(_positions(before, events), max(len(f.piles) + bool(f.out) for f in fs))
    pyr = lay.pyramid
    # first frame: the pyramid before, the spot outlined
    first = shown[0]
    for pos, tile in before.pyramid.items():
        assert mode_colour(first, inner(pyr.pixel_box(pos))) == th.TILE_FILL[tile[0]], pos
    # last frame: what is left, and empty places where tiles went
    last = shown[-1]
    for pos, tile in after.pyramid.items():
        assert mode_colour(last, inner(pyr.pixel_box(pos))) == th.TILE_FILL[tile[0]], pos
    for pos in [(2, 2), (2, 4), (1, 3), (1, 5), (1, 7), (0, 4), (0, 6), (0, 8)]:
        assert mode_colour(last, inner(pyr.pixel_box(pos))) == th.BG, pos


def test_the_falling_tile_passes_between_its_places() -> None:
    before, events, _ = jenny_turn()
    fs = frames(before, events, NAMES, lang=ENGLISH)
    moving = [f for f in fs if f.moving is not None]
    assert moving and all(0 < f.moving[3] < 1 for f in moving if f.moving)
    images, durations = mayhem_images(before, events, NAMES, lang=ENGLISH)
    lay = frame_layout(_positions(before, events), 2)
    i = fs.index(moving[1])
    _tile, a, b, t = moving[1].moving  # type: ignore[misc]
    box = lay.pyramid.between(a, b, t)
    assert mode_colour(images[i], inner(box)) == th.TILE_FILL["Y"]
    assert mode_colour(images[i], inner(lay.pyramid.pixel_box(a))) != th.TILE_FILL["Y"]
    assert sum(durations) < 20_000 and min(durations) > 0


def test_a_collapse_marks_the_tile_and_crosses_its_supports() -> None:
    before, events, _ = jenny_turn()
    fs = frames(before, events, NAMES, lang=ENGLISH)
    images, _ = mayhem_images(before, events, NAMES, lang=ENGLISH)
    lay = frame_layout(_positions(before, events), 2)
    i = next(k for k, f in enumerate(fs) if f.caption[0] == "Collapse!")
    im = images[i]
    assert share(ring_pixels(im, lay.pyramid.pixel_box((3, 3)), 2, 5), th.DANGER) > 0.3
    for pos in [(2, 2), (2, 4)]:
        assert th.DANGER in set(pixels(im, lay.pyramid.pixel_box(pos)))


def _fire_turn() -> tuple[View, list[Event]]:
    pyramid = {(0, 0): "Y20", (0, 2): "R40", (0, 4): "B40", (1, 3): "B6"}
    g = Game(2, pyramid=pyramid, hands=[["Y1"], ["G2"]], piles=[[], []])
    before = view(g)
    return before, g.apply(Play("Y1", (1, 1)))


def test_a_fire_shows_flames_then_the_tiles_gone() -> None:
    before, events = _fire_turn()
    assert "burnt" in [e.kind for e in events]
    data = render_mayhem(before, events, NAMES, lang=ENGLISH)
    assert data is not None
    fs = frames(before, events, NAMES, lang=ENGLISH)
    heads = [f.caption[0] for f in fs]
    assert "Straw fire!" in heads
    images = _gif_frames(data)
    lay = frame_layout(_positions(before, events), 2)
    burning = images[heads.index("Straw fire!")]
    assert th.FLAME_OUTER in set(pixels(burning, lay.pyramid.pixel_box((1, 3))))
    assert mode_colour(images[-1], inner(lay.pyramid.pixel_box((1, 3)))) == th.BG
    assert mode_colour(images[-1], inner(lay.pyramid.pixel_box((1, 1)))) == th.BG


def blowtorch_fire(pyramid: dict[tuple[int, int], str], at: tuple[int, int]) -> list[str]:
    """The headlines of the animation of a red blowtorch played at ``at`` beside ``pyramid``."""
    g = Game(2, pyramid=pyramid, hands=[["R7", "Y2"], ["B2"]], piles=[[], []])
    before = view(g)
    events = g.apply(Play("R7", at))
    return [f.caption[0] for f in frames(before, events, NAMES, lang=ENGLISH)]


def test_a_fires_headline_names_what_burnt_not_what_the_incendiary_could_burn() -> None:
    straw = blowtorch_fire({(0, 0): "G2"}, (0, 2))  # a blowtorch beside straw alone
    assert "Straw fire!" in straw and "Wood fire!" not in straw
    assert "Wood fire!" in blowtorch_fire({(0, 0): "B20"}, (0, 2))
    both = blowtorch_fire({(0, 0): "G10", (0, 2): "B100", (1, 1): "G2"}, (0, -2))
    assert "Straw and wood fire!" in both


def test_a_curse_a_die_a_free_fall_and_a_win_all_animate() -> None:
    g = Game(2, pyramid={(0, 0): "Y20", (0, 2): "R20"}, hands=[["G20"], ["B2"]], piles=[[], []])
    before = view(g)
    events = [
        Event("placed", 0, "G20", (1, 1)),
        Event("cursed", 1, to_pile=(("G20", (1, 1)), ("Y20", (0, 0)), ("R20", (0, 2)))),
        Event("rolled", 1, "G20", (1, 1), detail="smoke"),
        Event("fell", 1, "B2", (2, 2), (1, 1), detail="left"),
        Event("won", 0, scores=(0, 3)),
    ]
    fs = frames(before, events, NAMES, lang=ENGLISH)
    heads = [f.caption[0] for f in fs]
    assert "Curse!" in heads
    assert any(h.startswith("Fire die: smoke") for h in heads)
    assert any("free air" in h for h in heads)
    assert any("wins" in h for h in heads)
    assert render_mayhem(before, events, NAMES, lang=ENGLISH) is not None


def test_a_turn_cut_by_a_fall_choice_animates_in_parts(jenny: Game) -> None:
    before = view(jenny)
    first = jenny.apply(Play("Y1", (3, 3)))
    part_one = render_mayhem(before, first, NAMES, lang=ENGLISH)
    middle = view(jenny)
    second = jenny.apply(Fall("left"))
    part_two = render_mayhem(middle, second, NAMES, lang=ENGLISH)
    assert part_one is not None and part_two is not None
    assert part_one != part_two


def test_events_that_do_not_match_the_pyramid_do_not_crash(jenny_view: View) -> None:
    events = [
        Event("fell", 0, "Q9", (7, 7), (6, 6), detail="left"),
        Event("collapsed", 0, "Q9", (6, 6), to_pile=(("R1", (5, 5)),), detail="overweight"),
        Event("exploded", 0, out=(("Y1", (40, 0)),)),
        Event("burnt", 0, None, None, detail=""),
        Event("cursed", 0),
        Event("rolled", 0, detail="weird"),
    ]
    data = render_mayhem(jenny_view, events, [], lang=ENGLISH)
    assert data is not None and _gif_frames(data)


def test_the_animation_is_deterministic() -> None:
    before, events, _ = jenny_turn()
    assert render_mayhem(before, events, NAMES, lang=ENGLISH) == render_mayhem(
        before, events, NAMES, lang=ENGLISH
    )
