"""A tiny bot for the fake's own subprocess tests: ``python -m tests.fakediscord.echo_bot``.

It reads the same environment variables as the real bot (``DISCORD_TOKEN``,
``DISCORD_API_BASE_URL``, ``DISCORD_GATEWAY_URL``) plus ``FAKEDISCORD_GUILD_ID`` (sync the
commands to that guild). ``/fp ping`` answers with a persistent "Count 0" button whose state
lives in its custom id, so a restarted process still handles clicks on old messages.
"""

from __future__ import annotations

import logging
import os
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from tests.fakediscord.runner import point_discord_py_from_env


class CounterButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"echo:count:(?P<n>\d+)"
):
    """A button whose count is in its custom id (survives restarts)."""

    def __init__(self, n: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Count {n}", custom_id=f"echo:count:{n}", style=discord.ButtonStyle.primary
            )
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CounterButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(self.n + 1))
        await interaction.response.edit_message(
            content=f"count={self.n + 1} pid={os.getpid()}", view=view
        )


class EchoBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            guild_ready_timeout=0.05,
        )

    async def setup_hook(self) -> None:
        self.add_dynamic_items(CounterButton)
        group = app_commands.Group(name="fp", description="Flaming Pyramids (echo bot)")

        @group.command(name="ping", description="Answer with a persistent counter button")
        async def ping(interaction: discord.Interaction) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(CounterButton(0))
            await interaction.response.send_message(f"pong pid={os.getpid()}", view=view)

        self.tree.add_command(group)
        guild_id = os.environ.get("FAKEDISCORD_GUILD_ID")
        if guild_id:
            guild = discord.Object(int(guild_id))
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None


def main() -> None:
    point_discord_py_from_env()
    EchoBot().run(os.environ["DISCORD_TOKEN"], log_level=logging.INFO)


if __name__ == "__main__":
    main()
