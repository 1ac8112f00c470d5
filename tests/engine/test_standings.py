"""Standings of a match that stops before its end: the totals of the rounds played, plus the
tiles each player has left while a round is in progress (how RULES 7 scores a player who did not
win a round). Records rate an aborted match by them."""

from __future__ import annotations

import random

from engine import Game, NextRound, standings, view


def _left(game: Game) -> list[int]:
    return [len(h) + len(p) for h, p in zip(game.hands, game.piles, strict=True)]


def test_a_match_not_begun_stands_at_the_tiles_dealt() -> None:
    game = Game.new(4, 3)
    assert not game.begun
    assert list(game.standings()) == _left(game) == [11, 11, 11, 11]


def test_while_a_round_is_played_each_player_stands_at_the_tiles_left() -> None:
    game = Game.new(3, 8)
    rnd = random.Random(8)
    for _ in range(7):
        game.apply(rnd.choice(game.legal_actions()))
    assert game.begun
    assert list(game.standings()) == _left(game)
    assert view(game, None).standings == game.standings()


def test_between_rounds_and_at_the_end_the_standings_are_the_totals() -> None:
    game = Game.new(2, 4, rounds=2)
    rnd = random.Random(4)
    while game.pending is not None:
        game.apply(rnd.choice(game.legal_actions()))
    after_one = list(game.scores)
    assert game.standings() == tuple(after_one) and sorted(after_one)[0] == 0
    game.apply(NextRound())
    assert game.begun and game.turn == 0  # round 2 dealt: nothing played in it yet
    assert list(game.standings()) == [s + n for s, n in zip(after_one, _left(game), strict=True)]
    while game.pending is not None:
        game.apply(rnd.choice(game.legal_actions()))
    assert game.match_over and game.standings() == tuple(game.scores)
    best = min(game.standings())
    assert [i for i, s in enumerate(game.standings()) if s == best] == game.winners()


def test_standings_of_counts_alone() -> None:
    assert standings([4, 0, 2], [5, 1, 0], [3, 0, 0], round_over=False) == (12, 1, 2)
    assert standings([4, 0, 2], [5, 1, 0], [3, 0, 0], round_over=True) == (4, 0, 2)
