"""REST faults injected on demand: 429s, 5xx, arbitrary error codes, dropped connections,
latency, and requests held until the test lets them go.

Routes are named the way discord.py's ``Route`` names them, with the method first, e.g.
``"POST /channels/{channel_id}/messages"`` or
``"POST /interactions/{interaction_id}/{token}/callback"``. ``None`` matches every route.
Gateway faults (RECONNECT, INVALID_SESSION, abrupt close, zombie) live on
:class:`~tests.fakediscord.gateway.Gateway`.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from .errors import DiscordError

#: HTTP header every Discord response carries; discord.py treats a 429 without it as a ban.
VIA = "1.1 google"


@dataclass
class Fault:
    """One injected fault; ``times`` is how many more requests it hits (``None``: forever)."""

    kind: str
    route: str | None
    params: dict[str, str]
    times: int | None
    status: int = 500
    code: int = 0
    message: str = "500: Internal Server Error"
    retry_after: float = 0.25
    is_global: bool = False
    scope: str = "user"
    seconds: float = 0.0
    where: Callable[[Mapping[str, str]], bool] | None = None
    hits: int = 0
    released: asyncio.Event | None = None
    """A ``hold``'s: set once the test lets the requests it holds go on."""

    @property
    def active(self) -> bool:
        return self.times is None or self.times > 0

    def matches(self, method: str, template: str, match_info: Mapping[str, str]) -> bool:
        if not self.active:
            return False
        if self.route is not None:
            r_method, _, r_path = self.route.partition(" ")
            if not r_path:
                r_method, r_path = "*", r_method
            if r_method != "*" and r_method.upper() != method:
                return False
            if r_path != template:
                return False
        for key, value in self.params.items():
            if match_info.get(key) != value:
                return False
        return self.where is None or self.where(match_info)

    def release(self) -> None:
        """Let the requests this ``hold`` holds go on (and the ones it would still catch)."""
        if self.released is None:
            raise ValueError(f"a {self.kind} fault holds nothing")
        self.released.set()
        self.times = 0

    def consume(self) -> None:
        self.hits += 1
        if self.times is not None:
            self.times -= 1

    def to_error(self) -> DiscordError:
        """The error response this fault produces."""
        if self.kind == "rate_limit":
            headers = {
                "Retry-After": str(max(1, math.ceil(self.retry_after))),
                "X-RateLimit-Scope": "global" if self.is_global else self.scope,
            }
            if self.is_global:
                headers["X-RateLimit-Global"] = "true"
            else:
                reset = time.time() + self.retry_after
                headers.update(
                    {
                        "X-RateLimit-Limit": "5",
                        "X-RateLimit-Remaining": "0",
                        "X-RateLimit-Reset": f"{reset:.3f}",
                        "X-RateLimit-Reset-After": f"{self.retry_after:.3f}",
                        "X-RateLimit-Bucket": "fakediscordinjected",
                    }
                )
            return DiscordError(
                429,
                0,
                "You are being rate limited.",
                headers=headers,
                extra={"retry_after": self.retry_after, "global": self.is_global},
            )
        return DiscordError(self.status, self.code, self.message)


def _params(params: Mapping[str, object]) -> dict[str, str]:
    return {k: str(getattr(v, "id", v)) for k, v in params.items()}


@dataclass
class Faults:
    """The set of REST faults currently armed. Create them with the helper methods."""

    known_routes: set[str] = field(default_factory=set)
    faults: list[Fault] = field(default_factory=list)

    def _check_route(self, route: str | None) -> None:
        if route is None or not self.known_routes:
            return
        method, _, path = route.partition(" ")
        if not path:
            method, path = "*", method
        candidates = [r for r in self.known_routes if r.split(" ", 1)[1] == path]
        if method != "*":
            candidates = [r for r in candidates if r.split(" ", 1)[0] == method.upper()]
        if not candidates:
            known = "\n  ".join(sorted(self.known_routes))
            raise ValueError(f"unknown route {route!r}; the fake serves:\n  {known}")

    def _add(self, fault: Fault) -> Fault:
        self._check_route(fault.route)
        self.faults.append(fault)
        return fault

    def rate_limit(
        self,
        route: str | None = None,
        *,
        times: int | None = 1,
        retry_after: float = 0.25,
        is_global: bool = False,
        scope: str = "user",
        where: Callable[[Mapping[str, str]], bool] | None = None,
        **params: object,
    ) -> Fault:
        """Answer 429 to the next ``times`` matching requests (``is_global`` for a global limit).

        ``params`` restrict the match to path parameters, e.g. ``channel_id=games.id``.
        """
        return self._add(
            Fault(
                "rate_limit",
                route,
                _params(params),
                times,
                status=429,
                retry_after=retry_after,
                is_global=is_global,
                scope=scope,
                where=where,
            )
        )

    def server_error(
        self,
        route: str | None = None,
        *,
        times: int | None = 1,
        status: int = 500,
        where: Callable[[Mapping[str, str]], bool] | None = None,
        **params: object,
    ) -> Fault:
        """Answer a 5xx (500 by default; discord.py retries 500, 502, 504 and 524)."""
        messages = {
            500: "500: Internal Server Error",
            502: "502: Bad Gateway",
            503: "503: Service Unavailable",
        }
        return self._add(
            Fault(
                "error",
                route,
                _params(params),
                times,
                status=status,
                message=messages.get(status, f"{status}: Server Error"),
                where=where,
            )
        )

    def error(
        self,
        route: str | None,
        *,
        status: int,
        code: int,
        message: str,
        times: int | None = 1,
        where: Callable[[Mapping[str, str]], bool] | None = None,
        **params: object,
    ) -> Fault:
        """Answer an arbitrary Discord JSON error, e.g. ``status=403, code=50013``."""
        return self._add(
            Fault(
                "error",
                route,
                _params(params),
                times,
                status=status,
                code=code,
                message=message,
                where=where,
            )
        )

    def disconnect(
        self,
        route: str | None,
        *,
        times: int | None = 1,
        where: Callable[[Mapping[str, str]], bool] | None = None,
        **params: object,
    ) -> Fault:
        """Drop the connection of matching requests without an answer (a network failure: the
        client cannot know whether the request was carried out; here it never is)."""
        return self._add(Fault("disconnect", route, _params(params), times, where=where))

    def delay(
        self,
        route: str | None,
        seconds: float,
        *,
        times: int | None = 1,
        where: Callable[[Mapping[str, str]], bool] | None = None,
        **params: object,
    ) -> Fault:
        """Hold matching requests for ``seconds`` before handling them (latency injection)."""
        return self._add(
            Fault("delay", route, _params(params), times, seconds=seconds, where=where)
        )

    def hold(
        self,
        route: str | None,
        *,
        times: int | None = 1,
        where: Callable[[Mapping[str, str]], bool] | None = None,
        **params: object,
    ) -> Fault:
        """Hold matching requests, unanswered, until ``fault.release()``: a request whose answer
        comes exactly when the test has set the world up around it (latency of a length the
        test decides). They are handled as usual once released."""
        return self._add(
            Fault("hold", route, _params(params), times, where=where, released=asyncio.Event())
        )

    def clear(self) -> None:
        """Disarm every fault."""
        self.faults.clear()

    def take(
        self, method: str, template: str, match_info: Mapping[str, str]
    ) -> tuple[float, list[asyncio.Event], Fault | None]:
        """Consume the faults matching a request: total delay, what it waits for to be released,
        and the failing fault if any."""
        delay = 0.0
        holds: list[asyncio.Event] = []
        failing: Fault | None = None
        for fault in self.faults:
            if not fault.matches(method, template, match_info):
                continue
            if fault.kind == "delay":
                fault.consume()
                delay += fault.seconds
            elif fault.kind == "hold" and fault.released is not None:
                fault.consume()
                holds.append(fault.released)
            elif failing is None:
                fault.consume()
                failing = fault
        self.faults = [f for f in self.faults if f.active]
        return delay, holds, failing

    def armed(self) -> Iterable[Fault]:
        return [f for f in self.faults if f.active]
