"""Sampled deals (determinisations) look exactly like the real game to the viewer."""

from __future__ import annotations

import random

from hypothesis import given

from engine import Game, Play, view
from engine.ai.deal import known_pile_bottoms, sample_game
from engine.tiles import ALL_TILES
from tests.ai.conftest import FAST, fall_after_curse, positions


def _seat(game: Game) -> int:
    assert game.pending is not None
    return game.pending.player


@FAST
@given(positions())
def test_a_sampled_deal_shows_the_viewer_the_same_view(game: Game) -> None:
    me = _seat(game)
    seen = view(game, me)
    sample = sample_game(seen, random.Random(5))
    assert view(sample, me).to_dict() == seen.to_dict()
    assert sorted(
        [*sample.pyramid.values(), *sample.removed]
        + [t for h in sample.hands for t in h]
        + [t for p in sample.piles for t in p]
    ) == sorted(ALL_TILES)


@FAST
@given(positions())
def test_a_sampled_deal_plays_on_like_a_game(game: Game) -> None:
    me = _seat(game)
    sample = sample_game(view(game, me), random.Random(1))
    action = sample.legal_actions()[0]
    sample.apply(action, me)
    assert sample.tile_count() == 45


def test_sampling_is_reproducible_and_varies_with_the_generator() -> None:
    game = Game.new(4, seed=3)
    seen = view(game, game.active)
    a = sample_game(seen, random.Random(1))
    b = sample_game(seen, random.Random(1))
    c = sample_game(seen, random.Random(2))
    assert a.to_dict() == b.to_dict()
    assert a.hands != c.hands or a.piles != c.piles


def test_the_hands_and_piles_sizes_are_the_views() -> None:
    game = Game.new(3, seed=11)
    me = game.active
    sample = sample_game(view(game, me), random.Random(0))
    assert sample.hands[me] == game.hands[me]
    assert [len(h) for h in sample.hands] == [len(h) for h in game.hands]
    assert [len(p) for p in sample.piles] == [len(p) for p in game.piles]


def test_tiles_sent_under_a_pile_this_turn_stay_at_its_bottom() -> None:
    game = fall_after_curse()  # the curse sent Y10, B10, R10, then B20 under player 0's pile
    seen = view(game, 0)
    bottoms, in_hand = known_pile_bottoms(seen)
    assert bottoms[0] == ["Y10", "B10", "R10", "B20"]
    assert in_hand == [[], []]
    for seed in range(5):
        sample = sample_game(seen, random.Random(seed))
        assert sample.piles[0][-4:] == ["Y10", "B10", "R10", "B20"]
        assert sample.pending == game.pending
        assert sample.responsible == 0


def test_tiles_drawn_back_after_mayhem_are_known_to_be_in_that_hand() -> None:
    # Player 0 collapses two supports with an empty pile, then draws them both back.
    game = Game(
        2,
        pyramid={(0, 0): "Y2", (0, 2): "R4"},
        hands=[["B120", "G6"], ["G2"]],
        piles=[[], ["R2", "Y4", "B6"]],
        active=0,
    )
    game.apply(Play("B120", (1, 1)))
    game.apply(game.legal_actions()[0])  # the fall
    assert game.active == 1
    seen = view(game, 1)
    bottoms, in_hand = known_pile_bottoms(seen)
    assert (bottoms[0], sorted(in_hand[0])) == ([], ["R4", "Y2"])
    sample = sample_game(seen, random.Random(0))
    assert {"Y2", "R4"} <= set(sample.hands[0])


def _played_into_the_record(seed: int) -> Game:
    """A 4-player game played by random moves until some tile seen going under a pile has
    been drawn back into a hand, and some pile still ends with seen tiles."""
    game = Game.new(4, seed)
    rnd = random.Random(seed)
    while game.pending is not None:
        piles_seen = any(len(p) > h for p, h in zip(game.piles, game.hidden_piles, strict=True))
        if any(game.seen_in_hands) and piles_seen and game.pending.kind == "play":
            return game
        game.apply(rnd.choice(game.legal_actions()))
    raise AssertionError("no such position in this game")


@given(positions())
@FAST
def test_every_deal_keeps_what_everyone_saw(game: Game) -> None:
    me = _seat(game)
    seen = view(game, me)
    for k in range(3):
        deal = sample_game(seen, random.Random(k))
        for i in range(game.players):
            size = len(seen.seen_piles[i])
            assert deal.piles[i][len(deal.piles[i]) - size :] == list(seen.seen_piles[i])
            assert set(seen.seen_hands[i]) <= set(deal.hands[i])


def test_what_everyone_saw_is_dealt_where_it_is_known_to_be() -> None:
    """Mid-game, the record pins tiles that a deal from this turn's events alone would move."""
    game = _played_into_the_record(11)
    me = _seat(game)
    seen = view(game, me)
    others = [i for i in range(4) if i != me and seen.seen_hands[i]]
    assert others or any(seen.seen_piles)
    for k in range(20):
        deal = sample_game(seen, random.Random(k))
        for i in others:
            assert set(seen.seen_hands[i]) <= set(deal.hands[i])
        for i in range(4):
            assert deal.piles[i][deal.hidden_piles[i] :] == list(seen.seen_piles[i])
            assert deal.hidden_piles[i] == game.hidden_piles[i]
