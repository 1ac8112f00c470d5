"""The PostgreSQL store's pool and timeout settings, read and checked without asyncpg (so a
wrong value is reported the same way whether or not the ``postgres`` extra is installed)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Connections each process keeps open at least / opens at most; seconds a statement may take;
#: seconds to wait for a database that went away.
POOL_MIN, POOL_MAX, TIMEOUT_S, RETRY_S = 2, 10, 30.0, 15.0


def postgres_settings(env: Mapping[str, str]) -> dict[str, Any]:
    """The PostgreSQL store's pool and timeout settings from the environment:
    ``DATABASE_POOL_MIN`` / ``DATABASE_POOL_MAX`` (connections per process), ``DATABASE_TIMEOUT``
    (seconds a statement may take) and ``DATABASE_RETRY`` (seconds to wait for a database that
    went away). Unset or empty: the defaults. Raises ValueError for a value that is not a
    number, or pool sizes that do not fit.

    >>> postgres_settings({"DATABASE_POOL_MAX": "20"})["pool_max"]
    20
    """

    def number(name: str, default: float, kind: type[int] | type[float]) -> Any:
        text = env.get(name, "").strip()
        if not text:
            return default
        try:
            value = kind(text)
        except ValueError:
            raise ValueError(f"{name} must be a number, not {text!r}") from None
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{name} must be a number, not {text!r}")
        if value < 0:
            raise ValueError(f"{name} must not be negative, not {text!r}")
        return value

    pool_max = number("DATABASE_POOL_MAX", POOL_MAX, int)
    if pool_max < 1:
        raise ValueError("DATABASE_POOL_MAX must be at least 1")
    pool_min = number("DATABASE_POOL_MIN", min(POOL_MIN, pool_max), int)
    if pool_min > pool_max:
        raise ValueError("DATABASE_POOL_MIN must not be above DATABASE_POOL_MAX")
    return {
        "pool_min": pool_min,
        "pool_max": pool_max,
        "timeout_s": number("DATABASE_TIMEOUT", TIMEOUT_S, float),
        "retry_s": number("DATABASE_RETRY", RETRY_S, float),
    }
