"""Every records picture in English and in French, with the bot's own words: no label is cut
with an ellipsis and none runs past the picture's edge (the stats card cut "Tuiles restantes
en…", "Effondrements prov…", "Explosions déclenc…" and the leaderboard "Ordinateur (diffic…";
the summary cut its account of a move after three lines). The cards, the summary and the end of
a replay cut nothing at all; a replay's other steps are the table's own pictures, which tell the
last move on three lines at most, and cut nothing in French that they do not cut in English.

What is drawn is watched as tests/render/test_languages.py watches the game's pictures: the
two functions every text goes through are called unchanged and tell what they were given.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable

import pytest

import i18n
from bot.records.replay import MatchReplay
from bot.records.results import ReplayShown
from bot.show import recordtexts
from bot.show.pictures import summary_gif
from bot.show.records import step_message, summary_moments
from data.model import LoggedAction, Table
from data.records import BoardPage, PlayerRecord, PlayerStats
from data.store import Seat, TableOptions
from engine import Game
from i18n import Language
from render.records import render_card
from tests.render.test_languages import Drawn, drawn_texts

FRENCH = i18n.catalogs.language("fr")
ENGLISH = i18n.catalogs.language("en")
LANGUAGES = {"en": ENGLISH, "fr": FRENCH}


def busy(player: str, name: str, matches: int) -> PlayerRecord:
    """A record with every count large, as after many matches."""
    return PlayerRecord(
        1, player, name, mu=31.2, sigma=2.3, matches=matches, wins=matches // 3,
        tiles_left=7 * matches, streak=2, best_streak=11, collapses=1432, fires=208,
        explosions=57, curses=96, tiles_taken=2871, cursed=88,
    )  # fmt: skip


def cards(lang: Language) -> dict[str, Callable[[], bytes]]:
    """Every card the records draw: a ranked player's stats, a newcomer's, each computer
    level's, and a full page of the leaderboard with the computers on it."""
    stats = {
        "stats ranked": PlayerStats(busy("u:1", "Léa", 412), 3, 57, "Y40"),
        "stats newcomer": PlayerStats(busy("u:2", "Maximilien", 1), None, 57, "B7"),
        **{
            f"stats {level}": PlayerStats(busy(f"ai:{level}", "Computer", 120), 10, 57, "M200")
            for level in ("easy", "normal", "hard", "expert")
        },
    }
    made: dict[str, Callable[[], bytes]] = {
        name: (
            lambda s=s: render_card(
                recordtexts.stats_title(s, lang),
                recordtexts.stats_rows(s, lang),
                "Flaming Pyramids",
            )
        )
        for name, s in stats.items()
    }
    people = ["Léa", "Maximilien", "Zoé", "Sam", "Amir", "Jenny"]
    entries = [busy(f"u:{i}", n, 30 + i) for i, n in enumerate(people)] + [
        busy(f"ai:{level}", "Computer", 200) for level in ("expert", "hard", "normal", "easy")
    ]
    board = BoardPage(tuple(entries), first_rank=1, total=23)
    made["leaderboard"] = lambda: render_card(
        recordtexts.board_title(board, lang),
        recordtexts.board_rows(board, "ai:easy", lang=lang),
        recordtexts.board_subtitle(lang),
    )
    return made


def replayed(seed: int) -> tuple[Table, MatchReplay]:
    """A finished four-player match (curses on, random legal moves) as the records keep it."""
    seats = (Seat(1, "Léa"), Seat(2, "Maximilien"), Seat(3, "Zoé"), Seat(None, "Computer", "hard"))
    game = Game.new(len(seats), seed, curse=True)
    initial = game.to_dict()
    rnd = random.Random(seed)
    log = []
    while game.pending is not None:
        seat = game.pending.player
        action = rnd.choice(game.legal_actions())
        game.apply(action, seat)
        log.append(LoggedAction(1, len(log) + 2, seat, None, action.to_dict(), 0.0))
    table = Table(
        1, 1, 10, 1, "finished", TableOptions(curse=True), seats, len(log) + 1, game.to_dict(),
        initial, None, None, 0.0, 0.0, number=12,
    )  # fmt: skip
    return table, MatchReplay(initial, log)


def replays(lang: Language) -> dict[str, Callable[[], Awaitable[object]]]:
    """A match's summary, and the steps of its replay: the deal, each step with mayhem, the
    end (with every player's tiles left)."""
    table, replay = replayed(12)
    moments = [ReplayShown(table, replay.step(i)) for i in replay.moments(14)]
    names = [s.name for s in table.seats]
    made: dict[str, Callable[[], Awaitable[object]]] = {
        "summary": lambda: summary_gif(summary_moments(moments, lang), names, lang=lang)
    }
    last = replay.count - 1
    for i in [0, *(i for i in range(1, last) if replay.step(i).mayhem), last]:
        shown = ReplayShown(table, replay.step(i))
        name = "replay's end" if i == last else f"replay step {i + 1}"
        made[name] = lambda shown=shown: step_message(shown, lang)
    return made


def drawn(pictures: dict[str, Callable[[], bytes]]) -> Drawn:
    with pytest.MonkeyPatch.context() as mp, drawn_texts(mp) as seen:
        for name, make in pictures.items():
            seen.picture = name
            make()
    return seen


async def drawn_async(pictures: dict[str, Callable[[], Awaitable[object]]]) -> Drawn:
    with pytest.MonkeyPatch.context() as mp, drawn_texts(mp) as seen:
        for name, make in pictures.items():
            seen.picture = name
            await make()
    return seen


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_no_label_of_a_records_card_is_cut(code: str) -> None:
    seen = drawn(cards(LANGUAGES[code]))
    assert seen.cut == {}, "labels cut with an ellipsis"
    assert seen.outside == [], "labels past the card's edge"
    said = "\n".join(seen.texts)
    if code == "fr":
        for whole in ("Tuiles restantes en moyenne", "Effondrements provoqués",
                      "Explosions déclenchées", "10. Ordinateur (facile)"):  # fmt: skip
            assert whole in said, whole


async def test_no_label_of_a_summary_or_a_replay_is_cut() -> None:
    english = await drawn_async(replays(ENGLISH))
    french = await drawn_async(replays(FRENCH))
    for seen in (english, french):
        assert seen.outside == [], "texts past the picture's edge"
        assert {"summary", "replay's end"} & seen.cut.keys() == set(), "the summary or the end cut"
    cut_in_english = {name: len(cuts) for name, cuts in english.cut.items()}
    longer = {
        name: cuts for name, cuts in french.cut.items() if len(cuts) > cut_in_english.get(name, 0)
    }
    assert longer == {}, "French cut where English fits"
    said = "\n".join(french.texts)
    for words in ("Tuiles restantes", "main\u00a0:", "La distribution"):
        assert words in said, words
