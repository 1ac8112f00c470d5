"""Tests of the fake Discord's own rules, through raw HTTP (no discord.py bot involved)."""

from __future__ import annotations

import asyncio
import io
import json

import aiohttp
import pytest
from PIL import Image

from tests.fake.conftest import Rest
from tests.fakediscord import (
    CommandUsageError,
    InteractionType,
    Perm,
    RateLimitConfig,
)
from tests.fakediscord.fixtures import World

FP_COMMAND = {
    "name": "fp",
    "description": "Flaming Pyramids",
    "options": [
        {
            "type": 1,
            "name": "new",
            "description": "Start a game",
            "options": [
                {"type": 5, "name": "curse", "description": "Play with the curse"},
                {
                    "type": 4,
                    "name": "seats",
                    "description": "Seats",
                    "min_value": 2,
                    "max_value": 6,
                },
                {
                    "type": 3,
                    "name": "speed",
                    "description": "Speed",
                    "choices": [
                        {"name": "Fast", "value": "fast"},
                        {"name": "Slow", "value": "slow"},
                    ],
                },
                {"type": 6, "name": "rival", "description": "A rival"},
            ],
        },
        {
            "type": 2,
            "name": "admin",
            "description": "Admin tools",
            "options": [{"type": 1, "name": "reset", "description": "Reset"}],
        },
    ],
}


async def test_responses_are_exact_json_with_via(world: World, rest: Rest) -> None:
    status, me, headers = await rest("GET", "/users/@me")
    assert status == 200 and me["id"] == str(world.fake.bot.id) and me["bot"] is True
    assert headers["Content-Type"] == "application/json"
    assert headers["Via"]
    status, app, _ = await rest("GET", "/oauth2/applications/@me")
    assert app["interactions_endpoint_url"] is None
    status, body, _ = await rest("GET", "/users/@me", auth=False)
    assert status == 401
    status, body, _ = await rest("GET", "/no/such/route")
    assert (status, body) == (404, {"message": "404: Not Found", "code": 0})
    assert world.fake.unknown_routes == ["GET /api/v10/no/such/route"]
    status, gw, _ = await rest("GET", "/gateway/bot")
    assert gw["url"] == world.fake.gateway_url and gw["shards"] == 1


async def test_message_rules(world: World, rest: Rest) -> None:
    games = f"/channels/{world.games.id}/messages"
    status, body, _ = await rest("POST", games, body={})
    assert (status, body["code"]) == (400, 50006)
    status, body, _ = await rest("POST", games, body={"content": "x" * 2001})
    assert (status, body["code"]) == (400, 50035)
    assert "content" in body["errors"]
    row = {
        "type": 1,
        "components": [
            {"type": 2, "style": 1, "label": "A", "custom_id": "same"},
            {"type": 2, "style": 1, "label": "B", "custom_id": "same"},
        ],
    }
    status, body, _ = await rest("POST", games, body={"content": "x", "components": [row]})
    assert (status, body["code"]) == (400, 50035)
    status, msg, _ = await rest(
        "POST", games, body={"content": "hello", "embeds": [{"title": "T"}]}
    )
    assert status == 200 and msg["content"] == "hello" and msg["embeds"] == [{"title": "T"}]
    status, edited, _ = await rest("PATCH", f"{games}/{msg['id']}", body={"content": "bye"})
    assert edited["content"] == "bye" and edited["embeds"] == [{"title": "T"}]
    assert edited["edited_timestamp"] is not None
    stored = world.fake.message(int(msg["id"]))
    assert [r.content for r in stored.history] == ["hello", "bye"]
    status, _, _ = await rest("DELETE", f"{games}/{msg['id']}")
    assert status == 204 and stored.deleted
    assert world.fake.messages(world.games) == []


async def test_multipart_upload_and_size_cap(world: World, rest: Rest) -> None:
    img = Image.new("RGB", (4, 3), (1, 2, 3))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    form = aiohttp.FormData(quote_fields=False)
    payload = {
        "content": "pic",
        "attachments": [{"id": 0, "filename": "p.png", "description": "board"}],
    }
    form.add_field("payload_json", json.dumps(payload))
    form.add_field(
        "files[0]", buf.getvalue(), filename="p.png", content_type="application/octet-stream"
    )
    status, msg, _ = await rest("POST", f"/channels/{world.games.id}/messages", data=form)
    assert status == 200
    att = msg["attachments"][0]
    assert (att["filename"], att["content_type"], att["width"], att["height"]) == (
        "p.png",
        "image/png",
        4,
        3,
    )
    assert att["description"] == "board"
    assert world.alice.latest_picture(world.games).getpixel((0, 0)) == (1, 2, 3)

    world.fake.state.max_attachment_size = 10
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps({"content": "big"}))
    form.add_field("files[0]", b"x" * 11, filename="big.bin")
    status, body, _ = await rest("POST", f"/channels/{world.games.id}/messages", data=form)
    assert (status, body["code"]) == (413, 40005)


async def test_permissions_and_closed_dms(world: World, rest: Rest) -> None:
    fake = world.fake
    players = fake.create_role(world.guild, "players")
    fake.set_permissions(world.general, "everyone", deny=Perm.SEND_MESSAGES)
    status, body, _ = await rest(
        "POST", f"/channels/{world.general.id}/messages", body={"content": "x"}
    )
    assert (status, body["code"]) == (403, 50013)
    fake.set_permissions(world.general, "bot", allow=Perm.SEND_MESSAGES)
    status, _, _ = await rest(
        "POST", f"/channels/{world.general.id}/messages", body={"content": "x"}
    )
    assert status == 200
    fake.set_permissions(world.general, "everyone", deny=Perm.VIEW_CHANNEL)
    fake.set_permissions(world.general, "bot")
    status, body, _ = await rest(
        "POST", f"/channels/{world.general.id}/messages", body={"content": "x"}
    )
    assert (status, body["code"]) == (403, 50001)
    # member overwrites beat role overwrites, which beat @everyone
    member = world.guild.members[world.alice.id]
    member.role_ids.append(players.id)
    fake.set_permissions(world.general, players, allow=Perm.VIEW_CHANNEL)
    assert world.guild.permissions_in(member, world.general) & Perm.VIEW_CHANNEL
    fake.set_permissions(world.general, world.alice, deny=Perm.VIEW_CHANNEL)
    assert world.guild.permissions_in(member, world.general) == 0

    # Reading one message back needs READ_MESSAGE_HISTORY too (Get Channel Message).
    fake.set_permissions(world.general, world.alice)
    fake.set_permissions(world.general, "everyone")
    status, posted, _ = await rest(
        "POST", f"/channels/{world.general.id}/messages", body={"content": "kept"}
    )
    assert status == 200
    one = f"/channels/{world.general.id}/messages/{posted['id']}"
    status, body, _ = await rest("GET", one)
    assert status == 200 and body["content"] == "kept"
    fake.set_permissions(world.general, "bot", deny=Perm.READ_MESSAGE_HISTORY)
    status, body, _ = await rest("GET", one)
    assert (status, body["code"]) == (403, 50013)
    fake.set_permissions(world.general, "bot")

    status, dm, _ = await rest(
        "POST", "/users/@me/channels", body={"recipient_id": str(world.dave.id)}
    )
    assert status == 200 and dm["type"] == 1
    status, body, _ = await rest("POST", f"/channels/{dm['id']}/messages", body={"content": "hi"})
    assert (status, body["code"]) == (403, 50007)
    world.dave.open_dms()
    status, _, _ = await rest("POST", f"/channels/{dm['id']}/messages", body={"content": "hi"})
    assert status == 200 and world.dave.latest_dm().content == "hi"


async def test_slash_payload_shape_and_validation(world: World, rest: Rest) -> None:
    fake = world.fake
    path = f"/applications/{fake.application_id}/guilds/{world.guild.id}/commands"
    status, cmds, _ = await rest("PUT", path, body=[FP_COMMAND])
    assert status == 200 and cmds[0]["name"] == "fp" and cmds[0]["id"]
    status, again, _ = await rest("PUT", path, body=[FP_COMMAND])
    assert again[0]["id"] == cmds[0]["id"]  # ids are stable across syncs

    ix = await world.alice.slash(
        "fp new",
        world.games,
        curse=True,
        seats=3,
        speed="fast",
        rival=world.bob,
        wait_connected=False,
    )
    assert ix.type == InteractionType.APPLICATION_COMMAND
    assert ix.data["id"] == cmds[0]["id"] and ix.data["guild_id"] == str(world.guild.id)
    sub = ix.data["options"][0]
    assert (sub["name"], sub["type"]) == ("new", 1)
    assert {o["name"]: o["value"] for o in sub["options"]} == {
        "curse": True,
        "seats": 3,
        "speed": "fast",
        "rival": str(world.bob.id),
    }
    assert str(world.bob.id) in ix.data["resolved"]["members"]
    payload = ix.payload(app_permissions=0, attachment_size_limit=1)
    for key in (
        "id",
        "application_id",
        "type",
        "token",
        "version",
        "attachment_size_limit",
        "member",
    ):
        assert key in payload
    assert {"roles", "flags", "user", "joined_at", "permissions"} <= set(payload["member"])

    grouped = await world.alice.slash("fp admin reset", world.games, wait_connected=False)
    assert grouped.data["options"] == [
        {"name": "admin", "type": 2, "options": [{"name": "reset", "type": 1, "options": []}]}
    ]
    for bad in ({"seats": 9}, {"seats": "3"}, {"speed": "warp"}, {"curse": 1}):
        with pytest.raises(CommandUsageError):
            await world.alice.slash("fp new", world.games, wait_connected=False, **bad)
    # nobody acknowledged these: they fail after the deadline
    fake.ack_deadline = 0.05
    late = await world.alice.slash("fp admin reset", world.games, wait_connected=False)
    await fake.wait_for(lambda: late.failed, 2)
    assert late in fake.failed_interactions()


async def test_click_waits_for_the_creating_request(world: World) -> None:
    fake = world.fake
    fake.reaction_delay = 0.05
    state = fake.state
    msg = state.create_message(
        world.games,
        state.bot,
        {
            "content": "go",
            "components": [
                {
                    "type": 1,
                    "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}],
                }
            ],
        },
        [],
    )
    msg.pending_requests = 1  # the bot's POST has not returned yet
    click = asyncio.create_task(world.alice.click(msg, "Go", wait_connected=False))
    await asyncio.sleep(0.1)
    assert not click.done() and fake.interactions == []
    loop = asyncio.get_running_loop()
    msg.pending_requests = 0
    msg.settled_at = loop.time()
    fake.notifier.changed()
    ix = await asyncio.wait_for(click, 2)
    assert ix.created_at - msg.settled_at >= 0.05
    assert ix.data == {"custom_id": "go", "component_type": 2}


async def test_rate_limit_headers(world: World, rest: Rest) -> None:
    world.fake.enable_rate_limits(RateLimitConfig())
    path = f"/channels/{world.games.id}/messages"
    remaining = []
    for i in range(5):
        status, _, headers = await rest("POST", path, body={"content": str(i)})
        assert status == 200
        remaining.append(headers["X-RateLimit-Remaining"])
        assert headers["X-RateLimit-Limit"] == "5" and headers["X-RateLimit-Bucket"]
        assert float(headers["X-RateLimit-Reset-After"]) <= 5
    assert remaining == ["4", "3", "2", "1", "0"]
    status, body, headers = await rest("POST", path, body={"content": "too many"})
    assert status == 429 and body["global"] is False and body["retry_after"] > 0
    assert headers["Retry-After"] and headers["Via"] and headers["X-RateLimit-Scope"] == "user"
    # another channel has its own bucket
    status, _, _ = await rest(
        "POST", f"/channels/{world.general.id}/messages", body={"content": "x"}
    )
    assert status == 200


async def test_a_dropped_connection_answers_nothing_and_posts_nothing(
    world: World, rest: Rest
) -> None:
    games = f"/channels/{world.games.id}/messages"
    fault = world.fake.faults.disconnect("POST /channels/{channel_id}/messages")
    with pytest.raises(aiohttp.ClientError):
        await rest("POST", games, body={"content": "lost"})
    assert fault.hits == 1
    assert world.fake.messages(world.games) == []
    status, msg, _ = await rest("POST", games, body={"content": "kept"})  # once only
    assert status == 200 and msg["content"] == "kept"
