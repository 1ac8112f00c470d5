"""Errors posted to the operator's webhook (``ERROR_WEBHOOK_URL``): at most one post per
interval with a count of the rest, and never a player's hand."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from bot.alerts import WebhookReporter
from tests.bot.test_startup import webhook

log = logging.getLogger("bot.cogs.tables")


async def until(condition: Callable[[], bool]) -> None:
    async with asyncio.timeout(10):
        while not condition():
            await asyncio.sleep(0.01)


async def test_a_burst_of_errors_makes_one_post_and_then_one_count_of_the_rest() -> None:
    async with webhook() as hook:
        reporter = WebhookReporter(hook.url, interval_s=0.5)
        log.addHandler(reporter)
        reporter.start()
        try:
            log.error("table %d: could not edit the board", 1)
            await until(lambda: len(hook.bodies) == 1)  # the first at once
            for i in range(2, 7):
                log.error("table %d: could not edit the board", i)
            log.warning("a warning is not posted")
            await until(lambda: len(hook.bodies) == 2)  # the rest after the interval, as one
        finally:
            await reporter.stop()
            log.removeHandler(reporter)
    contents = [str(body["content"]) for body in hook.bodies]
    assert len(contents) == 2, contents
    assert contents[0] == "**ERROR** `bot.cogs.tables`: table 1: could not edit the board"
    assert contents[1].startswith("5 errors since the last post; the latest:")
    assert contents[1].endswith("table 6: could not edit the board")


async def test_errors_still_waiting_when_the_bot_stops_are_posted_as_one() -> None:
    async with webhook() as hook:
        reporter = WebhookReporter(hook.url, interval_s=3600)
        log.addHandler(reporter)
        reporter.start()
        try:
            log.error("first")
            await until(lambda: len(hook.bodies) == 1)
            log.error("second")
            log.error("third")
        finally:
            await reporter.stop()
            log.removeHandler(reporter)
    contents = [str(body["content"]) for body in hook.bodies]
    assert len(contents) == 2
    assert contents[1].startswith("2 errors since the last post") and contents[1].endswith("third")
    assert all(body["allowed_mentions"] == {"parse": []} for body in hook.bodies)


async def test_a_post_names_the_exception_but_never_its_text_where_a_hand_may_be() -> None:
    async with webhook() as hook:
        reporter = WebhookReporter(hook.url, interval_s=3600)
        log.addHandler(reporter)
        reporter.start()
        try:
            try:
                raise ValueError("alice holds 3 red, 5 blue, the curse")
            except ValueError:
                log.exception("move of table %d failed", 7)
        finally:
            await reporter.stop()
            log.removeHandler(reporter)
    (body,) = hook.bodies
    content = str(body["content"])
    assert content.startswith("**ERROR** `bot.cogs.tables`: move of table 7 failed\nValueError at ")
    assert "test_alerts.py" in content
    assert "alice" not in content and "red" not in content and "curse" not in content


async def test_a_webhook_that_fails_is_noted_and_changes_nothing() -> None:
    reporter = WebhookReporter("http://127.0.0.1:9/api/webhooks/1/x", interval_s=3600)
    log.addHandler(reporter)
    reporter.start()
    try:
        log.error("first")
    finally:
        await reporter.stop()
        log.removeHandler(reporter)
    assert reporter.posted == 0
