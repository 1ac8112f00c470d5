"""Errors posted to the operator's webhook (``ERROR_WEBHOOK_URL``) through Discord's webhook API
(here the fake Discord's): at most one post per interval with a count of the rest, a 429 waited
out, and never a player's hand or a secret."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from bot.alerts import WebhookReporter
from bot.redact import Redactor
from tests.alerts import EXECUTE, AlertChannel, alert_channel

log = logging.getLogger("bot.cogs.tables")


async def until(condition: Callable[[], bool]) -> None:
    async with asyncio.timeout(10):
        while not condition():
            await asyncio.sleep(0.01)


def reporting(alerts: AlertChannel, interval_s: float, **options: object) -> WebhookReporter:
    reporter = WebhookReporter(alerts.url, interval_s=interval_s, **options)  # type: ignore[arg-type]
    log.addHandler(reporter)
    reporter.start()
    return reporter


async def stop(reporter: WebhookReporter) -> None:
    await reporter.stop()
    log.removeHandler(reporter)


async def test_a_burst_of_errors_makes_one_post_and_then_one_count_of_the_rest() -> None:
    async with alert_channel() as alerts:
        reporter = reporting(alerts, 0.5)
        try:
            log.error("table %d: could not edit the board", 1)
            await until(lambda: len(alerts.contents) == 1)  # the first at once
            for i in range(2, 7):
                log.error("table %d: could not edit the board", i)
            log.warning("a warning is not posted")
            await until(lambda: len(alerts.contents) == 2)  # the rest after the interval, as one
        finally:
            await stop(reporter)
        contents = alerts.contents
        authors = {m.author.username for m in alerts.world.fake.messages(alerts.world.general)}
    assert len(contents) == 2, contents
    assert contents[0] == "**ERROR** `bot.cogs.tables`: table 1: could not edit the board"
    assert contents[1].startswith("5 errors since the last post; the latest:")
    assert contents[1].endswith("table 6: could not edit the board")
    assert authors == {"Flaming Pyramids"}


async def test_errors_still_waiting_when_the_bot_stops_are_posted_as_one() -> None:
    async with alert_channel() as alerts:
        reporter = reporting(alerts, 3600)
        try:
            log.error("first")
            await until(lambda: len(alerts.contents) == 1)
            log.error("second")
            log.error("third")
        finally:
            await stop(reporter)
        contents, bodies = alerts.contents, alerts.bodies
    assert len(contents) == 2
    assert contents[1].startswith("2 errors since the last post") and contents[1].endswith("third")
    assert all(body["allowed_mentions"] == {"parse": []} for body in bodies)


async def test_a_post_names_the_exception_but_never_its_text_where_a_hand_may_be() -> None:
    async with alert_channel() as alerts:
        reporter = reporting(alerts, 3600)
        try:
            try:
                raise ValueError("alice holds 3 red, 5 blue, the curse")
            except ValueError:
                log.exception("move of table %d failed", 7)
        finally:
            await stop(reporter)
        (content,) = alerts.contents
    assert content.startswith("**ERROR** `bot.cogs.tables`: move of table 7 failed\nValueError at ")
    assert "test_alerts.py" in content
    assert "alice" not in content and "red" not in content and "curse" not in content


async def test_a_post_never_names_a_tile_nor_a_secret_of_the_settings() -> None:
    """Whatever a message says: the net under the code that never means to."""
    secret = "S3cretPassw0rd"
    redact = Redactor.from_env({"DATABASE_URL": f"postgresql://bot:{secret}@db/fp"})
    async with alert_channel() as alerts:
        reporter = reporting(alerts, 3600, redact=redact)
        try:
            log.error("table 3: tile G100 appears twice (Y40, R4); password %s", secret)
        finally:
            await stop(reporter)
        (content,) = alerts.contents
    assert "G100" not in content and "Y40" not in content and "R4" not in content
    assert secret not in content
    assert content.endswith("tile [a tile] appears twice ([a tile], [a tile]); password ***")


async def test_a_rate_limited_webhook_is_waited_for_as_discord_asks() -> None:
    async with alert_channel() as alerts:
        limit = alerts.world.fake.faults.rate_limit(EXECUTE, retry_after=0.3)
        reporter = reporting(alerts, 3600)
        try:
            log.error("table 2: could not post the move")
            await until(lambda: len(alerts.contents) == 1)
        finally:
            await stop(reporter)
        assert limit.hits == 1
        assert alerts.contents == ["**ERROR** `bot.cogs.tables`: table 2: could not post the move"]
    assert reporter.posted == 1


async def test_a_webhook_that_fails_is_noted_and_changes_nothing() -> None:
    async with alert_channel() as alerts:
        gone = AlertChannel(alerts.world, alerts.world.fake.create_webhook(alerts.world.games))
        alerts.world.fake.state.webhooks.pop(gone.hook.id)  # deleted in Discord since
        reporter = reporting(gone, 3600)
        try:
            log.error("first")
        finally:
            await stop(reporter)
    assert reporter.posted == 0
