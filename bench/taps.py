"""Double taps on a player's private screen: is every tap answered in time, and does a second tap
ever make a second move?

A phone's double tap sends one button twice, a moment apart. The first tap's answer changes the
screen (a tile turns it into the spot step, a spot plays the tile and asks its fall, a fall asks
the next fall or closes the decision), so the second tap reaches the bot with the message as it
stands by then: without the tapped button (``--second same``, the person's screen had not changed
yet), or on whatever button took its place (``--second place``, it had).

Each table is dealt the same position (Alice plays yellow 40 on yellow 2 and red 4: too heavy,
she chooses where it falls; then red 10, left on one support of another colour, falls too, and
she chooses again) and Alice decides on the screen in her direct messages, doubling every tap
with the fake Discord's ``double_click``: the tile, then spot A, then the first fall left, then
the second fall left. For each gap between the two taps (0, 0.1 and 0.6 seconds) the report counts
the taps Discord would have shown as failed (not acknowledged within its 3 seconds) and the moves
the second taps made (the table's action log against one move per first tap: none for the tile,
one for the spot, one for each fall). A second move on the first fall is the second fall chosen
by accident: the report counts those apart.

    python bench/taps.py                  # 5 tables per gap, the second tap on the same button
    python bench/taps.py --second place   # the second tap on what took the tapped place
    python bench/taps.py --tables 1       # the size the suite runs
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Literal

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bot.app import Bot  # noqa: E402
from bot.config import Config  # noqa: E402
from tests.e2e.driver import TableDriver, actions, is_spot_step, stored_log  # noqa: E402
from tests.fakediscord import DEFAULT_TOKEN, FakeUser, Interaction, Message  # noqa: E402
from tests.fakediscord.fixtures import World, running_world  # noqa: E402
from tests.fakediscord.runner import InProcessBot  # noqa: E402

GAPS = (0.0, 0.1, 0.6)
Step = Literal["tile", "spot", "fall", "fall 2"]
STEPS: tuple[Step, ...] = ("tile", "spot", "fall", "fall 2")
Second = Literal["same", "place"]
DEADLINE_S = 3.0
"""Discord's time to acknowledge an interaction."""
QUIET_S = 0.3
"""A screen unchanged this long after both taps were answered has had all their edits."""
POSITION = {
    # Alice (seat 0) plays yellow 40 on yellow 2 and red 4: too heavy, she chooses its fall.
    # Red 10 is then left on green 20 alone (another colour): it falls too, her choice again.
    "players": 3,
    "pyramid": {"0,0": "Y2", "0,2": "R4", "0,4": "G20", "1,3": "R10"},
    "hands": [["Y40", "B2"], ["R2", "G2"], ["B4", "Y4"]],
    "piles": [["R20"], ["G30"], ["B10"]],
    "active": 0,
}
EXPECTED_MOVES: dict[Step, int] = {"tile": 0, "spot": 1, "fall": 1, "fall 2": 1}
"""The moves one tap of each step makes."""


@dataclass
class StepCounts:
    """The double taps of one step at one gap."""

    doubled: int = 0
    """Double taps made."""
    taps: int = 0
    """Interactions sent (a second tap on an empty place sends none)."""
    answered: int = 0
    """Acknowledged within Discord's 3 seconds."""
    failed: int = 0
    """Not acknowledged in time: "This interaction failed" under the screen."""
    second_moves: int = 0
    """Moves made besides the first tap's."""
    slowest_ack_s: float = 0.0


@dataclass
class TapCounts:
    """Every step at every gap."""

    second: Second
    tables: int
    steps: dict[str, dict[str, StepCounts]] = field(default_factory=dict)
    """``steps[gap][step]``, the gap written as seconds (``"0.1"``)."""
    not_reached: int = 0
    """Steps not tried because an earlier second tap had already moved the table past them."""

    def at(self, gap: float, step: Step) -> StepCounts:
        return self.steps.setdefault(f"{gap:g}", {}).setdefault(step, StepCounts())

    @property
    def failed(self) -> int:
        return sum(c.failed for g in self.steps.values() for c in g.values())

    @property
    def second_moves(self) -> int:
        return sum(c.second_moves for g in self.steps.values() for c in g.values())

    @property
    def second_falls(self) -> int:
        """Second falls chosen by a double tap on the first: moves the second taps made there."""
        return sum(g["fall"].second_moves for g in self.steps.values() if "fall" in g)


def answered_or_failed(ix: Interaction) -> bool:
    return ix.acknowledged or ix.failed


async def quiet(driver: TableDriver, screen: Message, taps: list[Interaction]) -> None:
    """Until every tap was answered (or failed) and ``screen`` stayed unchanged a moment."""
    fake = driver.fake
    for ix in taps:
        await fake.wait_for(partial(answered_or_failed, ix), 10, "an answer")
    while True:
        await fake.wait_for(lambda: screen.settled, 10, "the screen's edits")
        seen = len(screen.revisions)
        await asyncio.sleep(QUIET_S)
        if len(screen.revisions) == seen and screen.settled:
            return


def target(driver: TableDriver, screen: Message, step: Step) -> str | None:
    """The custom id the first tap of ``step`` presses on ``screen``; None if the screen does
    not offer that step (an earlier second tap moved it on)."""
    wanted = {"tile": "play", "spot": "spot", "fall": "fall", "fall 2": "fall"}[step]
    if step == "tile" and is_spot_step(screen):
        return None
    if step == "spot":
        return driver.spot_button(screen, "A") if is_spot_step(screen) else None
    for b in screen.buttons():
        cid = str(b.get("custom_id") or "")
        if cid.startswith("fp:") and cid.split(":")[3] == wanted and not b.get("disabled"):
            return cid
    return None


async def one_table(
    world: World, db_url: str, number: int, gap: float, second: Second, counts: TapCounts
) -> None:
    fake = world.fake
    alice: FakeUser = world.alice
    channel = fake.create_text_channel(world.guild, f"taps-{number}")
    driver = TableDriver(fake, channel, {u.id: u for u in world.users})
    await driver.open(alice, world.bob, world.carol)
    game = await driver.start(alice)
    table_id = driver.table_id()
    screen = await driver.hand_for(alice, game, turn=True)
    for step in STEPS:
        if "fall" in actions(screen) and not step.startswith("fall"):
            counts.not_reached += 1  # the fall is asked already: an earlier tap played the tile
            continue
        cid = target(driver, screen, step)
        if cid is None:
            counts.not_reached += 1
            continue
        c = counts.at(gap, step)
        before = len(await stored_log(db_url, table_id))
        first, again = await alice.double_click(screen, custom_id=cid, gap=gap, second=second)
        taps = [first] if again is None else [first, again]
        await quiet(driver, screen, taps)
        made = len(await stored_log(db_url, table_id)) - before
        c.doubled += 1
        c.taps += len(taps)
        c.answered += sum(
            1 for ix in taps if ix.acknowledged and (ix.ack_latency or 0) <= DEADLINE_S
        )
        c.failed += sum(1 for ix in taps if not ix.acknowledged or ix.failed)
        c.slowest_ack_s = max(c.slowest_ack_s, *(ix.ack_latency or 0.0 for ix in taps))
        c.second_moves += max(0, made - EXPECTED_MOVES[step])


async def measure(tables: int = 5, second: Second = "same") -> TapCounts:
    counts = TapCounts(second=second, tables=tables)
    with tempfile.TemporaryDirectory() as tmp:
        state = Path(tmp) / "state.json"
        state.write_text(json.dumps(POSITION))
        db_url = f"sqlite:///{Path(tmp) / 'taps.db'}"
        config = Config(
            token=DEFAULT_TOKEN,
            database_url=db_url,
            test_mode=True,
            timer_interval_s=0.05,
            ai_time_budget_s=0.05,
            ai_node_limit=2000,
            test_state_file=str(state),
        )
        async with running_world() as world:
            runner = InProcessBot(world.fake, Bot(config))
            await runner.start()
            try:
                number = 0
                for gap in GAPS:
                    for _ in range(tables):
                        number += 1
                        await one_table(world, db_url, number, gap, second, counts)
            finally:
                await runner.stop()
    return counts


def report(c: TapCounts) -> str:
    lines = [
        f"double taps, second tap on the {'same button' if c.second == 'same' else 'same place'}"
        f", {c.tables} table(s) per gap",
        "gap s  step    doubled  taps  answered  failed  second moves  slowest ack s",
    ]
    for gap, steps in c.steps.items():
        for step, s in steps.items():
            lines.append(
                f"{gap:>5}  {step:<6}  {s.doubled:7d}  {s.taps:4d}  {s.answered:8d}  {s.failed:6d}"
                f"  {s.second_moves:12d}  {s.slowest_ack_s:13.2f}"
            )
    lines.append(
        f"in all: {c.failed} failed, {c.second_moves} second moves ({c.second_falls} of them a "
        f"second fall chosen by a double tap on the first), {c.not_reached} steps not reached "
        "(an earlier second tap had moved the table past them)"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=5, help="tables per gap (default 5)")
    parser.add_argument("--second", choices=("same", "place"), default="same")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    counts = asyncio.run(measure(args.tables, args.second))
    figures = {**asdict(counts), "second_falls": counts.second_falls}
    print(json.dumps(figures) if args.json else report(counts))


if __name__ == "__main__":
    main()
