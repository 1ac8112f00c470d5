"""Discord's global limit (50 requests a second per bot token): the bot paces every REST call
that counts against it, so a burst of games starting at once gets no global 429."""

from __future__ import annotations

import asyncio

from bot import budget
from tests.fakediscord.fixtures import World

from .conftest import MakeBot
from .driver import TIMEOUT, TableDriver, is_game_message


async def test_sixteen_tables_starting_at_once_stay_under_the_global_limit(
    world: World, run_bot: MakeBot
) -> None:
    fake = world.fake
    limiter = fake.enable_rate_limits()
    bot = await run_bot()
    players = (world.alice, world.bob, world.carol)
    tables = [
        TableDriver(
            fake,
            fake.create_text_channel(world.guild, f"burst-{i}"),
            {u.id: u for u in world.users},
        )
        for i in range(16)
    ]
    lobbies = await asyncio.gather(*(t.open(*players) for t in tables))
    # Every host presses Start at the same moment: 16 threads, 16 first pictures, 16 screens.
    await asyncio.gather(*(world.alice.click(lobby, "Start") for lobby in lobbies))
    for t in tables:
        await fake.wait_for(
            lambda t=t: any(is_game_message(m) for m in t.bot_messages()),
            TIMEOUT * 4,
            "every first picture",
        )
    # Each table's first player gets the screen of their turn (the others, nothing yet).
    await fake.wait_for(
        lambda: sum(len([m for m in u.dms() if m.images()]) for u in players) == 16,
        TIMEOUT * 4,
        "every first screen",
    )
    await asyncio.sleep(0.5)  # the last edits land
    # Every call that counts against the global limit waited for the bot's budget, which
    # stays under Discord's limit: no global 429.
    exempt = limiter.config.global_exempt
    counted = [r for r in fake.requests if not r.route.split(" ", 1)[1].startswith(exempt)]
    assert len(counted) > 60  # the burst was big enough to need pacing
    # (a call answered 429 by a per-route bucket is sent again by discord.py itself)
    assert bot.budget.granted + len(limiter.hits) == len(counted)
    assert [h for h in limiter.hits if h.is_global] == []
    assert limiter.config.global_limit > budget.GLOBAL_RATE
