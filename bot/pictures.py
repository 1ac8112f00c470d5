"""Pictures for Discord messages: ``render/`` called off the event loop, with size checks.

Every function here runs the renderer in a worker thread (``asyncio.to_thread``) so a click on
another table is never kept waiting while a picture is drawn. A picture that cannot be drawn is
logged and replaced by a plain placeholder, so that a move is never lost because of a picture.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from typing import Any

from engine import Event, View

log = logging.getLogger(__name__)

MAX_ATTACHMENT_BYTES = 8 * 1024 * 1024
"""Stay well under Discord's smallest upload limit (10 MiB for a bot without boosts)."""


def _placeholder(text: str) -> bytes:
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (480, 120), (40, 40, 48))
    ImageDraw.Draw(img).text((16, 48), text[:70], fill=(240, 240, 240))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def _render(name: str) -> Any:
    import render

    return getattr(render, name, None)


def _table_png(v: View, names: Sequence[str], title: str | None) -> bytes:
    fn = _render("render_table")
    if fn is None:
        return _placeholder(title or "Flaming Pyramids")
    data: bytes = fn(v, list(names), title=title)
    return data


def _hand_png(v: View, name: str) -> bytes:
    fn = _render("render_hand")
    if fn is None:
        return _placeholder(f"{name}: " + " ".join(v.hand or ()))
    data: bytes = fn(v, name)
    return data


def _mayhem_gif(before: View, events: Sequence[Event], names: Sequence[str]) -> bytes | None:
    fn = _render("render_mayhem")
    if fn is None:
        return None
    data: bytes | None = fn(before, list(events), list(names))
    return data


async def table_png(v: View, names: Sequence[str], *, title: str | None = None) -> bytes:
    """The pyramid as the channel (or one player) sees it: spots labelled, fall marks, last move."""
    try:
        data = await asyncio.to_thread(_table_png, v, names, title)
    except Exception:
        log.exception("could not draw a table picture")
        return _placeholder("(the picture could not be drawn)")
    if len(data) > MAX_ATTACHMENT_BYTES:
        log.error("table picture too large (%d bytes)", len(data))
        return _placeholder("(the picture is too large)")
    return data


async def hand_png(v: View, name: str) -> bytes:
    """A player's hand (only ever sent to that player)."""
    try:
        data = await asyncio.to_thread(_hand_png, v, name)
    except Exception:
        log.exception("could not draw a hand picture")
        return _placeholder("(the picture could not be drawn)")
    if len(data) > MAX_ATTACHMENT_BYTES:
        log.error("hand picture too large (%d bytes)", len(data))
        return _placeholder("(the picture is too large)")
    return data


async def mayhem_gif(
    before: View | None, events: Sequence[Event], names: Sequence[str]
) -> bytes | None:
    """The chain reaction of one move as an animation, or None when nothing happened beyond the
    placement (or it would be too large)."""
    if before is None:
        return None
    if not any(e.kind in ("collapsed", "fell", "exploded", "burnt", "cursed") for e in events):
        return None
    try:
        data = await asyncio.to_thread(_mayhem_gif, before, events, names)
    except Exception:
        log.exception("could not draw the mayhem animation")
        return None
    if data is not None and len(data) > MAX_ATTACHMENT_BYTES:
        log.warning("mayhem animation too large (%d bytes); sending the picture only", len(data))
        return None
    return data
