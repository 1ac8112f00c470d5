"""The lobby card's words: its heading, the seats, where the lobby stands, the host's row and
menu, and how to play. Its layout is :mod:`bot.show.lobbycard`; the common pieces are in
:mod:`bot.show.texts`."""

from __future__ import annotations

from typing import Final

from bot import emoji as em
from bot.service import LOBBY_TTL_S, Board, MatchResult
from bot.show import breaktexts
from bot.show.endtexts import podium
from bot.show.texts import (
    duration,
    esc,
    level_word,
    names_of,
    options_line,
    relative,
    table_name,
)
from i18n import N_, Language

LOBBY_STATUS: Final = {
    "lobby": N_("Waiting for players"),
    "playing": N_("The game has started"),
    "cancelled": N_("Cancelled by the host"),
    "aborted": N_("Aborted"),
    "finished": N_("Finished"),
}
"""The lobby card's status line, by the table's status (English; translated where shown)."""


def lobby_title(board: Board, lang: Language) -> str:
    """The lobby card's heading: the table, its host and its options in one line (and, at a
    practice table, that it gives hints and is not rated)."""
    t = board.table
    host = lang.gettext("Host: {host}").format(host=f"<@{t.host_id}>")
    title = (
        f"## {em.FIRE} Flaming Pyramids — {table_name(t.number, lang=lang)}\n"
        f"{host}\n-# {options_line(t.options, lang, undo_s=board.undo_s)}"
    )
    if t.options.hints:
        title += f"\n{em.HINT} {practice_line(lang)}"
    return title


def practice_line(lang: Language) -> str:
    """What a practice table's card says of it: hints, and no rating."""
    return lang.gettext(
        "**Practice table:** the **{hint}** button of your turn shows the move the expert would "
        "play, and why. Not rated: this match changes no one's stats."
    ).format(hint=lang.pgettext("button", "Hint"))


def seat_line(i: int, name: str, level: str | None, lang: Language) -> str:
    """One seat of the card: a person's name, or a computer's stored name and its level."""
    if level is None:
        return f"{i + 1}. {esc(name)}"
    computer = lang.gettext("computer, {level}").format(level=level_word(level, lang))
    return f"{i + 1}. {esc(name)} · {em.COMPUTER} {computer}"


def lobby_seats(board: Board, lang: Language) -> str:
    """The seats, in order, with each computer's level."""
    t = board.table
    seats = [
        seat_line(i, s.name, s.ai, lang)
        + (f" · {breaktexts.away_seat(board.away[i], lang)}" if i in board.away else "")
        for i, s in enumerate(t.seats)
    ]
    heading = lang.gettext("**Seats ({seated}/{seats})**").format(
        seated=len(t.seats), seats=t.options.max_seats
    )
    return heading + "\n" + ("\n".join(seats) or "—")


def lobby_status(
    board: Board,
    results: MatchResult | None = None,
    *,
    expired: bool = False,
    game_link: str | None = None,
    lang: Language,
) -> str:
    """Where the lobby stands: open (until when), started (where to follow the game), the
    podium of a finished match, or closed (cancelled, aborted, expired)."""
    t = board.table
    if expired:
        return lang.gettext(
            "**This lobby expired:** nobody started it within {duration}. "
            "The channel is free: open a new table with `/fp new`."
        ).format(duration=duration(LOBBY_TTL_S, lang))
    if t.status == "lobby":
        if t.deadline:
            return lang.gettext(
                "**Waiting for players.** Join with the button; the host starts with "
                "2 to 6 players. It closes {when} unless the host starts it."
            ).format(when=relative(t.deadline))
        return lang.gettext(
            "**Waiting for players.** Join with the button; the host starts with 2 to 6 players."
        )
    if t.status == "playing" and game_link:
        if t.thread_id is not None:
            started = lang.gettext(
                "**The game has started:** follow it [in its thread]({link})."
            ).format(link=game_link)
        else:
            started = lang.gettext(
                "**The game has started:** follow it [in the channel]({link})."
            ).format(link=game_link)
        paused = breaktexts.lobby_pause(board, lang)
        return f"{started}\n{paused}" if paused else started
    if t.status == "finished" and results is not None:
        finished = lang.gettext(LOBBY_STATUS["finished"])
        return f"**{finished}.**\n{podium(names_of(board), results, lang)}"
    return f"**{lang.gettext(LOBBY_STATUS[t.status])}.**"


HOST_ROW: Final = N_("**Host** · only the host can use these")


ADD_COMPUTER: Final = N_("Add a computer player…")


TABLE_FULL: Final = N_("The table is full")


def computer_option(level: str, lang: Language) -> tuple[str, str]:
    """The add-a-computer menu's option for ``level``: its label and description."""
    labels = {
        "easy": lang.gettext("Easy computer"),
        "normal": lang.gettext("Normal computer"),
        "hard": lang.gettext("Hard computer"),
        "expert": lang.gettext("Expert computer"),
    }
    said = {
        "easy": lang.gettext("Plays any tile that can go, at random"),
        "normal": lang.gettext("Looks one turn ahead"),
        "hard": lang.gettext("Searches many possible games before each move"),
        "expert": lang.gettext(
            "Looks a few turns ahead in many possible games, expecting the best replies"
        ),
    }
    label = labels.get(level) or lang.gettext("{level} computer").format(level=level)
    return label, said.get(level) or lang.gettext("A {level} computer player").format(level=level)


HOW_TO_PLAY: Final = N_(
    "**How to play Flaming Pyramids here**\n"
    "1. **Join** the lobby; the host adds computer players if wanted and presses **Start** "
    "(2 to 6 players).\n"
    "2. Everyone gets a pile of tiles and draws a hand of 5 from it. On your turn you get your "
    "hand by direct message (or press **My hand** on the game's message): pick a tile, then a "
    "spot of the pyramid (the picture labels the spots A, B, C…).\n"
    "3. A tile that does not fit collapses: the tiles under it go under your pile (you will "
    "draw them again), and you choose **Fall left** or **Fall right**.\n"
    "4. The first with no tile left in hand and pile wins the round; the others score the tiles "
    "left in their hand and pile, and over several rounds the lowest total wins.\n"
    "The rules in short, with pictures, are below (also with `/fp rules`)."
)
