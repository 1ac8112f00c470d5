"""``/fp stats``, ``/fp leaderboard``, ``/fp history``, ``/fp replay`` and their buttons.

The commands join the ``/fp`` group of the ``Tables`` cog when this extension loads (it loads
after ``bot.cogs.tables``). Every handler acknowledges first, asks the records service
(:mod:`bot.records.service`) and shows the answer worded by :mod:`bot.records_show`; failures
become private replies in :func:`bot.replies.guarded`.

Buttons are ``DynamicItem`` classes of their own, with custom ids ``fp:rec:<kind>:...`` that the
game's template (``fp:<table>:<version>:...``, digits first) never matches:

=================================  ============================================================
``fp:rec:share:<player>``          post one's stats (private by default) in the channel
``fp:rec:board:<page>``            another page of the leaderboard
``fp:rec:step:<table>:<step>``     a replay step, shown privately to who clicked
``fp:rec:gif:<table>``             the match's animated summary, privately
``fp:rec:json:<table>``            the match as a scenario file, privately
=================================  ============================================================

A ``match`` id or step in a custom id can be forged: the service checks that the match is
finished and belongs to the clicker's server, and clamps the step.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
import time
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot import emoji as em
from bot import records_show as show
from bot.errors import Stale, TableError, Why
from bot.records.service import PAGE_SIZE, RecordsService, ReplayShown
from bot.replies import clicker_language, guarded
from bot.show import texts
from bot.show.pictures import MAX_ATTACHMENT_BYTES, table_png, turn_picture
from data.records import computer_key, person_key
from engine.ai import LEVELS
from i18n import ENGLISH, Language
from render.records import render_card
from render.summary import render_summary

if TYPE_CHECKING:
    from bot.app import Bot

log = logging.getLogger(__name__)

MAX_MATCH: Final = 2**53 - 1
"""The largest table number `/fp replay` takes: an integer option's ``max_value`` is at most
2^53 - 1 in Discord's API (the command would not register with more)."""
CATCH_UP_S: Final = 5.0
"""How often the bot looks for matches that finished but are not rated yet (one probe of a
small partial index when there are none): a match is rated within seconds of its end, by
whichever process ended it or another, and before any records command reads the ratings."""
COMPUTERS = [app_commands.Choice(name=f"Computer ({level})", value=level) for level in LEVELS]


def server_of(interaction: discord.Interaction[Any]) -> int:
    """The server a records button or command was used in; records belong to a server, so one
    used anywhere else (a direct message) is refused privately, as any misplaced button is."""
    if interaction.guild_id is None:
        log.info("a records button used outside a server by user %s", interaction.user.id)
        raise Stale(Why.MISPLACED_BUTTON)
    return interaction.guild_id


def _cog(interaction: discord.Interaction[Any]) -> Records | None:
    client: Any = interaction.client
    cog = client.get_cog("Records")
    return cog if isinstance(cog, Records) else None


async def _unavailable(interaction: discord.Interaction[Any]) -> None:
    async with guarded(interaction, None, "records while their cog is not loaded"):
        raise TableError(Why.RECORDS_UNAVAILABLE)


SHARE: Final = r"fp:rec:share:(?P<who>[a-z]{1,2}\.[0-9a-z]{1,20})"
BOARD: Final = r"fp:rec:board:(?P<page>[0-9]{1,6}):(?P<dir>[pn])"
STEP: Final = r"fp:rec:step:(?P<table>[0-9]{1,16}):(?P<step>[0-9]{1,5}):(?P<tag>[a-z])"
SUMMARY: Final = r"fp:rec:gif:(?P<table>[0-9]{1,16})"
EXPORT: Final = r"fp:rec:json:(?P<table>[0-9]{1,16})"


# --- buttons --------------------------------------------------------------------------------------


class ShareButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=SHARE):
    """Post the stats shown privately in the channel, for everyone."""

    def __init__(self, player: str, lang: Language = ENGLISH) -> None:
        super().__init__(
            discord.ui.Button(
                label=lang.pgettext("button", "Share in channel"),
                emoji=em.SHARE,
                style=discord.ButtonStyle.secondary,
                custom_id=f"fp:rec:share:{show.encode_player(player)}",
            )
        )
        self.player = player

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ShareButton:
        return cls(show.decode_player(match["who"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = _cog(interaction)
        if cog is None:
            return await _unavailable(interaction)
        await cog.share(interaction, self.player)


class BoardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BOARD):
    """Another page of the leaderboard (``dir``: previous or next, so two buttons never share
    an id)."""

    def __init__(self, page: int, label: str, direction: str, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji=em.BACK if direction == "p" else em.NEXT,
                style=discord.ButtonStyle.secondary,
                custom_id=f"fp:rec:board:{page}:{direction}",
                disabled=disabled,
            )
        )
        self.page = page

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> BoardButton:
        return cls(int(match["page"]), "", match["dir"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = _cog(interaction)
        if cog is None:
            return await _unavailable(interaction)
        await cog.board_page(interaction, self.page)


class StepButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=STEP):
    """A replay step (``tag`` tells the buttons of one message apart)."""

    def __init__(
        self, table_id: int, step: int, label: str, tag: str, *, disabled: bool = False,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary, emoji: str | None = None,
    ) -> None:  # fmt: skip
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji=emoji,
                style=style,
                custom_id=f"fp:rec:step:{table_id}:{step}:{tag}",
                disabled=disabled,
            )
        )
        self.table_id = table_id
        self.step = step
        self.tag = tag

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> StepButton:
        return cls(int(match["table"]), int(match["step"]), "", match["tag"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = _cog(interaction)
        if cog is None:
            return await _unavailable(interaction)
        # "r" is a Replay button of a history message: a new private message; the others
        # step the replay message they are on.
        await cog.replay_step(interaction, self.table_id, self.step, new=self.tag == "r")


class SummaryButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=SUMMARY):
    """The animated summary of a match, privately."""

    def __init__(self, table_id: int, lang: Language = ENGLISH) -> None:
        super().__init__(
            discord.ui.Button(
                label=lang.pgettext("button", "Summary"),
                emoji=em.SUMMARY,
                custom_id=f"fp:rec:gif:{table_id}",
                row=1,
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> SummaryButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = _cog(interaction)
        if cog is None:
            return await _unavailable(interaction)
        await cog.summary(interaction, self.table_id)


class ExportButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=EXPORT):
    """The match as a scenario file, privately."""

    def __init__(self, table_id: int, lang: Language = ENGLISH) -> None:
        super().__init__(
            discord.ui.Button(
                label=lang.pgettext("button", "Export"),
                emoji=em.EXPORT,
                custom_id=f"fp:rec:json:{table_id}",
                row=1,
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ExportButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = _cog(interaction)
        if cog is None:
            return await _unavailable(interaction)
        await cog.export(interaction, self.table_id)


BUTTONS: Final = (ShareButton, BoardButton, StepButton, SummaryButton, ExportButton)


def _view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def replay_view(shown: ReplayShown, lang: Language = ENGLISH) -> discord.ui.View:
    s = shown.step
    tid = shown.table.id
    first, last = s.index == 0, s.last
    return _view(
        StepButton(tid, 0, lang.pgettext("button", "First"), "f", disabled=first, emoji=em.FIRST),
        StepButton(
            tid,
            max(0, s.index - 1),
            lang.pgettext("button", "Back"),
            "p",
            disabled=first,
            emoji=em.BACK,
        ),
        StepButton(
            tid,
            s.index + 1,
            lang.pgettext("button", "Next"),
            "n",
            disabled=last,
            emoji=em.NEXT,
            style=discord.ButtonStyle.primary,
        ),
        StepButton(
            tid, s.count - 1, lang.pgettext("button", "Last"), "l", disabled=last, emoji=em.LAST
        ),
        SummaryButton(tid, lang),
        ExportButton(tid, lang),
    )


# --- the commands ---------------------------------------------------------------------------


@app_commands.describe(
    player="Whose stats (default: yours)", computer="A computer level's stats instead"
)
@app_commands.choices(computer=COMPUTERS)
async def _stats(
    interaction: discord.Interaction[Any],
    player: discord.Member | None = None,
    computer: app_commands.Choice[str] | None = None,
) -> None:
    cog = _cog(interaction)
    if cog is None:
        return await _unavailable(interaction)
    await cog.stats(interaction, player, computer.value if computer else None)


async def _leaderboard(interaction: discord.Interaction[Any]) -> None:
    cog = _cog(interaction)
    if cog is None:
        return await _unavailable(interaction)
    await cog.leaderboard(interaction)


@app_commands.describe(player="Only the matches this player played")
async def _history(
    interaction: discord.Interaction[Any], player: discord.Member | None = None
) -> None:
    cog = _cog(interaction)
    if cog is None:
        return await _unavailable(interaction)
    await cog.history(interaction, player)


@app_commands.describe(match="The match's table number, as /fp history shows it (table #12: 12)")
async def _replay(
    interaction: discord.Interaction[Any], match: app_commands.Range[int, 1, MAX_MATCH]
) -> None:
    cog = _cog(interaction)
    if cog is None:
        return await _unavailable(interaction)
    table_id = await cog.numbered(interaction, match)
    if table_id is not None:
        await cog.replay_step(interaction, table_id, 0, new=True)


COMMANDS: Final = (
    ("stats", "Your rating and stats in this server (privately; you can share them)", _stats),
    ("leaderboard", "This server's best players by rating", _leaderboard),
    ("history", "Recent finished matches, with replays", _history),
    ("replay", "Step through a finished match privately", _replay),
)


def slash_commands() -> list[app_commands.Command[Any, ..., None]]:
    """New command objects for ``/fp stats``, ``leaderboard``, ``history`` and ``replay`` (a
    group takes its commands as its own, so each bot gets objects of its own)."""
    return [
        app_commands.Command(name=name, description=description, callback=callback)
        for name, description, callback in COMMANDS
    ]


SLASH_COMMANDS: Final = tuple(slash_commands())
"""The commands as the catalog template reads them (:func:`bot.translator.module_commands`)."""


class Records(commands.Cog):
    """Ratings, stats, leaderboard, history, replays and exports of finished matches."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.service = RecordsService(bot.store)
        self._added: list[app_commands.Command[Any, ..., None]] = []

    async def cog_load(self) -> None:
        group = self.bot.tree.get_command("fp")
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("the /fp group is not loaded (load bot.cogs.tables first)")
        for command in slash_commands():
            group.add_command(command, override=True)
            self._added.append(command)
        self.bot.add_dynamic_items(*BUTTONS)
        self.catch_up.start()

    async def cog_unload(self) -> None:
        self.catch_up.cancel()
        group = self.bot.tree.get_command("fp")
        if isinstance(group, app_commands.Group):
            for command in self._added:
                group.remove_command(command.name)
        self.bot.remove_dynamic_items(*BUTTONS)

    @tasks.loop(seconds=CATCH_UP_S)
    async def catch_up(self) -> None:
        """Rate matches that finished but were not rated: at start, then every
        :data:`CATCH_UP_S` (a match that ends is rated by the next read of records, or by this
        loop at the latest). A failure is logged, and the loop goes on."""
        try:
            await self.service.catch_up()
        except Exception:
            log.exception("could not rate the finished matches")

    # --- stats --------------------------------------------------------------------------------

    async def _stats_message(
        self, guild_id: int, key: str, name: str, lang: Language
    ) -> tuple[str, list[discord.File]]:
        stats = await self.service.stats(guild_id, key)
        if stats is None:
            return show.no_stats(name, lang), []
        png = await asyncio.to_thread(
            render_card,
            show.stats_title(stats, lang),
            show.stats_rows(stats, lang),
            "Flaming Pyramids",
        )
        return show.stats_content(stats, lang), [discord.File(io.BytesIO(png), "stats.png")]

    async def stats(
        self,
        interaction: discord.Interaction[Any],
        player: discord.Member | None,
        level: str | None,
    ) -> None:
        lang = clicker_language(interaction)
        async with guarded(interaction, None, "/fp stats"):
            await interaction.response.defer(ephemeral=True, thinking=True)
            assert interaction.guild_id is not None
            if level is not None:
                key, name = computer_key(level), show.computer_name(level, lang)
            else:
                who = player or interaction.user
                key, name = person_key(who.id), who.display_name
            content, files = await self._stats_message(interaction.guild_id, key, name, lang)
            view = _view(ShareButton(key, lang)) if files else discord.utils.MISSING
            await interaction.followup.send(content, files=files, view=view, ephemeral=True)

    async def share(self, interaction: discord.Interaction[Any], key: str) -> None:
        async with guarded(interaction, None, "sharing stats"):
            guild_id = server_of(interaction)
            await interaction.response.defer(thinking=True)
            lang = clicker_language(interaction)
            content, files = await self._stats_message(guild_id, key, key, lang)
            said = lang.gettext("{player} shares:").format(player=interaction.user.mention)
            shared = f"{said}\n{content}"
            await interaction.followup.send(
                shared, files=files, allowed_mentions=discord.AllowedMentions.none()
            )

    # --- leaderboard ------------------------------------------------------------------------------

    async def _board(self, guild_id: int, page: int, lang: Language) -> dict[str, Any]:
        board = await self.service.leaderboard(guild_id, page)
        kwargs: dict[str, Any] = {"content": show.board_content(board, lang)}
        if board.entries:
            png = await asyncio.to_thread(
                render_card,
                show.board_title(board, lang),
                show.board_rows(board, lang=lang),
                show.board_subtitle(lang),
            )
            kwargs["attachments"] = [discord.File(io.BytesIO(png), "leaderboard.png")]
            at = show.board_page(board)
            many = show.pages(board)
            kwargs["view"] = _view(
                BoardButton(
                    max(0, at - 1), lang.pgettext("button", "Better"), "p", disabled=at == 0
                ),
                BoardButton(at + 1, lang.pgettext("button", "Next"), "n", disabled=at + 1 >= many),
            )
        return kwargs

    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        async with guarded(interaction, None, "/fp leaderboard"):
            await interaction.response.defer(thinking=True)
            assert interaction.guild_id is not None
            kwargs = await self._board(interaction.guild_id, 0, clicker_language(interaction))
            files = kwargs.pop("attachments", [])
            await interaction.followup.send(
                kwargs.pop("content"), files=files, allowed_mentions=discord.AllowedMentions.none(),
                **kwargs,
            )  # fmt: skip

    async def board_page(self, interaction: discord.Interaction[Any], page: int) -> None:
        async with guarded(interaction, None, "a leaderboard page"):
            guild_id = server_of(interaction)
            await interaction.response.defer()
            kwargs = await self._board(
                guild_id,
                min(page, 10**6 // PAGE_SIZE),
                clicker_language(interaction),
            )
            await interaction.edit_original_response(**kwargs)

    # --- history ----------------------------------------------------------------------------------

    async def history(
        self, interaction: discord.Interaction[Any], player: discord.Member | None
    ) -> None:
        async with guarded(interaction, None, "/fp history"):
            await interaction.response.defer(ephemeral=True, thinking=True)
            assert interaction.guild_id is not None
            entries = await self.service.history(
                interaction.guild_id, player.id if player else None
            )
            lang = clicker_language(interaction)
            content = show.history_content(entries, player.display_name if player else None, lang)
            view = _view(
                *(
                    StepButton(
                        e.table_id,
                        0,
                        lang.pgettext("button", "Replay {number}").format(number=i + 1),
                        "r",
                    )
                    for i, e in enumerate(entries)
                )
            ) if entries else discord.utils.MISSING  # fmt: skip
            await interaction.followup.send(content, view=view, ephemeral=True)

    # --- replays ----------------------------------------------------------------------------------

    async def replay_step(
        self, interaction: discord.Interaction[Any], table_id: int, step: int, *, new: bool
    ) -> None:
        async with guarded(interaction, table_id, "a replay step"):
            guild_id = server_of(interaction)
            if new and not interaction.response.is_done():  # (/fp replay acknowledged it)
                await interaction.response.defer(ephemeral=True, thinking=True)
            elif not new:
                await interaction.response.defer()
            lang = clicker_language(interaction)
            shown = await self.service.step(guild_id, table_id, step)
            text = show.step_text(shown, lang)
            s = shown.step
            names = list(shown.names)
            if s.before is None:
                data = await table_png(s.after, names, title=text.title, lang=lang)
                name = "replay.png"
            else:
                pic = await turn_picture(
                    s.before, s.events, s.after, names, title=text.title, lang=lang
                )
                data, name = pic.data, f"replay.{pic.extension}"
            file = discord.File(io.BytesIO(data), name)
            view = replay_view(shown, lang)
            if new:
                await interaction.followup.send(text.content, file=file, view=view, ephemeral=True)
            else:
                await interaction.edit_original_response(
                    content=text.content, attachments=[file], view=view
                )

    async def numbered(self, interaction: discord.Interaction[Any], number: int) -> int | None:
        """The id of the server's match numbered ``number`` (as players name it), or None once
        the player was told privately that there is none (or what went wrong). Acknowledged
        (privately, as the replay is) before the database is read."""
        async with guarded(interaction, None, "a match number"):
            guild_id = server_of(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            return await self.service.table_numbered(guild_id, number)
        return None

    async def summary(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        async with guarded(interaction, table_id, "a match summary"):
            guild_id = server_of(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            lang = clicker_language(interaction)
            moments = await self.service.moments(guild_id, table_id)
            names = list(moments[0].names)
            number = moments[0].table.number
            frames = [(m.step.after, show.summary_caption(m, lang)) for m in moments]
            started = time.perf_counter()
            gif = await asyncio.to_thread(render_summary, frames, names, lang=lang)
            log.debug("summary of table %s: %d bytes in %.2f s", table_id, len(gif),
                      time.perf_counter() - started)  # fmt: skip
            if len(gif) > MAX_ATTACHMENT_BYTES:
                gif = await asyncio.to_thread(render_summary, frames[-4:], names, lang=lang)
            await interaction.followup.send(
                lang.gettext(
                    "**Summary of {table}**: the deal, the mayhem and the last tiles."
                ).format(table=texts.table_name(number, lang=lang)),
                file=discord.File(io.BytesIO(gif), f"summary-{number}.gif"),
                ephemeral=True,
            )

    async def export(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        async with guarded(interaction, table_id, "a match export"):
            guild_id = server_of(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            lang = clicker_language(interaction)
            scenario = await self.service.export(guild_id, table_id, interaction.user.id)
            data = json.dumps(scenario, separators=(",", ":")).encode()
            number = await self.service.number(guild_id, table_id)
            await interaction.followup.send(
                lang.gettext(
                    "Table #{number} as a scenario file: `python -m engine run {file}` replays "
                    "it to its final state."
                ).format(number=number, file=f"match-{number}.json"),
                file=discord.File(io.BytesIO(data), f"match-{number}.json"),
                ephemeral=True,
            )


async def setup(bot: Bot) -> None:
    await bot.add_cog(Records(bot))
