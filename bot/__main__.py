"""``python -m bot``: run the Flaming Pyramids bot with the configuration from the environment."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys

import discord

from bot.config import Config, ConfigError, apply_endpoints, load_config
from data.store import StoreError

log = logging.getLogger("bot")


def setup_logging(level: str) -> None:
    logging.basicConfig(
        level=level, format="%(asctime)s %(levelname)-7s %(name)s: %(message)s", stream=sys.stderr
    )
    if level != "DEBUG":
        logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLevelName(level)))
        logging.getLogger("discord.gateway").setLevel(logging.WARNING)


async def run(config: Config) -> None:
    """Start the bot and run until it is stopped (SIGINT / SIGTERM close it cleanly)."""
    from bot.app import Bot

    bot = Bot(config)
    # Before connecting to Discord: a database that is damaged, newer than this code or locked
    # stops the bot here, with one line that says why (see main).
    await bot.store.open()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
    async with bot:
        await bot.start(config.token)


def main() -> int:
    try:
        config = load_config()
    except ConfigError as err:
        print(f"flaming pyramids bot: {err}", file=sys.stderr)
        print("See .env.example for every setting.", file=sys.stderr)
        return 2
    setup_logging(config.log_level)
    apply_endpoints(config)
    if config.test_mode:
        log.warning("FP_TEST_MODE is on: test-only settings are honoured")
    try:
        asyncio.run(run(config))
    except discord.LoginFailure:
        log.error("Discord refused the token: check DISCORD_TOKEN (see .env.example)")
        return 1
    except StoreError as err:
        print(f"flaming pyramids bot: cannot use the database: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
