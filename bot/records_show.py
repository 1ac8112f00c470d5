"""Words and pictures of the records commands: stats, leaderboard, history, replay steps.

One job: turn the records service's typed results into what Discord shows (text, a picture's
drawing function, buttons' custom ids). It never asks the service or the store. Only what was
public during play is shown: totals, wins, mayhem everyone saw, public boards; never a hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from bot.narrate import narrate, scores_line
from bot.records.replay import ReplayStep
from bot.records.service import PAGE_SIZE, RefusalKind, ReplayShown
from bot.show.texts import esc, jump_url, table_name
from data.records import MIN_MATCHES, BoardPage, HistoryEntry, PlayerRecord, PlayerStats
from engine.tiles import describe
from render.records import CardRow

NO_STATS: Final = "{who} has no rated match in this server yet."
REFUSALS: Final[dict[RefusalKind, str]] = {
    "no_match": "There is no such match.",
    "not_finished": "That match is not over: replays and exports are for finished matches.",
    "elsewhere": "That match was played in another server.",
    "not_player": "Only the match's players can export it: the file shows every dealt hand.",
}


def player_name(record: PlayerRecord) -> str:
    """The name a record is shown under (a computer level as "Computer (hard)")."""
    return record.name


def rating_text(record: PlayerRecord) -> str:
    """``"21.0 (27.3 ± 2.1)"``: the conservative rating, then mu ± sigma."""
    return f"{record.ordinal:.1f} ({record.mu:.1f} ± {record.sigma:.1f})"


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def stats_rows(stats: PlayerStats) -> list[CardRow]:
    """The rows of a player's stats (the card and the text say the same)."""
    r = stats.record
    win_rate = 100 * r.wins / r.matches if r.matches else 0.0
    rank = (
        f"{stats.rank} of {stats.ranked_players}"
        if stats.rank is not None
        else f"after {MIN_MATCHES} matches"
    )
    return [
        CardRow("Rating (μ − 3σ)", f"{r.ordinal:.1f}"),
        CardRow("Skill μ ± σ", f"{r.mu:.1f} ± {r.sigma:.1f}"),
        CardRow("Rank in this server", rank),
        CardRow("Matches", str(r.matches)),
        CardRow("Wins", f"{r.wins} ({win_rate:.0f}%)"),
        CardRow("Average tiles left", f"{r.tiles_left / r.matches:.1f}" if r.matches else "—"),
        CardRow("Best streak", f"{r.best_streak} (now {r.streak})"),
        CardRow("Collapses caused", str(r.collapses)),
        CardRow("Fires set", str(r.fires)),
        CardRow("Explosions set off", str(r.explosions)),
        CardRow("Curses cast", str(r.curses)),
        CardRow("Mayhem suffered", f"{_plural(r.tiles_taken, 'tile')} to pile"),
        CardRow("Curses suffered", str(r.cursed)),
        CardRow(
            "Favourite opening",
            describe(stats.favourite_opening) if stats.favourite_opening else "—",
        ),
    ]


def stats_title(stats: PlayerStats) -> str:
    return f"Stats of {stats.record.name}"


def stats_content(stats: PlayerStats) -> str:
    """The stats as text (the card picture shows the same rows)."""
    lines = [f"**{esc(stats_title(stats))}** in this server"]
    lines += [f"{row.label}: **{row.value}**" for row in stats_rows(stats)]
    return "\n".join(lines)


def no_stats(name: str) -> str:
    return NO_STATS.format(who=esc(name))


def pages(board: BoardPage) -> int:
    return max(1, -(-board.total // PAGE_SIZE))


def board_page(board: BoardPage) -> int:
    """The page (from 0) ``board`` is."""
    return (board.first_rank - 1) // PAGE_SIZE


def board_title(board: BoardPage) -> str:
    return f"Leaderboard · page {board_page(board) + 1} of {pages(board)}"


def board_subtitle() -> str:
    return f"Conservative rating μ − 3σ · at least {MIN_MATCHES} matches"


def board_rows(board: BoardPage, highlight: str | None = None) -> list[CardRow]:
    return [
        CardRow(
            f"{board.first_rank + i}. {r.name}",
            f"{r.ordinal:.1f} · {_plural(r.matches, 'match', 'matches')}",
            highlight=r.player == highlight,
        )
        for i, r in enumerate(board.entries)
    ]


def board_content(board: BoardPage) -> str:
    if not board.entries:
        return (
            "**Leaderboard**: nobody has played "
            f"{MIN_MATCHES} rated matches in this server yet. Finish a few games!"
        )
    lines = [f"**{board_title(board)}** — {board_subtitle()}"]
    for i, r in enumerate(board.entries):
        lines.append(
            f"{board.first_rank + i}. **{esc(r.name)}** {rating_text(r)} · "
            f"{_plural(r.matches, 'match', 'matches')}, {_plural(r.wins, 'win')}"
        )
    return "\n".join(lines)


def history_line(n: int, e: HistoryEntry) -> str:
    names = [esc(s.name) for s in e.seats]
    winners = " and ".join(names[i] for i in e.winners if 0 <= i < len(names)) or "—"
    where = jump_url(e.guild_id, e.thread_id if e.thread_id is not None else e.channel_id)
    result = f"winner **{winners}**"
    if e.scores is not None and len(e.scores) == len(names):
        result += f" ({scores_line(names, e.scores)})"
    return (
        f"{n}. <t:{int(e.finished_at)}:d> · {table_name(e.number)} · {', '.join(names)} · "
        f"{result} · [thread]({where})"
    )


def history_content(entries: Sequence[HistoryEntry], whose: str | None) -> str:
    title = f"Recent matches of {esc(whose)}" if whose else "Recent matches in this server"
    if not entries:
        return f"**{title}**: none finished yet."
    lines = [f"**{title}** (newest first; **Replay** one privately):"]
    lines += [history_line(i + 1, e) for i, e in enumerate(entries)]
    return "\n".join(lines)


@dataclass(frozen=True)
class StepText:
    """A replay step's words: the message text and the picture's title."""

    content: str
    title: str


def step_text(shown: ReplayShown) -> StepText:
    """What a replay step says: where it is in the match, and the move told as during play."""
    s: ReplayStep = shown.step
    names = [esc(n) for n in shown.names]
    head = f"**Replay of {table_name(shown.table.number)}** · step {s.index + 1} of {s.count}"
    if s.index == 0:
        body = "The tiles are dealt; " + (names[s.after.active] if s.after.active is not None
                                          else "nobody") + " starts."  # fmt: skip
    else:
        body = narrate(s.events, names) or "The next round begins."
    if s.last:
        scores = list(s.after.scores)
        body += f"\nThe match is over. Final totals (lower wins): {scores_line(names, scores)}."
    title = f"Replay · {table_name(shown.table.number)} · {s.index + 1}/{s.count}"
    return StepText(f"{head}\n{body}", title)


def refusal(kind: RefusalKind) -> str:
    return REFUSALS[kind]


def summary_caption(shown: ReplayShown) -> str:
    s = shown.step
    if s.index == 0:
        return "The deal"
    if s.last:
        return "The end"
    return f"Step {s.index + 1} of {s.count}"


def encode_player(key: str) -> str:
    """A player key in a custom id (``u:42`` -> ``u.42``)."""
    return key.replace(":", ".")


def decode_player(text: str) -> str:
    return text.replace(".", ":", 1)
