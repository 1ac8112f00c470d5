"""REST API v10 of the fake Discord: the routes a discord.py bot uses, strict like Discord.

Route templates are written as discord.py writes them (``/channels/{channel_id}/messages``)
so faults and rate-limit rules can name them.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .contract.check import Contract, form_error
from .errors import (
    ALREADY_ACKNOWLEDGED,
    ENTITY_TOO_LARGE,
    INVALID_JSON,
    INVALID_WEBHOOK_TOKEN,
    MISSING_PERMISSIONS,
    THREAD_ALREADY_CREATED,
    THREAD_ARCHIVED,
    UNKNOWN_CHANNEL,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
    WRONG_CHANNEL_TYPE,
    DiscordError,
    Refusal,
    invalid_form,
)
from .faults import VIA
from .models import (
    AUTO_ARCHIVE_DURATIONS,
    JSON,
    CallbackRecord,
    CallbackType,
    Channel,
    ChannelType,
    Interaction,
    InteractionType,
    Message,
    MessageFlag,
    Perm,
    Webhook,
)
from .state import UploadedFile, webhook_name_problem

if TYPE_CHECKING:
    from .server import FakeDiscord

log = logging.getLogger("fakediscord.rest")

API_PREFIX = "/api/v10"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """A JSON response whose Content-Type is exactly ``application/json`` (discord.py decodes
    nothing else; aiohttp's ``json_response`` appends a charset)."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers=headers,
        content_type="application/json",
    )


def no_content() -> web.Response:
    return web.Response(status=204)


@dataclass
class RequestRecord:
    """One REST request as the fake saw it (the request log is ``FakeDiscord.requests``)."""

    method: str
    path: str
    route: str
    started: float
    query: dict[str, str] = field(default_factory=dict)
    body: Any = None
    files: list[str] = field(default_factory=list)
    status: int | None = None
    error_code: int | None = None
    finished: float | None = None
    #: Checked against Discord's published contract (every route the fake serves is).
    contract_checked: bool = False
    #: What fell outside that contract, one ``path: CODE message`` a field (empty: inside).
    outside_contract: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    def __repr__(self) -> str:
        code = f" code={self.error_code}" if self.error_code else ""
        return f"<{self.method} {self.path} -> {self.status}{code}>"


RECORD = web.RequestKey("fakediscord_record", RequestRecord)
TOUCHED = web.RequestKey("fakediscord_touched", list[Message])


WEBHOOK_FLAGS = (
    MessageFlag.SUPPRESS_EMBEDS | MessageFlag.SUPPRESS_NOTIFICATIONS | MessageFlag.IS_COMPONENTS_V2
)
"""The message flags an incoming webhook may set (``resources/webhook.mdx``, Execute Webhook)."""


def _truthy(value: str | None) -> bool:
    return value is not None and value.lower() in ("1", "true")


ROUTES: tuple[tuple[str, str, str], ...] = (
    ("GET", "/gateway", "get_gateway"),
    ("GET", "/gateway/bot", "get_gateway_bot"),
    ("GET", "/users/@me", "get_me"),
    ("POST", "/users/@me/channels", "create_dm"),
    ("GET", "/users/{user_id}", "get_user"),
    ("GET", "/oauth2/applications/@me", "get_application"),
    ("GET", "/applications/@me", "get_application"),
    ("GET", "/applications/{application_id}/commands", "list_commands"),
    ("PUT", "/applications/{application_id}/commands", "put_commands"),
    ("POST", "/applications/{application_id}/commands", "post_command"),
    ("GET", "/applications/{application_id}/commands/{command_id}", "get_command"),
    ("PATCH", "/applications/{application_id}/commands/{command_id}", "patch_command"),
    ("DELETE", "/applications/{application_id}/commands/{command_id}", "delete_command"),
    ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", "list_commands"),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", "put_commands"),
    ("POST", "/applications/{application_id}/guilds/{guild_id}/commands", "post_command"),
    (
        "GET",
        "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
        "get_command",
    ),
    (
        "PATCH",
        "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
        "patch_command",
    ),
    (
        "DELETE",
        "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
        "delete_command",
    ),
    ("GET", "/channels/{channel_id}", "get_channel"),
    ("GET", "/channels/{channel_id}/messages", "list_messages"),
    ("POST", "/channels/{channel_id}/messages", "create_message"),
    ("GET", "/channels/{channel_id}/messages/{message_id}", "get_message"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}", "edit_message"),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}", "delete_message"),
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads", "start_thread_from_message"),
    ("POST", "/channels/{channel_id}/typing", "typing"),
    ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", "add_reaction"),
    (
        "DELETE",
        "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
        "remove_reaction",
    ),
    ("GET", "/guilds/{guild_id}", "get_guild"),
    ("GET", "/guilds/{guild_id}/channels", "get_guild_channels"),
    ("GET", "/guilds/{guild_id}/roles", "get_guild_roles"),
    ("GET", "/guilds/{guild_id}/members", "list_members"),
    ("GET", "/guilds/{guild_id}/members/{user_id}", "get_member"),
    ("POST", "/interactions/{interaction_id}/{token}/callback", "interaction_callback"),
    ("POST", "/webhooks/{application_id}/{token}", "webhook_execute"),
    ("GET", "/webhooks/{application_id}/{token}/messages/{message_id}", "webhook_get"),
    ("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}", "webhook_edit"),
    ("DELETE", "/webhooks/{application_id}/{token}/messages/{message_id}", "webhook_delete"),
)
"""Every route the fake serves: method, path as discord.py writes it, the handler's name.
Each is checked against the contract derived from Discord's OpenAPI description
(``contract/``)."""


class RestApi:
    """Request handlers and the middleware applying auth, faults and rate limits."""

    def __init__(self, server: FakeDiscord) -> None:
        self.server = server
        self.state = server.state
        #: Discord's published contract for every route served (``contract/``).
        self.contract = Contract.load()
        self.routes: list[tuple[str, str, Handler]] = [
            (method, path, getattr(self, name)) for method, path, name in ROUTES
        ]

    @property
    def route_names(self) -> set[str]:
        return {f"{m} {p}" for m, p, _ in self.routes}

    def install(self, app: web.Application) -> None:
        for method, path, handler in self.routes:
            app.router.add_route(method, API_PREFIX + path, handler)
        app.router.add_get(
            "/attachments/{channel_id}/{attachment_id}/{filename}", self.get_attachment
        )
        app.router.add_route("*", "/{tail:.*}", self.unknown_route)

    # ------------------------------------------------------------------ middleware
    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.path == "/gateway" or request.path.startswith("/resume-gateway"):
            return await handler(request)
        server = self.server
        loop = asyncio.get_running_loop()
        resource = request.match_info.route.resource
        canonical = resource.canonical if resource is not None else request.path
        api = canonical.startswith(API_PREFIX)
        template = canonical[len(API_PREFIX) :] if api else canonical
        record = RequestRecord(
            method=request.method,
            path=request.path,
            route=f"{request.method} {template}",
            started=loop.time(),
            query=dict(request.query),
        )
        request[RECORD] = record
        request[TOUCHED] = []
        if api:
            server.requests.append(record)

        def finish() -> None:
            """The request is over: the messages it changed settle."""
            record.finished = loop.time()
            for msg in request[TOUCHED]:
                msg.pending_requests -= 1
                msg.settled_at = loop.time()
            server.notifier.changed()

        rl_headers: dict[str, str] = {}
        injected = False
        resp: web.StreamResponse
        try:
            if api and not template.startswith(("/interactions/", "/webhooks/", "/gateway")):
                self._check_auth(request)
            if api:
                delay, holds, fault = server.faults.take(
                    request.method, template, request.match_info
                )
                if delay:
                    await asyncio.sleep(delay)
                for held in holds:
                    await held.wait()
                if fault is not None and fault.kind == "disconnect":
                    if request.transport is not None:
                        request.transport.abort()
                    record.finished = loop.time()
                    server.notifier.changed()
                    return web.Response(status=500)  # never written: the connection is gone
                if fault is not None:
                    injected = True
                    raise fault.to_error()
                if server.limiter is not None and template != "/{tail}":
                    rl_headers = server.limiter.check(request.method, template, request.match_info)
            contracted = api and record.route in self.contract.operations
            if contracted:
                self._check_parameters(request, record)
            resp = await handler(request)
            if contracted and record.body is None and self._body_required(record.route):
                raise RuntimeError(f"the handler of {record.route} never read its body")
            if isinstance(resp, web.Response):
                resp.headers.update(rl_headers)
        except DiscordError as e:
            headers = dict(rl_headers)
            headers.update(e.headers)
            resp = json_response(e.body(), e.status, headers)
            record.error_code = e.code
            if api and not injected and Refusal.applies(e):
                server.record_refusal(Refusal.of(e, record.route, record.body))
        except web.HTTPException:
            raise
        except ConnectionResetError:
            # The client went away mid-request (a bot process killed by a test): nobody is left
            # to answer, and it is not a fault of the fake.
            finish()
            raise
        except Exception as e:  # a bug in the fake itself: make it loud
            log.exception("fake discord: internal error on %s %s", request.method, request.path)
            server.errors.append(f"{request.method} {request.path}: {e!r}")
            resp = json_response({"message": "500: Internal Server Error", "code": 0}, 500)
        resp.headers["Via"] = VIA
        record.status = resp.status
        try:
            await resp.prepare(request)
            await resp.write_eof()
        finally:
            finish()
        return resp

    def _check_auth(self, request: web.Request) -> None:
        auth = request.headers.get("Authorization")
        if auth != f"Bot {self.server.token}":
            raise DiscordError(401, 0, "401: Unauthorized")

    @staticmethod
    def touch(request: web.Request, msg: Message) -> None:
        """Mark ``msg`` as changed by this request: it settles once the response is sent."""
        msg.pending_requests += 1
        request[TOUCHED].append(msg)

    async def read_body(self, request: web.Request) -> tuple[JSON, list[UploadedFile]]:
        """Parse a JSON body or a multipart body with ``payload_json`` and ``files[n]`` parts."""
        record: RequestRecord = request[RECORD]
        ctype = request.content_type
        files: list[UploadedFile] = []
        payload: Any = {}
        if ctype.startswith("multipart/"):
            reader = await request.multipart()
            largest = 0  # the limit applies to each file, not to their sum
            while True:
                part = await reader.next()
                if part is None:
                    break
                name = getattr(part, "name", None) or ""
                if name == "payload_json":
                    text = await part.text()  # type: ignore[union-attr]
                    try:
                        payload = json.loads(text)
                    except ValueError as e:
                        raise DiscordError(
                            400, INVALID_JSON, "The request body contains invalid JSON."
                        ) from e
                    continue
                m = re.fullmatch(r"files\[(\d+)\]|file(\d*)", name)
                if not m:
                    continue
                data = bytes(await part.read())  # type: ignore[union-attr]
                largest = max(largest, len(data))
                index = int(m.group(1) if m.group(1) is not None else (m.group(2) or 0))
                filename = getattr(part, "filename", None) or f"file{index}"
                part_ctype = part.headers.get("Content-Type")
                files.append(UploadedFile(index, filename, data, part_ctype))
            if largest > self.state.max_attachment_size:
                raise DiscordError(413, ENTITY_TOO_LARGE, "Request entity too large")
        else:
            text = await request.text()
            if text:
                try:
                    payload = json.loads(text)
                except ValueError as e:
                    raise DiscordError(
                        400, INVALID_JSON, "The request body contains invalid JSON."
                    ) from e
        record.body = {} if payload is None else payload
        record.files = [f.filename for f in files]
        if record.route in self.contract.operations:
            found = self.contract.body_errors(record.route, payload, files=len(files))
            if found:
                record.outside_contract.extend(map(str, found))
                raise form_error(found)
        return record.body, files

    def _check_parameters(self, request: web.Request, record: RequestRecord) -> None:
        """The path and query parameters against Discord's contract for the route."""
        path_values = [v for k, v in request.match_info.items() if k != "tail"]
        found = self.contract.parameter_errors(record.route, path_values, request.query)
        record.contract_checked = True
        if found:
            record.outside_contract.extend(map(str, found))
            raise form_error(found)

    def _body_required(self, route: str) -> bool:
        body = self.contract.operation(route)["body"]
        return body is not None and bool(body["required"])

    # ------------------------------------------------------------------ misc
    async def unknown_route(self, request: web.Request) -> web.StreamResponse:
        where = f"{request.method} {request.path}"
        log.warning("FAKE DISCORD: UNKNOWN ROUTE %s - add it to tests/fakediscord/rest.py", where)
        self.server.unknown_routes.append(where)
        raise DiscordError(404, 0, "404: Not Found")

    async def get_gateway(self, request: web.Request) -> web.StreamResponse:
        return json_response({"url": self.server.gateway_root})

    async def get_gateway_bot(self, request: web.Request) -> web.StreamResponse:
        gateway = self.server.gateway
        rules = gateway.sharding
        return json_response(
            {
                "url": self.server.gateway_root,
                "shards": rules.recommended_shards,
                "session_start_limit": {
                    "total": rules.session_start_total,
                    "remaining": gateway.session_starts_remaining(),
                    "reset_after": rules.session_reset_after_ms,
                    "max_concurrency": rules.max_concurrency,
                },
            }
        )

    async def get_me(self, request: web.Request) -> web.StreamResponse:
        me = self.state.bot.payload()
        me.update({"verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"})
        return json_response(me)

    async def get_user(self, request: web.Request) -> web.StreamResponse:
        return json_response(self.state.get_account(request.match_info["user_id"]).payload())

    async def get_application(self, request: web.Request) -> web.StreamResponse:
        state = self.state
        return json_response(
            {
                "id": str(state.application_id),
                "name": state.application_name,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": state.owner.payload(),
                "team": None,
                "bot": state.bot.payload(),
                "rpc_origins": [],
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "role_connections_verification_url": None,
                "tags": [],
                "approximate_guild_count": len(state.guilds),
                "integration_types_config": {"0": {}},
                "hook": True,
                "is_monetized": False,
            }
        )

    async def create_dm(self, request: web.Request) -> web.StreamResponse:
        body, _ = await self.read_body(request)
        recipient = body.get("recipient_id") if isinstance(body, dict) else None
        if recipient is None:
            raise invalid_form("recipient_id", "BASE_TYPE_REQUIRED", "This field is required")
        account = self.state.get_account(recipient)
        return json_response(self.state.dm_channel(account).payload())

    async def get_attachment(self, request: web.Request) -> web.StreamResponse:
        att = self.state.attachments.get(int(request.match_info["attachment_id"]))
        if att is None:
            raise web.HTTPNotFound()
        return web.Response(
            body=att.data, content_type=att.content_type or "application/octet-stream"
        )

    # ------------------------------------------------------------------ commands
    def _command_scope(self, request: web.Request) -> int | None:
        app = request.match_info["application_id"]
        if app != str(self.state.application_id):
            raise DiscordError(403, 50001, "Missing Access")
        guild = request.match_info.get("guild_id")
        if guild is None:
            return None
        return self.state.get_guild(guild).id

    async def list_commands(self, request: web.Request) -> web.StreamResponse:
        scope = self._command_scope(request)
        return json_response([c.payload() for c in self.state.commands_for(scope).values()])

    async def put_commands(self, request: web.Request) -> web.StreamResponse:
        scope = self._command_scope(request)
        body, _ = await self.read_body(request)
        if not isinstance(body, list):
            raise invalid_form("_root", "BASE_TYPE_ARRAY", "Must be an array.")
        if len(body) > 100:
            raise invalid_form("_root", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
        cmds = self.state.bulk_overwrite_commands(scope, body)
        return json_response([c.payload() for c in cmds])

    async def post_command(self, request: web.Request) -> web.StreamResponse:
        scope = self._command_scope(request)
        body, _ = await self.read_body(request)
        self.state.validate_command(body, 0)
        cmd = self.state.upsert_command(scope, body)
        self.server.notifier.changed()
        return json_response(cmd.payload(), 201)

    def _find_command(self, request: web.Request) -> tuple[int | None, Any]:
        scope = self._command_scope(request)
        table = self.state.commands_for(scope)
        cid = request.match_info["command_id"]
        for key, cmd in table.items():
            if str(cmd.id) == cid:
                return scope, (key, cmd)
        raise DiscordError(404, 10063, "Unknown application command")

    async def get_command(self, request: web.Request) -> web.StreamResponse:
        _, (_, cmd) = self._find_command(request)
        return json_response(cmd.payload())

    async def patch_command(self, request: web.Request) -> web.StreamResponse:
        scope, (key, cmd) = self._find_command(request)
        body, _ = await self.read_body(request)
        data = dict(cmd.data)
        data.update(body)
        self.state.validate_command(data, 0)
        del self.state.commands_for(scope)[key]
        new = self.state.upsert_command(scope, data)
        new.id = cmd.id
        return json_response(new.payload())

    async def delete_command(self, request: web.Request) -> web.StreamResponse:
        scope, (key, _) = self._find_command(request)
        del self.state.commands_for(scope)[key]
        return no_content()

    # ------------------------------------------------------------------ channels & messages
    def _viewable_channel(self, request: web.Request) -> Channel:
        channel = self.state.get_channel(request.match_info["channel_id"])
        if (
            channel.guild is not None
            and not self.state.bot_permissions(channel) & Perm.VIEW_CHANNEL
        ):
            raise DiscordError(403, 50001, "Missing Access")
        return channel

    async def get_channel(self, request: web.Request) -> web.StreamResponse:
        return json_response(self._viewable_channel(request).payload())

    async def list_messages(self, request: web.Request) -> web.StreamResponse:
        channel = self._viewable_channel(request)
        if (
            channel.guild is not None
            and not self.state.bot_permissions(channel) & Perm.READ_MESSAGE_HISTORY
        ):
            return json_response([])
        msgs = self.state.visible_messages(channel)  # newest first
        q = request.query
        limit = max(1, min(100, int(q.get("limit", 50))))
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])][-limit:]
        if "around" in q:
            around = int(q["around"])
            older = [m for m in msgs if m.id <= around][: limit // 2 + 1]
            newer = [m for m in msgs if m.id > around][-(limit // 2) :] if limit > 1 else []
            msgs = newer + older
        return json_response([m.payload() for m in msgs[:limit]])

    async def create_message(self, request: web.Request) -> web.StreamResponse:
        channel = self.state.get_channel(request.match_info["channel_id"])
        body, files = await self.read_body(request)
        self.state.check_bot_can_send(channel, with_files=bool(files))
        self.state.validate_body(body, files, creating=True)
        ref = body.get("message_reference")
        if isinstance(ref, dict) and ref.get("message_id"):
            target = self.state.messages.get(int(ref["message_id"]))
            if target is None or target.deleted or target.ephemeral_for is not None:
                if ref.get("fail_if_not_exists", True):
                    raise invalid_form(
                        "message_reference", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message"
                    )
                body = {k: v for k, v in body.items() if k != "message_reference"}
        msg = self.state.create_message(channel, self.state.bot, body, files)
        self.touch(request, msg)
        return json_response(msg.payload())

    def _channel_message(self, request: web.Request) -> Message:
        channel = self._viewable_channel(request)
        msg = self.state.get_message(channel, request.match_info["message_id"])
        if msg.ephemeral_for is not None:
            raise DiscordError(404, UNKNOWN_MESSAGE, "Unknown Message")
        return msg

    async def get_message(self, request: web.Request) -> web.StreamResponse:
        """Get Channel Message (``resources/message.mdx``): in a guild channel the current user
        needs VIEW_CHANNEL and READ_MESSAGE_HISTORY."""
        channel = self._viewable_channel(request)
        if (
            channel.guild is not None
            and not self.state.bot_permissions(channel) & Perm.READ_MESSAGE_HISTORY
        ):
            raise DiscordError(403, MISSING_PERMISSIONS, "Missing Permissions")
        return json_response(self._channel_message(request).payload())

    async def edit_message(self, request: web.Request) -> web.StreamResponse:
        msg = self._channel_message(request)
        body, files = await self.read_body(request)
        if msg.author.id != self.state.bot.id:
            only_flags = set(body) <= {"flags"}
            if not only_flags:
                raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        self.state.validate_body(body, files, creating=False, existing=msg)
        if msg.channel.is_thread and self.state.thread_archived(msg.channel):
            raise DiscordError(400, THREAD_ARCHIVED, "Thread is archived")
        self.touch(request, msg)
        self.state.edit_message(msg, body, files)
        return json_response(msg.payload())

    async def start_thread_from_message(self, request: web.Request) -> web.StreamResponse:
        """Start Thread from Message (``resources/channel.mdx``): a public thread whose id is
        the message's, once per message, named 1-100 characters, archiving after 60, 1440,
        4320 or 10080 minutes of inactivity; needs CREATE_PUBLIC_THREADS."""
        channel = self._viewable_channel(request)
        body, _ = await self.read_body(request)
        if channel.type != ChannelType.GUILD_TEXT:
            raise DiscordError(
                400, WRONG_CHANNEL_TYPE, "Cannot execute action on this channel type"
            )
        if not self.state.bot_permissions(channel) & Perm.CREATE_PUBLIC_THREADS:
            raise DiscordError(403, MISSING_PERMISSIONS, "Missing Permissions")
        msg = self._channel_message(request)
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise invalid_form(
                "name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
            )
        duration = body.get("auto_archive_duration", 1440)
        if duration not in AUTO_ARCHIVE_DURATIONS:
            raise invalid_form(
                "auto_archive_duration",
                "BASE_TYPE_CHOICES",
                f"Value must be one of {AUTO_ARCHIVE_DURATIONS}.",
            )
        if msg.thread is not None:
            raise DiscordError(
                400, THREAD_ALREADY_CREATED, "A thread has already been created for this message"
            )
        thread = self.state.start_thread(msg, name, int(duration))
        return json_response(thread.payload(), 201)

    async def delete_message(self, request: web.Request) -> web.StreamResponse:
        msg = self._channel_message(request)
        if msg.author.id != self.state.bot.id and not (
            msg.channel.guild is not None
            and self.state.bot_permissions(msg.channel) & Perm.MANAGE_MESSAGES
        ):
            raise DiscordError(403, 50013, "Missing Permissions")
        self.state.delete_message(msg)
        return no_content()

    async def typing(self, request: web.Request) -> web.StreamResponse:
        channel = self._viewable_channel(request)
        self.state.check_bot_can_send(channel, with_files=False)
        return no_content()

    async def add_reaction(self, request: web.Request) -> web.StreamResponse:
        msg = self._channel_message(request)
        emoji = request.match_info["emoji"]
        if emoji not in msg.reactions:
            msg.reactions.append(emoji)
        self.server.notifier.changed()
        return no_content()

    async def remove_reaction(self, request: web.Request) -> web.StreamResponse:
        msg = self._channel_message(request)
        emoji = request.match_info["emoji"]
        if emoji in msg.reactions:
            msg.reactions.remove(emoji)
        self.server.notifier.changed()
        return no_content()

    # ------------------------------------------------------------------ guilds
    def _guild(self, request: web.Request) -> Any:
        guild = self.state.get_guild(request.match_info["guild_id"])
        if self.state.bot.id not in guild.members:
            raise DiscordError(403, 50001, "Missing Access")
        return guild

    async def get_guild(self, request: web.Request) -> web.StreamResponse:
        guild = self._guild(request)
        data = guild.payload()
        if _truthy(request.query.get("with_counts")):
            data["approximate_member_count"] = len(guild.members)
            data["approximate_presence_count"] = 0
        return json_response(data)

    async def get_guild_channels(self, request: web.Request) -> web.StreamResponse:
        guild = self._guild(request)
        return json_response([c.payload() for c in guild.channels.values()])

    async def get_guild_roles(self, request: web.Request) -> web.StreamResponse:
        guild = self._guild(request)
        return json_response([r.payload() for r in guild.roles.values()])

    async def list_members(self, request: web.Request) -> web.StreamResponse:
        guild = self._guild(request)
        limit = max(1, min(1000, int(request.query.get("limit", 1))))
        after = int(request.query.get("after", 0))
        members = sorted(guild.members.values(), key=lambda m: m.account.id)
        return json_response([m.payload() for m in members if m.account.id > after][:limit])

    async def get_member(self, request: web.Request) -> web.StreamResponse:
        guild = self._guild(request)
        uid = request.match_info["user_id"]
        member = guild.members.get(int(uid)) if uid.isdigit() else None
        if member is None:
            raise DiscordError(404, 10007, "Unknown Member")
        return json_response(member.payload())

    # ------------------------------------------------------------------ interactions
    async def interaction_callback(self, request: web.Request) -> web.StreamResponse:
        loop = asyncio.get_running_loop()
        state = self.state
        iid = request.match_info["interaction_id"]
        ix = state.interactions_by_id.get(int(iid)) if iid.isdigit() else None
        if ix is None or ix.token != request.match_info["token"]:
            raise DiscordError(404, UNKNOWN_INTERACTION, "Unknown interaction")
        body, files = await self.read_body(request)
        now = loop.time()
        ctype = body.get("type") if isinstance(body, dict) else None
        data = (body.get("data") if isinstance(body, dict) else None) or {}

        def refuse(err: DiscordError) -> DiscordError:
            ix.errors.append(err.code)
            ix.callbacks.append(_callback_record(ctype, data, now, err))
            self.server.notifier.changed()
            return err

        if now > ix.deadline and not ix.acknowledged:
            log.warning(
                "fake discord: late callback for %s (%.2fs)", ix.describe(), now - ix.created_at
            )
            self.server._fail_interaction(ix)
            raise refuse(DiscordError(404, UNKNOWN_INTERACTION, "Unknown interaction"))
        if ix.acknowledged:
            raise refuse(
                DiscordError(
                    400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged."
                )
            )
        allowed = {
            InteractionType.APPLICATION_COMMAND: {4, 5, 9, 10, 12},
            InteractionType.MESSAGE_COMPONENT: {4, 5, 6, 7, 9, 10},
            InteractionType.APPLICATION_COMMAND_AUTOCOMPLETE: {8},
            InteractionType.MODAL_SUBMIT: {4, 5, 6, 7},
        }[ix.type]
        if ctype not in allowed:
            raise refuse(
                invalid_form(
                    "type",
                    "INTERACTION_RESPONSE_TYPE_INVALID",
                    f"Invalid interaction response type {ctype}",
                )
            )
        msg: Message | None = None
        ephemeral = False
        if ctype == CallbackType.CHANNEL_MESSAGE_WITH_SOURCE:
            try:
                state.validate_body(data, files, creating=True)
            except DiscordError as e:
                raise refuse(e) from None
            ephemeral = bool(int(data.get("flags") or 0) & MessageFlag.EPHEMERAL)
            msg = state.create_message(
                ix.channel,
                state.bot,
                data,
                files,
                type=20 if ix.type == InteractionType.APPLICATION_COMMAND else 0,
                ephemeral_for=ix.user if ephemeral else None,
                interaction=ix,
                webhook_id=state.application_id,
            )
            ix.original = msg
        elif ctype == CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE:
            ephemeral = bool(int(data.get("flags") or 0) & MessageFlag.EPHEMERAL)
            msg = state.create_message(
                ix.channel,
                state.bot,
                {"content": ""},
                [],
                type=20 if ix.type == InteractionType.APPLICATION_COMMAND else 0,
                ephemeral_for=ix.user if ephemeral else None,
                interaction=ix,
                webhook_id=state.application_id,
                extra_flags=MessageFlag.LOADING,
            )
            ix.original = msg
        elif ctype == CallbackType.DEFERRED_UPDATE_MESSAGE:
            msg = ix.message
            ix.original = msg
        elif ctype == CallbackType.UPDATE_MESSAGE:
            assert ix.message is not None
            try:
                state.validate_body(data, files, creating=False, existing=ix.message)
            except DiscordError as e:
                raise refuse(e) from None
            msg = ix.message
            state.edit_message(msg, data, files)
            ix.original = msg
        elif ctype == CallbackType.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT:
            ix.autocomplete_choices = list(data.get("choices") or [])
        elif ctype == CallbackType.MODAL:
            ix.modal = data
        if msg is not None:
            ephemeral = ephemeral or msg.ephemeral
            self.touch(request, msg)
        ix.acknowledged_at = now
        ix.response_type = ctype
        ix.callbacks.append(_callback_record(ctype, data, now, None))
        self.server.notifier.changed()
        if not _truthy(request.query.get("with_response")):
            return no_content()
        resource: JSON = {"type": ctype}
        if msg is not None:
            resource["message"] = msg.payload()
        return json_response(
            {
                "interaction": {
                    "id": str(ix.id),
                    "type": int(ix.type),
                    "activity_instance_id": None,
                    "response_message_id": str(msg.id) if msg is not None else None,
                    "response_message_loading": ctype
                    == CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
                    "response_message_ephemeral": ephemeral,
                },
                "resource": resource,
            }
        )

    def _webhook_interaction(self, request: web.Request) -> Interaction:
        if request.match_info["application_id"] != str(self.state.application_id):
            raise DiscordError(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        ix = self.state.interactions_by_token.get(request.match_info["token"])
        if ix is None:
            raise DiscordError(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        if not ix.acknowledged:
            ix.errors.append(UNKNOWN_WEBHOOK)
            raise DiscordError(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        if self.server.now() > ix.token_issued_at + self.server.token_lifetime:
            ix.errors.append(INVALID_WEBHOOK_TOKEN)
            raise DiscordError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        return ix

    def _webhook_message(self, ix: Interaction, request: web.Request) -> Message:
        ref = request.match_info["message_id"]
        if ref == "@original":
            msg = ix.original
        else:
            msg = next(
                (m for m in [ix.original, *ix.followups] if m is not None and str(m.id) == ref),
                None,
            )
        if msg is None or msg.deleted:
            raise DiscordError(404, UNKNOWN_MESSAGE, "Unknown Message")
        return msg

    async def webhook_execute(self, request: web.Request) -> web.StreamResponse:
        """Execute Webhook: an incoming webhook of a channel (its id and token), or an
        interaction's followup (the application's id and the interaction's token)."""
        hook_id = request.match_info["application_id"]
        hook = self.state.webhooks.get(int(hook_id)) if hook_id.isdigit() else None
        if hook is not None:
            return await self.incoming_webhook_execute(request, hook)
        ix = self._webhook_interaction(request)
        state = self.state
        body, files = await self.read_body(request)
        state.validate_body(body, files, creating=True)
        original = ix.original
        if (
            ix.response_type == CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
            and original is not None
            and original.loading
            and not ix.followups
        ):
            # Discord turns the first followup after a deferred reply into that reply.
            self.touch(request, original)
            msg = state.edit_message(original, body, files, clear_loading=True)
        else:
            ephemeral = bool(int(body.get("flags") or 0) & MessageFlag.EPHEMERAL)
            msg = state.create_message(
                ix.channel,
                state.bot,
                body,
                files,
                type=20 if ix.type == InteractionType.APPLICATION_COMMAND else 0,
                ephemeral_for=ix.user if ephemeral else None,
                interaction=ix,
                webhook_id=state.application_id,
            )
            self.touch(request, msg)
        ix.followups.append(msg)
        self.server.notifier.changed()
        if _truthy(request.query.get("wait")):
            return json_response(msg.payload())
        return no_content()

    async def incoming_webhook_execute(
        self, request: web.Request, hook: Webhook
    ) -> web.StreamResponse:
        """Execute Webhook for an incoming webhook, as ``resources/webhook.mdx`` says: a message
        in the webhook's channel (or in ``thread_id``, a thread of it, unarchived), from the
        webhook under its name or ``username``; only some flags may be set; ``components`` are
        ignored without ``with_components``; 204 unless ``wait`` (then the message)."""
        if request.match_info["token"] != hook.token:
            raise DiscordError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        body, files = await self.read_body(request)
        if not isinstance(body, dict):
            raise invalid_form("_root", "MODEL_TYPE_CONVERT", "Only dictionaries may be used")
        username = body.get("username")
        if username is not None:
            problem = (
                webhook_name_problem(username) if isinstance(username, str) else "must be a string"
            )
            if problem is not None:
                raise invalid_form("username", "USERNAME_INVALID", f"Username {problem}")
        flags = int(body.get("flags") or 0)
        if flags & ~WEBHOOK_FLAGS:
            raise invalid_form(
                "flags",
                "MESSAGE_FLAGS_INVALID",
                "Only SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS and IS_COMPONENTS_V2 can be set",
            )
        if not _truthy(request.query.get("with_components")):
            body = {k: v for k, v in body.items() if k != "components"}
        self.state.validate_body(body, files, creating=True)
        channel = hook.channel
        thread_id = request.query.get("thread_id")
        if thread_id is not None:
            thread = self.state.channels.get(int(thread_id)) if thread_id.isdigit() else None
            if thread is None or thread.parent is not hook.channel:
                raise DiscordError(404, UNKNOWN_CHANNEL, "Unknown Channel")
            channel = thread
        msg = self.state.create_message(
            channel,
            hook.author(username),
            body,
            files,
            webhook_id=hook.id,
            by_application=False,
        )
        self.touch(request, msg)
        if _truthy(request.query.get("wait")):
            return json_response(msg.payload())
        return no_content()

    async def webhook_get(self, request: web.Request) -> web.StreamResponse:
        ix = self._webhook_interaction(request)
        return json_response(self._webhook_message(ix, request).payload())

    async def webhook_edit(self, request: web.Request) -> web.StreamResponse:
        ix = self._webhook_interaction(request)
        msg = self._webhook_message(ix, request)
        body, files = await self.read_body(request)
        self.state.validate_body(body, files, creating=False, existing=msg)
        self.touch(request, msg)
        self.state.edit_message(msg, body, files, clear_loading=True)
        ix.edited.append(msg)
        return json_response(msg.payload())

    async def webhook_delete(self, request: web.Request) -> web.StreamResponse:
        ix = self._webhook_interaction(request)
        msg = self._webhook_message(ix, request)
        self.state.delete_message(msg)
        return no_content()


def _callback_record(ctype: Any, data: JSON, at: float, err: DiscordError | None) -> CallbackRecord:
    return CallbackRecord(
        type=int(ctype) if isinstance(ctype, int) else -1,
        data=data,
        at=at,
        status=err.status if err else 200,
        error_code=err.code if err else None,
    )
