"""The cost of a table to its players, measured on whole seeded games (bench/table_counts.py)
against the goals of a quiet table: at most one post and one ping per turn in the table's
channel or thread, at most one direct message per player per own turn, one notification per
decision on a screen that tells what happened since. Three games: three players by direct
message; the same with Bob on private hands; two players, one on private hands, with the curse
(whose falls go to the player whose turn comes next) and a round's end; and the first game again
at a practice table, Alice pressing Hint before each of her decisions (answers to clicks, never a
notification)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bench.table_counts import CURSE_SEED, TableCounts, measure


@pytest.fixture(scope="module")
def counts() -> TableCounts:
    """One game for the whole module (it takes a few seconds), in an event loop of its own."""
    return asyncio.run(measure())


def test_the_counted_game_is_played_to_the_end_by_clicks(counts: TableCounts) -> None:
    assert counts.turns > 20
    assert sum(counts.own_turns.values()) == counts.turns
    assert counts.clicks >= counts.turns  # at least one click per move


def test_at_most_one_post_per_turn(counts: TableCounts) -> None:
    assert counts.max_posts_in_a_turn <= 1


def test_at_most_one_ping_per_turn(counts: TableCounts) -> None:
    assert counts.max_pings_in_a_turn <= 1


def test_at_most_one_dm_per_player_per_own_turn(counts: TableCounts) -> None:
    assert all(n <= 1 for n in counts.dms_per_player_per_own_turn.values())


@pytest.fixture(scope="module")
def transcript(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the private game writes everything it said (``--transcript``)."""
    return tmp_path_factory.mktemp("transcript") / "game.txt"


@pytest.fixture(scope="module")
def private_counts(transcript: Path) -> TableCounts:
    """The same game with Bob on private hands (pinged in the thread, no DMs), on a French
    server where Bob and Carol read French and Alice, the host, English (``--french``)."""
    return asyncio.run(measure(private="bob", french=True, transcript=transcript))


def test_the_transcript_shows_each_person_their_own_screens_in_their_language(
    private_counts: TableCounts, transcript: Path
) -> None:
    """``--transcript`` writes every message as its people read it: Bob's private screens in
    French and only his, Alice's DMs in English, Carol's DMs in French, the thread French."""
    blocks = transcript.read_text(encoding="utf-8").split("\n=== ")
    heads = [b.splitlines()[0] for b in blocks]
    assert not any("DM bob" in h for h in heads)
    bobs = [b for b in blocks if "only bob sees it" in b.splitlines()[0]]
    alices = [b for b in blocks if b.splitlines()[0].endswith("DM alice")]
    carols = [b for b in blocks if b.splitlines()[0].endswith("DM carol")]
    thread = [
        b
        for b in blocks
        if "#Flaming Pyramids" in b.splitlines()[0] and "only" not in b.splitlines()[0]
    ]
    assert len(bobs) >= private_counts.own_turns["bob"]
    for mine, said, not_said in (
        (bobs, "Depuis votre dernier coup", "Since your last move"),
        (carols, "Depuis votre dernier coup", "Since your last move"),
        (alices, "Since your last move", "Depuis votre dernier coup"),
        (thread, "choisissez une tuile de votre main", "your turn: pick a tile"),
    ):
        text = "\n".join(mine)
        assert said in text and not_said not in text
    assert all("📎 pyramid." in b for b in thread if "choisissez une tuile" in b)


@pytest.fixture(scope="module")
def curse_counts() -> TableCounts:
    """Two players, Alice on private hands and Bob by DM, with the curse and two rounds: a
    curse gives Bob a fall, and the turn after it is his too."""
    return asyncio.run(measure(CURSE_SEED, private="alice", players=2, curse=True, rounds=2))


def test_the_two_player_game_crosses_a_rounds_end_and_the_curse(
    curse_counts: TableCounts,
) -> None:
    assert curse_counts.rounds == 2 and curse_counts.next_rounds == 1
    assert curse_counts.round_posts == 1  # the second round's deal
    assert curse_counts.continued > curse_counts.falls / 2  # falls after one's own placement...
    assert curse_counts.decision_starts > 100  # ...and the curse's, with the turn after it


def test_one_notification_per_decision_and_the_board_on_it(
    counts: TableCounts, private_counts: TableCounts, curse_counts: TableCounts
) -> None:
    for c in (counts, private_counts, curse_counts):
        assert c.decision_starts > 20
        assert c.notifications == c.decision_starts  # exactly one each
        assert (c.told_twice, c.not_told) == (0, 0)
        assert c.jumps == 0  # it shows the board and is where the first click goes


def test_a_decision_that_follows_ones_own_goes_on_the_same_screen_untold(
    counts: TableCounts, private_counts: TableCounts, curse_counts: TableCounts
) -> None:
    for c in (counts, private_counts, curse_counts):
        assert c.continued > 0
        assert (c.told_again, c.jumps_again) == (0, 0)


def test_every_decision_screen_tells_what_happened_since_the_players_last_move(
    counts: TableCounts, private_counts: TableCounts, curse_counts: TableCounts
) -> None:
    for c in (counts, private_counts, curse_counts):
        assert c.without_recap == 0


def test_the_two_player_game_keeps_to_one_post_and_one_dm(curse_counts: TableCounts) -> None:
    assert curse_counts.max_posts_in_a_turn <= 1 and curse_counts.max_pings_in_a_turn <= 1
    assert all(n <= 1 for n in curse_counts.dms_per_player_per_own_turn.values())


def test_one_post_and_one_screen_per_turn_against_the_global_limit(
    counts: TableCounts, curse_counts: TableCounts
) -> None:
    # Besides the one DM channel opened per player for the whole game: the turn's post and the
    # next player's screen; the clicks are answered through their own responses.
    for c in (counts, curse_counts):
        opened = c.rest_global_by_route.get("POST /users/@me/channels", 0)
        assert opened <= 3
        decisions = c.turns + c.falls
        assert (c.rest_global - opened) / decisions <= 1.5


@pytest.fixture(scope="module")
def waited_counts() -> TableCounts:
    """The same game with every turn waiting out its undo window: nobody presses Done (the
    bench moves the bot's clock past each window)."""
    return asyncio.run(measure(wait=True))


def test_the_next_player_is_told_once_after_the_window_whether_done_or_run_out(
    counts: TableCounts, waited_counts: TableCounts
) -> None:
    # (The counted game plays with the table's default window: each turn is held, then Done.)
    assert counts.clicks >= 3 * counts.turns  # a tile, a spot and Done, per turn
    for c in (counts, waited_counts):
        assert c.notifications == c.decision_starts  # exactly one each
        assert (c.told_twice, c.not_told) == (0, 0)
        assert c.max_posts_in_a_turn <= 1
    # A screen whose window ran out is closed through its click's token: no request more.
    assert waited_counts.rest_global == counts.rest_global


@pytest.fixture(scope="module")
def away_counts() -> TableCounts:
    """The three-player game with Bob away (``/fp away`` before it starts): a computer plays
    each of his decisions at once."""
    return asyncio.run(measure(away="bob"))


def test_an_away_player_is_not_told_and_the_others_are_told_once(
    away_counts: TableCounts,
) -> None:
    """Issue 31 §2: while away, no DM and no turn of one's own to be told of; the people still
    playing get one notification per decision, as at any table."""
    c = away_counts
    assert c.own_turns["bob"] == 0 and c.dms["bob"] == 0
    assert c.own_turns["alice"] > 5 and c.own_turns["carol"] > 5
    assert c.notifications == c.decision_starts > 10
    assert (c.told_twice, c.not_told, c.jumps) == (0, 0, 0)


@pytest.fixture(scope="module")
def hinted_counts() -> TableCounts:
    """The same game at a practice table, Alice pressing Hint on each of her decisions first."""
    return asyncio.run(measure(hints="alice"))


def test_a_hint_is_an_answer_to_a_click_like_any_other(
    counts: TableCounts, hinted_counts: TableCounts
) -> None:
    c = hinted_counts
    assert c.hints >= c.own_turns["alice"] and len(c.hint_seconds) == c.hints
    assert c.clicks == counts.clicks + c.hints  # one click each, and nothing else changes
    assert c.notifications == c.decision_starts  # still exactly one notification each
    assert (c.told_twice, c.not_told, c.jumps) == (0, 0, 0)
    assert (c.told_again, c.jumps_again) == (0, 0)  # a fall after hers: the same screen
    assert c.posts == counts.posts and c.dms == counts.dms  # no public message, no new DM
    assert c.rest_global == counts.rest_global  # answered through the click's own response
