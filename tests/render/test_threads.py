"""The bot renders from worker threads: concurrent pictures equal the ones made one by one."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from engine import view
from i18n import ENGLISH
from render import draw, render_hand, render_mayhem, render_table, samples


def test_concurrent_rendering_gives_the_same_bytes() -> None:
    names = samples.NAMES
    before, events, after = samples.jenny_turn()
    mid = samples.mid_game()
    jobs = [
        lambda: render_table(view(after), names, lang=ENGLISH),
        lambda: render_table(view(mid), names, lang=ENGLISH),
        lambda: render_hand(view(mid, 1), "Bob", lang=ENGLISH),
        lambda: render_mayhem(before, events, names, lang=ENGLISH),
    ] * 2
    with draw._cache_lock:  # start cold, so threads race to build the tile faces
        draw._cache.clear()
    with ThreadPoolExecutor(max_workers=6) as pool:
        together = [f.result() for f in [pool.submit(job) for job in jobs]]
    alone = [job() for job in jobs]
    assert together == alone
