"""The PostgreSQL store's settings, read and checked without asyncpg (so a wrong value is reported
the same way whether or not the ``postgres`` extra is installed): the pool and timeouts, and the
database URL's secrets, which no message or log line ever shows (:func:`safe_url`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote, unquote

#: Parameters of a PostgreSQL URL whose values are secret (libpq's and asyncpg's names).
SECRET_PARAMS = frozenset({"password", "sslpassword"})

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


def _userinfo_end(rest: str) -> int:
    """Where the user part of a URL's text after ``://`` ends: its last ``@`` (a password
    someone did not percent-encode may hold ``@``, ``/``, ``?`` or ``#``), or -1."""
    return rest.rfind("@")


def url_secrets(url: str) -> list[str]:
    """The secrets a database URL holds: the password of its user part and the values of its
    ``password`` / ``sslpassword`` parameters, each as written and percent-decoded.

    >>> url_secrets("postgresql://bot:s3cr%40t@db/fp?sslpassword=k3y")
    ['s3cr%40t', 's3cr@t', 'k3y']
    """
    _, sep, rest = url.partition("://")
    if not sep:
        return []
    found: list[str] = []
    at = _userinfo_end(rest)
    if at >= 0:
        _, colon, password = rest[:at].partition(":")
        if colon and password:
            found.append(password)
        rest = rest[at + 1 :]
    for item in rest.partition("?")[2].split("&"):
        key, eq, value = item.partition("=")
        if eq and value and unquote(key).lower() in SECRET_PARAMS:
            found.append(value)
    out: list[str] = []
    for value in found:
        for form in (value, unquote(value), quote(unquote(value), safe="")):
            if form not in out:
                out.append(form)
    return out


def safe_url(url: str) -> str:
    """A database URL as messages and logs show it: its password (in the user part or as a
    parameter) replaced by ``***``; anything else as written.

    >>> safe_url("postgresql://bot:s3cret@db:5432/fp")
    'postgresql://bot:***@db:5432/fp'
    >>> safe_url("postgresql:///fp?host=/run/postgresql&user=bot&password=s3cret")
    'postgresql:///fp?host=/run/postgresql&user=bot&password=***'
    >>> safe_url("postgresql://bot:p@ss/w?rd@db/fp")  # not percent-encoded
    'postgresql://bot:***@db/fp'
    """
    head, sep, rest = url.partition("://")
    if not sep:
        return url
    at = _userinfo_end(rest)
    if at >= 0:
        user, colon, _ = rest[:at].partition(":")
        if colon:
            rest = f"{user}:***@{rest[at + 1 :]}"
    path, question, query = rest.partition("?")
    if question:
        items = []
        for item in query.split("&"):
            key, eq, _ = item.partition("=")
            items.append(f"{key}=***" if eq and unquote(key).lower() in SECRET_PARAMS else item)
        rest = f"{path}?{'&'.join(items)}"
    return head + sep + rest
