"""Components V2 layouts sent by the real discord.py (``ui.LayoutView``) through the fake.

A layout built as a lobby card would be (a container with text, a section with a button, a
separator, an action row of buttons and one with a select, a media gallery showing an uploaded
picture) is accepted and stored with the IS_COMPONENTS_V2 flag; what Discord refuses and
discord.py does not check itself (the 4,000 characters of text, duplicate ``id``s, legacy fields
on an edit) comes back as Discord's 400 50035 ``Invalid Form Body``, a ``discord.HTTPException``.
The raw-HTTP rules behind each refusal are in ``tests/fake/test_rules.py``.
"""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest
from discord.ext import commands
from PIL import Image

from tests.fakediscord.fixtures import *  # noqa: F403 - the pytest fixtures
from tests.fakediscord.fixtures import StartBot, World

V2 = 1 << 15


def picture() -> discord.File:
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 30, 30)).save(buf, "PNG")
    buf.seek(0)
    return discord.File(buf, filename="board.png")


def lobby_card(text: str = "Seat 1: alice") -> discord.ui.LayoutView:
    view = discord.ui.LayoutView(timeout=None)
    seats = discord.ui.Section(
        discord.ui.TextDisplay(text),
        accessory=discord.ui.Button(label="Leave", custom_id="fpt:leave"),
    )
    host = discord.ui.ActionRow(
        discord.ui.Button(label="Start", custom_id="fpt:start"),
        discord.ui.Button(label="Cancel", custom_id="fpt:cancel"),
    )
    add = discord.ui.ActionRow(
        discord.ui.Select(
            custom_id="fpt:add",
            placeholder="Add a computer",
            options=[discord.SelectOption(label=level) for level in ("easy", "normal", "hard")],
        )
    )
    gallery = discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://board.png"))
    view.add_item(
        discord.ui.Container(
            discord.ui.TextDisplay("## Flaming Pyramids"),
            seats,
            discord.ui.Separator(),
            host,
            add,
            gallery,
            accent_colour=discord.Colour.orange(),
        )
    )
    return view


async def games_channel(world: World, start_bot: StartBot) -> discord.TextChannel:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    await start_bot(bot)
    channel = bot.get_channel(world.games.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_a_layout_view_lobby_card_is_accepted_as_a_components_v2_message(
    fake_world: World, start_bot: StartBot
) -> None:
    channel = await games_channel(fake_world, start_bot)
    sent = await channel.send(view=lobby_card(), file=picture())
    stored = fake_world.fake.latest_message(fake_world.games)
    assert stored.id == sent.id and stored.flags & V2
    assert stored.content == ""
    kinds = [c["type"] for c in stored.components[0]["components"]]
    assert kinds == [10, 9, 14, 1, 1, 12]  # text, section, separator, two rows, gallery
    assert [a.filename for a in stored.images()] == ["board.png"]
    fake_world.fake.assert_no_refusals()


async def test_a_layout_view_edit_keeps_the_flag_and_may_not_bring_back_content(
    fake_world: World, start_bot: StartBot
) -> None:
    channel = await games_channel(fake_world, start_bot)
    sent = await channel.send(view=lobby_card(), file=picture())
    await sent.edit(view=lobby_card("Seat 1: alice · Seat 2: bob"))
    stored = fake_world.fake.latest_message(fake_world.games)
    assert stored.flags & V2
    legacy = "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"
    with (
        fake_world.fake.expect_refusal(legacy),
        pytest.raises(discord.HTTPException) as refused,
    ):
        await sent.edit(content="plain text again")
    assert (refused.value.status, refused.value.code) == (400, 50035)


@pytest.mark.parametrize(
    ("make", "code"),
    [
        (lambda: lobby_card("x" * 4000), "BASE_TYPE_MAX_LENGTH"),
        (lambda: _with_ids(7, 7), "COMPONENT_ID_DUPLICATED"),
    ],
    ids=["more-than-4000-characters-of-text", "duplicate-ids"],
)
async def test_what_discord_py_lets_through_discord_refuses(
    fake_world: World, start_bot: StartBot, make: Any, code: str
) -> None:
    channel = await games_channel(fake_world, start_bot)
    with fake_world.fake.expect_refusal(code), pytest.raises(discord.HTTPException) as refused:
        await channel.send(view=make(), file=picture())
    assert (refused.value.status, refused.value.code) == (400, 50035)
    assert fake_world.fake.messages(fake_world.games) == []


def _with_ids(a: int, b: int) -> discord.ui.LayoutView:
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.TextDisplay("one", id=a))
    view.add_item(discord.ui.TextDisplay("two", id=b))
    return view


def text_card() -> discord.ui.LayoutView:
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(discord.ui.TextDisplay("Seat 1: alice")))
    return view


async def test_a_classic_message_becomes_v2_only_with_its_content_and_embeds_emptied(
    fake_world: World, start_bot: StartBot
) -> None:
    channel = await games_channel(fake_world, start_bot)
    sent = await channel.send("a classic card", embed=discord.Embed(title="Table 1"))
    legacy = "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"
    for kept in ({"content": None}, {"embeds": []}):  # one of the two left as it was
        with (
            fake_world.fake.expect_refusal(legacy),
            pytest.raises(discord.HTTPException) as refused,
        ):
            await sent.edit(view=text_card(), **kept)
        assert (refused.value.status, refused.value.code) == (400, 50035)
    stored = fake_world.fake.latest_message(fake_world.games)
    assert not stored.flags & V2 and stored.content == "a classic card"
    await sent.edit(view=text_card(), content=None, embeds=[])
    assert stored.flags & V2 and stored.content == "" and stored.embeds == []


async def test_a_v2_message_notifies_whom_its_text_displays_mention(
    fake_world: World, start_bot: StartBot
) -> None:
    channel = await games_channel(fake_world, start_bot)
    alice = fake_world.alice.id
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container(discord.ui.TextDisplay(f"Host: <@{alice}>")))
    await channel.send(view=view)
    assert fake_world.fake.latest_message(fake_world.games).notified == [alice]
    await channel.send(view=view, allowed_mentions=discord.AllowedMentions.none())
    assert fake_world.fake.latest_message(fake_world.games).notified == []
