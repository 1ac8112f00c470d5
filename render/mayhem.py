"""The mayhem, as it happened: an animated GIF that steps through one turn's events.

:func:`frames` replays the events over the pyramid of the view before them, and makes a few
:class:`Frame` records per event (plain data: what is where, what is marked, the caption);
:func:`render_mayhem` draws and encodes them. GIF because Discord plays animated GIFs inline.

Given the view after the turn (``after``), the animation is drawn at the size of the table
picture, with the pyramid exactly where the table picture has it, and its last frame *is* that
table picture: one message per turn can carry one picture, the mayhem ending on the board.
:func:`render_turn` picks the animation or, when nothing but a placement happened, the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from PIL import Image, ImageDraw

from engine import Event, Pos, View
from engine.preview import MAYHEM_KINDS
from engine.tiles import WEIGHT, WOOD
from i18n import Language
from render import draw, encode, fonts, layout, theme
from render.account import burnt_materials
from render.layout import FrameLayout, frame_layout
from render.narration import collapsed_sentence, die_face, side_word, tile_in_text, tile_list
from render.scene import NO_CHIPS, Chips, player_name, table_scene, wrap
from render.table import out_of_game, table_image, table_layout

HOLD_MS: Final = 1100
"""How long an event's main frame stays."""
AFTER_MS: Final = 800
"""How long the frame after an event (tiles gone) stays."""
MOVE_MS: Final = 90
"""Each in-between frame of a falling tile."""
MOVE_STEPS: Final = 3
"""In-between frames per fall."""
FINAL_MS: Final = 2600
"""The last frame (the outcome) stays longer."""

MARK_NEW: Final = "new"
MARK_FALL: Final = "fall"
MARK_DANGER: Final = "danger"
MARK_CROSS: Final = "cross"
MARK_FIRE: Final = "fire"
MARK_BURST: Final = "burst"
MARK_CURSE: Final = "curse"
MARK_SPOT: Final = "spot"


@dataclass(frozen=True, slots=True)
class Frame:
    """One picture of the animation, as data."""

    pyramid: dict[Pos, str]
    """Tiles in their places."""
    caption: tuple[str, str]
    """Headline and detail."""
    duration: int
    """Milliseconds on screen."""
    marks: tuple[tuple[str, Pos], ...] = ()
    """Marks over positions (``new``, ``fall``, ``danger``, ``cross``, ``fire``, ``burst``,
    ``curse``, ``spot``)."""
    ghosts: frozenset[Pos] = frozenset()
    """Positions tiles have left this turn."""
    moving: tuple[str, Pos, Pos, float] | None = None
    """A tile on its way from one position to another, and how far it has got (0 to 1)."""
    piles: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Tiles gone under each player's pile so far this turn, after the tray's label (which
    names the player)."""
    out: tuple[str, ...] = ()
    """Tiles out of the game so far this turn."""


@dataclass
class _Replay:
    """The state of the replay between frames."""

    pyramid: dict[Pos, str]
    names: Sequence[str]
    lang: Language
    frames: list[Frame] = field(default_factory=list)
    ghosts: set[Pos] = field(default_factory=set)
    piles: dict[int, list[str]] = field(default_factory=dict)
    out: list[str] = field(default_factory=list)

    def snap(
        self,
        caption: tuple[str, str],
        duration: int,
        marks: Sequence[tuple[str, Pos]] = (),
        moving: tuple[str, Pos, Pos, float] | None = None,
    ) -> None:
        head, detail = (self.sentence(text) for text in caption)
        self.frames.append(
            Frame(
                pyramid=dict(self.pyramid),
                caption=(head, detail),
                duration=duration,
                marks=tuple(marks),
                ghosts=frozenset(q for q in self.ghosts if q not in self.pyramid),
                moving=moving,
                piles=tuple((self.under(p), tuple(t)) for p, t in self.piles.items()),
                out=tuple(self.out),
            )
        )

    def name(self, player: int) -> str:
        return player_name(self.names, player, self.lang)

    def sentence(self, text: str) -> str:
        """``text`` with a capital first letter, unless it starts with a player's name (which
        keeps the case its owner wrote it in)."""
        names = [self.name(i) for i in range(len(self.names))]
        if not text or any(name and text.startswith(name) for name in names):
            return text
        return text[0].upper() + text[1:]

    def under(self, player: int) -> str:
        """The label of the tray of tiles gone under ``player``'s pile."""
        return self.lang.gettext("Under {player}'s pile:").format(player=self.name(player))

    def tile(self, code: str) -> str:
        return tile_in_text(code, self.lang)

    def tiles(self, codes: Sequence[str]) -> str:
        return tile_list(codes, self.lang)

    def lift(self, placed: Sequence[tuple[str, Pos]], player: int | None) -> None:
        """Tiles leave the pyramid: under ``player``'s pile, or out of the game (None)."""
        for tile, pos in placed:
            if self.pyramid.get(pos) == tile:
                del self.pyramid[pos]
            self.ghosts.add(pos)
            if player is None:
                self.out.append(tile)
            else:
                self.piles.setdefault(player, []).append(tile)


def frames(
    before: View,
    events: Sequence[Event],
    names: Sequence[str],
    *,
    tell_outcome: bool = True,
    lang: Language,
) -> list[Frame]:
    """The frames showing ``events`` happen to the pyramid of ``before``; the last one tells the
    outcome, unless ``tell_outcome`` is False (the table picture will tell it). Captions are in
    ``lang``."""
    s = _Replay(pyramid=dict(before.pyramid), names=names, lang=lang)
    previous: Event | None = None
    for e in events:
        handler = _HANDLERS.get(e.kind)
        if handler is not None:
            handler(s, e, previous)
        previous = e
    if not tell_outcome:
        return s.frames
    said = [
        lang.ngettext("{player} took {count} tile", "{player} took {count} tiles", len(t)).format(
            player=s.name(p), count=len(t)
        )
        for p, t in s.piles.items()
    ]
    if s.out:
        said.append(
            lang.ngettext("{tiles} out of the game", "{tiles} out of the game", len(s.out)).format(
                tiles=s.tiles(s.out)
            )
        )
    if said:
        outcome = lang.gettext("{outcome}.").format(
            outcome=lang.pgettext("clauses", "; ").join(said)
        )
    else:
        outcome = lang.gettext("Nothing left the pyramid.")
    s.snap((lang.gettext("After the mayhem"), outcome), FINAL_MS)
    return s.frames


def _placed(s: _Replay, e: Event, _: Event | None) -> None:
    if e.tile is None or e.at is None:
        return
    head = s.lang.gettext("{player} plays {tile}").format(
        player=s.name(e.player), tile=s.tile(e.tile)
    )
    detail = ""
    s.snap((head, detail), AFTER_MS, [(MARK_SPOT, e.at)])
    s.pyramid[e.at] = e.tile
    s.snap((head, detail), HOLD_MS, [(MARK_NEW, e.at)])


def _collapsed(s: _Replay, e: Event, _: Event | None) -> None:
    if e.tile is None or e.at is None:
        return
    lang = s.lang
    supports = [t for t, _ in e.to_pile]
    tile = s.tile(e.tile)
    why = collapsed_sentence(tile, len(supports), e.detail, lang)
    if e.detail == "overweight" and supports:
        total = sum(WEIGHT.get(t, 0) for t in supports)
        # TRANSLATORS: a collapse with the weights that caused it: "... (60 > 34)".
        why = lang.gettext("{why} ({weight} > {total})").format(
            why=why, weight=WEIGHT.get(e.tile, 0), total=total
        )
    marks = [(MARK_DANGER, e.at)] + [(MARK_CROSS, p) for _, p in e.to_pile]
    head = lang.gettext("Collapse!")
    s.snap((head, why), HOLD_MS, marks)
    s.lift(e.to_pile, e.player)
    after = lang.ngettext(
        "{tiles} goes under {player}'s pile; {tile} falls",
        "{tiles} go under {player}'s pile; {tile} falls",
        len(supports),
    ).format(tiles=s.tiles(supports), player=s.name(e.player), tile=tile)
    s.snap((head, after), AFTER_MS, [(MARK_DANGER, e.at)])


def _fell(s: _Replay, e: Event, previous: Event | None) -> None:
    if e.tile is None or e.at is None or e.to is None:
        return
    lang = s.lang
    side = side_word(e.detail or ("left" if e.to[1] < e.at[1] else "right"), lang)
    tile = s.tile(e.tile)
    if previous is not None and previous.kind == "collapsed" and previous.tile == e.tile:
        head = lang.gettext("{tile} falls {side}").format(tile=tile, side=side)
    else:
        head = lang.gettext("{tile} is in free air: it falls {side}").format(tile=tile, side=side)
    detail = lang.gettext("{player} chose {side}").format(player=s.name(e.player), side=side)
    if s.pyramid.get(e.at) == e.tile:
        del s.pyramid[e.at]
    for k in range(1, MOVE_STEPS + 1):
        s.snap((head, detail), MOVE_MS, moving=(e.tile, e.at, e.to, k / (MOVE_STEPS + 1)))
    s.pyramid[e.to] = e.tile
    s.ghosts.add(e.at)
    s.snap((head, detail), AFTER_MS, [(MARK_FALL, e.to)])


def _burnt(s: _Replay, e: Event, _: Event | None) -> None:
    lang = s.lang
    burning = [t for t, _ in e.to_pile]
    igniter = s.tile(e.tile) if e.tile else "?"
    materials = burnt_materials(e)  # what burnt, not what the incendiary could burn
    if len(materials) > 1:
        head = lang.gettext("Straw and wood fire!")
    elif materials == (WOOD,):
        head = lang.gettext("Wood fire!")
    else:
        head = lang.gettext("Straw fire!")
    marks = [(MARK_FIRE, p) for _, p in e.to_pile]
    if e.at is not None:
        marks.append((MARK_FALL, e.at))
    lights = lang.gettext("{tile} sets fire to {tiles}").format(
        tile=igniter, tiles=s.tiles(burning)
    )
    s.snap((head, lights), HOLD_MS, marks)
    s.lift(e.to_pile, e.player)
    s.lift(e.out, None)
    if e.out:
        detail = lang.ngettext(
            "{tiles} burns: under {player}'s pile; {tile} leaves the game",
            "{tiles} burn: under {player}'s pile; {tile} leaves the game",
            len(burning),
        )
    else:
        detail = lang.ngettext(
            "{tiles} burns: under {player}'s pile",
            "{tiles} burn: under {player}'s pile",
            len(burning),
        )
    detail = detail.format(tiles=s.tiles(burning), player=s.name(e.player), tile=igniter)
    s.snap((head, detail), AFTER_MS)


def _exploded(s: _Replay, e: Event, _: Event | None) -> None:
    lang = s.lang
    group = [t for t, _ in e.out]
    touching = [t for t, _ in e.to_pile]
    marks = [(MARK_BURST, p) for _, p in e.out] + [(MARK_DANGER, p) for _, p in e.to_pile]
    head = lang.gettext("Explosion!")
    said = lang.ngettext("{tiles} touch and explode", "{tiles} touch and explode", len(group))
    s.snap((head, said.format(tiles=s.tiles(group))), HOLD_MS, marks)
    s.lift(e.to_pile, e.player)
    s.lift(e.out, None)
    if touching:
        detail = lang.ngettext(
            "{tiles} leave the game; {others} goes under {player}'s pile",
            "{tiles} leave the game; {others} go under {player}'s pile",
            len(touching),
        )
    else:
        detail = lang.gettext("{tiles} leave the game")
    detail = detail.format(tiles=s.tiles(group), others=s.tiles(touching), player=s.name(e.player))
    s.snap((head, detail), AFTER_MS)


def _cursed(s: _Replay, e: Event, _: Event | None) -> None:
    lang = s.lang
    tiles = [t for t, _ in e.to_pile]
    weight = WEIGHT.get(tiles[0], 0) if tiles else 0
    head = lang.gettext("Curse!")
    s.snap(
        (
            head,
            lang.gettext("Three tiles of weight {weight}: {tiles}").format(
                weight=weight, tiles=s.tiles(tiles)
            ),
        ),
        HOLD_MS,
        [(MARK_CURSE, p) for _, p in e.to_pile],
    )
    s.lift(e.to_pile, e.player)
    s.snap(
        (
            head,
            lang.gettext(
                "Under {player}'s pile; {player} now takes the tiles and chooses the falls"
            ).format(player=s.name(e.player)),
        ),
        AFTER_MS,
    )


def _rolled(s: _Replay, e: Event, _: Event | None) -> None:
    lang = s.lang
    marks = [(MARK_FALL, e.at)] if e.at is not None else []
    head = lang.gettext("Fire die: {face}").format(face=die_face(e.detail, lang))
    if e.tile:
        detail = lang.gettext("The game rolled it for {tile}").format(tile=s.tile(e.tile))
    else:
        detail = lang.gettext("The game rolled it for the tile")
    s.snap((head, detail), HOLD_MS, marks)


def _won(s: _Replay, e: Event, _: Event | None) -> None:
    lang = s.lang
    s.snap(
        (
            lang.gettext("{player} wins the round!").format(player=s.name(e.player)),
            lang.gettext("No tile left in hand or pile"),
        ),
        HOLD_MS,
    )


_HANDLERS: Final = {
    "placed": _placed,
    "collapsed": _collapsed,
    "fell": _fell,
    "burnt": _burnt,
    "exploded": _exploded,
    "cursed": _cursed,
    "rolled": _rolled,
    "won": _won,
}


def _positions(before: View, events: Sequence[Event]) -> set[Pos]:
    shown = set(before.pyramid)
    for e in events:
        if e.kind not in _HANDLERS:
            continue
        shown.update(p for p in (e.at, e.to) if p is not None)
        shown.update(p for _, p in e.to_pile)
        shown.update(p for _, p in e.out)
    return shown


def _trays(frame: Frame) -> int:
    return len(frame.piles) + (1 if frame.out else 0)


def render_mayhem(
    before: View,
    events: Sequence[Event],
    names: Sequence[str],
    *,
    after: View | None = None,
    title: str | None = None,
    lang: Language,
    chips: Chips = NO_CHIPS,
) -> bytes | None:
    """Animated GIF of one turn.

    ``before`` is the public view just before the first of ``events`` (before the tile was
    played, for a whole turn); ``events`` are the engine's events of that turn, from the
    ``placed`` event through the end of the resolution (``game.turn_events`` is exactly that;
    ``turn`` and ``drew`` events are ignored). A turn cut by a pending fall choice may be
    animated in parts: the events up to the choice, then from the fall on with the view
    before it. Returns None when nothing but a placement happened.

    With ``after`` (the public view once the events are done), the frames have the table
    picture's size and the last frame is ``render_table(after, names, title=title)``'s picture
    (with background below it if the trays of the turn needed more room than the table has),
    its ``chips`` too. Every word is in ``lang``.
    """
    if not any(e.kind in MAYHEM_KINDS for e in events):
        return None
    images, durations = mayhem_images(
        before, events, names, after=after, title=title, lang=lang, chips=chips
    )
    return encode.gif(images, durations)


@dataclass(frozen=True, slots=True)
class TurnPicture:
    """The one picture of a turn's message."""

    data: bytes
    """PNG or GIF bytes."""
    animated: bool
    """True for the GIF of the mayhem (ending on the board), False for the board alone."""

    @property
    def extension(self) -> str:
        """``"gif"`` or ``"png"``, for the file's name."""
        return "gif" if self.animated else "png"


def render_turn(
    before: View,
    events: Sequence[Event],
    after: View,
    names: Sequence[str],
    *,
    title: str | None = None,
    lang: Language,
    chips: Chips = NO_CHIPS,
) -> TurnPicture:
    """The picture for a turn's message: the mayhem ending on the board as it stands in
    ``after``, or, when nothing but a placement happened, the board alone (a PNG); ``chips``
    as :func:`render.table.render_table` draws them, on the board."""
    gif = render_mayhem(before, events, names, after=after, title=title, lang=lang, chips=chips)
    if gif is not None:
        return TurnPicture(gif, True)
    board = table_image(after, names, title=title, lang=lang, chips=chips)
    return TurnPicture(encode.png(board), False)


def mayhem_images(
    before: View,
    events: Sequence[Event],
    names: Sequence[str],
    *,
    after: View | None = None,
    title: str | None = None,
    lang: Language,
    chips: Chips = NO_CHIPS,
) -> tuple[list[Image.Image], list[int]]:
    """The animation's frames as RGB images, and their durations in milliseconds (``chips``:
    on the board that ends them)."""
    if after is None:
        fs = frames(before, events, names, lang=lang)
        lay = frame_layout(_positions(before, events), max(_trays(f) for f in fs))
        return [_draw(f, lay, lang) for f in fs], [f.duration for f in fs]
    fs = frames(before, events, names, tell_outcome=False, lang=lang)
    board = table_image(after, names, title=title, lang=lang, chips=chips)
    trays = max((_trays(f) for f in fs), default=0)
    lay = _board_frame_layout(before, events, after, names, title, trays, lang, chips)
    images = [_draw(f, lay, lang) for f in fs]
    if board.height < lay.height:
        padded = Image.new("RGB", (lay.width, lay.height), theme.BG)
        padded.paste(board, (0, 0))
        board = padded
    return [*images, board], [*(f.duration for f in fs), FINAL_MS]


def _board_frame_layout(
    before: View,
    events: Sequence[Event],
    after: View,
    names: Sequence[str],
    title: str | None,
    trays: int,
    lang: Language,
    chips: Chips,
) -> FrameLayout:
    """Frames of the table picture's size, the pyramid where the table picture puts it; the
    caption in the header's place, the trays under the ground."""
    table = table_layout(after, names, title=title, lang=lang, chips=chips)
    pyramid = table.pyramid
    shown = _positions(before, events)
    if (
        not shown <= table_scene(after, names, lang, viewer=None).positions()
    ):  # pragma: no cover - a misuse guard
        pyramid = layout.Layout.fit(
            shown | set(after.pyramid),
            left=layout.MARGIN,
            top=pyramid.top,
            width=layout.CANVAS_W - 2 * layout.MARGIN,
            max_height=layout.PYRAMID_MAX_H,
        )
    ground = (
        layout.MARGIN,
        pyramid.bottom,
        table.width - layout.MARGIN,
        pyramid.bottom + layout.GROUND_H,
    )
    trays_y = ground[3] + layout.FOOTER_GAP
    height = max(table.height, trays_y + trays * layout.TRAY_H + layout.MARGIN // 2)
    return FrameLayout(
        width=table.width,
        height=height,
        caption_y=layout.MARGIN,
        pyramid=pyramid,
        ground=ground,
        trays_y=trays_y,
    )


def caption_rows(lay: FrameLayout) -> int:
    """The rows a frame's caption (its headline, then its detail) has above the pyramid: at
    least :data:`render.layout.CAPTION_LINES`; a frame of the table picture's size has the
    whole header's height, so a long detail (a fire through many tiles) is shown whole."""
    room = (lay.pyramid.top - layout.PYRAMID_PAD - lay.caption_y) // layout.CAPTION_LINE_H
    return max(layout.CAPTION_LINES, room)


def _draw(frame: Frame, lay: FrameLayout, lang: Language) -> Image.Image:
    img = Image.new("RGB", (lay.width, lay.height), theme.BG)
    d = ImageDraw.Draw(img)
    width = lay.width - 2 * layout.MARGIN
    f = fonts.bold(layout.CAPTION_SIZE)
    head, detail = frame.caption
    draw.text(d, (layout.MARGIN, lay.caption_y), fonts.fit(head, f, width), f, theme.GOLD)
    f = fonts.regular(layout.CAPTION_DETAIL_SIZE)
    for k, line in enumerate(wrap(detail, f, width, caption_rows(lay) - 1) if detail else ()):
        y = lay.caption_y + (k + 1) * layout.CAPTION_LINE_H
        draw.text(d, (layout.MARGIN, y), line, f, theme.TEXT)
    pyr = lay.pyramid
    bh = pyr.block_size[1]
    for pos in frame.ghosts:
        draw.ghost(d, pyr.pixel_box(pos))
    for kind, pos in frame.marks:
        if kind == MARK_SPOT:
            draw.slot(d, pyr.pixel_box(pos), "", theme.SPOT_LINE, theme.SPOT_LINE)
    ts = draw.pyramid(img, pyr, frame.pyramid, lang=lang)
    if frame.moving is not None:
        tile, a, b, t = frame.moving
        draw.paste_tile(img, ts, tile, pyr.between(a, b, t))
    ring = max(3, bh // 16)
    skull = False
    for kind, pos in frame.marks:
        box = pyr.pixel_box(pos)
        if kind == MARK_NEW:
            draw.ring(d, box, theme.NEW_RING, ring)
        elif kind == MARK_FALL:
            draw.ring(d, box, theme.FALL_RING, ring + 1)
        elif kind == MARK_DANGER:
            draw.ring(d, box, theme.DANGER, ring + 1)
        elif kind == MARK_CROSS:
            draw.cross(d, box, theme.DANGER)
        elif kind == MARK_FIRE:
            draw.fire(d, box)
        elif kind == MARK_BURST:
            draw.burst(d, box)
        elif kind == MARK_CURSE:
            draw.ring(d, box, theme.CURSE, ring + 1)
            if not skull:  # one skull, over the top of the mini-pyramid
                skull = True
                draw.text(
                    d,
                    ((box[0] + box[2]) / 2, box[1] - 2 * ring - 2),
                    "☠",
                    fonts.bold(max(10, bh // 2)),
                    theme.CURSE,
                    "ms",
                )
    draw.ground(d, lay.ground)
    y = lay.trays_y
    for label, tiles in frame.piles:
        draw.tray(img, d, y, label, tiles, lang=lang)
        y += layout.TRAY_H
    if frame.out:
        draw.tray(img, d, y, out_of_game(lang), frame.out, lang=lang)
    return img
