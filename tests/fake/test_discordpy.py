"""End-to-end tests of the fake Discord, driving a minimal discord.py bot defined here."""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.fakediscord import (
    CallbackType,
    CommandNotSynced,
    CommandUsageError,
    ComponentDisabled,
    ComponentNotFound,
    InteractionFailed,
    MessageNotVisible,
    Perm,
    point_discord_py_at,
)
from tests.fakediscord.fixtures import *  # noqa: F403 - the pytest fixtures
from tests.fakediscord.fixtures import StartBot, World
from tests.fakediscord.models import iter_components

# --------------------------------------------------------------------------- the test bot

BOARD_SIZE = 24


def board_png(marker: tuple[int, int] = (3, 5)) -> bytes:
    """A small red board with one blue square, as PNG bytes."""
    img = Image.new("RGB", (BOARD_SIZE, BOARD_SIZE), (200, 30, 30))
    img.putpixel(marker, (0, 0, 255))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


class JoinButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"fpt:join:(?P<game>\d+)"
):
    """A persistent "Join" button: the game number lives in the custom id."""

    def __init__(self, game: int, players: int = 0) -> None:
        super().__init__(
            discord.ui.Button(
                label="Join",
                custom_id=f"fpt:join:{game}",
                style=discord.ButtonStyle.primary,
            )
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> JoinButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(JoinButton(self.game))
        view.add_item(
            discord.ui.Button(label="Start", custom_id=f"fpt:start:{self.game}", disabled=True)
        )
        await interaction.response.edit_message(
            content=f"game {self.game}: {interaction.user.name} joined", view=view
        )


class StepButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"fpt:step:(?P<step>\d+)"
):
    """A "Next" button whose id names the step it was shown at; its click edits the message to
    the next step, whose own "Next" takes the same place with a new id."""

    def __init__(self, step: int) -> None:
        super().__init__(discord.ui.Button(label="Next", custom_id=f"fpt:step:{step}"))
        self.step = step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> StepButton:
        return cls(int(match["step"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(StepButton(self.step + 1))
        await interaction.response.edit_message(content=f"step {self.step + 1}", view=view)


class MiniBot(commands.Bot):
    """Just enough bot to exercise every feature of the fake."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default())
        self.guild_id = guild_id
        self.games = 0
        self.caught: list[discord.HTTPException] = []
        self.resumed = 0
        self.seen: list[tuple[str, str]] = []
        self.slow_done = asyncio.Event()

    async def setup_hook(self) -> None:
        self.add_dynamic_items(JoinButton, StepButton)
        self.tree.add_command(make_group(self))
        guild = discord.Object(self.guild_id)
        self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)

    async def on_resumed(self) -> None:
        self.resumed += 1

    async def on_message(self, message: discord.Message) -> None:
        self.seen.append((message.author.name, message.content))


def make_group(bot: MiniBot) -> app_commands.Group:
    group = app_commands.Group(name="fp", description="Flaming Pyramids test commands")

    @group.command(name="ping", description="Reply in the channel with a Join button")
    async def ping(interaction: discord.Interaction, loud: bool = False) -> None:
        bot.games += 1
        view = discord.ui.View(timeout=None)
        view.add_item(JoinButton(bot.games))
        await interaction.response.send_message("PONG" if loud else "pong", view=view)

    @group.command(name="step", description="A message whose Next button moves it on a step")
    async def step(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(StepButton(1))
        await interaction.response.send_message("step 1", view=view)

    @group.command(name="secret", description="Defer ephemerally, then follow up")
    async def secret(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send("the secret is 42", ephemeral=True)

    @group.command(name="board", description="Post the board picture in the channel")
    async def board(interaction: discord.Interaction) -> None:
        file = discord.File(io.BytesIO(board_png((1, 2))), "board.png")
        embed = discord.Embed(title="Board").set_image(url="attachment://board.png")
        await interaction.response.send_message(embed=embed, file=file)

    @group.command(name="dm", description="DM the caller their hand as a PNG")
    async def dm(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = discord.ui.View(timeout=60)
        ready: discord.ui.Button[Any] = discord.ui.Button(label="Ready")

        async def on_ready_click(inter: discord.Interaction) -> None:
            assert inter.guild is None and isinstance(inter.channel, discord.DMChannel)
            await inter.response.edit_message(content=f"{inter.user.name} is ready", view=None)

        ready.callback = on_ready_click  # type: ignore[method-assign,assignment]
        view.add_item(ready)
        try:
            await interaction.user.send(
                "your hand", file=discord.File(io.BytesIO(board_png()), "turn.png"), view=view
            )
        except discord.Forbidden as e:
            bot.caught.append(e)
            await interaction.followup.send("I cannot DM you", ephemeral=True)
        else:
            await interaction.followup.send("check your DMs", ephemeral=True)

    @group.command(name="announce", description="Post in the channel outside the interaction")
    async def announce(interaction: discord.Interaction, size: int = 0) -> None:
        await interaction.response.defer(ephemeral=True)
        assert isinstance(interaction.channel, discord.TextChannel)
        try:
            if size:
                big = discord.File(io.BytesIO(b"\0" * size), "big.bin")
                await interaction.channel.send("big file", file=big)
            else:
                await interaction.channel.send("announcement")
        except discord.HTTPException as e:
            bot.caught.append(e)
            await interaction.followup.send(f"failed: {e.code}", ephemeral=True)
        else:
            await interaction.followup.send("done", ephemeral=True)

    @group.command(name="slow", description="Sleep, then try to answer")
    async def slow(interaction: discord.Interaction, seconds: float) -> None:
        await asyncio.sleep(seconds)
        try:
            await interaction.response.send_message("finally")
        except discord.HTTPException as e:
            bot.caught.append(e)
        finally:
            bot.slow_done.set()

    @group.command(name="double", description="Answer twice")
    async def double(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("one")
        interaction.response._response_type = None  # force a second real callback
        try:
            await interaction.response.send_message("two")
        except discord.HTTPException as e:
            bot.caught.append(e)

    @group.command(name="progress", description="Defer, edit the reply twice, follow up")
    async def progress(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.edit_original_response(content="step 1")
        await interaction.edit_original_response(content="step 2")
        await interaction.followup.send("extra")

    @group.command(name="roll", description="A button answered with a deferred update")
    async def roll(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=60)
        button: discord.ui.Button[Any] = discord.ui.Button(label="Roll", emoji="\N{GAME DIE}")

        async def rolled(inter: discord.Interaction) -> None:
            await inter.response.defer()
            if inter.user.name == "carol":
                await inter.followup.send("not your turn", ephemeral=True)
                return
            await inter.edit_original_response(content=f"{inter.user.name} rolled a 6", view=None)

        button.callback = rolled  # type: ignore[method-assign,assignment]
        view.add_item(button)
        await interaction.response.send_message("roll the die", view=view)

    @group.command(name="tidy", description="Fetch and delete the reply, keep a followup")
    async def tidy(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("temporary")
        original = await interaction.original_response()
        assert original.content == "temporary"
        await interaction.delete_original_response()
        extra = await interaction.followup.send("extra", wait=True)
        await interaction.followup.send("kept")
        await extra.delete()

    @group.command(name="pick", description="Offer a select menu")
    async def pick(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=60)
        select: discord.ui.Select[Any] = discord.ui.Select(
            placeholder="Choose a colour",
            options=[discord.SelectOption(label=c.title(), value=c) for c in ("red", "blue")],
        )

        async def chosen(inter: discord.Interaction) -> None:
            await inter.response.edit_message(content=f"chose {select.values[0]}", view=None)

        select.callback = chosen  # type: ignore[method-assign,assignment]
        view.add_item(select)
        await interaction.response.send_message("pick one", view=view)

    @group.command(name="name", description="Ask for a name in a modal")
    async def name(interaction: discord.Interaction) -> None:
        class NameModal(discord.ui.Modal, title="Your name"):
            player: discord.ui.TextInput[Any] = discord.ui.TextInput(
                label="Name", custom_id="player"
            )

            async def on_submit(self, inter: discord.Interaction) -> None:
                await inter.response.send_message(f"hello {self.player.value}")

        await interaction.response.send_modal(NameModal())

    @group.command(name="colour", description="Autocompleted option")
    async def colour(interaction: discord.Interaction, value: str) -> None:
        await interaction.response.send_message(f"colour {value}")

    @colour.autocomplete("value")
    async def colour_auto(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        names = ["red", "green", "blue"]
        return [app_commands.Choice(name=n, value=n) for n in names if n.startswith(current)]

    @group.command(name="whois", description="User option")
    async def whois(interaction: discord.Interaction, who: discord.Member) -> None:
        await interaction.response.send_message(f"{who.name} has {len(who.roles)} role(s)")

    return group


async def started(fake_world: World, start_bot: StartBot, **options: Any) -> MiniBot:
    bot = MiniBot(fake_world.guild.id)
    await start_bot(bot, **options)
    return bot


# --------------------------------------------------------------------------- basics


async def test_login_ready_and_guild_create(fake_world: World, start_bot: StartBot) -> None:
    bot = await started(fake_world, start_bot)
    fake = fake_world.fake
    assert bot.user is not None and bot.user.id == fake.bot.id and bot.user.bot
    assert bot.application_id == fake.application_id
    guild = bot.get_guild(fake_world.guild.id)
    assert guild is not None and guild.name == "Pyramid Club"
    assert sorted(c.name for c in guild.text_channels) == ["games", "general"]
    assert guild.me is not None and guild.me.id == fake.bot.id
    assert guild.member_count == len(fake_world.guild.members)
    assert fake.gateway.identifies == 1
    assert [c.name for c in fake.commands(fake_world.guild)] == ["fp"]
    assert fake.requests[0].route == "GET /users/@me"
    # snowflakes carry the current time
    created = discord.utils.snowflake_time(fake_world.games.id)
    assert abs((discord.utils.utcnow() - created).total_seconds()) < 60


async def test_slash_reply_is_visible_in_channel(fake_world: World, start_bot: StartBot) -> None:
    await started(fake_world, start_bot)
    ix = await fake_world.alice.slash("fp ping", fake_world.games, loud=True)
    await ix
    assert ix.response_type == CallbackType.CHANNEL_MESSAGE_WITH_SOURCE
    assert ix.ack_latency is not None and ix.ack_latency < 3
    reply = await ix.wait_response()
    assert reply.content == "PONG"
    assert reply.labels() == ["Join"]
    assert fake_world.bob.latest_message(fake_world.games) is reply
    assert fake_world.fake.messages(fake_world.games) == [reply]
    assert reply.interaction is ix and reply.author is fake_world.fake.bot
    fake_world.fake.assert_no_failed_interactions()


async def test_ephemeral_reply_only_visible_to_its_user(
    fake_world: World, start_bot: StartBot
) -> None:
    await started(fake_world, start_bot)
    ix = await fake_world.alice.slash("fp secret", fake_world.games)
    await ix
    assert ix.response_type == CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
    reply = await ix.wait_response()
    assert reply.content == "the secret is 42" and reply.ephemeral and not reply.loading
    assert fake_world.alice.ephemerals() == [reply]
    assert fake_world.alice.messages(fake_world.games) == [reply]
    assert fake_world.bob.messages(fake_world.games) == []
    assert fake_world.bob.ephemerals() == []
    assert fake_world.fake.messages(fake_world.games) == []
    with pytest.raises(MessageNotVisible):
        await fake_world.bob.click(reply, "anything")


async def test_click_button_by_label_edits_message(fake_world: World, start_bot: StartBot) -> None:
    await started(fake_world, start_bot)
    ix = await fake_world.alice.slash("fp ping", fake_world.games)
    reply = await ix.wait_response()
    click = await fake_world.bob.click(reply, "Join")
    await click
    assert click.response_type == CallbackType.UPDATE_MESSAGE
    assert reply.content == "game 1: bob joined"
    assert [r.content for r in reply.history] == ["pong", "game 1: bob joined"]
    assert reply.edited
    assert reply.labels() == ["Join", "Start"]
    with pytest.raises(ComponentDisabled):
        await fake_world.carol.click(reply, "Start")
    with pytest.raises(ComponentNotFound, match=r"Join.*Start \(disabled\)"):
        await fake_world.carol.click(reply, "Leave")
    # the same button again, by another player, on the edited message
    again = await fake_world.carol.click(reply, "Join")
    await again
    assert reply.content == "game 1: carol joined"
    fake_world.fake.assert_no_failed_interactions()


async def test_a_double_tap_sends_the_second_tap_with_the_message_as_it_stands(
    fake_world: World, start_bot: StartBot
) -> None:
    await started(fake_world, start_bot)
    fake_world.fake.ack_deadline = 1.0  # (the second tap's failure comes sooner)
    reply = await (await fake_world.alice.slash("fp step", fake_world.games)).wait_response()
    first, second = await fake_world.alice.double_click(reply, "Next", gap=0.5)
    await first
    assert reply.content == "step 2"  # the first tap's edit landed before the second tap
    assert second is not None and second.data["custom_id"] == "fpt:step:1"
    assert second.sent_message is not None
    carried = [
        c["custom_id"]
        for c in iter_components(second.sent_message["components"])
        if c.get("type") == 2
    ]
    assert carried == ["fpt:step:2"]  # the message as it stood, without the tapped button
    # discord.py looks the button up on that message, does not find it and drops the tap.
    with pytest.raises(InteractionFailed):
        await second
    assert fake_world.fake.failed_interactions() == [second]
    assert reply.content == "step 2"


async def test_a_double_tap_on_a_changed_screen_hits_what_took_the_tapped_place(
    fake_world: World, start_bot: StartBot
) -> None:
    await started(fake_world, start_bot)
    reply = await (await fake_world.alice.slash("fp step", fake_world.games)).wait_response()
    assert reply.place_of("fpt:step:1") == (0, 0)
    first, second = await fake_world.alice.double_click(reply, "Next", gap=0.5, second="place")
    assert second is not None and second.data["custom_id"] == "fpt:step:2"
    await first
    await second
    assert reply.content == "step 3"
    # A place left empty (Roll takes its button off) sends no second tap.
    die = await (await fake_world.alice.slash("fp roll", fake_world.games)).wait_response()
    first, none = await fake_world.alice.double_click(die, "Roll", gap=0.5, second="place")
    await first
    assert none is None and die.buttons() == []
    fake_world.fake.assert_no_failed_interactions()


async def test_persistent_button_survives_a_bot_restart(
    fake_world: World, start_bot: StartBot
) -> None:
    first = await started(fake_world, start_bot)
    reply = await (await fake_world.alice.slash("fp ping", fake_world.games)).wait_response()
    await first.close()
    second = MiniBot(fake_world.guild.id)
    await start_bot(second)
    assert fake_world.fake.gateway.identifies == 2
    click = await fake_world.bob.click(reply, "Join")
    await click
    assert reply.content == "game 1: bob joined"


async def test_channel_picture_read_back_with_pillow(
    fake_world: World, start_bot: StartBot
) -> None:
    await started(fake_world, start_bot)
    reply = await (await fake_world.alice.slash("fp board", fake_world.games)).wait_response()
    assert reply.embeds[0]["image"]["url"] == "attachment://board.png"
    att = reply.attachments[0]
    assert att.filename == "board.png" and att.content_type == "image/png"
    assert (att.width, att.height) == (BOARD_SIZE, BOARD_SIZE)
    img = fake_world.bob.latest_picture(fake_world.games)
    assert img.size == (BOARD_SIZE, BOARD_SIZE)
    assert img.getpixel((1, 2)) == (0, 0, 255)
    assert img.getpixel((0, 0)) == (200, 30, 30)
    # the attachment URL is served too (discord.py's Attachment.read() works)
    async with aiohttp.ClientSession() as session, session.get(att.url) as resp:
        assert await resp.read() == att.data


async def test_dm_with_png_read_back(fake_world: World, start_bot: StartBot) -> None:
    await started(fake_world, start_bot)
    ix = await fake_world.alice.slash("fp dm", fake_world.games)
    answer = await ix.wait_response()
    assert answer.content == "check your DMs" and answer.ephemeral
    dm = await fake_world.alice.wait_for_dm()
    assert dm.content == "your hand" and dm.channel.is_dm
    img = fake_world.alice.latest_dm_picture()
    assert img.getpixel((3, 5)) == (0, 0, 255)
    assert img.getpixel((4, 5)) == (200, 30, 30)
    assert fake_world.bob.dms() == []
    with pytest.raises(MessageNotVisible):
        await fake_world.bob.click(dm, "Ready")
    click = await fake_world.alice.click(dm, "Ready")
    assert await click.wait_response() is dm
    assert dm.content == "alice is ready" and dm.attachments  # the picture is kept


async def test_closed_dms_give_forbidden_50007(fake_world: World, start_bot: StartBot) -> None:
    bot = await started(fake_world, start_bot)
    ix = await fake_world.dave.slash("fp dm", fake_world.games)
    answer = await ix.wait_response()
    assert answer.content == "I cannot DM you"
    assert [(type(e), e.code) for e in bot.caught] == [(discord.Forbidden, 50007)]
    assert fake_world.dave.dms() == []


async def test_missing_permission_gives_50013(fake_world: World, start_bot: StartBot) -> None:
    bot = await started(fake_world, start_bot)
    fake_world.fake.set_permissions(fake_world.general, "bot", deny=Perm.SEND_MESSAGES)
    ix = await fake_world.alice.slash("fp announce", fake_world.general)
    answer = await ix.wait_response()
    assert answer.content == "failed: 50013"
    assert isinstance(bot.caught[0], discord.Forbidden) and bot.caught[0].code == 50013
    # discord.py saw the overwrite through CHANNEL_UPDATE
    channel = bot.get_channel(fake_world.general.id)
    assert isinstance(channel, discord.TextChannel)
    assert not channel.permissions_for(channel.guild.me).send_messages
    # the games channel is unaffected
    ok = await (await fake_world.alice.slash("fp announce", fake_world.games)).wait_response()
    assert ok.content == "done"
    assert fake_world.fake.latest_message(fake_world.games).content == "announcement"


async def test_attachment_size_cap_gives_413(fake_world: World, start_bot: StartBot) -> None:
    bot = await started(fake_world, start_bot)
    fake_world.fake.state.max_attachment_size = 1024
    with fake_world.fake.expect_refusal(40005, status=413):
        ix = await fake_world.alice.slash("fp announce", fake_world.games, size=2048)
        answer = await ix.wait_response()
    assert answer.content == "failed: 40005"
    assert bot.caught[0].status == 413


# --------------------------------------------------------------------------- strictness


async def test_ack_deadline_records_failed_interaction(
    fake_world: World, start_bot: StartBot
) -> None:
    bot = await started(fake_world, start_bot)
    fake_world.fake.ack_deadline = 0.3
    ix = await fake_world.alice.slash("fp slow", fake_world.games, seconds=0.5)
    with pytest.raises(InteractionFailed):
        await ix
    await asyncio.wait_for(bot.slow_done.wait(), 5)
    assert fake_world.fake.failed_interactions() == [ix]
    assert isinstance(bot.caught[0], discord.NotFound) and bot.caught[0].code == 10062
    assert ix.errors == [10062]
    with pytest.raises(AssertionError, match="1 interaction"):
        fake_world.fake.assert_no_failed_interactions()


@pytest.mark.slow
async def test_ack_deadline_is_three_seconds(fake_world: World, start_bot: StartBot) -> None:
    bot = await started(fake_world, start_bot)
    quick = await fake_world.alice.slash("fp slow", fake_world.games, seconds=2.5)
    await quick
    late = await fake_world.bob.slash("fp slow", fake_world.games, seconds=3.2)
    with pytest.raises(InteractionFailed):
        await late
    await fake_world.fake.wait_for(lambda: len(bot.caught) == 1, 5)
    assert bot.caught[0].code == 10062
    assert fake_world.fake.failed_interactions() == [late]


async def test_second_initial_response_gives_40060(fake_world: World, start_bot: StartBot) -> None:
    bot = await started(fake_world, start_bot)
    with fake_world.fake.expect_refusal(40060):
        ix = await fake_world.alice.slash("fp double", fake_world.games)
        await ix
        await fake_world.fake.wait_for(lambda: bot.caught, 5)
    assert bot.caught[0].code == 40060 and bot.caught[0].status == 400
    assert ix.errors == [40060]
    assert [m.content for m in fake_world.fake.messages(fake_world.games)] == ["one"]


async def test_unknown_tokens_are_refused(fake_world: World, start_bot: StartBot) -> None:
    fake = fake_world.fake
    async with aiohttp.ClientSession() as http:
        async with http.get(
            f"{fake.base_url}/users/@me", headers={"Authorization": "Bot nope"}
        ) as r:
            assert r.status == 401 and r.headers["Content-Type"] == "application/json"
            assert (await r.json())["message"] == "401: Unauthorized"
        async with http.post(
            f"{fake.base_url}/interactions/123/abc/callback", json={"type": 4}
        ) as r:
            assert r.status == 404 and (await r.json())["code"] == 10062
        async with http.post(
            f"{fake.base_url}/webhooks/{fake.application_id}/abc", json={"content": "x"}
        ) as r:
            assert r.status == 404 and (await r.json())["code"] == 10015
    point_discord_py_at(fake.base_url, fake.gateway_url)
    bad = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    try:
        with pytest.raises(discord.LoginFailure):
            await bad.login("wrong-token")
    finally:
        await bad.close()


async def test_unregistered_commands_cannot_be_invoked(
    fake_world: World, start_bot: StartBot
) -> None:
    with pytest.raises(CommandNotSynced, match="never registered"):
        await fake_world.alice.slash("fp ping", fake_world.games, wait_connected=False)
    await started(fake_world, start_bot)
    with pytest.raises(CommandNotSynced, match="no subcommand 'nope'"):
        await fake_world.alice.slash("fp nope", fake_world.games)
    with pytest.raises(CommandNotSynced, match="registered: /fp"):
        await fake_world.alice.slash("other", fake_world.games)
    with pytest.raises(CommandUsageError, match="needs a subcommand"):
        await fake_world.alice.slash("fp", fake_world.games)
    with pytest.raises(CommandUsageError, match="no option"):
        await fake_world.alice.slash("fp ping", fake_world.games, volume=3)
    with pytest.raises(CommandUsageError, match="True/False"):
        await fake_world.alice.slash("fp ping", fake_world.games, loud="yes")
    with pytest.raises(CommandUsageError, match="requires option 'seconds'"):
        await fake_world.alice.slash("fp slow", fake_world.games)


async def test_unknown_route_is_reported(fake_world: World, start_bot: StartBot) -> None:
    bot = await started(fake_world, start_bot)
    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("GET", "/sticker-packs"))
    assert fake_world.fake.unknown_routes == ["GET /api/v10/sticker-packs"]
    with pytest.raises(AssertionError, match="unknown route"):
        fake_world.fake.assert_healthy()
    fake_world.fake.unknown_routes.clear()


# --------------------------------------------------------------------------- other components


async def test_select_menu(fake_world: World, start_bot: StartBot) -> None:
    await started(fake_world, start_bot)
    msg = await (await fake_world.alice.slash("fp pick", fake_world.games)).wait_response()
    with pytest.raises(ComponentNotFound, match="options"):
        await fake_world.alice.select(msg, "green", placeholder="Choose a colour")
    pick = await fake_world.alice.select(msg, "Blue", placeholder="Choose a colour")
    await pick
    assert msg.content == "chose blue" and msg.components == []


async def test_modal_and_autocomplete(fake_world: World, start_bot: StartBot) -> None:
    await started(fake_world, start_bot)
    ix = await fake_world.alice.slash("fp name", fake_world.games)
    await ix
    assert ix.response_type == CallbackType.MODAL and ix.modal is not None
    submitted = await fake_world.alice.submit_modal(ix, {"Name": "Cleopatra"})
    reply = await submitted.wait_response()
    assert reply.content == "hello Cleopatra"

    auto = await fake_world.alice.autocomplete(
        "fp colour", fake_world.games, focused="value", value="gr"
    )
    await auto
    assert auto.autocomplete_choices == [{"name": "green", "value": "green"}]


async def test_deferred_reply_edits_and_followups(fake_world: World, start_bot: StartBot) -> None:
    await started(fake_world, start_bot)
    ix = await fake_world.alice.slash("fp progress", fake_world.games)
    await ix.wait_followups(1)
    original = ix.original
    assert original is not None and not original.loading and not original.ephemeral
    assert [r.content for r in original.history] == ["", "step 1", "step 2"]
    assert [m.content for m in ix.followups] == ["extra"]
    assert [m.content for m in fake_world.fake.messages(fake_world.games)] == ["extra", "step 2"]


async def test_deferred_update_then_edit_original(fake_world: World, start_bot: StartBot) -> None:
    await started(fake_world, start_bot)
    msg = await (await fake_world.alice.slash("fp roll", fake_world.games)).wait_response()
    assert msg.labels() == ["Roll"]
    refused = await fake_world.carol.click(msg, "Roll")
    answer = await refused.wait_response()
    assert answer.content == "not your turn" and answer.ephemeral
    assert fake_world.carol.ephemerals() == [answer] and msg.content == "roll the die"
    click = await fake_world.bob.click(msg, emoji="\N{GAME DIE}")
    await click
    assert click.response_type == CallbackType.DEFERRED_UPDATE_MESSAGE
    await fake_world.fake.wait_for(lambda: msg.content == "bob rolled a 6", 5)
    assert msg.components == []


async def test_original_response_fetch_and_deletes(fake_world: World, start_bot: StartBot) -> None:
    await started(fake_world, start_bot)
    ix = await fake_world.alice.slash("fp tidy", fake_world.games)
    await ix.wait_followups(2)
    await fake_world.fake.wait_for(lambda: ix.followups[0].deleted, 5)
    assert ix.original is not None and ix.original.deleted
    assert [m.content for m in fake_world.fake.messages(fake_world.games)] == ["kept"]
    routes = [
        r.route.split(" ", 1)[0] + " " + r.path.rsplit("/", 1)[-1] for r in fake_world.fake.requests
    ]
    assert "GET @original" in routes and "DELETE @original" in routes


async def test_plain_messages_reach_the_bot(fake_world: World, start_bot: StartBot) -> None:
    bot = await started(fake_world, start_bot)
    await fake_world.alice.say(fake_world.games, "hello")
    await fake_world.bob.say(fake_world.games, f"{fake_world.fake.bot.mention} hi")
    await fake_world.fake.wait_for(lambda: len(bot.seen) == 2, 5)
    # no message content intent: content only when the bot is mentioned
    assert bot.seen == [("alice", ""), ("bob", f"<@{fake_world.fake.bot.id}> hi")]


async def test_user_option_resolves_to_member(fake_world: World, start_bot: StartBot) -> None:
    await started(fake_world, start_bot)
    reply = await (
        await fake_world.alice.slash("fp whois", fake_world.games, who=fake_world.bob)
    ).wait_response()
    assert reply.content == "bob has 1 role(s)"
