"""Optional emulation of Discord's rate limits (off by default, for speed).

When enabled the fake enforces a global budget (50 requests per second by default) on every
route except interaction endpoints, and per-route buckets keyed by their major parameters
(channel, guild, webhook/interaction token), answering with the same ``X-RateLimit-*`` headers
as Discord so discord.py's own bucket handling is exercised.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field

from .errors import DiscordError


@dataclass(frozen=True)
class BucketRule:
    """``limit`` requests per ``per`` seconds; rules with the same ``shared`` name count in one
    bucket (per major parameter), reported with one ``X-RateLimit-Bucket``."""

    limit: int
    per: float
    shared: str | None = None


CHANNEL_MESSAGES = BucketRule(5, 5.0, shared="channel messages")
"""One bucket per channel for creating and editing messages: 5 per 5 seconds."""


def default_route_rules() -> dict[str, BucketRule]:
    """Per-route budgets close to what Discord gives a bot (message creation and edits share
    5 per 5 s per channel, deletes 5 per second, followup traffic 5 per 2 s per token; other
    routes fall back to ``RateLimitConfig.default``)."""
    return {
        "POST /channels/{channel_id}/messages": CHANNEL_MESSAGES,
        "PATCH /channels/{channel_id}/messages/{message_id}": CHANNEL_MESSAGES,
        "DELETE /channels/{channel_id}/messages/{message_id}": BucketRule(5, 1.0),
        "POST /webhooks/{application_id}/{token}": BucketRule(5, 2.0),
        "PATCH /webhooks/{application_id}/{token}/messages/{message_id}": BucketRule(5, 2.0),
        "DELETE /webhooks/{application_id}/{token}/messages/{message_id}": BucketRule(5, 2.0),
    }


@dataclass
class RateLimitConfig:
    """Knobs of the rate-limit emulation."""

    global_limit: int = 50
    global_per: float = 1.0
    routes: dict[str, BucketRule] = field(default_factory=default_route_rules)
    #: Budget of every other route (``None``: no per-route limit, only the global one).
    default: BucketRule | None = BucketRule(50, 1.0)
    #: Route prefixes exempt from the global limit (Discord exempts interaction endpoints).
    global_exempt: tuple[str, ...] = ("/interactions/", "/webhooks/{application_id}/{token}")


MAJOR_PARAMETERS = ("channel_id", "guild_id", "application_id", "token", "interaction_id")


@dataclass
class _Window:
    count: int = 0
    reset_at: float = 0.0


@dataclass
class RateLimitHit:
    """A request the emulation refused with 429."""

    route: str
    is_global: bool
    retry_after: float
    at: float


class RateLimiter:
    """Counts requests in fixed windows and refuses those over budget."""

    def __init__(self, config: RateLimitConfig) -> None:
        self.config = config
        self._global = _Window()
        self._buckets: dict[tuple[str, tuple[str, ...]], _Window] = {}
        self.hits: list[RateLimitHit] = []
        self.requests_counted = 0

    def _rule(self, route: str) -> BucketRule | None:
        return self.config.routes.get(route, self.config.default)

    @staticmethod
    def bucket_hash(route: str) -> str:
        return hashlib.sha1(route.encode()).hexdigest()[:32]

    def check(self, method: str, template: str, match_info: Mapping[str, str]) -> dict[str, str]:
        """Count a request; return the headers to add or raise the 429 to answer."""
        now = time.monotonic()
        route = f"{method} {template}"
        exempt = template.startswith(self.config.global_exempt)
        if not exempt:
            g = self._global
            if now >= g.reset_at:
                g.count, g.reset_at = 0, now + self.config.global_per
            if g.count >= self.config.global_limit:
                retry = round(g.reset_at - now, 3)
                self.hits.append(RateLimitHit(route, True, retry, now))
                raise DiscordError(
                    429,
                    0,
                    "You are being rate limited.",
                    headers={
                        "Retry-After": str(max(1, math.ceil(retry))),
                        "X-RateLimit-Global": "true",
                        "X-RateLimit-Scope": "global",
                    },
                    extra={"retry_after": retry, "global": True},
                )
        rule = self._rule(route)
        headers: dict[str, str] = {}
        if rule is not None:
            major = tuple(match_info.get(k, "") for k in MAJOR_PARAMETERS)
            name = rule.shared or route
            key = (name, major)
            w = self._buckets.setdefault(key, _Window())
            if now >= w.reset_at:
                w.count, w.reset_at = 0, now + rule.per
            reset_after = max(0.0, w.reset_at - now)
            headers = {
                "X-RateLimit-Limit": str(rule.limit),
                "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
                "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                "X-RateLimit-Bucket": self.bucket_hash(name),
            }
            if w.count >= rule.limit:
                headers["X-RateLimit-Remaining"] = "0"
                headers["Retry-After"] = str(max(1, math.ceil(reset_after)))
                headers["X-RateLimit-Scope"] = "user"
                self.hits.append(RateLimitHit(route, False, reset_after, now))
                raise DiscordError(
                    429,
                    0,
                    "You are being rate limited.",
                    headers=headers,
                    extra={"retry_after": round(reset_after, 3), "global": False},
                )
            w.count += 1
            headers["X-RateLimit-Remaining"] = str(rule.limit - w.count)
        if not exempt:
            self._global.count += 1
        self.requests_counted += 1
        return headers
