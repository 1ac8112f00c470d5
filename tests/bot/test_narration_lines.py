"""A turn is told one short line per event, and every line is true (RULES 5): "again" only after
a fall of the same tile the same way, a fire named by what burnt, a cascade as lines a player
reads in a second rather than one sentence of hundreds of characters; in English and French."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator

import pytest

import i18n
from bot.narrate import narrate
from bot.service import Step, TableService
from bot.show import texts, turntexts
from engine import Action, Event, Fall, Game, Play, Pos
from i18n import ENGLISH, Language

from .conftest import ALICE, BOB, CAROL, lobby, play_tile

FRENCH = i18n.catalogs.language("fr")
NAMES = ["Léa", "Max", "Zoé"]
TOLD = ("placed", "collapsed", "fell", "exploded", "burnt", "cursed", "rolled", "won")
"""The events a turn's account tells, one line each (a curse followed by more mayhem takes a
second line: who bears the rest of the turn)."""
LONGEST = 240
"""No line is longer than this: the longest are fires that list every tile they burnt."""
AGAIN = {"en": " again", "fr": " encore "}


def random_turns(games: int) -> Iterator[list[Event]]:
    """The turns of ``games`` seeded games of three, played at random: cascades of every kind
    (collapses that fall on, fires, explosions, curses, the fire die)."""
    for seed in range(games):
        rnd = random.Random(seed)
        game = Game.new(3, seed=seed, curse=seed % 2 == 0, fire_die=seed % 3 == 0)
        for _ in range(300):
            if game.pending is None:
                break
            game.apply(rnd.choice(game.legal_actions()))
            if game.pending is None or game.pending.kind == "play":
                yield list(game.turn_events)


TURNS = list(random_turns(60))


def lines_due(events: list[Event]) -> int:
    told = sum(1 for e in events if e.kind in TOLD)
    for i, e in enumerate(events):
        if e.kind == "cursed" and any(
            x.kind in ("collapsed", "fell", "exploded", "burnt", "rolled") for x in events[i + 1 :]
        ):
            told += 1
    return told


@pytest.mark.parametrize("lang", [ENGLISH, FRENCH], ids=["en", "fr"])
def test_a_turn_is_told_one_short_line_per_event(lang: Language) -> None:
    cascades = 0
    for events in TURNS:
        said = narrate(events, NAMES, lang, viewer=None).splitlines()
        assert len(said) == lines_due(events), said
        assert all(len(line) <= LONGEST for line in said), max(said, key=len)
        assert all(line.endswith(".") and line[:1].isupper() for line in said), said
        cascades += len(said) >= 5
    assert cascades > 50  # long cascades were told too


@pytest.mark.parametrize("lang", [ENGLISH, FRENCH], ids=["en", "fr"])
def test_a_tile_falls_again_only_after_falling_the_same_way(lang: Language) -> None:
    """The line of a collapsed tile's fall says "again" ("encore") exactly when that tile fell
    the same way before in the turn: never "fell left again" after a fall to the right. A fall
    from free air tells only that (it says nothing of a collapse)."""
    seen = {True: 0, False: 0}
    for events in TURNS:
        for k, e in enumerate(events):
            if e.kind != "fell":
                continue
            before = [x.detail for x in events[:k] if x.kind == "fell" and x.tile == e.tile]
            line = narrate(events[: k + 1], NAMES, lang, viewer=None).splitlines()[-1]
            collapsed = events[k - 1].kind == "collapsed" and events[k - 1].tile == e.tile
            same_way = collapsed and bool(before) and before[-1] == e.detail
            assert (AGAIN[lang.code] in line) == same_way, (before, line)
            if before and collapsed:
                seen[same_way] += 1
    assert seen[True] > 10 and seen[False] > 10  # both cases were met


def blowtorch_beside(pyramid: dict[Pos, str], at: Pos) -> list[Event]:
    """Léa's red blowtorch played at ``at`` beside ``pyramid``: a fire (RULES 5.4)."""
    game = Game(2, pyramid=pyramid, hands=[["R7", "Y2"], ["B2"]], piles=[[], []])
    game.apply(Play("R7", at))
    return list(game.turn_events)


STRAW = blowtorch_beside({(0, 0): "G2"}, (0, 2))
"""A blowtorch beside green 2 alone: only straw burns."""


def test_a_fire_is_named_by_what_burnt_not_by_what_the_incendiary_could_burn() -> None:
    text = narrate(STRAW, NAMES, ENGLISH, viewer=None)
    assert "wood" not in text
    straw = text.splitlines()
    assert straw[1] == (
        "Red blowtorch (7) set fire to the straw: green 2 burnt and went under Léa's pile; "
        "the blowtorch left the game."
    )
    # Green 10 (wood) under green 2 (straw): both burn.
    both = blowtorch_beside({(0, 0): "G10", (0, 2): "B100", (1, 1): "G2"}, (0, -2))
    said = narrate(both, NAMES, ENGLISH, viewer=None).splitlines()
    assert said[1].startswith("Red blowtorch (7) set fire to the straw and the wood: ")
    wood = narrate(
        blowtorch_beside({(0, 0): "B20"}, (0, 2)), NAMES, ENGLISH, viewer=None
    ).splitlines()
    assert wood[1].startswith("Red blowtorch (7) set fire to the wood: blue 20 burnt")
    french = narrate(STRAW, NAMES, FRENCH, viewer=None)
    assert "bois" not in french
    assert french.splitlines()[1].startswith(
        "Le chalumeau rouge\u00a0(7) met le feu à la paille\u00a0:"
    )


@functools.cache
def longest_turn() -> tuple[Game, list[Action]]:
    """The game just before the turn of seeded random play (three players, no fire die) whose
    account has the most lines, and that turn's actions."""
    best: tuple[int, Game, list[Action]] | None = None
    for seed in range(30):
        rnd = random.Random(seed)
        game = Game.new(3, seed=seed, curse=seed % 2 == 0)
        start, actions = game.copy(), []
        for _ in range(300):
            if game.pending is None:
                break
            action = rnd.choice(game.legal_actions())
            game.apply(action)
            actions.append(action)
            if game.pending is None or game.pending.kind == "play":
                told = len(narrate(game.turn_events, NAMES, ENGLISH, viewer=None).splitlines())
                if best is None or told > best[0]:
                    best = (told, start, actions)
                start, actions = game.copy(), []
    assert best is not None and best[0] >= 15
    return best[1], best[2]


async def test_a_long_cascades_message_keeps_room_for_who_decides_next(
    service: TableService,
) -> None:
    before, actions = longest_turn()
    users = (ALICE, BOB, CAROL)
    t = await lobby(service, *users)
    await service.start_from_state(t, ALICE, before.to_dict())
    step: Step | None = None
    for action in actions:
        if isinstance(action, Play):
            user = users[before.active]
            hand = await service.hand(t, user)
            step = await play_tile(service, t, user, action.tile, hand.digest)
        else:
            assert isinstance(action, Fall) and step is not None
            prompt = step.board.prompt
            assert prompt.seat is not None
            step = await service.fall(t, step.board.version, users[prompt.seat], action.direction)
    assert isinstance(step, Step)
    text = turntexts.step_content(step, ENGLISH)
    assert len(text) <= texts.MAX_CONTENT and not text.endswith("…")
    told = text.splitlines()
    asked = turntexts.prompt_line(step.board, ENGLISH, spectator=False)
    assert told[-1] == asked  # whole, with its mention
    assert told[0].startswith(f"user{users[before.active]} played ")
    assert told[-2].startswith("…and ") and told[-2].endswith(" more events.")
    assert all(len(line) <= LONGEST for line in told)
