"""Message layouts within Discord's limits, custom ids that round-trip, narration."""

from __future__ import annotations

from typing import Any

import discord
import pytest

import i18n
import render
from bot import emoji as em
from bot.components import ButtonId
from bot.narrate import narrate, scores_line
from bot.service import SpotChoice, Step, TableService, spot_labels
from bot.show import breaktexts, handtexts, texts, turntexts
from bot.show import buttons as layouts
from bot.show.lobbycard import lobby_card
from engine import Event, Game, view
from i18n import ENGLISH
from render.scene import table_scene

from .conftest import ALICE, BOB, CAROL, lobby, play_tile, state, with_rounds

DIGEST = "0123abcd"
"""A hand's fingerprint, as tile buttons carry it."""


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


def walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for c in components:
        out.append(c)
        out += walk(c.get("components") or [])
        if c.get("accessory"):
            out += walk([c["accessory"]])
    return out


def card_text(components: list[dict[str, Any]]) -> str:
    return "\n".join(c["content"] for c in walk(components) if c.get("type") == 10)


def card_labels(components: list[dict[str, Any]]) -> list[str]:
    return [c["label"] for c in walk(components) if c.get("type") == 2]


def test_foreign_custom_ids_are_ignored() -> None:
    assert ButtonId.decode("echo:count:3") is None
    assert ButtonId.decode("fp:1:2:explode:") is None


async def test_lobby_and_game_layouts(service: TableService) -> None:
    t = await lobby(service, ALICE, BOB, CAROL)
    board = await service.board_of(t)
    card = lobby_card(board, lang=ENGLISH).to_components()
    assert board.number == 1
    assert "table #1" in card_text(card)
    assert "Start" in card_labels(card) and "Join" in card_labels(card)
    step = await service.start_from_state(t, ALICE, state(pyramid={"0,0": "Y2", "0,2": "R4"}))
    check_limits(payload(layouts.board_view(step.board, lang=ENGLISH)))
    started = lobby_card(
        step.board, game_link="https://discord.com/channels/1/2/3", lang=ENGLISH
    ).to_components()
    assert card_labels(started) == ["How to play", "Go to the game"]
    assert "https://discord.com/channels/1/2/3" in card_text(started)
    hand = await service.hand(t, ALICE)
    rows = payload(layouts.hand_view(hand, fall_row=0, with_mode="channel", lang=ENGLISH))
    check_limits(rows)
    labels = [b.get("label") for r in rows for b in r["components"]]
    assert "yellow 40" in labels and "Go to the table" in labels
    # A player at several tables sees which game each hand belongs to.
    text = handtexts.hand_content(hand, guild_name="Pyramid Club", lang=ENGLISH)
    assert "table #1 " in text and f"<#{hand.channel_id}>" in text and "Pyramid Club" in text
    assert str(t) not in text  # the long id is for buttons and logs only
    after = await play_tile(service, t, ALICE, "Y40", hand.digest)
    assert not isinstance(after, SpotChoice)
    rows = payload(layouts.board_view(after.board, lang=ENGLISH))
    assert [b.get("label") for b in rows[0]["components"]] == ["Fall left", "Fall right", "My hand"]
    # The channel's picture of the fall choice marks both landing places.
    assert after.board.view is not None and after.board.view.hand is None
    fall = table_scene(after.board.view, list(after.board.names), lang=ENGLISH, viewer=None).fall
    assert fall is not None and (fall.left, fall.right) == ((0, 0), (0, 2))
    text = turntexts.step_content(after, lang=ENGLISH)
    assert f"<@{ALICE}>" in text and "too heavy" in text
    assert turntexts.mentioned_users(after.board) == [ALICE]


async def test_spot_buttons_carry_the_letters_of_the_picture(service: TableService) -> None:
    s = state(pyramid={"0,0": "Y30", "0,2": "R10", "0,6": "B20", "0,10": "G30"})
    t = await lobby(service, ALICE, BOB, CAROL)
    await service.start_from_state(t, ALICE, s)
    hand = await service.hand(t, ALICE)
    choice = await service.play(t, ALICE, "Y40", hand.digest)
    assert isinstance(choice, SpotChoice) and len(choice.spots) > 2
    on_picture = render.spot_labels(choice.view)
    buttons = [
        (b["label"].split(" · ")[0], b["custom_id"].rsplit("@", 1)[1])
        for r in payload(layouts.spot_view(choice, lang=ENGLISH))
        for b in r["components"]
        if ":spot:" in b["custom_id"]
    ]
    assert buttons == [(label, f"{r},{x}") for label, (r, x) in on_picture.items()]


async def test_a_second_tap_where_a_tile_was_lands_on_that_tile_and_spots_lie_below_every_step(
    service: TableService,
) -> None:
    # The tile step has two rows (tiles, then the link), the fall choice at most two; the spot step
    # keeps the tiles where the tile step has them, the same buttons, and puts its spots in
    # rows of its own below: a second tap meant for a tile or a spot never lands on a spot
    # or a fall.
    s = state(pyramid={"0,0": "Y2", "0,2": "R4", "0,6": "B20"})
    t = await lobby(service, ALICE, BOB, CAROL)
    await service.start_from_state(t, ALICE, s)
    hand = await service.hand(t, ALICE)
    tiles = payload(layouts.hand_view(hand, fall_row=0, lang=ENGLISH))
    choice = await service.play(t, ALICE, "Y40", hand.digest)
    assert isinstance(choice, SpotChoice)
    spots = payload(layouts.spot_view(choice, lang=ENGLISH))
    check_limits(spots)
    assert [b["custom_id"] for b in spots[0]["components"]] == [
        b["custom_id"] for b in tiles[0]["components"]
    ]
    chosen = {
        b["custom_id"].split(":")[4].split(".")[0]: b["style"] for b in spots[0]["components"]
    }
    assert chosen == {
        "Y40": discord.ButtonStyle.primary.value,
        "B2": discord.ButtonStyle.secondary.value,
    }
    assert len(tiles) == 2
    rows_with_spots = [
        i for i, r in enumerate(spots) if any(":spot:" in b["custom_id"] for b in r["components"])
    ]
    assert rows_with_spots and min(rows_with_spots) >= len(tiles)
    step = await service.choose_spot(t, choice.version, ALICE, "Y40", (1, 1))  # too heavy
    assert isinstance(step, Step)
    falling = await service.hand(t, ALICE)
    assert falling.decision == "fall"
    for row in layouts.FALL_ROWS:
        assert len(payload(layouts.hand_view(falling, fall_row=row, lang=ENGLISH))) <= len(tiles)


TWO_FALLS = state(
    # Yellow 40 on yellow 2 and red 4 is too heavy: Alice chooses its fall; red 10, then on
    # green 20 alone (another colour), falls too: her choice again.
    pyramid={"0,0": "Y2", "0,2": "R4", "0,4": "G20", "1,3": "R10"},
    piles=[["R20"], ["G30"], ["B10"]],
)


def rows_of(v: discord.ui.View | None) -> list[list[tuple[str, bool]]]:
    """Each row's buttons as (action, disabled); a link as ("link", False)."""
    return [
        [
            (b["custom_id"].split(":")[3] if "custom_id" in b else "link", bool(b.get("disabled")))
            for b in r["components"]
        ]
        for r in payload(v)
    ]


FIRST_ROW = [[("fall", False), ("fall", False), ("hand", False)]]
SECOND_ROW = [[("note", True)], [("fall", False), ("fall", False), ("hand", False)]]


async def test_a_fall_that_follows_a_fall_is_asked_in_the_other_row_under_a_disabled_heading(
    service: TableService,
) -> None:
    # A phone's second tap of a fall lands where the first was: on the heading (disabled:
    # Discord sends nothing), or below every button; never on the next fall.
    t = await lobby(service, ALICE, BOB, CAROL)
    await service.start_from_state(t, ALICE, TWO_FALLS)
    hand = await service.hand(t, ALICE)
    first = await play_tile(service, t, ALICE, "Y40", hand.digest)
    assert rows_of(layouts.board_view(first.board, lang=ENGLISH)) == FIRST_ROW
    second = await service.fall(t, first.board.version, ALICE, "left")
    assert second.board.prompt.kind == "fall" and second.board.prompt.tile == "R10"
    board_rows = payload(layouts.board_view(second.board, lang=ENGLISH))
    assert rows_of(layouts.board_view(second.board, lang=ENGLISH)) == SECOND_ROW
    assert board_rows[0]["components"][0]["label"] == "Where does red 10 fall?"
    check_limits(board_rows)
    # On a private screen the row follows the tap: a fall tapped in the first row asks the
    # next one in the second, and the other way round; a new screen asks it in the first.
    falling = await service.hand(t, ALICE)
    assert layouts.fall_row_after(0) == 1 and layouts.fall_row_after(1) == 0
    assert layouts.fall_row_after(None) == 0 and layouts.fall_row_after(2) == 0
    assert rows_of(layouts.hand_view(falling, fall_row=1, lang=ENGLISH)) == [
        [("note", True)],
        [("fall", False), ("fall", False), ("link", False)],
    ]
    assert rows_of(layouts.hand_view(falling, fall_row=0, with_mode="dm", lang=ENGLISH)) == [
        [("fall", False), ("fall", False), ("link", False)]  # no hand mode beside a fall
    ]
    third = await service.fall(t, second.board.version, ALICE, "left")
    assert third.board.prompt.kind == "play"
    assert rows_of(layouts.board_view(third.board, lang=ENGLISH)) == [[("hand", False)]]


async def test_spot_buttons_and_text_say_what_each_play_would_do(service: TableService) -> None:
    # Y40 on Y2 and R4 at 1,1 is too heavy; at 0,4 (beside R4) it simply fits.
    s = state(pyramid={"0,0": "Y2", "0,2": "R4", "0,6": "B20"})
    t = await lobby(service, ALICE, BOB, CAROL)
    await service.start_from_state(t, ALICE, s)
    hand = await service.hand(t, ALICE)
    choice = await service.play(t, ALICE, "Y40", hand.digest)
    assert isinstance(choice, SpotChoice) and choice.previews is not None
    labels = {
        b["label"]: b["style"]
        for r in payload(layouts.spot_view(choice, lang=ENGLISH))
        for b in r["components"]
        if ":spot:" in b["custom_id"]
    }
    said = dict(
        zip(
            [label for label, _ in choice.spots],
            handtexts.spot_previews(choice, lang=ENGLISH),
            strict=True,
        )
    )
    assert said == {"A": "collapse: 2 tiles to your pile", "B": "fits"}
    assert labels[f"A · {said['A']}"] == discord.ButtonStyle.danger.value
    assert labels["B · fits"] == discord.ButtonStyle.success.value
    text = handtexts.spot_content(choice, lang=ENGLISH)
    assert f"**A** · {said['A']}" in text and "**B** · fits" in text


async def test_without_previews_spots_are_bare_letters(service: TableService) -> None:
    s = state(pyramid={"0,0": "Y30", "0,2": "R10", "0,6": "B20", "0,10": "G30"})
    t = await lobby(service, ALICE, BOB, CAROL, preview=False)
    await service.start_from_state(t, ALICE, s)
    hand = await service.hand(t, ALICE)
    assert hand.fitting == ()
    choice = await service.play(t, ALICE, "Y40", hand.digest)
    assert isinstance(choice, SpotChoice) and choice.previews is None
    buttons = [b for r in payload(layouts.spot_view(choice, lang=ENGLISH)) for b in r["components"]]
    spots = [b["label"] for b in buttons if ":spot:" in b["custom_id"]]
    labels = [b["label"] for b in buttons]
    assert (
        spots[:2] == ["A", "B"]
        and "Back" in labels
        and "fits" not in handtexts.spot_content(choice, lang=ENGLISH)
    )


def test_many_spots_are_paged() -> None:
    game = Game.from_dict(state())
    spots = tuple((0, 2 * i) for i in range(47))
    choice = SpotChoice(1, 5, "Y40", spot_labels(spots), view(game, 0), ("a", "b", "c"), DIGEST)
    seen: list[str] = []
    for page in range(-(-len(spots) // layouts.SPOTS_PER_PAGE)):
        rows = payload(layouts.spot_view(choice, page, lang=ENGLISH))
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
            "Léa played green 60.\n"
            "Green 60 collapsed (too heavy for the two tiles below): blue 20 and yellow 40 went"
            " under Léa's pile.\n"
            "Green 60 fell left.",
        ),
        (
            [Event("placed", 1, "R7", (0, 2)), Event("rolled", 1, "R7", (0, 2), detail="smoke")],
            "Max played red blowtorch (7).\n"
            "The fire die for red blowtorch (7) showed smoke (nothing happens).",
        ),
        ([Event("turn", 1)], ""),
    ],
)
def test_narration(events: list[Event], expected: str) -> None:
    assert narrate(events, ["Léa", "Max"], lang=ENGLISH, viewer=None) == expected


def test_scores_lowest_first() -> None:
    assert scores_line(["Léa", "Max", "Zoé"], [7, 0, 12], lang=ENGLISH) == "Max 0, Léa 7, Zoé 12"


def test_names_cannot_ping_or_format() -> None:
    assert "@everyone" not in texts.esc("@everyone")
    assert texts.esc("**bold**") == "\\*\\*bold\\*\\*"


async def test_a_last_round_won_by_one_player_crowns_the_match_winner_by_total(
    service: TableService,
) -> None:
    """Alice wins round 2 of 2 but Bob has the lowest total: the post names Alice as the
    round's winner once and crowns Bob (RULES 7: lowest total wins the match)."""
    s = with_rounds(state(hands=[["Y40"], ["R2", "G2"], ["B4", "Y4"]], piles=[[], [], []]), 2)
    s["round"], s["scores"] = 2, [20, 0, 3]
    t = await lobby(service, ALICE, BOB, CAROL)
    await service.start_from_state(t, ALICE, s)
    hand = await service.hand(t, ALICE)
    step = await play_tile(service, t, ALICE, "Y40", hand.digest)
    assert step.results is not None and step.results.winners == (1,)
    text = turntexts.step_content(step, lang=ENGLISH)
    assert "🏁 **The match is over.** user11 wins round 2 of 2.\n" in text
    assert "user12 wins the match with the lowest total." in text
    assert text.count("user11 wins") == 1 and "user11 wins round 2 and the match" not in text
    rows = [line for line in text.splitlines() if line[:1].isdigit()]
    assert rows == [
        "1. user12: 2 (this round 2)",
        "2. user13: 5 (this round 2)",
        "3. user11: 20 (this round 0)",
    ]


async def test_the_last_round_announces_the_final_standings(service: TableService) -> None:
    s = with_rounds(state(hands=[["Y40"], ["R2", "G2"], ["B4", "Y4"]], piles=[[], [], []]), 2)
    t = await lobby(service, ALICE, BOB, CAROL)
    await service.start_from_state(t, ALICE, s)
    users = {0: ALICE, 1: BOB, 2: CAROL}
    hand = await service.hand(t, ALICE)
    won = await play_tile(service, t, ALICE, "Y40", hand.digest)
    assert isinstance(won, Step) and won.results is None
    text = turntexts.step_content(won, lang=ENGLISH)
    assert "user11 wins round 1 of 2." in text  # named once, as the round's winner
    assert text.count("wins round") == 1 and "the match" not in text
    assert "Standings after round 1 of 2 (lower wins):\n1. user11: 0 (this round 0)\n" in text
    step = await service.next_round(t, won.board.version, BOB)
    for _ in range(1000):  # round 2, played by everyone's first tile on the first spot
        p = step.board.prompt
        if p.kind == "over":
            break
        assert p.seat is not None
        user = users[p.seat]
        if p.kind == "fall":
            step = await service.fall(t, step.board.version, user, "left")
            continue
        hand = await service.hand(t, user)
        assert hand.view.hand
        played = await service.play(t, user, hand.view.hand[0], hand.digest)
        if isinstance(played, SpotChoice):
            played = await service.choose_spot(
                t, played.version, user, played.tile, played.spots[0][1]
            )
        step = played
    assert step.results is not None and step.board.view is not None
    totals = step.board.view.scores
    assert step.results.scores == tuple(totals)
    text = turntexts.step_content(step, lang=ENGLISH)
    assert "🏁 **The match is over.** " in text and text.count("wins round 2 ") == 1
    winners = [f"user{users[i]}" for i in step.results.winners]
    assert f"{' and '.join(winners)} {'wins' if len(winners) == 1 else 'share'}" in text
    assert "Final standings, tiles left in hand and pile over 2 rounds (lower wins):" in text
    # One standings table: a line per player, lowest total first, with this round's tiles.
    rows = [line for line in text.splitlines() if line[:1].isdigit()]
    assert len(rows) == 3 and rows[0].startswith(f"1. {winners[0]}: {min(totals)} (this round")
    assert "Match totals" not in text and text.count("standings") == 1
    # Once the match is over, no game button is left: only Rematch.
    over = layouts.board_view(step.board, lang=ENGLISH)
    assert over is not None
    labels = [c.get("label") for row in over.to_components() for c in row["components"]]
    assert labels == ["Rematch"]


@pytest.mark.parametrize("name", ["<@123>", "<@!123>", "<@&5>", "<#1>", "@everyone", "@here"])
def test_a_name_never_reads_as_a_mention(name: str) -> None:
    shown = texts.esc(f"x {name} y")
    assert name not in shown
    assert shown.replace("\u200b", "") == f"x {name} y"


def test_a_name_written_in_lower_case_stays_so_at_the_start_of_a_sentence() -> None:
    said = narrate([Event("placed", 0, "G60", (1, 1))], ["lea", "Max"], lang=ENGLISH, viewer=None)
    assert said == "lea played green 60."
    said = narrate(
        [
            Event("placed", 0, "G60", (1, 1)),
            Event("collapsed", 0, "G60", (1, 1), to_pile=(("B20", (0, 0)),), detail="overweight"),
        ],
        ["lea", "Max"],
        lang=ENGLISH,
        viewer=None,
    )
    assert said.startswith("lea played green 60.\nGreen 60 collapsed (heavier than the tile")
    assert (
        narrate([Event("dealt", 0)], ["lea"], lang=ENGLISH, viewer=None) == "The tiles are dealt."
    )


async def test_no_picture_or_post_says_turn_0(service: TableService) -> None:
    t = await lobby(service, ALICE, BOB, CAROL)
    step = await service.start_from_state(t, ALICE, state())
    assert step.board.view is not None and step.board.view.turn == 0
    assert "turn" not in turntexts.picture_title(step.board, lang=ENGLISH)
    assert "turn 0" not in turntexts.step_content(step, lang=ENGLISH)


@pytest.mark.parametrize("code", ["en", "fr"])
def test_a_post_read_back_loses_every_line_that_asks_and_keeps_the_rest(code: str) -> None:
    """A post this process did not write (a restart) loses its question once answered, in the
    table's language, whoever and whenever the question named."""
    lang = i18n.catalogs.language(code)
    told = [
        "🔥 " + lang.gettext("Round {round} of {rounds} is dealt.").format(round=2, rounds=2),
        "Alice played green 40.",
    ]
    asked = [
        f"{em.TURN} " + lang.gettext(turntexts.TURN_TIMED).format(player="<@42>", when="<t:9:R>"),
        f"{em.TURN} " + lang.gettext(turntexts.FALL).format(player="Bob \\*", tile="B30"),
        f"{em.FIRE_DIE} " + lang.gettext(turntexts.ROLLING),
        lang.gettext(turntexts.NEXT_AT).format(when="<t:1796563693:R>"),
        lang.gettext(turntexts.NEXT_SOON),
        f"{em.AWAY} " + lang.gettext(breaktexts.AWAY_ASKING[1]).format(player="Carol"),
    ]
    for question in asked:
        content = "\n".join([*told, question])
        assert turntexts.without_questions(content, lang) == "\n".join(told), question
    # A line that only looks like the start of a question is kept.
    kept = lang.gettext(turntexts.NEXT_SOON) + " (2)"
    assert turntexts.without_questions(kept, lang) == kept
