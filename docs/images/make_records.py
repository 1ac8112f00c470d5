"""Draw the sample pictures of docs/records.md from a generated server, with the bot's own code.

    python docs/images/make_records.py

A temporary SQLite database gets a dozen matches among four people and two computer levels
(random legal moves, curses on), rated as the bot rates them; then the stats card, the
leaderboard card, a replay step, a replay's last step and the animated summary are drawn exactly
as the commands draw them, into this folder.
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bot.records.service import RecordsService  # noqa: E402
from bot.show import recordtexts as show  # noqa: E402
from bot.show.pictures import summary_gif  # noqa: E402
from bot.show.records import step_message, summary_moments  # noqa: E402
from data import open_store  # noqa: E402
from data.records import person_key  # noqa: E402
from data.store import Seat, Store, TableOptions  # noqa: E402
from engine import Game  # noqa: E402
from i18n import ENGLISH  # noqa: E402
from render.records import render_card  # noqa: E402

GUILD = 1
PEOPLE = [Seat(101, "Léa"), Seat(102, "Max"), Seat(103, "Zoé"), Seat(104, "Sam")]
COMPUTERS = [Seat(None, "Computer", "hard"), Seat(None, "Computer", "normal")]


async def match(store: Store, i: int) -> int:
    rnd = random.Random(i)
    seats = (*rnd.sample(PEOPLE, rnd.choice((2, 3))), rnd.choice(COMPUTERS))
    table = await store.create_table(GUILD, 10 + i, 101, TableOptions(curse=True), seats, 0.0)
    game = Game.new(len(seats), 50 + i, curse=True)
    table = await store.start_game(table.id, table.version, seats, game.to_dict(), None, None, 0.0)
    while game.pending is not None:
        seat = game.pending.player
        action = rnd.choice(game.legal_actions())
        game.apply(action, seat)
        table = await store.apply_action(
            table.id, table.version, seat=seat, user_id=seats[seat].user_id,
            action=action.to_dict(), state=game.to_dict(), deadline=None, reminder_at=None,
            now=1_764_000_000.0 + 3600 * i, status="finished" if game.pending is None else None,
        )  # fmt: skip
    results = {"scores": list(game.scores), "winners": game.winners()}
    await store.end_table(table.id, table.version, "finished", 1_764_000_000.0 + 3600 * i, results)
    return table.id


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(f"sqlite:///{Path(tmp) / 'docs.db'}")
        await store.open()
        try:
            ids = [await match(store, i) for i in range(12)]
            service = RecordsService(store)
            stats = await service.stats(GUILD, person_key(101))
            assert stats is not None
            (HERE / "records-stats.png").write_bytes(
                render_card(
                    show.stats_title(stats, ENGLISH),
                    show.stats_rows(stats, ENGLISH),
                    "Flaming Pyramids",
                )
            )
            board = await service.leaderboard(GUILD, 0)
            (HERE / "records-leaderboard.png").write_bytes(
                render_card(
                    show.board_title(board, ENGLISH),
                    show.board_rows(board, lang=ENGLISH),
                    show.board_subtitle(ENGLISH),
                )
            )
            history = await service.history(GUILD, None)
            (HERE / "records-history.txt").write_text(
                show.history_content(history, None, ENGLISH) + "\n"
            )
            # A replay step with mayhem, as /fp history's Replay button shows it.
            tid = ids[-1]
            moments = await service.moments(GUILD, tid)
            shown = next((m for m in moments if m.step.mayhem and m.step.before), moments[-1])
            step = await step_message(shown, ENGLISH)
            [picture] = step.files
            (HERE / f"records-{picture.filename}").write_bytes(picture.fp.read())
            (HERE / "records-replay.txt").write_text(step.content + "\n")
            # The replay's last step: the end, with every player's tiles left.
            end = await step_message(await service.step(GUILD, tid, 10**6), ENGLISH)
            (HERE / "records-end.png").write_bytes(end.files[0].fp.read())
            names = list(moments[0].names)
            (HERE / "records-summary.gif").write_bytes(
                await summary_gif(summary_moments(moments, ENGLISH), names, lang=ENGLISH)
            )
        finally:
            await store.close()


if __name__ == "__main__":
    asyncio.run(main())
