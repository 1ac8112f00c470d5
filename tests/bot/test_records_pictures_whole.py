"""Every records picture in English and in French, with the bot's own words: no label is cut
with an ellipsis and none runs past the picture's edge (the stats card cut "Tuiles restantes
en…", "Effondrements prov…", "Explosions déclenc…" and the leaderboard "Ordinateur (diffic…").

What is drawn is watched as tests/render/test_languages.py watches the game's pictures: the
two functions every text goes through are called unchanged and tell what they were given.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

import i18n
from bot.show import recordtexts
from data.records import BoardPage, PlayerRecord, PlayerStats
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
            for level in ("easy", "normal", "hard")
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
    people = ["Léa", "Maximilien", "Zoé", "Sam", "Amir", "Jenny", "Bob"]
    entries = [busy(f"u:{i}", n, 30 + i) for i, n in enumerate(people)] + [
        busy(f"ai:{level}", "Computer", 200) for level in ("hard", "normal", "easy")
    ]
    board = BoardPage(tuple(entries), first_rank=1, total=23)
    made["leaderboard"] = lambda: render_card(
        recordtexts.board_title(board, lang),
        recordtexts.board_rows(board, "ai:easy", lang=lang),
        recordtexts.board_subtitle(lang),
    )
    return made


def drawn(monkeypatch: pytest.MonkeyPatch, pictures: dict[str, Callable[[], bytes]]) -> Drawn:
    with drawn_texts(monkeypatch) as seen:
        for name, make in pictures.items():
            seen.picture = name
            make()
    return seen


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_no_label_of_a_records_card_is_cut(monkeypatch: pytest.MonkeyPatch, code: str) -> None:
    seen = drawn(monkeypatch, cards(LANGUAGES[code]))
    assert seen.cut == {}, "labels cut with an ellipsis"
    assert seen.outside == [], "labels past the card's edge"
    said = "\n".join(seen.texts)
    if code == "fr":
        for whole in ("Tuiles restantes en moyenne", "Effondrements provoqués",
                      "Explosions déclenchées", "10. Ordinateur (facile)"):  # fmt: skip
            assert whole in said, whole
