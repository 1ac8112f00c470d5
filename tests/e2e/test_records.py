"""Records through the fake Discord, as players see them: /fp stats (private, shareable),
/fp leaderboard (pages by button), /fp history (with a replay button per match), replays stepped
privately with Back and Next, the animated summary and the export of a finished match."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from PIL import Image

from bot.errors import Why
from bot.names import COMPUTER_NAMES
from bot.show import answertexts
from bot.show.recordtexts import NO_STATS
from engine import Game, action_from_dict, view
from engine.scenario import load_state
from i18n import ENGLISH
from render import encode
from render.summary import (
    LAST_MS,
    LOOK_MS,
    MS_PER_CHAR,
    Moment,
    body_top,
    frame_image,
    frame_layout,
    reading_ms,
    render_end,
    story_lines,
)
from render.tilesleft import TilesLeft, left_height
from tests.fakediscord import FakeUser, Message
from tests.fakediscord.fixtures import World

from .conftest import MakeBot
from .driver import TIMEOUT, TableDriver, answer, button_actions, is_final, refusal_text

SHORT = {
    "players": 2,
    "pyramid": {"0,0": "Y30", "0,2": "R10"},
    "hands": [["Y40", "B2", "G6", "R6"], ["R2", "G2", "B4", "Y4"]],
    "piles": [["B10", "G10"], ["Y10", "G20"]],
    "active": 0,
}
"""A short deal: Alice against a computer, four tiles each."""


async def computer_match(world: World, table: TableDriver) -> Message:
    """Alice plays the short deal against a hard computer, to the end."""
    lobby = await table.open(world.alice)
    await table.add_computer(world.alice, "hard")
    await world.fake.wait_for(  # a computer seated: the host may remove it
        lambda: ("rmai", "") in button_actions(lobby), 10, "the computer seat"
    )
    game = await table.start(world.alice)
    final = await table.play_to_the_end(game, max_steps=100)
    assert is_final(final)
    return final


async def slash_answer(
    user: FakeUser, table: TableDriver, command: str, **options: object
) -> Message:
    ix = await user.slash(command, table.channel, **options)
    table.interactions.append(ix)
    return await answer(ix)


def shown_rating_in(content: str) -> int:
    """The rating a stats message shows ("Rating: **1064**")."""
    found = re.search(r"^Rating: \*\*(\d+)\*\*$", content, re.MULTILINE)
    assert found, content
    return int(found[1])


def png_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as img:
        return img.size


async def test_an_empty_leaderboard_is_told_privately_with_how_to_be_ranked(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    await run_bot()
    empty = await slash_answer(world.bob, table, "fp leaderboard")
    assert empty.ephemeral and not empty.attachments
    assert "nobody is ranked in this server yet" in empty.content
    assert "finished 3 matches" in empty.content
    world.carol.locale = "fr"
    french = await slash_answer(world.carol, table, "fp classement")
    assert french.ephemeral and "personne n'est encore classé" in french.content
    assert "terminé 3 parties" in french.content
    world.fake.assert_no_failed_interactions()


async def test_stats_are_private_and_can_be_shared_in_the_channel(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    path = tmp_path / "state.json"
    path.write_text(json.dumps(SHORT))
    await run_bot(test_state_file=str(path))
    await computer_match(world, table)
    stats = await slash_answer(world.alice, table, "fp stats")
    assert stats.ephemeral
    assert "**Stats of Alice** in this server" in stats.content
    assert "Matches: **1**" in stats.content
    # A rating in whole points near where every player starts (1000), never the model's
    # notation, and how far the leaderboard still is.
    rating = shown_rating_in(stats.content)
    assert 900 < rating < 1200 and rating != 1000
    assert "μ" not in stats.content and "σ" not in stats.content
    assert "Rank in this server: **not ranked yet: 2 more matches**" in stats.content
    assert "Favourite opening" in stats.content
    [card] = stats.images()
    assert card.filename == "stats.png" and png_size(card.data)[0] == 640
    # The computer level is rated too, as one player of the server.
    hard = await slash_answer(world.bob, table, "fp stats", computer="hard")
    assert "**Stats of the computer (hard)**" in hard.content and "Matches: **1**" in hard.content
    # In French its title says "the computer" as a sentence does, not "d'Ordinateur".
    world.carol.locale = "fr"
    french = await slash_answer(world.carol, table, "fp stats", ordinateur="hard")
    assert french.content.startswith("**Statistiques de l'ordinateur (difficile)** sur ce serveur")
    assert [a.filename for a in french.images()] == ["stats.png"]
    # Someone with no match yet is told so, privately, with no card.
    none = await slash_answer(world.bob, table, "fp stats", player=world.carol)
    assert none.ephemeral and none.content == NO_STATS.format(who="Carol")
    assert not none.images()
    # Alice shares hers: a public message in the channel with the same stats.
    ix = await world.alice.click(stats, "Share in channel")
    shared = await answer(ix)
    assert not shared.ephemeral and shared.channel is table.channel
    assert "shares:" in shared.content and "**Stats of Alice**" in shared.content
    assert [a.filename for a in shared.attachments] == ["stats.png"]
    world.fake.assert_no_failed_interactions()


async def test_leaderboard_pages_and_history_with_replays_and_export(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    path = tmp_path / "state.json"
    path.write_text(json.dumps(SHORT))
    await run_bot(test_state_file=str(path))
    for i in range(3):
        # Each match in a channel of its own, as a server with several game channels.
        here = world.fake.create_text_channel(world.guild, f"games-{i}")
        await computer_match(world, TableDriver(world.fake, here, {u.id: u for u in world.users}))
    board = await slash_answer(world.bob, table, "fp leaderboard")
    assert not board.ephemeral
    assert "**Leaderboard · page 1 of 1**" in board.content
    assert "Rating: everyone starts at 1000 · ranked after 3 matches" in board.content
    lines = [ln for ln in board.content.splitlines() if ln[:2] in ("1.", "2.")]
    assert len(lines) == 2 and {"Alice", "Computer (hard)"} <= {ln.split("**")[1] for ln in lines}
    # Each row: the player's rating in whole points, the better one first, then their matches.
    ratings = [int(re.findall(r"\*\* (\d+) · 3 matches, ", ln)[0]) for ln in lines]
    assert ratings == sorted(ratings, reverse=True) and sum(ratings) > 2 * 900
    assert [a.filename for a in board.attachments] == ["leaderboard.png"]
    assert board.labels() == ["Better", "Next"]
    assert all(b.get("disabled") for b in board.buttons())  # one page only

    history = await slash_answer(world.alice, table, "fp history", player=world.alice)
    assert history.ephemeral
    assert "**Recent matches of Alice**" in history.content
    assert history.content.count(f"Alice, {COMPUTER_NAMES[0]}") == 3
    # Each match by its table's number on the server, newest first.
    assert _numbers_in(history) == [3, 2, 1]
    assert "https://discord.com/channels/" in history.content  # the thread of each match
    assert history.labels() == ["Replay 1", "Replay 2", "Replay 3"]

    # A replay, privately: the deal first, then ▶ steps through the turns to the end.
    ix = await world.alice.click(history, "Replay 1")
    replay = await answer(ix)
    assert (
        replay.ephemeral
        and "step 1 of" in replay.content
        and "The tiles are dealt" in replay.content
    )
    assert [a.filename for a in replay.attachments] == ["replay.png"]
    steps = int(replay.content.split("step 1 of ")[1].split("**")[0].split()[0])
    for n in range(2, steps + 1):
        before = len(replay.revisions)
        await world.alice.click(replay, "Next")
        await world.fake.wait_for(
            lambda b=before: len(replay.revisions) > b and replay.settled, TIMEOUT, "next step"
        )
        assert f"step {n} of {steps}" in replay.content
        assert replay.images(), "every step shows the board"
    assert "The match is over" in replay.content
    assert "Alice played" in "\n".join(r.content for r in replay.revisions)
    last_step = replay.images()[0].data
    # The export runs through the engine's command line to the stored final state.
    ix = await world.alice.click(replay, "Export")
    exported = await answer(ix)
    [file] = exported.attachments
    assert "the whole match in one file" in exported.content
    assert "python" not in exported.content  # the command line is in the docs
    scenario = tmp_path / file.filename
    scenario.write_bytes(file.data)
    out = subprocess.run(
        [sys.executable, "-m", "engine", "run", str(scenario)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    final = json.loads(out.stdout)
    assert final["pending"] is None and final["winner"] is not None
    # The last step shows the end as the engine replays it from the file: every player's
    # remaining tiles laid down (hand, then pile) over the last board, with its words.
    end = played_out(json.loads(file.data))
    left = tuple(TilesLeft(tuple(h), tuple(p)) for h, p in zip(end.hands, end.piles, strict=True))
    assert [list(t.hand) for t in left] == final["hands"] and sum(t.count for t in left) > 0
    title = f"Replay · table #3 · {steps}/{steps}"
    story = "\n".join(replay.content.splitlines()[1:])
    names = ["Alice", COMPUTER_NAMES[0]]
    end_moment = Moment(view(end, None), title, story, left)
    assert last_step == render_end(end_moment, names, lang=ENGLISH)
    # Bob did not play: he may replay the match, not export every dealt hand.
    ix = await world.bob.slash("fp replay", table.channel, match=_numbers_in(history)[0])
    bob_replay = await answer(ix)
    assert bob_replay.ephemeral and "step 1 of" in bob_replay.content
    assert "**Replay of table #3**" in bob_replay.content
    ix = await world.bob.click(bob_replay, "Export")
    refused = await answer(ix)
    assert refused.ephemeral and refused.content == refusal_text(Why.EXPORT_PLAYERS_ONLY)
    assert not refused.attachments  # no export
    # The summary: one animated GIF, privately.
    ix = await world.alice.click(replay, "Summary")
    summary = await answer(ix)
    [gif] = summary.attachments
    assert gif.filename.endswith(".gif") and gif.data[:6] == b"GIF89a"
    assert "every player's tiles left at the end" in summary.content
    with Image.open(io.BytesIO(gif.data)) as img:
        frames, durations = [], []
        for i in range(img.n_frames):
            img.seek(i)
            frames.append(img.convert("RGB"))
            durations.append(img.info["duration"])
    # Each frame for the time its words take to read (the deal's few words less than a move's).
    assert len(frames) >= 3 and min(durations) >= LOOK_MS + MS_PER_CHAR * len("The deal")
    assert len(set(durations)) > 1
    # It ends on every player's tiles, as the engine's replay of the export has them.
    shown = Moment(
        view(end, None),
        "Tiles left",
        "Every player's tiles when the match ended, face up: the hand, then the pile.",
        left,
    )
    assert durations[-1] == reading_ms(shown) + LAST_MS
    # (This short match's few tiles left fit at full size: the frame's top is the same alone.)
    alone = frame_image(shown, frame_layout([shown], names, lang=ENGLISH), names, lang=ENGLISH)
    top = (0, 0, alone.width, body_top(len(story_lines(shown))) + left_height(left, ENGLISH))
    want = encode.to_palette(alone).convert("RGB").crop(top)
    assert frames[-1].crop(top).tobytes() == want.tobytes()
    world.fake.assert_no_failed_interactions()
    # Records' screens, pictures and files too: every request inside Discord's contract.
    assert world.fake.unchecked_requests() == [] and world.fake.outside_contract() == []


def played_out(scenario: dict[str, Any]) -> Game:
    """The game an exported scenario file replays to, as ``python -m engine run`` plays it."""
    game = load_state(scenario, allow_actions=True)
    for a in scenario["actions"]:
        game.apply(action_from_dict(a), a.get("player"))
    return game


def _numbers_in(history: Message) -> list[int]:
    """The table numbers of the matches a history lists, in its order ("table #12": 12)."""
    return [int(n) for n in re.findall(r"· table #(\d+) ·", history.content)]


async def test_a_replay_of_an_unknown_match_is_refused_privately(
    world: World, run_bot: MakeBot, table: TableDriver
) -> None:
    await run_bot()
    answer_ = await slash_answer(world.alice, table, "fp replay", match=123456)
    assert answer_.ephemeral and answer_.content == refusal_text(Why.NO_MATCH)


async def test_a_player_who_leaves_is_rated_last_and_the_computer_in_their_seat_is_not(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    path = tmp_path / "state.json"
    path.write_text(json.dumps({**SHORT, "active": 1}))  # Bob starts
    await run_bot(test_state_file=str(path))
    await table.open(world.alice, world.bob)
    game = await table.start(world.alice)
    left = await table.leave_match(world.bob)
    assert left.content == answertexts.you_left(True, lang=ENGLISH)
    final = await table.play_to_the_end(await table.settled_game(game.id), max_steps=100)
    assert is_final(final)
    bob = await slash_answer(world.bob, table, "fp stats")
    assert "Matches: **1**" in bob.content and "Wins: **0 (0%)**" in bob.content
    assert "**Stats of Bob**" in bob.content  # rated as he sat, not as the computer in his seat
    alice = await slash_answer(world.alice, table, "fp stats")
    assert "Matches: **1**" in alice.content
    # Alice beat the one who left, whatever the computer in his seat did (its moves depend on
    # the table's id, so it finishes first in some runs and not in others): her rating rose,
    # and as the first of the people she has the win. The computer finishing first is pinned
    # down in tests/data/test_records.py
    # (test_the_best_person_wins_when_the_computer_in_a_leavers_seat_finishes_first).
    assert "Wins: **1 (100%)**" in alice.content
    assert shown_rating_in(alice.content) > 1000 > shown_rating_in(bob.content)
    for level in ("easy", "normal", "hard", "expert"):
        computer = await slash_answer(world.carol, table, "fp stats", computer=level)
        assert computer.content == NO_STATS.format(who=f"Computer ({level})")


async def test_a_match_the_host_aborts_after_the_first_move_is_rated_and_in_the_history(
    world: World, run_bot: MakeBot, table: TableDriver, tmp_path: Path
) -> None:
    path = tmp_path / "state.json"
    path.write_text(json.dumps(SHORT))
    await run_bot(test_state_file=str(path))
    await table.open(world.alice, world.bob)
    game = await table.start(world.alice)
    # Alice plays Y40 on the Y30 and R10 and draws: 5 tiles left to Bob's 6. Then she aborts.
    await table.play(world.alice, game)
    ix = await table.slash(world.alice, "fp abort")
    await answer(ix)
    alice = await slash_answer(world.alice, table, "fp stats")
    assert "Matches: **1**" in alice.content and "Wins: **1 (100%)**" in alice.content
    assert "Average tiles left: **5.0**" in alice.content
    bob = await slash_answer(world.bob, table, "fp stats")
    assert "Matches: **1**" in bob.content and "Wins: **0 (0%)**" in bob.content
    history = await slash_answer(world.bob, table, "fp history", player=world.bob)
    assert "**Recent matches of Bob**" in history.content
    assert "· Alice, Bob · **stopped** before its end (Alice 5, Bob 6) ·" in history.content
    assert _numbers_in(history) == [1] and history.labels() == ["Replay 1"]
    # Its replay ends where it stopped.
    ix = await world.bob.click(history, "Replay 1")
    replay = await answer(ix)
    assert replay.ephemeral and "step 1 of 2" in replay.content
    before = len(replay.revisions)
    await world.bob.click(replay, "Last")
    await world.fake.wait_for(
        lambda: len(replay.revisions) > before and replay.settled, TIMEOUT, "the last step"
    )
    assert "step 2 of 2" in replay.content and "Alice played" in replay.content
    assert "The match stopped here, before its end. Tiles left (lower is better): " in (
        replay.content
    )
    world.fake.assert_no_failed_interactions()
