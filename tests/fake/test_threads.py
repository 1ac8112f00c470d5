"""Threads in the fake Discord, each rule as Discord documents it (``resources/channel.mdx``
"Start Thread from Message", ``topics/threads.mdx``, ``topics/permissions.mdx``), and the pings
the fake records (``resources/message.mdx``, "Allowed Mentions Object"). Raw HTTP as the bot,
and people acting through ``FakeUser``."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fake.conftest import Rest
from tests.fakediscord import ThreadArchived
from tests.fakediscord.fixtures import World
from tests.fakediscord.models import ChannelType, Message, Perm

WEEK_MIN = 10080


async def post(rest: Rest, channel_id: int, content: str = "x", **extra: Any) -> Message:
    status, body, _ = await rest(
        "POST", f"/channels/{channel_id}/messages", {"content": content, **extra}
    )
    assert status == 200, body
    return rest.fake.message(int(body["id"]))


async def start_thread(
    rest: Rest, message: Message, name: str = "table 1", minutes: int = WEEK_MIN
) -> tuple[int, Any]:
    answer = await rest(
        "POST",
        f"/channels/{message.channel.id}/messages/{message.id}/threads",
        {"name": name, "auto_archive_duration": minutes},
    )
    return answer.status, answer.body


async def test_a_thread_started_from_a_message_is_a_public_thread_with_the_message_id(
    world: World, rest: Rest
) -> None:
    lobby = await post(rest, world.games.id, "lobby")
    status, thread = await start_thread(rest, lobby)
    assert status == 201
    assert thread["id"] == str(lobby.id)
    assert thread["type"] == int(ChannelType.PUBLIC_THREAD) == 11
    assert thread["parent_id"] == str(world.games.id)
    assert thread["thread_metadata"]["auto_archive_duration"] == WEEK_MIN
    assert thread["thread_metadata"]["archived"] is False
    assert world.fake.threads(world.games)[0].id == lobby.id
    assert lobby.payload()["thread"]["id"] == str(lobby.id)


async def test_a_message_starts_one_thread_only(world: World, rest: Rest) -> None:
    lobby = await post(rest, world.games.id)
    assert (await start_thread(rest, lobby))[0] == 201
    with world.fake.expect_refusal(160004):
        status, body = await start_thread(rest, lobby, "again")
    assert (status, body["code"]) == (400, 160004)


@pytest.mark.parametrize("minutes", [60, 1440, 4320, 10080])
async def test_the_four_auto_archive_durations_are_accepted(
    world: World, rest: Rest, minutes: int
) -> None:
    lobby = await post(rest, world.games.id)
    assert (await start_thread(rest, lobby, minutes=minutes))[0] == 201


async def test_another_auto_archive_duration_and_a_long_name_are_refused(
    world: World, rest: Rest
) -> None:
    lobby = await post(rest, world.games.id)
    with world.fake.expect_refusal("BASE_TYPE_CHOICES"):
        status, _ = await start_thread(rest, lobby, minutes=20160)
    assert status == 400
    with world.fake.expect_refusal("BASE_TYPE_BAD_LENGTH"):
        status, _ = await start_thread(rest, lobby, name="x" * 101)
    assert status == 400
    assert world.fake.threads(world.games) == []


async def test_starting_a_thread_needs_create_public_threads(world: World, rest: Rest) -> None:
    lobby = await post(rest, world.games.id)
    world.fake.set_permissions(world.games, "everyone", deny=Perm.CREATE_PUBLIC_THREADS)
    status, body = await start_thread(rest, lobby)
    assert (status, body["code"]) == (403, 50013)
    world.fake.set_permissions(world.games, "bot", allow=Perm.CREATE_PUBLIC_THREADS)
    assert (await start_thread(rest, lobby))[0] == 201


async def test_posting_in_a_thread_needs_send_messages_in_threads_not_send_messages(
    world: World, rest: Rest
) -> None:
    lobby = await post(rest, world.games.id)
    _, thread = await start_thread(rest, lobby)
    world.fake.set_permissions(world.games, "everyone", deny=Perm.SEND_MESSAGES_IN_THREADS)
    status, body, _ = await rest("POST", f"/channels/{thread['id']}/messages", {"content": "x"})
    assert (status, body["code"]) == (403, 50013)
    world.fake.set_permissions(
        world.games, "everyone", allow=Perm.SEND_MESSAGES_IN_THREADS, deny=Perm.SEND_MESSAGES
    )
    msg = await post(rest, int(thread["id"]), "in the thread")
    assert msg.channel.parent is world.games
    assert [m.content for m in world.fake.messages(msg.channel)] == ["in the thread"]


async def test_a_thread_archives_after_its_duration_without_messages(
    world: World, rest: Rest
) -> None:
    lobby = await post(rest, world.games.id)
    await start_thread(rest, lobby, minutes=60)
    thread = world.fake.threads(world.games)[0]
    world.fake.advance_time(59 * 60)
    assert not world.fake.thread_archived(thread)
    await post(rest, thread.id)  # activity: the hour starts again
    world.fake.advance_time(59 * 60)
    assert not world.fake.thread_archived(thread)
    world.fake.advance_time(61)
    assert world.fake.thread_archived(thread)


async def test_the_bots_post_unarchives_a_thread_but_an_edit_is_refused(
    world: World, rest: Rest
) -> None:
    lobby = await post(rest, world.games.id)
    await start_thread(rest, lobby, minutes=60)
    thread = world.fake.threads(world.games)[0]
    old = await post(rest, thread.id, "old")
    world.fake.advance_time(2 * 3600)
    assert world.fake.thread_archived(thread)
    with world.fake.expect_refusal(50083):
        status, body, _ = await rest(
            "PATCH", f"/channels/{thread.id}/messages/{old.id}", {"content": "edited"}
        )
    assert (status, body["code"]) == (400, 50083)
    await post(rest, thread.id, "new")
    assert not world.fake.thread_archived(thread)
    status, _, _ = await rest(
        "PATCH", f"/channels/{thread.id}/messages/{old.id}", {"content": "edited"}
    )
    assert status == 200


async def test_a_command_typed_in_an_archived_thread_does_not_reach_the_bot(
    world: World, rest: Rest
) -> None:
    lobby = await post(rest, world.games.id)
    await start_thread(rest, lobby, minutes=60)
    thread = world.fake.threads(world.games)[0]
    world.fake.advance_time(3601)
    before = len(world.fake.interactions)
    with pytest.raises(ThreadArchived):
        await world.alice.slash("fp new", thread, wait_connected=False)
    assert len(world.fake.interactions) == before


async def test_a_new_message_pings_the_mentions_its_allowed_mentions_allow(
    world: World, rest: Rest
) -> None:
    a, b = world.alice.id, world.bob.id
    both = f"<@{a}> and <@!{b}>"
    assert (await post(rest, world.games.id, both)).notified == [a, b]
    only_a = await post(rest, world.games.id, both, allowed_mentions={"users": [str(a)]})
    assert only_a.notified == [a]
    none = await post(rest, world.games.id, both, allowed_mentions={"parse": []})
    assert none.notified == []
    quiet = await post(rest, world.games.id, both, flags=1 << 12)  # SUPPRESS_NOTIFICATIONS
    assert quiet.notified == []
    status, _, _ = await rest(
        "PATCH", f"/channels/{world.games.id}/messages/{none.id}", {"content": f"<@{a}>!"}
    )
    assert status == 200 and none.notified == []  # an edit never pings


async def test_an_edit_through_a_clicks_token_keeps_the_pings_the_message_made(
    world: World, rest: Rest
) -> None:
    a = world.alice.id
    go = {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}
    asked = await post(
        rest, world.games.id, f"<@{a}>, go", allowed_mentions={"users": [str(a)]}, components=[go]
    )
    assert asked.notified == [a]
    asked.settled_at = 0.0
    ix = await world.bob.click(asked, "Go", wait_connected=False)
    assert (await rest("POST", f"/interactions/{ix.id}/{ix.token}/callback", {"type": 6})).status
    hook = f"/webhooks/{world.fake.application_id}/{ix.token}/messages/@original"
    edit = {"content": f"<@{a}>, gone", "allowed_mentions": {"parse": []}}
    assert (await rest("PATCH", hook, edit)).status == 200
    assert asked.content == f"<@{a}>, gone"
    assert asked.notified == [a]  # the edit pinged nobody, and the post's ping stands
