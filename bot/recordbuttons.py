"""The records' persistent buttons: their custom ids (``fp:rec:<kind>:...``) and ``DynamicItem``s.

The game's template (``fp:<table>:<version>:...``, digits first, :mod:`bot.components`) never
matches these ids. A records button is resolved when it is clicked, so it works after a restart
and days later; its callback hands the click to the ``Records`` cog (:mod:`bot.cogs.records`),
which acknowledges it and calls the records desk (:mod:`bot.recordsdesk`). A button's label,
emoji and style are chosen where its message is laid out (:mod:`bot.show.buttons`).

=================================  ============================================================
``fp:rec:share:<player>``          post one's stats (private by default) in the channel
``fp:rec:board:<page>:<dir>``      another page of the leaderboard (``p``/``n``: two buttons
                                   never share an id)
``fp:rec:step:<table>:<step>:<t>`` a replay step, shown privately to who clicked (``t`` tells
                                   the buttons of one message apart; ``r``: a history's Replay)
``fp:rec:gif:<table>``             the match's animated summary, privately
``fp:rec:json:<table>``            the match as a scenario file, privately
``fp:rec:turn:<table>``            the match's turning points, privately
=================================  ============================================================

The templates are stricter than any id discord.py would take: a player key of a letter or two
and at most 20 digits or letters, a page of at most 6 digits, a table of at most 16 digits, a
step of at most 5; any other ``fp:rec:`` id fits no kind and is refused privately
(:mod:`bot.unclaimed`). Those ids are kept on old messages: their format never changes. A
``match`` id or step in a custom id can still be forged: the records service checks that the
match is finished and belongs to the clicker's server, and clamps the step.
"""

from __future__ import annotations

import re
from typing import Any, Final, Self

import discord

from bot.errors import TableError, Why
from bot.replies import guarded

SHARE: Final = r"fp:rec:share:(?P<who>[a-z]{1,2}\.[0-9a-z]{1,20})"
BOARD: Final = r"fp:rec:board:(?P<page>[0-9]{1,6}):(?P<dir>[pn])"
STEP: Final = r"fp:rec:step:(?P<table>[0-9]{1,16}):(?P<step>[0-9]{1,5}):(?P<tag>[a-z])"
SUMMARY: Final = r"fp:rec:gif:(?P<table>[0-9]{1,16})"
EXPORT: Final = r"fp:rec:json:(?P<table>[0-9]{1,16})"
TURNING: Final = r"fp:rec:turn:(?P<table>[0-9]{1,16})"


def encode_player(key: str) -> str:
    """A player key in a custom id (``u:42`` -> ``u.42``)."""
    return key.replace(":", ".")


def decode_player(text: str) -> str:
    return text.replace(".", ":", 1)


def _cog(interaction: discord.Interaction[Any]) -> Any:
    """The ``Records`` cog, None while it is not loaded."""
    client: Any = interaction.client
    return client.get_cog("Records")


async def unavailable(interaction: discord.Interaction[Any]) -> None:
    """The answer to a records command or button while the records cog is not loaded."""
    async with guarded(interaction, None, "records while their cog is not loaded"):
        raise TableError(Why.RECORDS_UNAVAILABLE)


class RecordsButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """What every records button does when clicked: hand the click to the ``Records`` cog, or
    say the records are unavailable while it is not loaded. Never registered itself (its
    template matches nothing); each kind below brings its own."""

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        cog = _cog(interaction)
        if cog is None:
            return await unavailable(interaction)
        await self.run(cog, interaction)

    async def run(self, cog: Any, interaction: discord.Interaction[Any]) -> None:
        """What the button asks of the cog."""
        raise NotImplementedError


class ShareButton(RecordsButton, template=SHARE):
    """Post the stats shown privately in the channel, for everyone."""

    def __init__(self, player: str, label: str = "", emoji: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji=emoji,
                style=discord.ButtonStyle.secondary,
                custom_id=f"fp:rec:share:{encode_player(player)}",
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
        return cls(decode_player(match["who"]))

    async def run(self, cog: Any, interaction: discord.Interaction[Any]) -> None:
        await cog.share(interaction, self.player)


class BoardButton(RecordsButton, template=BOARD):
    """Another page of the leaderboard (``direction``: ``p`` previous or ``n`` next, so two
    buttons never share an id)."""

    def __init__(
        self,
        page: int,
        direction: str,
        label: str = "",
        emoji: str | None = None,
        *,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji=emoji,
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
        return cls(int(match["page"]), match["dir"])

    async def run(self, cog: Any, interaction: discord.Interaction[Any]) -> None:
        await cog.board_page(interaction, self.page)


class StepButton(RecordsButton, template=STEP):
    """A replay step (``tag`` tells the buttons of one message apart)."""

    def __init__(
        self, table_id: int, step: int, tag: str, label: str = "", *, disabled: bool = False,
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
        return cls(int(match["table"]), int(match["step"]), match["tag"])

    async def run(self, cog: Any, interaction: discord.Interaction[Any]) -> None:
        # "r" is a Replay button of a history message: a new private message; the others
        # step the replay message they are on.
        await cog.replay_step(interaction, self.table_id, self.step, new=self.tag == "r")


class MatchButton(RecordsButton, template=r"(?!)"):
    """A button about one whole match, privately (``kind``: the word of its id)."""

    kind: str = ""

    def __init__(self, table_id: int, label: str = "", emoji: str | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, emoji=emoji, custom_id=f"fp:rec:{self.kind}:{table_id}", row=1
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
    ) -> Self:
        return cls(int(match["table"]))


class SummaryButton(MatchButton, template=SUMMARY):
    """The animated summary of a match, privately."""

    kind = "gif"

    async def run(self, cog: Any, interaction: discord.Interaction[Any]) -> None:
        await cog.summary(interaction, self.table_id)


class ExportButton(MatchButton, template=EXPORT):
    """The match as a scenario file, privately."""

    kind = "json"

    async def run(self, cog: Any, interaction: discord.Interaction[Any]) -> None:
        await cog.export(interaction, self.table_id)


class TurningButton(MatchButton, template=TURNING):
    """The match's turning points, privately."""

    kind = "turn"

    async def run(self, cog: Any, interaction: discord.Interaction[Any]) -> None:
        await cog.turning_points(interaction, self.table_id)


BUTTONS: Final = (
    ShareButton,
    BoardButton,
    StepButton,
    SummaryButton,
    ExportButton,
    TurningButton,
)
"""The records' ``DynamicItem`` kinds, registered while the records cog is loaded."""
