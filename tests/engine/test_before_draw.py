"""RULES 7: a turn's draw, seen before it happened (:func:`engine.before_draw`): what a player
may be shown of a turn that can still be taken back."""

from __future__ import annotations

import random

from engine import Fall, Game, Play, before_draw, view


def test_rules_7_before_the_draw_the_hand_is_the_one_played_from_and_the_pile_is_whole() -> None:
    turns = 0
    for seed in range(25):
        game = Game.new(3, seed, curse=seed % 2 == 0)
        rng = random.Random(seed)
        for _ in range(60):
            p = game.pending
            if p is None:
                break
            if p.kind != "play":
                game.apply(rng.choice(game.legal_actions()))
                continue
            me = p.player
            hand_before = list(game.hands[me])
            play = rng.choice(game.legal_actions())
            assert isinstance(play, Play)
            game.apply(play)
            while game.pending is not None and game.pending.kind == "fall":
                game.apply(Fall(rng.choice(["left", "right"])))
            after = view(game, me)
            shown = before_draw(after)
            kept = list(hand_before)
            kept.remove(play.tile)
            assert list(shown.hand or ()) == kept
            # Nothing left the hand and the pile together but the tile played; the pyramid,
            # the others' hands and whose turn comes next are the turn's.
            assert shown.hand_sizes[me] + shown.pile_sizes[me] == (
                after.hand_sizes[me] + after.pile_sizes[me]
            )
            assert shown.pyramid == after.pyramid and shown.pending == after.pending
            others = [i for i in range(3) if i != me]
            assert [shown.hand_sizes[i] for i in others] == [after.hand_sizes[i] for i in others]
            turns += 1
    assert turns > 100


def test_rules_7_a_round_won_draws_nothing_and_the_public_view_has_no_hand() -> None:
    game = Game(2, pyramid={(0, 0): "Y30", (0, 2): "R40"}, hands=[["Y20"], ["G2"]])
    game.apply(Play("Y20", (1, 1)))
    assert game.winner == 0
    mine = view(game, 0)
    assert before_draw(mine) == mine
    assert before_draw(view(game, None)) == view(game, None)
