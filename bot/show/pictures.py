"""Pictures for Discord messages: ``render/`` called off the event loop, with size checks.

Every picture is drawn in a worker thread (``asyncio.to_thread``) so that the event loop keeps
acknowledging clicks while pictures are drawn. A :class:`Renderer` runs at most a couple of
drawings at a time, most urgent first: the channel's picture of a move (someone is waiting for
it), then hands, then the mayhem animations that are added to a message afterwards. Running
every drawing at once would only make them all slow (they share the interpreter lock).

A picture that cannot be drawn is logged and replaced by a plain placeholder, so that a move is
never lost because of a picture.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar

from engine import Event, View
from i18n import Language
from render import (
    NO_CHIPS,
    Chips,
    TurnPicture,
    render_spot_screen,
    render_table,
    render_turn,
    render_turn_screen,
)
from render.records import CardRow, render_card
from render.summary import Moment, render_end, render_summary

log = logging.getLogger(__name__)

__all__ = ["NO_CHIPS", "Chips"]  # (what the show side passes on to the pictures' chips)

T = TypeVar("T")

MAX_ATTACHMENT_BYTES: Final = 8 * 1024 * 1024
"""Stay well under Discord's smallest upload limit (10 MiB for a bot without boosts)."""
URGENT: Final = 0
"""Priority of the picture someone is waiting for."""
HAND: Final = 1
ANIMATION: Final = 2
MAYHEM_KINDS: Final = frozenset({"collapsed", "fell", "exploded", "burnt", "cursed"})


def has_mayhem(events: Sequence[Event]) -> bool:
    """Whether anything happened beyond the placement (worth an animation)."""
    return any(e.kind in MAYHEM_KINDS for e in events)


class Renderer:
    """Runs drawing functions in worker threads, ``workers`` at a time, lowest priority number
    first (first come, first served within a priority)."""

    def __init__(self, workers: int = 2) -> None:
        self.workers = workers
        self._queue: asyncio.PriorityQueue[tuple[int, int, Any]] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._order = itertools.count()

    async def run(self, priority: int, fn: Callable[..., T], *args: Any) -> T:
        """Draw ``fn(*args)`` in a worker thread when a slot is free; return its result."""
        if self._queue is None:
            self._queue = asyncio.PriorityQueue()
            self._tasks = [asyncio.create_task(self._work()) for _ in range(self.workers)]
        fut: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        await self._queue.put((priority, next(self._order), (fn, args, fut)))
        return await fut

    async def _work(self) -> None:
        assert self._queue is not None
        while True:
            _, _, (fn, args, fut) = await self._queue.get()
            if fut.done():
                continue
            try:
                result = await asyncio.to_thread(fn, *args)
            except Exception as err:
                if not fut.done():
                    fut.set_exception(err)
            else:
                if not fut.done():
                    fut.set_result(result)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []
        self._queue = None


async def _in_thread(priority: int, fn: Callable[..., T], *args: Any) -> T:
    return await asyncio.to_thread(fn, *args)


def _placeholder(text: str) -> bytes:
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (480, 120), (40, 40, 48))
    ImageDraw.Draw(img).text((16, 48), text[:70], fill=(240, 240, 240))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def _checked(data: bytes, what: str) -> bytes:
    if len(data) > MAX_ATTACHMENT_BYTES:
        log.error("%s picture too large (%d bytes)", what, len(data))
        return _placeholder("(the picture is too large)")
    return data


def _table(v: View, names: list[str], title: str | None, lang: Language, chips: Chips) -> bytes:
    return render_table(v, names, title=title, lang=lang, chips=chips)


def _screen(
    v: View,
    names: list[str],
    title: str | None,
    headline: str | None,
    lang: Language,
    chips: Chips,
) -> bytes:
    return render_turn_screen(v, names, title=title, headline=headline, lang=lang, chips=chips)


async def _drawn(
    what: str, priority: int, draw: Callable[..., bytes], renderer: Renderer | None, *args: Any
) -> bytes:
    """``draw(*args)`` off the event loop; a placeholder if it fails or is too large."""
    run = renderer.run if renderer is not None else _in_thread
    try:
        data = await run(priority, draw, *args)
    except Exception:
        log.exception("could not draw a %s picture", what)
        return _placeholder("(the picture could not be drawn)")
    return _checked(data, what)


async def table_png(
    v: View,
    names: Sequence[str],
    *,
    title: str | None = None,
    renderer: Renderer | None = None,
    lang: Language,
    chips: Chips,
) -> bytes:
    """The pyramid as the channel (or one player) sees it: spots labelled, fall marks, last move,
    the players away and a pause on their ``chips``; its words in ``lang``."""
    return await _drawn("table", URGENT, _table, renderer, v, list(names), title, lang, chips)


async def screen_png(
    v: View,
    names: Sequence[str],
    *,
    title: str | None = None,
    headline: str | None = None,
    renderer: Renderer | None = None,
    lang: Language,
    chips: Chips,
) -> bytes:
    """A player's turn screen: the board with their own hand below it (only ever sent to that
    player; ``v`` is their own view), its words in ``lang``; ``headline`` in place of the one
    the view asks; the players away and a pause on their ``chips``."""
    return await _drawn(
        "turn screen", HAND, _screen, renderer, v, list(names), title, headline, lang, chips
    )


def _spots(
    v: View, names: list[str], tile: str, title: str | None, lang: Language, chips: Chips
) -> bytes:
    return render_spot_screen(v, names, tile, title=title, lang=lang, chips=chips)


async def spot_png(
    v: View,
    names: Sequence[str],
    tile: str,
    *,
    title: str | None = None,
    renderer: Renderer | None = None,
    lang: Language,
    chips: Chips,
) -> bytes:
    """A player's spot step: their turn screen with ``tile``, chosen from their hand, drawn at
    each spot (only ever sent to that player; ``v`` is their own view), its words in ``lang``,
    with what its ``chips`` show. Someone waits for it: it is drawn first."""
    return await _drawn(
        "spot screen", URGENT, _spots, renderer, v, list(names), tile, title, lang, chips
    )


def _turn(
    before: View,
    events: list[Event],
    after: View,
    names: list[str],
    title: str | None,
    lang: Language,
    chips: Chips,
) -> TurnPicture:
    return render_turn(before, events, after, names, title=title, lang=lang, chips=chips)


async def turn_picture(
    before: View,
    events: Sequence[Event],
    after: View,
    names: Sequence[str],
    *,
    title: str | None = None,
    renderer: Renderer | None = None,
    lang: Language,
    chips: Chips,
) -> TurnPicture:
    """The one picture of a move's message: the chain reaction as an animation ending on the
    board, or the board alone when nothing happened beyond the placement (or when the
    animation would be too large, or could not be drawn); its words in ``lang``, the board's
    ``chips``."""
    run = renderer.run if renderer is not None else _in_thread
    if has_mayhem(events):
        try:
            pic: TurnPicture = await run(
                URGENT, _turn, before, list(events), after, list(names), title, lang, chips
            )
        except Exception:
            log.exception("could not draw the turn's animation")
        else:
            if len(pic.data) <= MAX_ATTACHMENT_BYTES:
                return pic
            log.warning("turn animation too large (%d bytes); the board only", len(pic.data))
    board = await table_png(after, names, title=title, renderer=renderer, lang=lang, chips=chips)
    return TurnPicture(board, False)


# --- the records' pictures ------------------------------------------------------------------------


async def card_png(title: str, rows: Sequence[CardRow], subtitle: str = "") -> bytes:
    """A records card (a player's stats, a page of the leaderboard)."""
    return await asyncio.to_thread(render_card, title, list(rows), subtitle)


async def summary_gif(moments: Sequence[Moment], names: Sequence[str], *, lang: Language) -> bytes:
    """A match's animated summary (each frame a moment and what happened in it); only its last
    frames when the whole would be too large to attach."""
    started = time.perf_counter()
    gif = await asyncio.to_thread(render_summary, list(moments), list(names), lang=lang)
    log.debug("summary: %d bytes in %.2f s", len(gif), time.perf_counter() - started)
    if len(gif) > MAX_ATTACHMENT_BYTES:
        gif = await asyncio.to_thread(render_summary, list(moments[-4:]), list(names), lang=lang)
    return gif


def _end(m: Moment, names: list[str], lang: Language) -> bytes:
    return render_end(m, names, lang=lang)


async def end_png(m: Moment, names: Sequence[str], *, lang: Language) -> bytes:
    """A match's last moment with every player's tiles left (a replay's last step)."""
    return await _drawn("end", URGENT, _end, None, m, list(names), lang)
