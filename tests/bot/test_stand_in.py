"""The stand-in: the computer level a server chooses (``/fp-settings stand_in``, normal unless
chosen) plays for a person whose clock ran out, who is away, or who left the game; and a
computer's decision is thought over without the table's lock, then played only if the table is
still where it was (issue 32)."""

from __future__ import annotations

import pytest

from bot.service import LeftGame, SettingsChange, Step, TableService, Thought, first_legal
from data.store import GuildSettings, Store
from engine import Action, View

from .conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, ManualClock, lobby, make_service, state

DAY = 24 * 3600
TWO = state(players=2, hands=[["Y40", "B2"], ["R2", "G2"]], piles=[["R20"], ["G20"]], active=1)
"""Alice and a computer, the computer to play first."""


class Asked:
    """A computer player that notes each level it is asked to play, and plays the first legal
    action."""

    def __init__(self) -> None:
        self.levels: list[str] = []

    def __call__(self, level: str, view: View, seed: int) -> Action:
        self.levels.append(level)
        return first_legal(view)


@pytest.fixture
def asked() -> Asked:
    return Asked()


@pytest.fixture
def service(store: Store, clock: ManualClock, asked: Asked) -> TableService:
    return make_service(store, clock, ai=asked)


async def started(service: TableService, *users: int, **options: object) -> int:
    t = await lobby(service, *users, **options)
    await service.start_from_state(t, users[0], state())
    return t


async def test_a_server_plays_normal_for_absent_players_unless_it_chooses(
    service: TableService,
) -> None:
    assert (await service.store.get_guild_settings(GUILD)).stand_in == "normal"
    now = await service.settings(GUILD, SettingsChange.of(stand_in="expert"))
    assert now.stand_in == "expert"
    assert (await service.store.get_guild_settings(GUILD)).stand_in == "expert"
    assert await service.stand_in(GUILD) == "expert"
    # Another setting later leaves it as it is.
    now = await service.settings(GUILD, SettingsChange.of(away_after=3))
    assert (now.stand_in, now.away_after) == ("expert", 3)


async def test_a_stand_in_that_is_no_computer_level_is_refused(service: TableService) -> None:
    with pytest.raises(ValueError, match="not a computer level"):
        await service.settings(GUILD, SettingsChange.of(stand_in="master"))
    assert (await service.store.get_guild_settings(GUILD)).stand_in == "normal"
    # One stored by another version of the bot: the default stands in.
    await service.store.set_guild_settings(GuildSettings(GUILD, stand_in="master"))
    assert await service.stand_in(GUILD) == "normal"


async def test_the_servers_stand_in_plays_a_time_out_and_the_move_says_which(
    service: TableService, clock: ManualClock, asked: Asked
) -> None:
    t = await started(service, ALICE, BOB, CAROL, turn_limit_s=600)
    clock.advance(601)
    [step] = await service.tick()  # Alice's time ran out: the default plays for her
    assert isinstance(step, Step) and step.timed_out and step.actor == 0
    assert (asked.levels, step.stand_in) == (["normal"], "normal")
    await service.settings(GUILD, SettingsChange.of(stand_in="expert"))
    clock.advance(601)
    [step] = await service.tick()  # Bob's: the server's choice now
    assert isinstance(step, Step) and step.timed_out and step.actor == 1
    assert (asked.levels[1:], step.stand_in) == (["expert"], "expert")
    assert [s.ai for s in step.board.table.seats] == [None, None, None]  # still theirs
    assert t == step.board.table_id


async def test_the_servers_stand_in_plays_for_a_player_who_is_away(
    service: TableService, asked: Asked
) -> None:
    await service.settings(GUILD, SettingsChange.of(stand_in="hard"))
    t = await started(service, ALICE, BOB, CAROL)
    await service.go_away(GUILD, ALICE, DAY)
    step = await service.advance(t)
    assert step is not None and step.away and step.actor == 0
    assert (asked.levels, step.stand_in) == (["hard"], "hard")


async def test_a_seat_left_goes_to_a_computer_of_the_servers_stand_in_level(
    service: TableService, asked: Asked
) -> None:
    await service.settings(GUILD, SettingsChange.of(stand_in="expert"))
    t = await started(service, ALICE, BOB, CAROL)
    left = await service.leave(CHANNEL, ALICE)
    assert isinstance(left, LeftGame) and not left.closed
    assert left.board.table.seats[0].ai == "expert"
    step = await service.advance(t)
    assert step is not None and step.actor == 0 and asked.levels == ["expert"]
    assert not step.timed_out and not step.away and step.stand_in is None  # a computer seat
    # Written with the move: the seat stays the expert's whatever the server chooses later.
    await service.settings(GUILD, SettingsChange.of(stand_in="easy"))
    assert (await service.board_of(t)).table.seats[0].ai == "expert"


async def test_a_computer_seats_own_level_plays_its_seat_not_the_stand_in(
    service: TableService, asked: Asked
) -> None:
    await service.settings(GUILD, SettingsChange.of(stand_in="easy"))
    t = await lobby(service, ALICE)
    await service.add_ai(t, (await service.board_of(t)).version, ALICE, "expert")
    await service.start_from_state(t, ALICE, TWO)
    thought = await service.think(t)
    assert thought is not None and (thought.seat, thought.level) == (1, "expert")
    step = await service.advance(t, thought)
    assert step is not None and step.actor == 1 and step.stand_in is None
    assert asked.levels == ["expert"]  # thought over once, played as thought


async def test_a_thought_the_table_moved_on_from_is_thought_again(
    service: TableService, asked: Asked
) -> None:
    t = await lobby(service, ALICE)
    await service.add_ai(t, (await service.board_of(t)).version, ALICE, "hard")
    await service.start_from_state(t, ALICE, TWO)
    thought = await service.think(t)
    assert thought is not None
    stale = Thought(thought.version - 1, thought.seat, thought.level, thought.action)
    step = await service.advance(t, stale)
    assert step is not None and step.actor == 1
    assert asked.levels == ["hard", "hard"]  # the stale one was not played as it was


async def test_nothing_is_thought_over_when_a_person_decides(
    service: TableService, asked: Asked
) -> None:
    t = await started(service, ALICE, BOB, CAROL)
    assert await service.think(t) is None
    assert asked.levels == []
