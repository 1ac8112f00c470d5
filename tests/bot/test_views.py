"""Message layouts within Discord's limits, custom ids that round-trip, narration."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import views
from bot.components import ButtonId
from bot.narrate import narrate, scores_line
from bot.service import SpotChoice, TableService, spot_labels
from engine import Event, Game, view

from .conftest import ALICE, BOB, CAROL, lobby, state


def payload(v: discord.ui.View | None) -> list[dict[str, Any]]:
    return [] if v is None else v.to_components()


def check_limits(rows: list[dict[str, Any]]) -> None:
    assert len(rows) <= 5
    ids = []
    for row in rows:
        assert len(row["components"]) <= 5
        for b in row["components"]:
            assert len(b.get("label") or "") <= 80
            if "custom_id" in b:
                assert len(b["custom_id"]) <= 100
                assert ButtonId.decode(b["custom_id"]) is not None
                ids.append(b["custom_id"])
    assert len(ids) == len(set(ids))


@given(
    table=st.integers(1, 10**19),
    version=st.integers(0, 10**11),
    action=st.sampled_from(["play", "spot", "fall", "more"]),
    arg=st.sampled_from(["M200.ffffffff", "B100@12,-30", "right", "G6.3", ""]),
)
def test_custom_ids_round_trip_and_fit(table: int, version: int, action: str, arg: str) -> None:
    bid = ButtonId(table, version, action, arg)
    cid = bid.encode()
    assert len(cid) <= 100
    assert ButtonId.decode(cid) == bid


def test_foreign_custom_ids_are_ignored() -> None:
    assert ButtonId.decode("echo:count:3") is None
    assert ButtonId.decode("fp:1:2:explode:") is None


async def test_lobby_and_game_layouts(service: TableService) -> None:
    t = await lobby(service, ALICE, BOB, CAROL)
    board = await service.board_of(t)
    check_limits(payload(views.lobby_view(board)))
    assert views.lobby_embed(board).to_dict()["title"].endswith(f"table {t}")
    step = await service.start_from_state(t, ALICE, state(pyramid={"0,0": "Y2", "0,2": "R4"}))
    check_limits(payload(views.board_view(step.board)))
    assert views.lobby_view(step.board) is None
    hand = await service.hand(t, ALICE)
    rows = payload(views.hand_view(hand, with_mode="channel"))
    check_limits(rows)
    labels = [b.get("label") for r in rows for b in r["components"]]
    assert "yellow 40" in labels and "Go to the table" in labels
    # A player at several tables sees which game each hand belongs to.
    text = views.hand_content(hand, guild_name="Pyramid Club")
    assert f"table {t}" in text and f"<#{hand.channel_id}>" in text and "Pyramid Club" in text
    after = await service.play(t, ALICE, "Y40", hand.digest)
    assert not isinstance(after, SpotChoice)
    rows = payload(views.board_view(after.board))
    assert [b.get("label") for b in rows[0]["components"]] == ["Fall left", "Fall right", "My hand"]
    text = views.step_content(after)
    assert f"<@{ALICE}>" in text and "too heavy" in text
    assert views.mentioned_users(after.board) == [ALICE]


def test_many_spots_are_paged() -> None:
    game = Game.from_dict(state())
    spots = tuple((0, 2 * i) for i in range(47))
    choice = SpotChoice(1, 5, "Y40", spot_labels(spots), view(game, 0), ("a", "b", "c"))
    seen: list[str] = []
    for page in range(3):
        rows = payload(views.spot_view(choice, page))
        check_limits(rows)
        seen += [b["label"] for r in rows for b in r["components"] if "spot" in b["custom_id"]]
    assert seen == [label for label, _ in choice.spots]
    assert seen[26] == "AA"


@pytest.mark.parametrize(
    ("events", "expected"),
    [
        (
            [
                Event("placed", 0, "G60", (1, 1)),
                Event(
                    "collapsed",
                    0,
                    "G60",
                    (1, 1),
                    to_pile=(("B20", (0, 0)), ("Y40", (0, 2))),
                    detail="overweight",
                ),
                Event("fell", 0, "G60", (1, 1), (0, 0), detail="left"),
            ],
            "Léa's green 60 was too heavy: it fell left; blue 20 and yellow 40 go under "
            "Léa's pile.",
        ),
        (
            [Event("placed", 1, "R7", (0, 2)), Event("rolled", 1, "R7", (0, 2), detail="smoke")],
            "Max played red blowtorch (7); the fire die for red blowtorch (7) shows smoke "
            "(nothing happens).",
        ),
        ([Event("turn", 1)], ""),
    ],
)
def test_narration(events: list[Event], expected: str) -> None:
    assert narrate(events, ["Léa", "Max"]) == expected


def test_scores_lowest_first() -> None:
    assert scores_line(["Léa", "Max", "Zoé"], [7, 0, 12]) == "Max 0, Léa 7, Zoé 12"


def test_names_cannot_ping_or_format() -> None:
    assert "@everyone" not in views.esc("@everyone")
    assert views.esc("**bold**") == "\\*\\*bold\\*\\*"
