"""How one spot click travels through the bot's modules: a trace of the path the clicker waits for.

A seeded 3-player game is opened and started against the local fake Discord; the first person
to decide presses a tile on their hand, then a spot. While the bot handles that spot click, every
call into a function of the project's packages (``bot``, ``data``, ``engine``, ``render``) is
recorded with the asyncio task it ran in (``sys.setprofile``; a coroutine counts when it starts,
not each time it resumes). The task that handled the click is the path the clicker waits for;
work it hands to background tasks (hands by DM, other players' screens) is counted apart.

Modules are grouped in the parts a move goes through: the commands and buttons (``bot.cogs``,
with the table's buttons ``bot.tablebuttons`` and ``bot.replies``, their answer to errors), the
desk (``bot.desk``, with ``bot.followups``),
the table service (``bot.service``), what shows results (``bot.show``, and before it
``bot.presenter``, ``bot.screens``, ``bot.views``, ``bot.pictures``), and the store (``data``).
Helpers every part uses (the result types, the store's records, names, button ids, the request
budget, the engine, the pictures' drawing) are not parts: a call through them counts for the
part that made it, and so does making a record (the ``__init__`` a dataclass generates).
A *hop* is a call from one part into another; the report gives the hops on the click's path, how
many times each part was entered, and how many times a table's row was read (``get_table``).

    python bench/hops.py            # the figures
    python bench/hops.py --path     # and the sequence of module entries on the click's path
"""

from __future__ import annotations

import argparse
import asyncio
import dis
import sys
import tempfile
import types
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bot.app import Bot  # noqa: E402
from bot.config import Config  # noqa: E402
from tests.e2e.driver import TableDriver  # noqa: E402
from tests.fakediscord import DEFAULT_TOKEN  # noqa: E402
from tests.fakediscord.fixtures import running_world  # noqa: E402
from tests.fakediscord.runner import InProcessBot  # noqa: E402

PACKAGES = ("bot", "data", "engine", "render")
SEED = 877


PARTS = (
    ("bot.cogs", "cogs"),
    ("bot.tablebuttons", "cogs"),
    ("bot.desk", "desk"),
    ("bot.followups", "desk"),
    ("bot.service.results", None),
    ("bot.service", "service"),
    ("bot.show", "show"),
    ("bot.presenter", "show"),
    ("bot.screens", "show"),
    ("bot.views", "show"),
    ("bot.pictures", "show"),
    ("bot.replies", "cogs"),
    ("bot.narrate", "show"),
    # The store's records and errors: data.store until they moved beside it, helpers all along.
    ("data.store", None),
    ("data.model", None),
    ("data.errors", None),
    ("data", "store"),
)


def project_module(frame: types.FrameType) -> str | None:
    """The project module a frame runs in, or None (the standard library, discord.py...)."""
    name = frame.f_globals.get("__name__", "")
    if isinstance(name, str) and name.split(".", 1)[0] in PACKAGES:
        return name
    return None


def part_of(module: str | None) -> str | None:
    """The part a module belongs to (None: a helper, or not the project)."""
    if module is None:
        return None
    for prefix, part in PARTS:
        if module == prefix or module.startswith(prefix + "."):
            return part
    return None


def _suspended(frame: types.FrameType) -> bool:
    """Whether a coroutine's ``return`` event is a suspension (an ``await`` that waits)."""
    code = frame.f_code.co_code
    return 0 <= frame.f_lasti < len(code) and dis.opname[code[frame.f_lasti]] == "YIELD_VALUE"


def _caller_part(frame: types.FrameType) -> str | None:
    """The part of the nearest caller frame that belongs to one (None: the library)."""
    back = frame.f_back
    while back is not None:
        module = project_module(back)
        part = part_of(module)
        if part is not None:
            return part
        if module is None and back.f_code.co_flags & 0x380:
            return None  # the event loop runs this task: no caller of ours above
        back = back.f_back
    return None


@dataclass
class Call:
    caller: str | None
    callee: str
    function: str


@dataclass
class Trace:
    """The project calls of each asyncio task while tracing."""

    calls: dict[int, list[Call]] = field(default_factory=dict)
    functions: dict[int, set[str]] = field(default_factory=dict)
    """The functions of the parts each task called (their qualified names)."""
    started: dict[int, types.FrameType] = field(default_factory=dict)
    """Coroutine frames already seen (kept alive so their ids are not reused)."""

    def hook(self, frame: types.FrameType, event: str, arg: Any) -> None:
        if event not in ("call", "return"):
            return
        here = part_of(project_module(frame))
        if here is None or frame.f_code.co_filename.startswith("<"):
            return  # not a part, or code generated for a record
        coroutine = frame.f_code.co_flags & 0x380
        if event == "call" and coroutine:  # a coroutine counts when it starts, not resumes
            if id(frame) in self.started:
                return
            self.started[id(frame)] = frame
        if event == "return" and coroutine and _suspended(frame):
            return
        try:
            task = asyncio.current_task()
        except RuntimeError:
            return
        if event == "call":
            self.functions.setdefault(id(task), set()).add(frame.f_code.co_qualname)
        caller = _caller_part(frame)
        if caller == here:
            return
        calls = self.calls.setdefault(id(task), [])
        if event == "call":
            calls.append(Call(caller, here, frame.f_code.co_name))
        elif caller is not None:  # back from ``here`` into the part that called it
            calls.append(Call(here, caller, "(return)"))

    def click_path(self, handler: str) -> list[Call]:
        """The calls of the task that ran ``handler`` (the spot button's ``act``)."""
        for task, functions in self.functions.items():
            if handler in functions:
                return self.calls[task]
        raise AssertionError(f"no task ran {handler}")


@dataclass
class Figures:
    hops: int
    entries: dict[str, int]
    row_reads: int
    path: list[str]
    background_hops: int
    show_to_service: int
    """Calls from the show side into the service, on every task while tracing."""


def figures(trace: Trace, path: list[Call]) -> Figures:
    hops = [c for c in path if c.caller is not None]
    entries = Counter(c.callee for c in hops)
    # The library calling the button enters the first part.
    entries.update(c.callee for c in path if c.caller is None)
    background = sum(
        1
        for calls in trace.calls.values()
        if calls is not path
        for c in calls
        if c.caller is not None
    )

    def sequence() -> Iterator[str]:
        for c in path:
            yield f"{c.caller or 'discord.py'} -> {c.callee}.{c.function}"

    return Figures(
        hops=len(hops),
        entries=dict(entries.most_common()),
        row_reads=sum(1 for c in path if c.function == "get_table" and c.callee == "store"),
        path=list(sequence()),
        background_hops=background,
        show_to_service=sum(
            1
            for calls in trace.calls.values()
            for c in calls
            if c.caller == "show" and c.callee == "service" and c.function != "(return)"
        ),
    )


async def measure() -> Figures:
    with tempfile.TemporaryDirectory() as tmp:
        config = Config(
            token=DEFAULT_TOKEN,
            database_url=f"sqlite:///{Path(tmp) / 'hops.db'}",
            test_mode=True,
            timer_interval_s=0.05,
            ai_time_budget_s=0.05,
            ai_node_limit=2000,
            seed=SEED,
        )
        async with running_world() as world:
            runner = InProcessBot(world.fake, Bot(config))
            await runner.start()
            try:
                driver = TableDriver(world.fake, world.games, {u.id: u for u in world.users})
                users = list(driver.users.values())[:3]
                await driver.open(users[0], *users[1:])
                game = await driver.start(users[0])
                uid = driver.decider(game)
                assert uid is not None, "the first decision is a person's"
                user = driver.users[uid]
                hand = await driver.hand_for(user, game, turn=True)
                before = len(hand.revisions)
                ix = await driver.click(user, hand, driver.tile_labels(hand)[0])
                screen = await driver.screen_after(hand, before, "the spot step", ix)
                await asyncio.sleep(0.5)  # the tile click's background work is done
                trace = Trace()
                sys.setprofile(trace.hook)
                try:
                    await driver.click_spot(user, screen, "A")
                    await asyncio.sleep(0.5)  # background work the click started
                finally:
                    sys.setprofile(None)
                return figures(trace, trace.click_path("SpotButton.act"))
            finally:
                await runner.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--path", action="store_true", help="print the module entries in order")
    args = parser.parse_args()
    f = asyncio.run(measure())
    print(f"hops on the spot click's path: {f.hops}")
    print(f"table row reads on it: {f.row_reads}")
    print("entries per part: " + ", ".join(f"{m} {n}" for m, n in f.entries.items()))
    print(f"hops in background tasks meanwhile: {f.background_hops}")
    print(f"calls from the show side into the service, all tasks: {f.show_to_service}")
    if args.path:
        print("\n".join(f.path))


if __name__ == "__main__":
    main()
