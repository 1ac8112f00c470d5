"""The records' answers: each records command's or button's message, built from the records
service's typed results and sent as the answer to the interaction that asked.

A message is built whole first (an :class:`Answer`: its words from
:mod:`bot.show.recordtexts`, its picture from :mod:`bot.show.pictures`, its buttons laid out
here, their ids made by :mod:`bot.recordbuttons`), then sent. In the clicker's language; like the
rest of the show side, it never asks the service or the store: the records desk
(:mod:`bot.recordsdesk`) hands it what it shows.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot import emoji as em
from bot.languages import clicker_language
from bot.recordbuttons import (
    BoardButton,
    ExportButton,
    ShareButton,
    StepButton,
    SummaryButton,
    TurningButton,
)
from bot.records.replay import ReplayStep
from bot.records.results import MatchExport, ReplayShown, TurningPoint, TurningShown
from bot.show import recordtexts as words
from bot.show import turningtexts as turning
from bot.show.message import attachment
from bot.show.pictures import Chips, card_png, end_png, summary_gif, table_png, turn_picture
from data.records import BoardPage, HistoryEntry, PlayerStats
from i18n import Language
from render import alttext
from render.summary import Moment
from render.tilesleft import TilesLeft

Interaction = discord.Interaction[Any]


@dataclass(frozen=True)
class Answer:
    """One records message as it is sent: its text, its pictures and its buttons (``view``
    None: none)."""

    content: str
    files: list[discord.File] = field(default_factory=list)
    view: discord.ui.View | None = None


# --- the buttons ---------------------------------------------------------------------------------


def _view(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


def share_view(key: str, lang: Language) -> discord.ui.View:
    """The Share button of one's private stats."""
    return _view(ShareButton(key, lang.pgettext("button", "Share in channel"), em.SHARE))


def board_view(board: BoardPage, lang: Language) -> discord.ui.View:
    """A leaderboard page's buttons: the better page, the next."""
    at, many = words.board_page(board), words.pages(board)
    return _view(
        BoardButton(
            max(0, at - 1), "p", lang.pgettext("button", "Better"), em.BACK, disabled=at == 0
        ),
        BoardButton(at + 1, "n", lang.pgettext("button", "Next"), em.NEXT, disabled=at + 1 >= many),
    )


def history_view(entries: Sequence[HistoryEntry], lang: Language) -> discord.ui.View:
    """A Replay button for each match of a history."""
    return _view(
        *(
            StepButton(
                e.table_id, 0, "r", lang.pgettext("button", "Replay {number}").format(number=i + 1)
            )
            for i, e in enumerate(entries)
        )
    )


def replay_view(shown: ReplayShown, lang: Language) -> discord.ui.View:
    """A replay step's buttons: first, back, next, last; the summary and the export."""
    s = shown.step
    tid = shown.table.id
    first, last = s.index == 0, s.last
    return _view(
        StepButton(tid, 0, "f", lang.pgettext("button", "First"), disabled=first, emoji=em.FIRST),
        StepButton(
            tid,
            max(0, s.index - 1),
            "p",
            lang.pgettext("button", "Back"),
            disabled=first,
            emoji=em.BACK,
        ),
        StepButton(
            tid,
            s.index + 1,
            "n",
            lang.pgettext("button", "Next"),
            disabled=last,
            emoji=em.NEXT,
            style=discord.ButtonStyle.primary,
        ),
        StepButton(
            tid, s.count - 1, "l", lang.pgettext("button", "Last"), disabled=last, emoji=em.LAST
        ),
        SummaryButton(tid, lang.pgettext("button", "Summary"), em.SUMMARY),
        ExportButton(tid, lang.pgettext("button", "Export"), em.EXPORT),
        TurningButton(tid, lang.pgettext("button", "Turning points"), em.TURNING_POINTS),
    )


def turning_view(table_id: int, points: Sequence[TurningPoint], lang: Language) -> discord.ui.View:
    """A button per turning point told (one per replay step): the replay at that step, in a new
    private message."""
    steps = sorted({p.step for p in points})[:25]
    return _view(
        *(StepButton(table_id, step, "r", turning.jump_label(step, lang)) for step in steps)
    )


# --- the messages -------------------------------------------------------------------------------


async def stats_message(stats: PlayerStats | None, name: str, lang: Language) -> Answer:
    """A player's stats as text and as a card (no card when they have no rated match)."""
    if stats is None:
        return Answer(words.no_stats(name, lang))
    title, rows = words.stats_title(stats, lang), words.stats_rows(stats, lang)
    png = await card_png(title, rows, "Flaming Pyramids")
    said = alttext.card_text(title, rows, "Flaming Pyramids", lang=lang)
    return Answer(words.stats_content(stats, lang), [attachment(png, "stats.png", said)])


async def board_message(board: BoardPage, lang: Language) -> Answer:
    """A page of the leaderboard: text, card and page buttons (only the text when it is
    empty)."""
    content = words.board_content(board, lang)
    if not board.entries:
        return Answer(content)
    title, rows = words.board_title(board, lang), words.board_rows(board, lang=lang)
    png = await card_png(title, rows, words.board_subtitle(lang))
    said = alttext.card_text(title, rows, words.board_subtitle(lang), lang=lang)
    file = attachment(png, "leaderboard.png", said)
    return Answer(content, [file], view=board_view(board, lang))


def tiles_left(step: ReplayStep) -> tuple[TilesLeft, ...] | None:
    """Every player's tiles after ``step``: known at the last step only, once the match is
    over."""
    if step.hands is None or step.piles is None:
        return None
    return tuple(TilesLeft(h, p) for h, p in zip(step.hands, step.piles, strict=True))


def summary_moments(moments: Sequence[ReplayShown], lang: Language) -> list[Moment]:
    """A summary's frames: each moment as what happened in it, then every player's tiles left
    at the end."""
    names = list(moments[0].names)
    frames = [
        Moment(m.step.after, words.summary_caption(m, lang), words.step_story(m, names, lang))
        for m in moments
    ]
    end = moments[-1]
    left = tiles_left(end.step)
    if left is not None:
        story = words.tiles_left_story(end, lang)
        frames.append(Moment(end.step.after, words.tiles_left_caption(lang), story, left))
    return frames


async def step_message(shown: ReplayShown, lang: Language) -> Answer:
    """A replay step: its words, the board (or the turn's animation; at the last step, the board
    with every player's tiles left) and the step buttons."""
    text = words.step_text(shown, lang)
    s = shown.step
    names = list(shown.names)
    # A replay shows the game as it was played: nobody is away in it, nothing paused; a fall
    # a computer player chose for a person is told so.
    chips = Chips(computer_chose=s.computer_chose)
    said = alttext.table_text(s.after, names, title=text.title, lang=lang, chips=chips)
    left = tiles_left(s)
    if left is not None:
        moment = Moment(s.after, text.title, words.step_story(shown, names, lang), left)
        data, name = await end_png(moment, names, lang=lang), "replay.png"
        said = alttext.end_text(s.after, left, names, title=text.title, lang=lang)
    elif s.before is None:
        data = await table_png(s.after, names, title=text.title, lang=lang, chips=chips)
        name = "replay.png"
    else:
        pic = await turn_picture(
            s.before, s.events, s.after, names, title=text.title, lang=lang, chips=chips
        )
        data, name = pic.data, f"replay.{pic.extension}"
        if pic.animated:
            said = alttext.turn_text(
                s.events, s.after, names, title=text.title, lang=lang, chips=chips
            )
    file = attachment(data, name, said)
    return Answer(text.content, [file], view=replay_view(shown, lang))


# --- the answers ----------------------------------------------------------------------------------


async def stats(
    ix: Interaction, stats: PlayerStats | None, key: str, name: str | None, level: str | None
) -> None:
    """``/fp stats``, privately: of a member (``name``) or of a computer ``level``; with a
    Share button when there is a card to share."""
    lang = clicker_language(ix)
    who = words.computer_name(level, lang) if level is not None else name or key
    shown = await stats_message(stats, who, lang)
    view = share_view(key, lang) if shown.files else discord.utils.MISSING
    await ix.followup.send(shown.content, files=shown.files, view=view, ephemeral=True)


async def shared(ix: Interaction, stats: PlayerStats | None, key: str) -> None:
    """Stats shared in the channel by the clicker (nobody is pinged)."""
    lang = clicker_language(ix)
    shown = await stats_message(stats, key, lang)
    await ix.followup.send(
        words.shares(ix.user.mention, shown.content, lang),
        files=shown.files,
        allowed_mentions=discord.AllowedMentions.none(),
    )


async def thinking_publicly(ix: Interaction) -> None:
    """Acknowledge ``/fp leaderboard`` before its page is ready: its answer will be public."""
    await ix.response.defer(thinking=True)


async def leaderboard_asked(ix: Interaction, board: BoardPage) -> None:
    """``/fp leaderboard``'s answer: the page in the channel, or, when nobody is ranked yet,
    a private sentence saying so (when not already acknowledged publicly)."""
    if not board.entries and not ix.response.is_done():
        content = words.board_content(board, clicker_language(ix))
        await ix.response.send_message(content, ephemeral=True)
        return
    if not ix.response.is_done():
        await ix.response.defer(thinking=True)
    await leaderboard(ix, board, edit=False)


async def leaderboard(ix: Interaction, board: BoardPage, *, edit: bool) -> None:
    """A page of the leaderboard, as a new message (``/fp leaderboard``) or on the clicked
    one (``edit``: its page buttons)."""
    shown = await board_message(board, clicker_language(ix))
    if edit:
        if shown.view is None:
            await ix.edit_original_response(content=shown.content)
        else:
            await ix.edit_original_response(
                content=shown.content, attachments=shown.files, view=shown.view
            )
        return
    await ix.followup.send(
        shown.content,
        files=shown.files,
        allowed_mentions=discord.AllowedMentions.none(),
        view=shown.view or discord.utils.MISSING,
    )


async def history(ix: Interaction, entries: Sequence[HistoryEntry], whose: str | None) -> None:
    """``/fp history``, privately, with a Replay button for each match."""
    lang = clicker_language(ix)
    content = words.history_content(entries, whose, lang)
    view = history_view(entries, lang) if entries else discord.utils.MISSING
    await ix.followup.send(content, view=view, ephemeral=True)


async def replay_step(ix: Interaction, shown: ReplayShown, *, new: bool) -> None:
    """A replay step, privately: a new message (``new``) or on the clicked replay."""
    step = await step_message(shown, clicker_language(ix))
    [file] = step.files
    if new:
        await ix.followup.send(
            step.content, file=file, view=step.view or discord.utils.MISSING, ephemeral=True
        )
    else:
        await ix.edit_original_response(content=step.content, attachments=[file], view=step.view)


async def summary(ix: Interaction, moments: Sequence[ReplayShown]) -> None:
    """A match's animated summary, privately."""
    lang = clicker_language(ix)
    names = list(moments[0].names)
    number = moments[0].table.number
    frames = summary_moments(moments, lang)
    gif = await summary_gif(frames, names, lang=lang)
    shown = [(m.view, m.title) for m in frames if m.left is None]
    said = alttext.summary_text(shown, names, lang=lang, left=frames[-1].left)
    await ix.followup.send(
        words.summary_text(number, lang),
        file=attachment(gif, f"summary-{number}.gif", said),
        ephemeral=True,
    )


async def turning_points(ix: Interaction, shown: TurningShown) -> None:
    """A match's turning points, privately, with a button to each one's replay step."""
    lang = clicker_language(ix)
    text = turning.turning_text(shown, lang)
    view = turning_view(shown.table.id, text.points, lang) if text.points else None
    await ix.followup.send(
        text.content,
        view=view or discord.utils.MISSING,
        ephemeral=True,
        allowed_mentions=discord.AllowedMentions.none(),
    )


async def export(ix: Interaction, exported: MatchExport) -> None:
    """A match as a scenario file, privately."""
    data = json.dumps(exported.scenario, separators=(",", ":")).encode()
    lang = clicker_language(ix)
    said = alttext.scenario_file(exported.number, lang=lang)
    await ix.followup.send(
        words.export_text(exported.number, lang),
        file=attachment(data, words.export_file(exported.number), said),
        ephemeral=True,
    )
