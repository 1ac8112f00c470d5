"""The animated summary of a finished match: one GIF of the moments that mattered.

One job: put the boards of a few chosen moments (chosen by the caller: the deal, mayhem and
curses, the last tiles) into one animation, each board drawn exactly as the table picture of
that moment, under a caption the caller words. Boards of different sizes (the pyramid grows)
are centred on a canvas of the largest size, so every frame has the same size.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PIL import Image

from engine import View
from i18n import Language
from render import encode, theme
from render.table import table_image

FRAME_MS: Final = 1500
"""How long each moment is shown."""
LAST_MS: Final = 4000
"""How long the final board stays before the animation starts again."""
LOOP_FOREVER: Final = 0


def summary_frames(
    moments: Sequence[tuple[View, str]], names: Sequence[str], *, lang: Language
) -> list[Image.Image]:
    """The frames (RGB, one size) of ``moments``: each a public view and its caption (already
    in the reader's language; the boards' own words are in ``lang``)."""
    if not moments:
        raise ValueError("a summary needs at least one moment")
    boards = [table_image(v, names, title=caption, lang=lang) for v, caption in moments]
    width = max(b.width for b in boards)
    height = max(b.height for b in boards)
    frames = []
    for b in boards:
        if b.size == (width, height):
            frames.append(b)
            continue
        canvas = Image.new("RGB", (width, height), theme.BG)
        canvas.paste(b, ((width - b.width) // 2, 0))
        frames.append(canvas)
    return frames


def render_summary(
    moments: Sequence[tuple[View, str]],
    names: Sequence[str],
    *,
    frame_ms: int = FRAME_MS,
    last_ms: int = LAST_MS,
    lang: Language,
) -> bytes:
    """An animated GIF of ``moments`` in order (each a public view and its caption), the last
    one shown longest; it repeats, as Discord plays a GIF inline."""
    frames = summary_frames(moments, names, lang=lang)
    durations = [frame_ms] * (len(frames) - 1) + [last_ms]
    return encode.gif(frames, durations, loop=LOOP_FOREVER)
