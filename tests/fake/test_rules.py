"""Each of Discord's rules the fake enforces: a valid request is accepted, the invalid one is
refused with Discord's status, code and error body (raw HTTP, no bot involved).

The table in ``tests/fakediscord/README.md`` names the page of Discord's documentation behind
each rule; the case ids here match its rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from tests.fake.conftest import Answer, Rest
from tests.fakediscord import FakeDiscord, RateLimitConfig
from tests.fakediscord.fixtures import World
from tests.fakediscord.ratelimit import BucketRule

V2 = 1 << 15
EPHEMERAL = 1 << 6


def button(label: str = "Go", custom_id: str = "go", **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id, **extra}


def row(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(children)}


def select(options: int, custom_id: str = "pick") -> dict[str, Any]:
    return {
        "type": 3,
        "custom_id": custom_id,
        "options": [{"label": f"o{i}", "value": f"v{i}"} for i in range(options)],
    }


def buttons_row(n: int, prefix: str = "b") -> dict[str, Any]:
    return row(*(button(f"{prefix}{i}", f"{prefix}{i}") for i in range(n)))


def text(n: int) -> str:
    return "x" * n


def embed(**fields: Any) -> dict[str, Any]:
    return {"title": "T", **fields}


def v2_texts(n: int) -> list[dict[str, Any]]:
    return [{"type": 10, "content": f"line {i}"} for i in range(n)]


def v2_text(content: str = "hello", **extra: Any) -> dict[str, Any]:
    return {"type": 10, "content": content, **extra}


def section(*children: dict[str, Any], accessory: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"type": 9, "components": list(children), "accessory": accessory or button()}


def container(*children: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": 17, "components": list(children), **extra}


def thumbnail() -> dict[str, Any]:
    return {"type": 11, "media": {"url": "https://example.com/a.png"}}


def v2(*components: dict[str, Any]) -> dict[str, Any]:
    return {"flags": V2, "components": list(components)}


@dataclass
class BodyRule:
    """A message body Discord accepts and one it refuses at ``path`` with ``code``."""

    valid: dict[str, Any]
    invalid: dict[str, Any]
    path: str
    code: str


BODY_RULES: dict[str, BodyRule] = {
    "content-2000": BodyRule(
        {"content": text(2000)}, {"content": text(2001)}, "content", "BASE_TYPE_MAX_LENGTH"
    ),
    "embeds-10": BodyRule(
        {"embeds": [embed()] * 10}, {"embeds": [embed()] * 11}, "embeds", "BASE_TYPE_MAX_LENGTH"
    ),
    "embed-title-256": BodyRule(
        {"embeds": [embed(title=text(256))]},
        {"embeds": [embed(title=text(257))]},
        "embeds.0.title",
        "BASE_TYPE_MAX_LENGTH",
    ),
    "embed-description-4096": BodyRule(
        {"embeds": [embed(description=text(4096))]},
        {"embeds": [embed(description=text(4097))]},
        "embeds.0.description",
        "BASE_TYPE_MAX_LENGTH",
    ),
    "embed-fields-25": BodyRule(
        {"embeds": [embed(fields=[{"name": "n", "value": "v"}] * 25)]},
        {"embeds": [embed(fields=[{"name": "n", "value": "v"}] * 26)]},
        "embeds.0.fields",
        "BASE_TYPE_MAX_LENGTH",
    ),
    "embed-field-name-256": BodyRule(
        {"embeds": [embed(fields=[{"name": text(256), "value": "v"}])]},
        {"embeds": [embed(fields=[{"name": text(257), "value": "v"}])]},
        "embeds.0.fields.0.name",
        "BASE_TYPE_MAX_LENGTH",
    ),
    "embed-field-value-1024": BodyRule(
        {"embeds": [embed(fields=[{"name": "n", "value": text(1024)}])]},
        {"embeds": [embed(fields=[{"name": "n", "value": text(1025)}])]},
        "embeds.0.fields.0.value",
        "BASE_TYPE_MAX_LENGTH",
    ),
    "embed-footer-2048": BodyRule(
        {"embeds": [embed(footer={"text": text(2048)})]},
        {"embeds": [embed(footer={"text": text(2049)})]},
        "embeds.0.footer.text",
        "BASE_TYPE_MAX_LENGTH",
    ),
    "embed-author-256": BodyRule(
        {"embeds": [embed(author={"name": text(256)})]},
        {"embeds": [embed(author={"name": text(257)})]},
        "embeds.0.author.name",
        "BASE_TYPE_MAX_LENGTH",
    ),
    "embeds-6000-in-all": BodyRule(
        {"embeds": [{"description": text(3000)}, {"description": text(3000)}]},
        {"embeds": [{"description": text(3000)}, {"description": text(3001)}]},
        "embeds",
        "MAX_EMBED_SIZE_EXCEEDED",
    ),
    "rows-5": BodyRule(
        {"content": "x", "components": [buttons_row(1, f"r{i}_") for i in range(5)]},
        {"content": "x", "components": [buttons_row(1, f"r{i}_") for i in range(6)]},
        "components",
        "BASE_TYPE_MAX_LENGTH",
    ),
    "buttons-5-a-row": BodyRule(
        {"content": "x", "components": [buttons_row(5)]},
        {"content": "x", "components": [buttons_row(6)]},
        "components.0.components",
        "BASE_TYPE_BAD_LENGTH",
    ),
    "select-alone-in-its-row": BodyRule(
        {"content": "x", "components": [row(select(3)), row(button())]},
        {"content": "x", "components": [row(select(3), button())]},
        "components.0.components",
        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
    ),
    "select-options-25": BodyRule(
        {"content": "x", "components": [row(select(25))]},
        {"content": "x", "components": [row(select(26))]},
        "components.0.components.0.options",
        "BASE_TYPE_BAD_LENGTH",
    ),
    "label-80": BodyRule(
        {"content": "x", "components": [row(button(text(80)))]},
        {"content": "x", "components": [row(button(text(81)))]},
        "components.0.components.0.label",
        "BASE_TYPE_MAX_LENGTH",
    ),
    "custom-id-100": BodyRule(
        {"content": "x", "components": [row(button(custom_id=text(100)))]},
        {"content": "x", "components": [row(button(custom_id=text(101)))]},
        "components.0.components.0.custom_id",
        "BASE_TYPE_BAD_LENGTH",
    ),
    "custom-id-unique": BodyRule(
        {"content": "x", "components": [row(button("A", "a"), button("B", "b"))]},
        {"content": "x", "components": [row(button("A", "a"), button("B", "a"))]},
        "components.0.components.1.custom_id",
        "COMPONENT_CUSTOM_ID_DUPLICATED",
    ),
    "link-button-url-no-custom-id": BodyRule(
        {
            "content": "x",
            "components": [row({"type": 2, "style": 5, "label": "L", "url": "https://a.b"})],
        },
        {
            "content": "x",
            "components": [
                row({"type": 2, "style": 5, "label": "L", "url": "https://a.b", "custom_id": "l"})
            ],
        },
        "components.0.components.0.custom_id",
        "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
    ),
    "link-button-needs-url": BodyRule(
        {
            "content": "x",
            "components": [row({"type": 2, "style": 5, "label": "L", "url": "https://a.b"})],
        },
        {"content": "x", "components": [row({"type": 2, "style": 5, "label": "L"})]},
        "components.0.components.0.url",
        "BUTTON_COMPONENT_URL_REQUIRED",
    ),
    "button-emoji-is-an-emoji": BodyRule(
        {"content": "x", "components": [row(button(emoji={"name": "🃏"}))]},
        {"content": "x", "components": [row(button(emoji={"name": "\U0001f0a0"}))]},
        "components.0.components.0.emoji.name",
        "BUTTON_COMPONENT_INVALID_EMOJI",
    ),
    "button-custom-emoji-has-an-id": BodyRule(
        {"content": "x", "components": [row(button(emoji={"id": "123", "name": "pyramid"}))]},
        {"content": "x", "components": [row(button(emoji={"name": "pyramid"}))]},
        "components.0.components.0.emoji.name",
        "BUTTON_COMPONENT_INVALID_EMOJI",
    ),
    "select-option-emoji-is-an-emoji": BodyRule(
        {
            "content": "x",
            "components": [
                row(
                    {
                        **select(1),
                        "options": [{"label": "a", "value": "a", "emoji": {"name": "🟥"}}],
                    }
                )
            ],
        },
        {
            "content": "x",
            "components": [
                row(
                    {
                        **select(1),
                        "options": [{"label": "a", "value": "a", "emoji": {"name": ":red:"}}],
                    }
                )
            ],
        },
        "components.0.components.0.options.0.emoji.name",
        "SELECT_COMPONENT_OPTION_INVALID_EMOJI",
    ),
    "v2-no-content": BodyRule(
        {"flags": V2, "components": v2_texts(1)},
        {"flags": V2, "content": "hello", "components": v2_texts(1)},
        "content",
        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
    ),
    "v2-no-embeds": BodyRule(
        {"flags": V2, "components": v2_texts(1)},
        {"flags": V2, "embeds": [embed()], "components": v2_texts(1)},
        "embeds",
        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
    ),
    "v2-40-components": BodyRule(
        {"flags": V2, "components": v2_texts(40)},
        {"flags": V2, "components": v2_texts(41)},
        "components",
        "BASE_TYPE_MAX_LENGTH",
    ),
    "v2-no-stickers": BodyRule(
        v2(v2_text()),
        {**v2(v2_text()), "sticker_ids": ["1"]},
        "sticker_ids",
        "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
    ),
    "v2-top-level-types": BodyRule(
        v2(v2_text(), {"type": 14}, buttons_row(2), section(v2_text("s"))),
        v2(thumbnail()),
        "components.0.type",
        "UNION_TYPE_CHOICES",
    ),
    "v2-section-1-to-3-texts": BodyRule(
        v2(section(v2_text("a"), v2_text("b"), v2_text("c"))),
        v2(section(v2_text("a"), v2_text("b"), v2_text("c"), v2_text("d"))),
        "components.0.components",
        "BASE_TYPE_BAD_LENGTH",
    ),
    "v2-section-holds-text-displays": BodyRule(
        v2(section(v2_text("a"))),
        v2(section(buttons_row(1))),
        "components.0.components.0.type",
        "UNION_TYPE_CHOICES",
    ),
    "v2-section-accessory": BodyRule(
        v2(section(v2_text("a"), accessory=thumbnail())),
        v2({"type": 9, "components": [v2_text("a")], "accessory": v2_text("b")}),
        "components.0.accessory.type",
        "UNION_TYPE_CHOICES",
    ),
    "v2-container-children": BodyRule(
        v2(container(v2_text(), section(v2_text("s")), buttons_row(1, "c"), {"type": 14})),
        v2(container(container(v2_text()))),
        "components.0.components.0.type",
        "UNION_TYPE_CHOICES",
    ),
    "v2-container-no-bare-button": BodyRule(
        v2(container(buttons_row(1))),
        v2(container(button())),
        "components.0.components.0.type",
        "UNION_TYPE_CHOICES",
    ),
    "v2-action-row-children": BodyRule(
        v2(container(row(select(2)))),
        v2(container(row(v2_text()))),
        "components.0.components.0.components.0.type",
        "UNION_TYPE_CHOICES",
    ),
    "v2-text-4000": BodyRule(
        v2(v2_text(text(2000)), v2_text(text(2000))),
        v2(v2_text(text(2000)), v2_text(text(2001))),
        "components",
        "BASE_TYPE_MAX_LENGTH",
    ),
    "v2-unique-ids": BodyRule(
        v2(v2_text("a", id=1), v2_text("b", id=2), v2_text("c", id=0), v2_text("d", id=0)),
        v2(v2_text("a", id=7), container(v2_text("b", id=7))),
        "components.1.components.0.id",
        "COMPONENT_ID_DUPLICATED",
    ),
    "v2-unique-custom-ids": BodyRule(
        v2(section(v2_text("a"), accessory=button("A", "a")), buttons_row(2, "r")),
        v2(section(v2_text("a"), accessory=button("A", "r0")), buttons_row(2, "r")),
        "components.1.components.0.custom_id",
        "COMPONENT_CUSTOM_ID_DUPLICATED",
    ),
    "v2-40-components-nested": BodyRule(
        v2(container(*v2_texts(39))),
        v2(container(*v2_texts(40))),
        "components",
        "MESSAGE_COMPONENTS_TOO_MANY",
    ),
    "v2-components-need-the-flag": BodyRule(
        {"flags": V2, "components": v2_texts(1)},
        {"components": v2_texts(1)},
        "components.0.type",
        "UNION_TYPE_CHOICES",
    ),
}


@pytest.mark.parametrize("rule", list(BODY_RULES), ids=list(BODY_RULES))
async def test_a_message_body_rule(world: World, rest: Rest, rule: str) -> None:
    case = BODY_RULES[rule]
    path = f"/channels/{world.games.id}/messages"
    ok = await rest("POST", path, case.valid)
    assert ok.status == 200, ok.body
    refused = await rest("POST", path, case.invalid)
    assert (refused.status, refused.body["code"], refused.body["message"]) == (
        400,
        50035,
        "Invalid Form Body",
    )
    assert refused.field_error(case.path) == case.code
    assert [r.field_codes() for r in world.fake.refusals] == [[case.code]]
    assert len(world.fake.messages(world.games)) == 1


async def test_an_empty_message_is_refused(world: World, rest: Rest) -> None:
    path = f"/channels/{world.games.id}/messages"
    assert (await rest("POST", path, {"content": "x"})).status == 200
    refused = await rest("POST", path, {"content": ""})
    assert (refused.status, refused.body["code"]) == (400, 50006)


async def test_the_components_v2_flag_cannot_be_removed_by_an_edit(
    world: World, rest: Rest
) -> None:
    path = f"/channels/{world.games.id}/messages"
    msg = (await rest("POST", path, {"flags": V2, "components": v2_texts(1)})).body
    kept = await rest("PATCH", f"{path}/{msg['id']}", {"flags": V2, "components": v2_texts(2)})
    assert kept.status == 200 and kept.body["flags"] & V2
    refused = await rest("PATCH", f"{path}/{msg['id']}", {"flags": 0, "content": "plain"})
    assert (refused.status, refused.body["code"]) == (400, 50035)
    assert refused.field_error("flags") == "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG"


PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"
    b"\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99"
    b"=\x1d\x00\x00\x00\x00IEND\xaeB`\x82"
)


async def test_a_components_v2_message_shows_only_the_files_its_components_show(
    world: World, rest: Rest
) -> None:
    body = {
        "flags": V2,
        "components": [{"type": 12, "items": [{"media": {"url": "attachment://shown.png"}}]}],
    }
    ok = await rest(
        "POST",
        f"/channels/{world.games.id}/messages",
        body,
        files={"shown.png": PNG, "hidden.png": PNG},
    )
    assert ok.status == 200
    msg = world.fake.latest_message(world.games)
    assert [a.filename for a in msg.attachments] == ["shown.png", "hidden.png"]
    assert [a.filename for a in msg.images()] == ["shown.png"]


async def test_an_attachment_reference_names_a_file_of_the_message(
    world: World, rest: Rest
) -> None:
    path = f"/channels/{world.games.id}/messages"
    body = {"embeds": [{"image": {"url": "attachment://board.png"}}]}
    ok = await rest("POST", path, body, files={"board.png": PNG})
    assert ok.status == 200
    refused = await rest("POST", path, body, files={"bord.png": PNG})
    assert (refused.status, refused.body["code"]) == (400, 50035)
    assert refused.field_error("embeds.0.image.url") == "ATTACHMENT_NOT_FOUND"
    # an edit may refer to a file the message keeps
    edited = await rest("PATCH", f"{path}/{ok.body['id']}", body)
    assert edited.status == 200


async def test_an_edit_keeps_only_the_attachments_it_lists(world: World, rest: Rest) -> None:
    path = f"/channels/{world.games.id}/messages"
    msg = (await rest("POST", path, {"content": "x"}, files={"a.png": PNG, "b.png": PNG})).body
    keep = msg["attachments"][1]
    edited = await rest("PATCH", f"{path}/{msg['id']}", {"attachments": [{"id": keep["id"]}]})
    assert [a["filename"] for a in edited.body["attachments"]] == ["b.png"]
    cleared = await rest("PATCH", f"{path}/{msg['id']}", {"attachments": []})
    assert cleared.body["attachments"] == []


async def test_the_upload_limit_applies_to_each_file(world: World, rest: Rest) -> None:
    world.fake.state.max_attachment_size = 100
    path = f"/channels/{world.games.id}/messages"
    ok = await rest("POST", path, {"content": "x"}, files={"a.bin": b"a" * 80, "b.bin": b"b" * 80})
    assert ok.status == 200
    refused = await rest("POST", path, {"content": "x"}, files={"c.bin": b"c" * 101})
    assert (refused.status, refused.body["code"]) == (413, 40005)


# ------------------------------------------------------------------------------ interactions


async def clicked(world: World) -> Any:
    """An interaction: alice clicks a button on a message of the bot."""
    state = world.fake.state
    msg = state.create_message(
        world.games, state.bot, {"content": "go", "components": [row(button())]}, []
    )
    msg.settled_at = 0.0
    return await world.alice.click(msg, "Go", wait_connected=False)


async def test_an_interaction_takes_one_initial_response(world: World, rest: Rest) -> None:
    ix = await clicked(world)
    callback = f"/interactions/{ix.id}/{ix.token}/callback"
    assert (await rest("POST", callback, {"type": 6})).status == 204
    again = await rest("POST", callback, {"type": 6})
    assert (again.status, again.body["code"]) == (400, 40060)


async def test_an_interaction_token_lives_fifteen_minutes(world: World, rest: Rest) -> None:
    fake = world.fake
    ix = await clicked(world)
    assert (await rest("POST", f"/interactions/{ix.id}/{ix.token}/callback", {"type": 6})).status
    followup = f"/webhooks/{fake.application_id}/{ix.token}"
    wait = "?wait=true"
    fake.advance_time(14 * 60 + 59)
    assert (
        await rest("POST", followup + wait, {"content": "in time", "flags": EPHEMERAL})
    ).status == 200
    fake.advance_time(2)
    late = await rest("POST", followup + wait, {"content": "too late"})
    assert (late.status, late.body["code"], late.body["message"]) == (
        401,
        50027,
        "Invalid Webhook Token",
    )
    edit = await rest("PATCH", f"{followup}/messages/@original", {"content": "too late"})
    assert (edit.status, edit.body["code"]) == (401, 50027)
    assert [r.code for r in fake.refusals] == [50027, 50027]


async def test_an_ephemeral_message_is_edited_only_through_its_token(
    world: World, rest: Rest
) -> None:
    fake = world.fake
    ix = await clicked(world)
    await rest("POST", f"/interactions/{ix.id}/{ix.token}/callback", {"type": 6})
    hook = f"/webhooks/{fake.application_id}/{ix.token}"
    secret = (
        await rest("POST", hook + "?wait=true", {"content": "yours", "flags": EPHEMERAL})
    ).body
    via_channel = await rest(
        "PATCH", f"/channels/{world.games.id}/messages/{secret['id']}", {"content": "x"}
    )
    assert (via_channel.status, via_channel.body["code"]) == (404, 10008)
    other = await clicked(world)
    await rest("POST", f"/interactions/{other.id}/{other.token}/callback", {"type": 6})
    via_other = await rest(
        "PATCH",
        f"/webhooks/{fake.application_id}/{other.token}/messages/{secret['id']}",
        {"content": "x"},
    )
    assert (via_other.status, via_other.body["code"]) == (404, 10008)
    via_token = await rest("PATCH", f"{hook}/messages/{secret['id']}", {"content": "edited"})
    assert via_token.status == 200 and via_token.body["content"] == "edited"


# ------------------------------------------------------------------------------ incoming webhooks


async def test_an_incoming_webhook_posts_in_its_channel_under_its_name(
    world: World, rest: Rest
) -> None:
    fake = world.fake
    hook = fake.create_webhook(world.general, "Alerts")
    path = f"/webhooks/{hook.id}/{hook.token}"
    assert (await rest("POST", path, {"content": "first"})).status == 204  # no wait: no body
    waited = await rest("POST", path + "?wait=true", {"content": "second", "username": "Bot Ops"})
    assert waited.status == 200 and waited.body["webhook_id"] == str(hook.id)
    assert waited.body["author"]["username"] == "Bot Ops"
    posted = fake.messages(world.general)
    assert [m.content for m in posted] == ["second", "first"]
    assert [m.author.username for m in posted] == ["Bot Ops", "Alerts"]
    assert all(m.webhook_id == hook.id and m.application_id is None for m in posted)


async def test_an_incoming_webhook_refuses_a_wrong_token_an_empty_message_and_bad_names(
    world: World, rest: Rest
) -> None:
    fake = world.fake
    hook = fake.create_webhook(world.general)
    path = f"/webhooks/{hook.id}/{hook.token}"
    unknown = await rest("POST", f"/webhooks/{hook.id + 1}/{hook.token}", {"content": "x"})
    assert (unknown.status, unknown.body["code"]) == (404, 10015)
    wrong = await rest("POST", f"/webhooks/{hook.id}/not-its-token", {"content": "x"})
    assert (wrong.status, wrong.body["code"]) == (401, 50027)
    empty = await rest("POST", path, {"username": "x"})
    assert (empty.status, empty.body["code"]) == (400, 50006)
    for name in ("My Discord bot", "clyde", "x" * 81):
        refused = await rest("POST", path, {"content": "x", "username": name})
        assert (refused.status, refused.body["code"]) == (400, 50035)
        assert refused.field_error("username") == "USERNAME_INVALID"
    long = await rest("POST", path, {"content": "x" * 2001})
    assert long.field_error("content") == "BASE_TYPE_MAX_LENGTH"
    assert fake.messages(world.general) == []
    with pytest.raises(ValueError, match="discord"):
        fake.create_webhook(world.general, "Discord alerts")
    assert [r.code for r in fake.refusals] == [50027, 50006, 50035, 50035, 50035, 50035]


async def test_an_incoming_webhook_sets_only_some_flags_and_ignores_components_unless_asked(
    world: World, rest: Rest
) -> None:
    fake = world.fake
    hook = fake.create_webhook(world.general)
    path = f"/webhooks/{hook.id}/{hook.token}?wait=true"
    quiet = await rest("POST", path, {"content": "shh", "flags": 1 << 12})
    assert quiet.status == 200 and quiet.body["flags"] == 1 << 12
    ephemeral = await rest("POST", path, {"content": "x", "flags": EPHEMERAL})
    assert (ephemeral.status, ephemeral.field_error("flags")) == (400, "MESSAGE_FLAGS_INVALID")
    link = {"type": 2, "style": 5, "label": "Docs", "url": "https://example.com"}
    ignored = await rest("POST", path, {"content": "x", "components": [row(link)]})
    assert ignored.status == 200 and ignored.body["components"] == []
    kept = await rest(
        "POST", path + "&with_components=true", {"content": "x", "components": [row(link)]}
    )
    assert kept.status == 200 and len(kept.body["components"]) == 1


# ------------------------------------------------------------------------------ direct messages


async def dm(rest: Rest, user_id: int, content: str = "hi") -> Answer:
    channel = (await rest("POST", "/users/@me/channels", {"recipient_id": str(user_id)})).body
    return await rest("POST", f"/channels/{channel['id']}/messages", {"content": content})


async def test_a_user_with_closed_dms_cannot_be_messaged(world: World, rest: Rest) -> None:
    assert (await dm(rest, world.alice.id)).status == 200
    refused = await dm(rest, world.dave.id)
    assert (refused.status, refused.body["code"]) == (403, 50007)


async def test_a_user_sharing_no_server_with_the_bot_cannot_be_messaged(
    world: World, rest: Rest
) -> None:
    stranger = world.fake.create_user("stranger")
    refused = await dm(rest, stranger.id)
    assert (refused.status, refused.body["code"]) == (403, 50278)
    world.fake.add_member(world.guild, stranger)
    assert (await dm(rest, stranger.id)).status == 200


# ------------------------------------------------------------------------------ rate limits


async def test_message_creation_and_edits_share_one_bucket_per_channel(
    world: World, rest: Rest
) -> None:
    world.fake.enable_rate_limits(RateLimitConfig())
    path = f"/channels/{world.games.id}/messages"
    first = await rest("POST", path, {"content": "0"})
    buckets = {first.headers["X-RateLimit-Bucket"]}
    for i in range(2):
        assert (await rest("POST", path, {"content": str(i)})).status == 200
    for i in range(2):
        edit = await rest("PATCH", f"{path}/{first.body['id']}", {"content": f"e{i}"})
        assert edit.status == 200
        buckets.add(edit.headers["X-RateLimit-Bucket"])
    assert edit.headers["X-RateLimit-Remaining"] == "0" and len(buckets) == 1
    refused = await rest("PATCH", f"{path}/{first.body['id']}", {"content": "too many"})
    assert refused.status == 429 and refused.body["global"] is False
    assert refused.body["retry_after"] > 0 and refused.headers["X-RateLimit-Scope"] == "user"
    other = await rest("POST", f"/channels/{world.general.id}/messages", {"content": "x"})
    assert other.status == 200


async def test_the_global_limit_spares_interaction_endpoints(world: World, rest: Rest) -> None:
    world.fake.enable_rate_limits(RateLimitConfig(global_limit=3, default=BucketRule(100, 1.0)))
    for _ in range(3):
        assert (await rest("GET", "/users/@me")).status == 200
    refused = await rest("GET", "/users/@me")
    assert refused.status == 429 and refused.body["global"] is True
    assert refused.headers["X-RateLimit-Global"] == "true"
    assert refused.headers["X-RateLimit-Scope"] == "global"
    ix = await clicked(world)
    assert (
        await rest("POST", f"/interactions/{ix.id}/{ix.token}/callback", {"type": 6})
    ).status == 204


# ------------------------------------------------------------------ Discord's published contract


async def test_path_and_query_parameters_are_held_to_the_contract(world: World, rest: Rest) -> None:
    fake = world.fake
    games = f"/channels/{world.games.id}/messages"
    assert (await rest("GET", f"{games}?limit=100")).status == 200
    with fake.expect_refusal("NUMBER_TYPE_MAX"):
        refused = await rest("GET", f"{games}?limit=101")
    assert (refused.status, refused.body["code"]) == (400, 50035)
    assert refused.field_error("limit") == "NUMBER_TYPE_MAX"
    with fake.expect_refusal("NUMBER_TYPE_COERCE"):
        refused = await rest("GET", "/channels/games/messages")
    assert refused.field_error("channel_id") == "NUMBER_TYPE_COERCE"
    outside = fake.outside_contract()
    assert [(r.route, r.outside_contract) for r in outside] == [
        (
            "GET /channels/{channel_id}/messages",
            ["limit: NUMBER_TYPE_MAX int value should be less than or equal to 100."],
        ),
        (
            "GET /channels/{channel_id}/messages",
            ['channel_id: NUMBER_TYPE_COERCE Value "games" is not snowflake.'],
        ),
    ]
    assert fake.unchecked_requests() == []


async def test_a_command_registration_outside_the_contract_is_refused_whole(
    world: World, rest: Rest
) -> None:
    """An integer option's max_value is at most 2^53 - 1 (the spec's Int53Type): Discord
    refuses the whole list, so not one command registers."""
    fake = world.fake
    path = f"/applications/{fake.state.application_id}/commands"

    def commands(max_value: int) -> list[dict[str, Any]]:
        match = {"type": 4, "name": "match", "description": "Its number", "max_value": max_value}
        return [
            {"name": "fp", "description": "Play", "options": [match]},
            {"name": "other", "description": "Another command"},
        ]

    with fake.expect_refusal("NUMBER_TYPE_MAX"):
        refused = await rest("PUT", path, commands(2**53))
    assert (refused.status, refused.body["code"]) == (400, 50035)
    assert refused.field_error("0.options.0.max_value") == "NUMBER_TYPE_MAX"
    assert fake.commands() == []
    assert (await rest("PUT", path, commands(2**53 - 1))).status == 200
    assert sorted(c.name for c in fake.commands()) == ["fp", "other"]


# ------------------------------------------------------------------------------ refusals in tests


async def test_an_unexpected_refusal_fails_with_the_fakes_reason(world: World, rest: Rest) -> None:
    fake = world.fake
    bad = {"content": "x", "components": [row(button(emoji={"name": "\U0001f0a0"}))]}
    await rest("POST", f"/channels/{world.games.id}/messages", bad)
    with pytest.raises(AssertionError) as failure:
        fake.assert_no_refusals()
    reason = str(failure.value)
    assert "POST /channels/{channel_id}/messages -> 400 50035 Invalid Form Body" in reason
    assert "components.0.components.0.emoji.name: BUTTON_COMPONENT_INVALID_EMOJI" in reason


async def test_an_expected_refusal_fails_nothing(world: World, rest: Rest) -> None:
    fake = world.fake
    bad = {"content": "x", "components": [row(button(emoji={"name": "\U0001f0a0"}))]}
    with fake.expect_refusal("BUTTON_COMPONENT_INVALID_EMOJI") as seen:
        await rest("POST", f"/channels/{world.games.id}/messages", bad)
    assert seen[0].status == 400
    fake.assert_no_refusals()
    with pytest.raises(AssertionError, match="none came"), fake.expect_refusal(50035):
        await rest("POST", f"/channels/{world.games.id}/messages", {"content": "fine"})


# ------------------------------------------------------------------------------ the rest


async def test_at_most_ten_files_a_message(world: World, rest: Rest) -> None:
    path = f"/channels/{world.games.id}/messages"
    ten = {f"f{i}.bin": b"x" for i in range(10)}
    assert (await rest("POST", path, {"content": "x"}, files=ten)).status == 200
    refused = await rest("POST", path, {"content": "x"}, files={**ten, "f10.bin": b"x"})
    assert (refused.status, refused.body["code"]) == (400, 50035)
    assert refused.field_error("files") == "BASE_TYPE_MAX_LENGTH"


async def test_an_attachments_description_is_at_most_1024_characters(
    world: World, rest: Rest
) -> None:
    """The alt text of a file (``attachments[n].description``): 1,024 characters at most, as
    the contract says (``MessageAttachmentRequest``); the fake keeps what was accepted."""
    path = f"/channels/{world.games.id}/messages"

    def described(length: int) -> dict[str, Any]:
        return {"content": "x", "attachments": [{"id": 0, "description": "é" * length}]}

    ok = await rest("POST", path, described(1024), files={"a.bin": b"x"})
    assert ok.status == 200 and ok.body["attachments"][0]["description"] == "é" * 1024
    with world.fake.expect_refusal("BASE_TYPE_MAX_LENGTH"):
        refused = await rest("POST", path, described(1025), files={"a.bin": b"x"})
    assert (refused.status, refused.body["code"]) == (400, 50035)
    assert refused.field_error("attachments.0.description") == "BASE_TYPE_MAX_LENGTH"


async def test_a_response_type_must_fit_the_interaction(world: World, rest: Rest) -> None:
    ix = await clicked(world)
    callback = f"/interactions/{ix.id}/{ix.token}/callback"
    refused = await rest("POST", callback, {"type": 8, "data": {"choices": []}})
    assert (refused.status, refused.body["code"]) == (400, 50035)
    assert refused.field_error("type") == "INTERACTION_RESPONSE_TYPE_INVALID"
    assert (await rest("POST", callback, {"type": 6})).status == 204


async def test_the_bot_edits_only_its_own_messages(world: World, rest: Rest) -> None:
    state = world.fake.state
    theirs = state.create_message(world.games, world.alice.account, {"content": "hi"}, [])
    mine = (await rest("POST", f"/channels/{world.games.id}/messages", {"content": "x"})).body
    path = f"/channels/{world.games.id}/messages"
    assert (await rest("PATCH", f"{path}/{mine['id']}", {"content": "y"})).status == 200
    refused = await rest("PATCH", f"{path}/{theirs.id}", {"content": "y"})
    assert (refused.status, refused.body["code"]) == (403, 50005)


async def identify(fake: FakeDiscord, intents: int, token: str | None = None) -> int | None:
    """Open the gateway, IDENTIFY, and return the close code (None: the session started)."""
    async with aiohttp.ClientSession() as session, session.ws_connect(fake.gateway_url) as ws:
        hello = await ws.receive_json()
        assert hello["op"] == 10
        await ws.send_json(
            {
                "op": 2,
                "d": {
                    "token": token or fake.token,
                    "intents": intents,
                    "properties": {"os": "linux", "browser": "test", "device": "test"},
                },
            }
        )
        msg = await ws.receive()
        if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
            return ws.close_code
        return None


async def test_privileged_intents_need_the_applications_permission(world: World) -> None:
    members_intent = 1 << 1
    assert await identify(world.fake, members_intent) is None
    world.fake.gateway.allowed_intents = 0
    assert await identify(world.fake, members_intent) == 4014
    assert await identify(world.fake, 1) is None


async def test_a_bad_token_is_refused_on_rest_and_on_the_gateway(world: World, rest: Rest) -> None:
    assert (await rest("GET", "/users/@me")).status == 200
    async with rest.session.get(
        world.fake.base_url + "/users/@me", headers={"Authorization": "Bot wrong"}
    ) as resp:
        assert resp.status == 401 and (await resp.json())["message"] == "401: Unauthorized"
    assert await identify(world.fake, 1, token="wrong") == 4004
