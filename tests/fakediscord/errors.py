"""Errors: those the fake answers to the bot (Discord JSON errors) and those it raises in tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class DiscordError(Exception):
    """An error response in Discord's JSON shape: ``{"message": ..., "code": ...}``.

    REST handlers raise it; the server turns it into the HTTP response.
    """

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        errors: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.headers = headers or {}
        self.extra = extra or {}

    def body(self) -> dict[str, Any]:
        data: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        data.update(self.extra)
        return data


def unknown(kind: str, code: int) -> DiscordError:
    """404 Unknown <kind> with the matching Discord error code."""
    return DiscordError(404, code, f"Unknown {kind}")


UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MEMBER = 10007
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_APPLICATION_COMMAND = 10063
UNKNOWN_INTERACTION = 10062
MISSING_ACCESS = 50001
CANNOT_SEND_EMPTY_MESSAGE = 50006
CANNOT_SEND_TO_USER = 50007
CANNOT_EDIT_OTHER_USERS_MESSAGE = 50005
MISSING_PERMISSIONS = 50013
INVALID_FORM_BODY = 50035
INVALID_JSON = 50109
INVALID_WEBHOOK_TOKEN = 50027
NO_MUTUAL_GUILDS = 50278
WRONG_CHANNEL_TYPE = 50024
THREAD_ARCHIVED = 50083
THREAD_ALREADY_CREATED = 160004
THREAD_LOCKED = 160005
ALREADY_ACKNOWLEDGED = 40060
ENTITY_TOO_LARGE = 40005


def invalid_form(path: str, code: str, message: str) -> DiscordError:
    """400 Invalid Form Body with one field error, as Discord reports validation problems."""
    errors: dict[str, Any] = {}
    node = errors
    parts = path.split(".")
    for part in parts[:-1]:
        node = node.setdefault(part, {})
    node[parts[-1]] = {"_errors": [{"code": code, "message": message}]}
    return DiscordError(400, INVALID_FORM_BODY, "Invalid Form Body", errors=errors)


def flatten_errors(errors: dict[str, Any] | None, prefix: str = "") -> list[str]:
    """``path: CODE message`` for each field error of an Invalid Form Body answer."""
    lines: list[str] = []
    for key, value in (errors or {}).items():
        if key == "_errors" and isinstance(value, list):
            for err in value:
                lines.append(f"{prefix or '(body)'}: {err.get('code')} {err.get('message')}")
        elif isinstance(value, dict):
            lines.extend(flatten_errors(value, f"{prefix}.{key}" if prefix else key))
    return lines


#: Answers that refuse what the bot sent (its payload or its use of a token), as opposed to
#: answers about the world (closed DMs, missing permissions, deleted messages).
REFUSAL_STATUSES = (400, 413)


@dataclass
class Refusal:
    """A request the fake refused because Discord would have: a 400 (invalid body, second
    acknowledgement, ...), a 413 (file too large) or a 401 50027 (expired interaction token).

    Unless a test expects it (:meth:`FakeDiscord.expect_refusal`), a refusal fails the test
    that caused it at the teardown of the ``fake_world`` fixture."""

    route: str
    status: int
    code: int
    message: str
    details: list[str]
    body: Any = None
    expected: bool = False

    @staticmethod
    def applies(err: DiscordError) -> bool:
        return err.status in REFUSAL_STATUSES or (
            err.status == 401 and err.code == INVALID_WEBHOOK_TOKEN
        )

    @classmethod
    def of(cls, err: DiscordError, route: str, body: Any) -> Refusal:
        return cls(route, err.status, err.code, err.message, flatten_errors(err.errors), body)

    def field_codes(self) -> list[str]:
        """The field error codes, e.g. ``["BUTTON_COMPONENT_INVALID_EMOJI"]``."""
        return [line.split(": ", 1)[1].split(" ", 1)[0] for line in self.details]

    @property
    def reason(self) -> str:
        head = f"{self.route} -> {self.status} {self.code} {self.message}"
        return "\n    ".join([head, *self.details])


# ---- errors raised to the test (the person at the keyboard could not do what was asked)


class FakeUserError(AssertionError):
    """Base class: a fake user could not do what the test asked (like a person who can't)."""


class CommandNotSynced(FakeUserError):
    """The slash command (or subcommand) was never registered by the bot."""


class CommandUsageError(FakeUserError):
    """The options given to a slash command do not fit its registered definition."""


class ComponentNotFound(FakeUserError):
    """No clickable component with that label on the message."""


class ComponentDisabled(FakeUserError):
    """The component exists but is disabled, so a person cannot click it."""


class MessageNotVisible(FakeUserError):
    """The message is deleted or is someone else's ephemeral message."""


class BotNotConnected(FakeUserError):
    """No bot session is connected to the gateway, so nobody would receive the interaction."""


class ThreadArchived(FakeUserError):
    """A person typed a command in an archived thread: Discord does not deliver it
    (``topics/threads.mdx``: users cannot use application commands in archived threads)."""
