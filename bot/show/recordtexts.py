"""The words of the records: stats, leaderboard, history, replay steps, summaries and exports.

One job: word the records service's typed results (the text of each message, and the rows and
titles its picture draws), as :mod:`bot.show.texts` words the table's. Pure functions; they never
ask the service or the store. Only what was public during play is shown: totals, wins, mayhem
everyone saw, public boards; no hand before the match is over (its end lays down every
player's tiles left). (The records' refusals are worded with every other refusal, in
:mod:`bot.show.words`.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import babel.numbers

from bot.narrate import narrate, scores_line
from bot.records.replay import ReplayStep
from bot.records.results import PAGE_SIZE, ReplayShown
from bot.show.texts import esc, jump_url, level_word, table_name
from data.records import (
    MIN_MATCHES,
    BoardPage,
    HistoryEntry,
    PlayerRecord,
    PlayerStats,
    level_of,
)
from i18n import N_, Language
from rating import RATING_START
from render.narration import names_and, tile_name
from render.records import CardRow

NO_STATS: Final = N_("{who} has no rated match in this server yet.")


def player_name(record: PlayerRecord, lang: Language) -> str:
    """The name a record is shown under: a computer level's in the reader's language
    ("Ordinateur (difficile)"), whatever name the record was stored under."""
    level = level_of(record.player)
    return computer_name(level, lang) if level is not None else record.name


def computer_name(level: str, lang: Language) -> str:
    """A computer level's records, named as the ``/fp stats`` choice names it."""
    names = {
        "easy": lang.pgettext("choice name", "Computer (easy)"),
        "normal": lang.pgettext("choice name", "Computer (normal)"),
        "hard": lang.pgettext("choice name", "Computer (hard)"),
        "expert": lang.pgettext("choice name", "Computer (expert)"),
    }
    return names.get(level) or lang.gettext("Computer ({level})").format(level=level)


def _fixed(number: float, lang: Language) -> str:
    """One decimal always (``21.0``, ``21,0``); English exactly as Python rounds it."""
    if lang.code == "en":
        return f"{number:.1f}"
    return babel.numbers.format_decimal(number, format="0.0", locale=lang.code)


def _percent(share: float, lang: Language) -> str:
    """``50%``, ``50 %``."""
    if lang.code == "en":
        return f"{100 * share:.0f}%"
    return babel.numbers.format_percent(share, locale=lang.code)


def rating_text(record: PlayerRecord) -> str:
    """``"1096"``: the rating a player reads, in points (:attr:`PlayerRecord.rating`; the
    model behind it is in docs/records.md). Digits alone, as ratings are written."""
    return str(record.rating)


def rank_text(stats: PlayerStats, lang: Language) -> str:
    """``"2 of 7"``, or how many matches are missing before the leaderboard lists them."""
    if stats.rank is not None:
        return lang.gettext("{rank} of {players}").format(
            rank=lang.format_decimal(stats.rank), players=lang.format_decimal(stats.ranked_players)
        )
    missing = max(1, MIN_MATCHES - stats.record.matches)
    return lang.ngettext(
        "not ranked yet: {count} more match", "not ranked yet: {count} more matches", missing
    ).format(count=lang.format_decimal(missing))


def stats_rows(stats: PlayerStats, lang: Language) -> list[CardRow]:
    """The rows of a player's stats (the card and the text say the same)."""
    r = stats.record
    win_rate = r.wins / r.matches if r.matches else 0.0
    n = lang.format_decimal
    return [
        CardRow(lang.gettext("Rating"), rating_text(r)),
        CardRow(lang.gettext("Rank in this server"), rank_text(stats, lang)),
        CardRow(lang.gettext("Matches"), n(r.matches)),
        CardRow(
            lang.gettext("Wins"),
            f"{n(r.wins)} ({_percent(win_rate, lang)})",
        ),
        CardRow(
            lang.gettext("Average tiles left"),
            _fixed(r.tiles_left / r.matches, lang) if r.matches else "—",
        ),
        CardRow(
            lang.gettext("Best streak"),
            lang.gettext("{best} (now {now})").format(best=n(r.best_streak), now=n(r.streak)),
        ),
        CardRow(lang.gettext("Collapses caused"), n(r.collapses)),
        CardRow(lang.gettext("Fires set"), n(r.fires)),
        CardRow(lang.gettext("Explosions set off"), n(r.explosions)),
        CardRow(lang.gettext("Curses cast"), n(r.curses)),
        CardRow(
            lang.gettext("Mayhem suffered"),
            lang.ngettext("{count} tile to pile", "{count} tiles to pile", r.tiles_taken).format(
                count=n(r.tiles_taken)
            ),
        ),
        CardRow(lang.gettext("Curses suffered"), n(r.cursed)),
        CardRow(
            lang.gettext("Favourite opening"),
            tile_name(stats.favourite_opening, lang) if stats.favourite_opening else "—",
        ),
    ]


def stats_title(stats: PlayerStats, lang: Language) -> str:
    """``"Stats of Léa"``; a computer level's as a sentence names a computer ("Stats of the
    computer (easy)"), not as a person's name."""
    level = level_of(stats.record.player)
    if level is not None:
        # TRANSLATORS: the title of a computer level's stats; {level} is its level ("easy").
        return lang.gettext("Stats of the computer ({level})").format(level=level_word(level, lang))
    return lang.gettext("Stats of {player}").format(player=stats.record.name)


def stats_content(stats: PlayerStats, lang: Language) -> str:
    """The stats as text (the card picture shows the same rows)."""
    lines = [lang.gettext("**{title}** in this server").format(title=esc(stats_title(stats, lang)))]
    # TRANSLATORS: a row of the stats as text: its label, then its value in bold.
    row = lang.gettext("{label}: **{value}**")
    lines += [row.format(label=r.label, value=r.value) for r in stats_rows(stats, lang)]
    return "\n".join(lines)


def no_stats(name: str, lang: Language) -> str:
    return lang.gettext(NO_STATS).format(who=esc(name))


def pages(board: BoardPage) -> int:
    return max(1, -(-board.total // PAGE_SIZE))


def board_page(board: BoardPage) -> int:
    """The page (from 0) ``board`` is."""
    return (board.first_rank - 1) // PAGE_SIZE


def board_title(board: BoardPage, lang: Language) -> str:
    return lang.gettext("Leaderboard · page {page} of {pages}").format(
        page=board_page(board) + 1, pages=pages(board)
    )


def board_subtitle(lang: Language) -> str:
    """What the numbers are: a rating from which every player starts, and who is listed."""
    # TRANSLATORS: under the leaderboard's title; {start} is a rating, such as 1000.
    return lang.gettext("Rating: everyone starts at {start} · ranked after {count} matches").format(
        start=RATING_START, count=MIN_MATCHES
    )


def _matches(n: int, lang: Language) -> str:
    return lang.ngettext("{count} match", "{count} matches", n).format(count=lang.format_decimal(n))


def board_rows(board: BoardPage, highlight: str | None = None, *, lang: Language) -> list[CardRow]:
    return [
        CardRow(
            f"{board.first_rank + i}. {player_name(r, lang)}",
            # The rating last: right-aligned on the card, the ratings line up.
            f"{_matches(r.matches, lang)} · {rating_text(r)}",
            highlight=r.player == highlight,
        )
        for i, r in enumerate(board.entries)
    ]


def board_content(board: BoardPage, lang: Language) -> str:
    if not board.entries:
        return lang.gettext(
            "**Leaderboard**: nobody is ranked in this server yet. A player is ranked once "
            "they have finished {count} matches here: start one with `/fp new`."
        ).format(count=MIN_MATCHES)
    lines = [f"**{board_title(board, lang)}** — {board_subtitle(lang)}"]
    for i, r in enumerate(board.entries):
        wins = lang.ngettext("{count} win", "{count} wins", r.wins).format(
            count=lang.format_decimal(r.wins)
        )
        lines.append(
            f"{board.first_rank + i}. **{esc(player_name(r, lang))}** {rating_text(r)} · "
            f"{_matches(r.matches, lang)}, {wins}"
        )
    return "\n".join(lines)


def history_line(n: int, e: HistoryEntry, lang: Language) -> str:
    names = [esc(s.name) for s in e.seats]
    won = [i for i in e.winners if 0 <= i < len(names)]
    winners = names_and(won, names, lang) if won else "—"
    where = jump_url(e.guild_id, e.thread_id if e.thread_id is not None else e.channel_id)
    totals = e.scores is not None and len(e.scores) == len(names)
    if e.stopped and e.scores is not None and totals:
        # TRANSLATORS: a match of the history that was aborted, or closed when its last person
        # left, after its first move; then the tiles each player had left when it stopped.
        result = lang.gettext("**stopped** before its end ({scores})").format(
            scores=scores_line(names, e.scores, lang)
        )
    elif e.stopped:
        result = lang.gettext("**stopped** before its end")
    elif e.scores is not None and totals:
        result = lang.gettext("winner **{players}** ({scores})").format(
            players=winners, scores=scores_line(names, e.scores, lang)
        )
    else:
        result = lang.gettext("winner **{players}**").format(players=winners)
    thread = lang.gettext("[thread]({link})").format(link=where)
    return (
        f"{n}. <t:{int(e.finished_at)}:d> · {table_name(e.number, lang=lang)} · "
        f"{lang.pgettext('list', ', ').join(names)} · {result} · {thread}"
    )


def history_content(entries: Sequence[HistoryEntry], whose: str | None, lang: Language) -> str:
    if whose:
        title = lang.gettext("Recent matches of {player}").format(player=esc(whose))
    else:
        title = lang.gettext("Recent matches in this server")
    if not entries:
        return lang.gettext("**{title}**: none finished yet.").format(title=title)
    lines = [
        lang.gettext("**{title}** (newest first; **Replay** one privately):").format(title=title)
    ]
    lines += [history_line(i + 1, e, lang) for i, e in enumerate(entries)]
    return "\n".join(lines)


@dataclass(frozen=True)
class StepText:
    """A replay step's words: the message text and the picture's title."""

    content: str
    title: str


def step_story(shown: ReplayShown, names: Sequence[str], lang: Language) -> str:
    """What happened in a replay step, told in full with ``names`` (escaped for a message, as
    they are for a picture): the deal, the move as during play, and at the last step how the
    match ended."""
    s: ReplayStep = shown.step
    if s.index == 0:
        if s.after.active is not None:
            body = lang.gettext("The tiles are dealt; {player} starts.").format(
                player=names[s.after.active]
            )
        else:
            body = lang.gettext("The tiles are dealt; nobody starts.")
    else:
        told = narrate(s.events, names, lang, viewer=None, computer_chose=s.computer_chose)
        body = told or lang.gettext("The next round begins.")
    if s.last and shown.stopped:
        body += "\n" + lang.gettext(
            "The match stopped here, before its end. Tiles left (lower is better): {scores}."
        ).format(scores=scores_line(names, s.after.standings, lang))
    elif s.last:
        scores = list(s.after.scores)
        body += "\n" + lang.gettext(
            "The match is over. Final totals (lower wins): {scores}."
        ).format(scores=scores_line(names, scores, lang))
    return body


def step_text(shown: ReplayShown, lang: Language) -> StepText:
    """What a replay step says: where it is in the match, and the move told as during play."""
    s: ReplayStep = shown.step
    table = table_name(shown.table.number, lang=lang)
    head = lang.gettext("**Replay of {table}** · step {step} of {steps}").format(
        table=table, step=s.index + 1, steps=s.count
    )
    body = step_story(shown, [esc(n) for n in shown.names], lang)
    title = lang.gettext("Replay · {table} · {step}/{steps}").format(
        table=table, step=s.index + 1, steps=s.count
    )
    return StepText(f"{head}\n{body}", title)


def summary_caption(shown: ReplayShown, lang: Language) -> str:
    s = shown.step
    if s.index == 0:
        return lang.gettext("The deal")
    if s.last:
        return lang.gettext("The end")
    return lang.gettext("Step {step} of {steps}").format(step=s.index + 1, steps=s.count)


def tiles_left_caption(lang: Language) -> str:
    """The title of a summary's last frame, every player's tiles shown."""
    return lang.gettext("Tiles left")


def tiles_left_story(shown: ReplayShown, lang: Language) -> str:
    """What a summary's last frame shows: the tiles each player still had, face up."""
    if shown.stopped:
        return lang.gettext(
            "Every player's tiles when the match stopped, face up: the hand, then the pile."
        )
    return lang.gettext(
        "Every player's tiles when the match ended, face up: the hand, then the pile."
    )


def shares(mention: str, content: str, lang: Language) -> str:
    """Stats shared in the channel: who shares them, then the stats as text."""
    said = lang.gettext("{player} shares:").format(player=mention)
    return f"{said}\n{content}"


def summary_text(number: int, lang: Language) -> str:
    """The message of a match's animated summary."""
    return lang.gettext(
        "**Summary of {table}**: the deal, the mayhem, the last moves and every player's tiles "
        "left at the end."
    ).format(table=table_name(number, lang=lang))


def export_file(number: int) -> str:
    """The name of a match's scenario file."""
    return f"match-{number}.json"


def export_text(number: int, lang: Language) -> str:
    """The message of a match's scenario file, in a player's words (the command that replays
    it is in docs/records.md)."""
    return lang.gettext(
        "Table #{number}, the whole match in one file: every hand as it was dealt and every "
        "move, one by one. Keep it, or share it to show how the match went."
    ).format(number=number)
