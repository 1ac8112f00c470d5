"""Nothing hidden leaks into a picture: a player's pictures do not depend on what others hold."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, view
from i18n import ENGLISH
from render import render_hand, render_table
from tests.render.conftest import NAMES


def _played(seed: int, turns: int) -> Game:
    game = Game.new(4, seed=seed)
    rng = random.Random(seed)
    while game.pending is not None and (game.turn < turns or game.pending.kind != "play"):
        game.apply(rng.choice(game.legal_actions()))
    return game


def _reshuffle_hidden(game: Game, player: int, seed: int) -> Game:
    """The same game but with every tile ``player`` cannot see dealt differently (same sizes)."""
    state = game.to_dict()
    slots: list[tuple[str, int, int]] = []
    hidden: list[str] = []
    for i, hand in enumerate(state["hands"]):
        if i != player:
            slots += [("hands", i, k) for k in range(len(hand))]
            hidden += hand
    for i, pile in enumerate(state["piles"]):
        slots += [("piles", i, k) for k in range(len(pile))]
        hidden += pile
    random.Random(seed).shuffle(hidden)
    for (where, i, k), tile in zip(slots, hidden, strict=True):
        state[where][i][k] = tile
    return Game.from_dict(state)


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 12), st.integers(0, 3), st.integers(0, 99))
def test_a_players_pictures_do_not_depend_on_hidden_tiles(
    seed: int, turns: int, player: int, shuffle: int
) -> None:
    game = _played(seed, turns)
    other = _reshuffle_hidden(game, player, shuffle)
    mine, theirs = view(game, player), view(other, player)
    assert render_hand(mine, "me", lang=ENGLISH) == render_hand(theirs, "me", lang=ENGLISH)
    assert render_table(mine, NAMES, lang=ENGLISH) == render_table(theirs, NAMES, lang=ENGLISH)
    assert render_table(view(game), NAMES, lang=ENGLISH) == render_table(
        view(other), NAMES, lang=ENGLISH
    )


def test_the_table_is_the_same_for_every_viewer() -> None:
    """The channel picture comes from the public view; a player's view draws the same table."""
    game = _played(3, 6)
    public = render_table(view(game), NAMES, lang=ENGLISH)
    for player in range(game.players):
        assert render_table(view(game, player), NAMES, lang=ENGLISH) == public
