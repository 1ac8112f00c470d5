"""The operator's alert channel on the fake Discord: a channel with an incoming webhook, the one
``ERROR_WEBHOOK_URL`` names, and what the bot posted through it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from tests.fakediscord import Webhook, point_discord_py_at
from tests.fakediscord.fixtures import World, running_world

EXECUTE = "POST /webhooks/{application_id}/{token}"


@dataclass
class AlertChannel:
    """#general of a fake world, with the webhook the operator made for the bot's errors."""

    world: World
    hook: Webhook

    @classmethod
    def of(cls, world: World) -> AlertChannel:
        """An alert webhook in ``world``'s #general; discord.py in this process is pointed at
        the world's fake Discord (where ``discord.Webhook`` posts)."""
        point_discord_py_at(world.fake.base_url, world.fake.gateway_url)
        return cls(world, world.fake.create_webhook(world.general, "Alerts"))

    @property
    def url(self) -> str:
        return self.hook.url(self.world.fake.base_url)

    def env(self) -> dict[str, str]:
        """The settings of a bot process that posts its errors here (test mode: the webhook's
        URL is the fake's)."""
        return {**self.world.fake.env(), "ERROR_WEBHOOK_URL": self.url, "FP_TEST_MODE": "1"}

    @property
    def contents(self) -> list[str]:
        """What was posted, oldest first."""
        posted = self.world.fake.messages(self.world.general)
        return [m.content for m in reversed(posted) if m.webhook_id == self.hook.id]

    @property
    def bodies(self) -> list[dict[str, Any]]:
        """The bodies of the posts Discord took, oldest first."""
        posts = self.world.fake.requests_to(EXECUTE)
        return [r.body for r in posts if r.ok and isinstance(r.body, dict)]


@asynccontextmanager
async def alert_channel() -> AsyncIterator[AlertChannel]:
    """A fake Discord of its own with an alert channel."""
    async with running_world() as world:
        yield AlertChannel.of(world)
