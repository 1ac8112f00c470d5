"""A local fake Discord (REST API v10 + gateway) for end-to-end tests of the real bot.

See README.md in this folder for the API. The main entry points:

- :class:`FakeDiscord` - the server, its state and fault injection;
- :class:`FakeUser` - act as a person (slash commands, clicks by label, DMs, pictures);
- :func:`point_discord_py_at`, :class:`InProcessBot`, :class:`BotProcess` - run a bot on it;
- ``tests.fakediscord.fixtures`` - pytest fixtures with a ready-made world.
"""

from .errors import (
    BotNotConnected,
    CommandNotSynced,
    CommandUsageError,
    ComponentDisabled,
    ComponentNotFound,
    DiscordError,
    FakeUserError,
    MessageNotVisible,
    ThreadArchived,
)
from .gateway import Sharding, shard_of
from .models import (
    DEFAULT_BOT_PERMISSIONS,
    Account,
    Attachment,
    CallbackType,
    Channel,
    Guild,
    Interaction,
    InteractionFailed,
    InteractionType,
    Message,
    MessageFlag,
    Perm,
    Revision,
    Role,
    Webhook,
)
from .ratelimit import BucketRule, RateLimitConfig
from .runner import (
    BotProcess,
    InProcessBot,
    configure_for_tests,
    point_discord_py_at,
    point_discord_py_from_env,
)
from .server import DEFAULT_TOKEN, FakeDiscord
from .users import FakeUser

__all__ = [
    "DEFAULT_BOT_PERMISSIONS",
    "DEFAULT_TOKEN",
    "Account",
    "Attachment",
    "BotNotConnected",
    "BotProcess",
    "BucketRule",
    "CallbackType",
    "Channel",
    "CommandNotSynced",
    "CommandUsageError",
    "ComponentDisabled",
    "ComponentNotFound",
    "DiscordError",
    "FakeDiscord",
    "FakeUser",
    "FakeUserError",
    "Guild",
    "InProcessBot",
    "Interaction",
    "InteractionFailed",
    "InteractionType",
    "Message",
    "MessageFlag",
    "MessageNotVisible",
    "Perm",
    "RateLimitConfig",
    "Revision",
    "Role",
    "Sharding",
    "ThreadArchived",
    "Webhook",
    "configure_for_tests",
    "point_discord_py_at",
    "point_discord_py_from_env",
    "shard_of",
]
