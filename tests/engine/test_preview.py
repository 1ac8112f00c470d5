"""The preview of a decision (what it would do up to the next decision) against doing it for real.

Example tests name the section of RULES.md whose outcome they preview; the property tests play
random legal games and, before every decision, compare the preview of several candidate decisions
with applying them to a copy, and check that previewing changed nothing in the game.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    DIE_FACES,
    Action,
    BadSpotError,
    Die,
    EngineError,
    Fall,
    Game,
    NextRound,
    NoPreviewError,
    NotInHandError,
    NotYourDecisionError,
    Play,
    Preview,
    fitting_tiles,
    preview,
    previews,
)
from engine.scenario import load_state
from tests.engine.conftest import choose, new_games
from tests.engine.scenario_helpers import state

FAST = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
MAX_DECISIONS = 200
CANDIDATES = 6
"""Decisions previewed (and applied to a copy) before each real decision."""


def game(
    pyramid: dict[str, str],
    hands: list[list[str]],
    piles: list[list[str]] | None = None,
    **options: bool,
) -> Game:
    return load_state(state(pyramid, hands, piles, **options))


def previewed_unchanged(g: Game, action: Action) -> Preview:
    """The preview of ``action``, after checking that taking it left ``g`` exactly as it was."""
    before = g.to_dict()
    result = preview(g, action)
    assert g.to_dict() == before
    return result


# --- one example per kind of outcome -----------------------------------------------------------


def test_rules_4_a_tile_that_fits_is_previewed_as_fitting() -> None:
    g = game({"0,0": "Y30", "0,2": "R40"}, [["Y20", "B100"], ["G2"]], [["B2"], ["G4"]])
    p = previewed_unchanged(g, Play("Y20", (1, 1)))
    assert p.fits and p.mayhem == () and p.stops_at is None and p.winner is None
    assert p.to_piles == (0, 0) and p.out == ()
    assert [e.kind for e in p.events] == ["placed", "drew", "turn"]


def test_rules_5_2_a_collapse_sends_the_supports_to_the_players_pile_and_waits_for_the_fall() -> (
    None
):
    g = game({"0,0": "Y30", "0,2": "R40"}, [["Y20", "B100"], ["G2"]])
    p = previewed_unchanged(g, Play("B100", (1, 1)))
    assert not p.fits
    assert p.kinds == ("collapsed",)
    (collapse,) = p.mayhem
    assert collapse.detail == "overweight"
    assert p.to_piles == (2, 0)
    assert p.stops_at is not None
    assert (p.stops_at.kind, p.stops_at.player, p.stops_at.tile, p.stops_at.at) == (
        "fall",
        0,
        "B100",
        (1, 1),
    )


def test_rules_5_4_a_coal_beside_straw_is_previewed_as_a_straw_fire() -> None:
    g = game({"0,0": "Y2"}, [["G1", "R40"], ["G2"]])
    p = previewed_unchanged(g, Play("G1", (0, 2)))
    assert p.kinds == ("burnt",)
    assert p.mayhem[0].detail == "straw"
    assert p.to_piles == (1, 0)
    assert p.out == ("G1",)
    assert p.stops_at is None


def test_rules_5_3_two_incendiaries_touching_are_previewed_as_an_explosion() -> None:
    g = game({"0,0": "R7", "0,2": "Y30"}, [["Y1", "R40"], ["G2"]])
    p = previewed_unchanged(g, Play("Y1", (1, 1)))
    assert p.kinds == ("exploded",)
    assert p.out == ("Y1", "R7")
    assert p.to_piles == (1, 0)


def test_rules_5_5_a_curse_is_previewed_on_the_previous_players_pile() -> None:
    g = game({"0,0": "Y10", "0,2": "R10"}, [["G10", "R40"], ["G2"]], curse=True)
    p = previewed_unchanged(g, Play("G10", (1, 1)))
    assert p.kinds == ("cursed",)
    assert p.to_piles == (0, 3)


def test_rules_6_the_fire_die_is_announced_but_never_rolled_by_a_preview() -> None:
    g = game({"0,0": "Y2"}, [["G1", "R40"], ["G2"]], fire_die=True)
    rng = g.rng.state
    p = previewed_unchanged(g, Play("G1", (0, 2)))
    assert p.die and not p.fits
    assert p.stops_at is not None and p.stops_at.player == 0
    assert all(e.kind != "rolled" for e in p.events)
    assert g.rng.state == rng
    # The real game rolls exactly what it would have rolled had nobody looked.
    unseen = g.copy()
    unseen.apply(Play("G1", (0, 2)))
    g.apply(Play("G1", (0, 2)))
    assert g.roll() == unseen.roll()


def test_rules_6_a_roll_and_a_new_round_cannot_be_previewed() -> None:
    g = game({"0,0": "Y2"}, [["G1", "R40"], ["G2"]], fire_die=True)
    g.apply(Play("G1", (0, 2)))
    with pytest.raises(EngineError) as err:
        preview(g, Die(None))
    assert isinstance(err.value, NoPreviewError)
    assert previewed_unchanged(g, Die("smoke")).events[0].detail == "smoke"
    with pytest.raises(EngineError) as err:
        preview(g, NextRound())
    assert isinstance(err.value, NoPreviewError)


def test_rules_5_1_a_fall_choice_can_be_previewed_too() -> None:
    # The French rules' detailed example: the coal collapsed; falling left lights the straw.
    g = game(
        {
            "0,-2": "Y100", "0,0": "R120", "0,2": "Y60", "0,4": "R7", "0,6": "B120",
            "1,-1": "Y6", "1,1": "R4", "1,3": "G60", "1,5": "R100", "2,0": "B6", "2,2": "R30",
        },
        [["Y1", "G2"], ["B2", "Y2"]],
    )  # fmt: skip
    g.apply(Play("Y1", (3, 1)))
    p = previewed_unchanged(g, Fall("left"))
    assert p.kinds == ("fell", "burnt")
    assert p.out == ("Y1",)
    assert p.to_piles == (2, 0)


def test_rules_7_a_play_that_empties_hand_and_pile_is_previewed_as_winning() -> None:
    g = game({"0,0": "Y30"}, [["Y20"], ["G2"]])
    p = previewed_unchanged(g, Play("Y20", (0, 2)))
    assert p.winner == 0 and p.fits


def test_an_action_not_allowed_now_is_refused_as_apply_refuses_it() -> None:
    g = game({"0,0": "Y30"}, [["Y20"], ["G2"]])
    for action, player in ((Play("G2", (0, 2)), None), (Play("Y20", (5, 5)), None)):
        with pytest.raises(EngineError) as err:
            preview(g, action, player)
        assert isinstance(err.value, NotInHandError | BadSpotError)
    with pytest.raises(EngineError) as err:
        preview(g, Play("Y20", (0, 2)), 1)
    assert isinstance(err.value, NotYourDecisionError)


def test_fitting_tiles_are_those_with_a_spot_where_nothing_but_the_placement_happens() -> None:
    # Spot 1,1 on Y30 + R40: Y20 fits; B100 is too heavy; B4 matches neither. The base spots
    # (0,-2 and 0,4) are not offered while an upper spot exists (RULES 3).
    g = game({"0,0": "Y30", "0,2": "R40"}, [["B100", "Y20", "B4"], ["G2"]], [["B2"], ["G4"]])
    assert fitting_tiles(g) == ("Y20",)
    assert set(previews(g)) == {Play(t, (1, 1)) for t in ("B100", "Y20", "B4")}
    g.apply(Play("Y20", (1, 1)))
    assert fitting_tiles(g) == ("G2",)  # player 1: a base spot always fits


def test_no_fitting_tiles_and_no_previews_unless_a_play_is_pending() -> None:
    g = game({"0,0": "Y30", "0,2": "R40"}, [["B100"], ["G2"]])
    g.apply(Play("B100", (1, 1)))
    assert g.pending is not None and g.pending.kind == "fall"
    assert fitting_tiles(g) == () and previews(g) == {}


# --- properties: the preview is what playing it does -----------------------------------------


def candidates(g: Game, rnd: random.Random) -> list[Action]:
    p = g.pending
    if p is None:
        return []
    if p.kind == "die":
        return [Die(face) for face in DIE_FACES]
    actions = g.legal_actions()
    rnd.shuffle(actions)
    return actions[:CANDIDATES]


def check_against_real(g: Game, action: Action) -> None:
    before = g.to_dict()
    p = preview(g, action)
    assert g.to_dict() == before, "previewing changed the game"
    real = g.copy()
    events = real.apply(action)
    assert p.events == tuple(events)
    assert p.player == (g.pending.player if g.pending else -1)
    # Where the tiles went, read from the two states rather than from the events.
    drawn = {e.player: e.amount for e in events if e.kind == "drew"}
    for i in range(g.players):
        grew = len(real.piles[i]) - len(g.piles[i]) + drawn.get(i, 0)
        assert p.to_piles[i] == grew, (i, p.to_piles, grew)
    assert list(p.out) == real.removed[len(g.removed) :]
    if real.pending is not None and real.pending.kind in ("fall", "die"):
        assert p.stops_at == real.pending
    else:
        assert p.stops_at is None
    assert p.winner == (real.winner if real.pending is None else None)
    quiet = all(e.kind in ("placed", "drew", "turn", "won") for e in events)
    assert p.fits == (quiet and (real.pending is None or real.pending.kind == "play"))


@FAST
@given(new_games(), st.integers(min_value=0, max_value=2**32 - 1))
def test_a_preview_equals_applying_the_action_and_changes_nothing(g: Game, seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(MAX_DECISIONS):
        if g.pending is None:
            break
        for action in candidates(g, rnd):
            check_against_real(g, action)
        g.apply(choose(g, rnd))


@FAST
@given(new_games(), st.integers(min_value=0, max_value=2**32 - 1))
def test_fitting_tiles_are_exactly_the_tiles_with_a_quiet_spot(g: Game, seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(MAX_DECISIONS):
        if g.pending is None:
            break
        if g.pending.kind == "play":
            hand = g.hands[g.pending.player]
            quiet = set()
            for tile in hand:
                for spot in g.pending.spots:
                    real = g.copy()
                    events = real.apply(Play(tile, spot))
                    if real.pending is not None and real.pending.kind != "play":
                        continue
                    if all(e.kind in ("placed", "drew", "turn", "won") for e in events):
                        quiet.add(tile)
            assert set(fitting_tiles(g)) == quiet
        g.apply(choose(g, rnd))
