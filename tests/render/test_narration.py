"""The narration tells what happened truthfully, once, in the same words for texts and pictures.

Each falsehood the narration used to tell has its test here: a tile credited to whoever bore the
mayhem instead of who placed it, "matched neither tile below" over one tile, a player who
"rolled" the automatic fire die, a round's win said twice, and the last round's winner crowned
in place of the match's.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import Event, Fall, Game, Play, view
from i18n import ENGLISH, catalogs
from render import account, narration, render_table, table_layout
from render import theme as th
from render.layout import LAST_MOVE_LINES
from render.mayhem import frames
from render.scene import crowned, info_line, status_line, summary
from tests.render.conftest import decode, pixels, share
from tests.render.test_languages import drawn_texts

NAMES = ["Alice", "Bob", "Carol"]
FRENCH = catalogs.language("fr")

CURSE: dict[str, Any] = {
    # Alice plays green 10 on yellow 10 and red 10: cursed, the three 10s go to Carol (the
    # previous player); blue 30 is left on blue 20 alone, too heavy: Carol chooses its fall.
    "players": 3,
    "options": {"curse": True, "fire_die": False},
    "pyramid": {"0,0": "Y10", "0,2": "R10", "0,4": "B20", "1,3": "B30"},
    "hands": [["G10", "Y2"], ["R2", "G2"], ["B2", "Y4"]],
    "piles": [["R20"], ["G20"], ["B10"]],
    "active": 0,
}


def curse_turn() -> tuple[Game, list[Event]]:
    game = Game.from_dict(CURSE)
    game.apply(Play("G10", (1, 1)))
    game.apply(Fall("left"))
    return game, list(game.turn_events)


def test_a_tile_is_credited_to_who_placed_it_not_to_who_bears_the_mayhem_rules_5_5() -> None:
    _, events = curse_turn()
    text = account.narrate(events, NAMES, lang=ENGLISH, viewer=None)
    assert text.startswith("Alice played green 10.\n")
    # Carol bears the mayhem after the curse but placed nothing: blue 30 is nobody's this turn.
    assert "Carol's blue 30" not in text
    assert "Blue 30 collapsed (heavier than the tile below)" in text


def test_a_placed_tile_keeps_its_placers_name_after_a_curse_passes_the_mayhem_on() -> None:
    events = [
        Event("placed", 1, "R6", (2, 2)),
        Event("cursed", 0, to_pile=(("G20", (1, 5)), ("Y20", (0, 4)), ("B20", (0, 6)))),
        Event(
            "collapsed",
            0,
            "R6",
            (2, 2),
            to_pile=(("Y30", (1, 1)), ("B40", (1, 3))),
            detail="mismatch",
        ),
        Event("fell", 0, "R6", (2, 2), (1, 1), detail="left"),
    ]
    text = account.narrate(events, ["lea", "Max"], lang=ENGLISH, viewer=None)
    assert "lea's red 6" not in text  # lea bears the mayhem, she never played red 6
    assert "Max's red 6 collapsed (neither tile below matches its colour or weight)" in text
    assert "Red 6 fell left (lea chose)." in text


def test_a_tile_on_one_tile_below_does_not_fit_on_it_rules_4() -> None:
    _, events = curse_turn()
    collapse = next(e for e in events if e.kind == "collapsed")
    assert len(collapse.to_pile) == 1  # blue 30 rested on blue 20 alone
    text = account.narrate(events, NAMES, lang=ENGLISH, viewer=None)
    assert "collapsed (heavier than the tile below)" in text
    assert "neither" not in text and "two tiles" not in text
    mismatch = [
        Event("placed", 0, "Y2", (0, 6)),
        Event("collapsed", 0, "R20", (1, 5), to_pile=(("B20", (0, 4)),), detail="mismatch"),
    ]
    assert "Red 20 collapsed (not the colour of the tile below)" in account.narrate(
        mismatch, NAMES, lang=ENGLISH, viewer=None
    )


def test_the_curse_says_in_plain_words_who_takes_the_tiles_and_chooses_rules_5_5() -> None:
    _, events = curse_turn()
    text = account.narrate(events, NAMES, lang=ENGLISH, viewer=None)
    assert "green 10, yellow 10 and red 10 went under Carol's pile" in text
    assert "Carol takes the tiles that leave the pyramid and chooses where they fall" in text
    assert "mayhem" not in text


def test_nobody_rolls_the_fire_die_the_game_does_rules_6() -> None:
    events = [Event("placed", 1, "R7", (0, 2)), Event("rolled", 1, "R7", (0, 2), detail="smoke")]
    text = account.narrate(events, ["Léa", "Max"], lang=ENGLISH, viewer=None)
    assert text == (
        "Max played red blowtorch (7).\n"
        "The fire die for red blowtorch (7) showed smoke (nothing happens)."
    )
    game = Game(2, pyramid={(0, 0): "Y30"}, hands=[["G2"], ["R7"]], piles=[[], []], active=1)
    captions = [
        line for f in frames(view(game), events, ["Léa", "Max"], lang=ENGLISH) for line in f.caption
    ]
    assert not [line for line in captions if "rolled for" in line or "Max rolled" in line]
    assert "Fire die: smoke (nothing happens)" in captions


def test_a_round_win_is_not_told_by_the_turns_narration_the_result_line_tells_it() -> None:
    events = [Event("placed", 0, "Y40", (1, 1)), Event("won", 0, scores=(0, 2, 2))]
    text = account.narrate(events, NAMES, lang=ENGLISH, viewer=None)
    assert text == "Alice played yellow 40.\nAlice has no tile left in hand or pile."
    assert "wins" not in text
    assert (
        narration.round_winner_line(NAMES, 0, 1, 2, lang=ENGLISH, viewer=None)
        == "Alice wins round 1 of 2."
    )


def test_one_standings_table_lowest_total_first_ties_share_a_rank_rules_7() -> None:
    assert narration.standings(NAMES, [7, 0, 7], round_scores=[3, 0, 5], lang=ENGLISH) == [
        "1. Bob: 0 (this round 0)",
        "2. Alice: 7 (this round 3)",
        "2. Carol: 7 (this round 5)",
    ]
    assert (
        narration.match_winner_line(NAMES, [4, 9, 4], lang=ENGLISH)
        == "Alice and Carol share the match."
    )


def last_round_won_by_the_match_loser() -> Game:
    """Round 2 of 2: Alice plays her last tile and wins the round, but Bob's total is lower."""
    game = Game(
        2,
        rounds=2,
        pyramid={(0, 0): "Y20", (0, 2): "R40"},
        hands=[["Y10"], ["G2", "B2"]],
        piles=[[], ["R2"]],
        active=0,
    )
    game.round = 2
    game.scores = [10, 0]
    game.apply(Play("Y10", (1, 1)))
    return game


def test_the_final_picture_crowns_the_match_winner_not_the_last_rounds_rules_7() -> None:
    game = last_round_won_by_the_match_loser()
    v = view(game)
    assert v.winner == 0 and v.scores == (10, 3)  # Alice won the round, Bob the match
    assert crowned(v) == frozenset({1})
    assert status_line(v, NAMES, lang=ENGLISH) == "Bob wins the match! Alice won round 2."
    img = decode(render_table(v, NAMES, lang=ENGLISH))
    chips = table_layout(v, NAMES, lang=ENGLISH).chips
    top_edge = [(c[0] + 20, c[1], c[2] - 20, c[1] + 2) for c in chips]
    assert share(pixels(img, top_edge[1]), th.GOLD) > 0.8  # Bob's chip is ringed in gold
    assert share(pixels(img, top_edge[0]), th.GOLD) == 0


def test_a_round_before_the_last_names_its_own_winner() -> None:
    game = Game(2, rounds=3, pyramid={(0, 0): "Y20", (0, 2): "R40"}, hands=[["Y10"], ["G2"]])
    game.piles = [[], []]
    game.apply(Play("Y10", (1, 1)))
    v = view(game)
    assert status_line(v, NAMES, lang=ENGLISH) == "Alice wins round 1 of 3!"
    assert crowned(v) == frozenset({0})


def test_mid_match_the_round_winner_is_crowned_as_the_rounds_winner_not_the_matchs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = Game(2, rounds=3, pyramid={(0, 0): "Y20", (0, 2): "R40"}, hands=[["Y10"], ["G2"]])
    game.piles = [[], []]
    game.apply(Play("Y10", (1, 1)))
    with drawn_texts(monkeypatch) as seen:
        render_table(view(game), NAMES, lang=ENGLISH)
    assert "★ winner" not in seen.texts
    assert "★ won round 1" in seen.texts  # Alice's chip
    # The match's end crowns its winner as the match's.
    with drawn_texts(monkeypatch) as seen:
        render_table(view(last_round_won_by_the_match_loser()), NAMES, lang=ENGLISH)
    assert "★ winner" in seen.texts  # Bob, lowest total
    assert "won round 2" in seen.texts  # Alice, the last round's winner


def test_pictures_and_texts_name_a_tile_as_its_button_does() -> None:
    events = [Event("placed", 0, "Y30", (1, 1))]
    assert summary(events, NAMES, lang=ENGLISH, viewer=None) == (
        "Last move: Alice played yellow 30.",
    )
    assert narration.tile_name("Y30", lang=ENGLISH) == "yellow 30"


def test_a_long_last_move_wraps_onto_lines_instead_of_being_cut_where_it_names_a_player() -> None:
    _, events = curse_turn()
    lines = summary(
        events, ["Computer 1 (hard)", "Bob", "Carol the Magnificent"], lang=ENGLISH, viewer=None
    )
    assert 5 <= len(lines) <= LAST_MOVE_LINES
    assert "Carol the Magnificent" in " ".join(lines)


def test_a_game_without_options_says_standard_rules_not_no_options() -> None:
    v = view(Game.new(3, seed=1))
    assert info_line(v, lang=ENGLISH).endswith("Standard rules")
    assert "No options" not in info_line(v, lang=ENGLISH)


def test_a_match_end_names_the_round_winner_once_and_crowns_the_match_winner_rules_7() -> None:
    lines = narration.result_lines(
        NAMES,
        winner=0,
        round_no=2,
        rounds=2,
        round_scores=[0, 2, 5],
        totals=[9, 4, 12],
        lang=ENGLISH,
        viewer=None,
    )
    assert lines[:2] == ["Alice wins round 2 of 2.", "Bob wins the match with the lowest total."]
    assert lines[3:] == [
        "1. Bob: 4 (this round 2)",
        "2. Alice: 9 (this round 0)",
        "3. Carol: 12 (this round 5)",
    ]
    said = "\n".join(lines)
    assert said.count("Alice wins") == 1  # the round's win, once
    assert sum(line[0].isdigit() for line in lines) == 3  # one standings table, one line each


def test_a_match_won_by_the_last_rounds_winner_says_so_in_one_line() -> None:
    lines = narration.result_lines(
        NAMES,
        winner=1,
        round_no=3,
        rounds=3,
        round_scores=[2, 0, 5],
        totals=[9, 4, 12],
        lang=ENGLISH,
        viewer=None,
    )
    assert lines[0] == "Bob wins round 3 and the match with the lowest total."
    assert not [line for line in lines[1:] if "Bob wins" in line or "the match" in line]


def test_a_round_before_the_last_gives_the_standings_so_far() -> None:
    lines = narration.result_lines(
        NAMES,
        winner=2,
        round_no=1,
        rounds=3,
        round_scores=[3, 1, 0],
        totals=[3, 1, 0],
        lang=ENGLISH,
        viewer=None,
    )
    assert lines == [
        "Carol wins round 1 of 3.",
        "Standings after round 1 of 3 (lower wins):",
        "1. Carol: 0 (this round 0)",
        "2. Bob: 1 (this round 1)",
        "3. Alice: 3 (this round 3)",
    ]


def test_the_turn_told_on_a_players_own_screen_calls_them_you() -> None:
    """Carol bears Alice's curse: her own screen tells her what came to her as "you"; Alice's
    tells her turn as hers; the channel (no reader) names everyone."""
    _, events = curse_turn()
    everyone = account.narrate(events, NAMES, lang=ENGLISH, viewer=None)
    assert "went under Carol's pile" in everyone and "(Carol chose)" in everyone
    assert account.turn_lines(events, NAMES, lang=ENGLISH, viewer=2) == [
        "Alice played green 10.",
        "A curse, three tiles of weight 10: green 10, yellow 10 and red 10 went under your pile.",
        "For the rest of this turn you take the tiles that leave the pyramid and choose where "
        "they fall.",
        "Blue 30 collapsed (heavier than the tile below): blue 20 went under your pile.",
        "Blue 30 fell left (you chose).",
    ]
    alice = account.turn_lines(events, NAMES, lang=ENGLISH, viewer=0)
    assert alice[0] == "You played green 10." and "Carol's pile" in alice[1]
    french = account.turn_lines(events, NAMES, lang=FRENCH, viewer=2)
    assert french[1].endswith("passent sous votre pioche.")
    assert french[2].startswith("Jusqu'à la fin du tour, vous récupérez les tuiles")
    assert french[-1] == "Le bleu\u00a030 glisse à gauche (votre choix)."


def test_a_fall_a_computer_chose_for_the_person_who_bears_it_says_so() -> None:
    """Carol's time ran out on the curse's fall (or she is away): a computer player chose it,
    and no line says she did, on her screen, in the channel, in French, nor on the pictures."""
    _, events = curse_turn()
    fell = next(e for e in events if e.kind == "fell")
    assert fell.tile is not None and fell.at is not None
    chose = frozenset({(fell.tile, fell.at)})
    carol = account.turn_lines(events, NAMES, lang=ENGLISH, viewer=2, computer_chose=chose)
    assert carol[-1] == "Blue 30 fell left (a computer player chose for you)."
    everyone = account.narrate(events, NAMES, lang=ENGLISH, viewer=None, computer_chose=chose)
    assert everyone.endswith("Blue 30 fell left (a computer player chose for Carol).")
    assert "chose)" not in everyone.replace("for Carol)", "")
    french = account.turn_lines(events, NAMES, lang=FRENCH, viewer=2, computer_chose=chose)
    assert (
        french[-1] == "Le bleu\u00a030 glisse à gauche (un joueur ordinateur a choisi pour vous)."
    )
    # The picture's last move (a turn short enough for its rows).
    short = [
        Event("placed", 0, "G10", (1, 1)),
        Event("cursed", 2, to_pile=(("Y10", (0, 0)), ("R10", (0, 2)), ("G10", (1, 1)))),
        Event("fell", 2, "B30", (1, 3), (0, 2), detail="left"),
    ]
    drawn = summary(short, NAMES, lang=ENGLISH, viewer=None, computer_chose=chose)
    assert " ".join(" ".join(drawn).split()).endswith(
        "Blue 30 was in free air and fell left (a computer player chose for Carol)."
    )
    # A fall of the turn's own player is the move the channel says the computer made: unchanged.
    own = [
        Event("placed", 0, "G60", (1, 1)),
        Event("collapsed", 0, "G60", (1, 1), to_pile=(("B20", (0, 0)),), detail="overweight"),
        Event("fell", 0, "G60", (1, 1), (0, 0), detail="left"),
    ]
    told = account.turn_lines(
        own, NAMES, lang=ENGLISH, viewer=None, computer_chose=frozenset({("G60", (1, 1))})
    )
    assert told[-1] == "Green 60 fell left."


def test_a_tile_a_computer_played_for_a_person_says_so() -> None:
    """In a recap or a replay, where no line above says that Alice's time ran out, her tile is
    told as the computer's."""
    _, events = curse_turn()
    placed = events[0]
    assert placed.kind == "placed" and placed.tile is not None and placed.at is not None
    chose = frozenset({(placed.tile, placed.at)})
    told = account.turn_lines(events, NAMES, lang=ENGLISH, viewer=2, computer_chose=chose)
    assert told[0] == "A computer player played green 10 for Alice."
    assert told[1].endswith("went under your pile.")  # the rest as before
    mine = account.turn_lines(events, NAMES, lang=ENGLISH, viewer=0, computer_chose=chose)
    assert mine[0] == "A computer player played green 10 for you."
    french = account.turn_lines(events, NAMES, lang=FRENCH, viewer=2, computer_chose=chose)
    assert french[0] == "Un joueur ordinateur pose le vert\u00a010 pour Alice."


def test_ones_own_tiles_fire_and_last_tile_say_you_and_your() -> None:
    events = [
        Event("placed", 1, "G1", (1, 1)),
        Event("cursed", 2, to_pile=(("Y10", (0, 0)), ("R10", (0, 2)), ("B10", (1, 1)))),
        Event("fell", 2, "G1", (1, 1), (0, 0), detail="left"),
        Event("burnt", 2, "G1", (0, 0), to_pile=(("Y4", (0, 2)),), out=(("G1", (0, 0)),)),
        Event("won", 1),
    ]
    assert account.turn_lines(events, NAMES, lang=ENGLISH, viewer=1) == [
        "You played green coal (1).",
        "A curse, three tiles of weight 10: yellow 10, red 10 and blue 10 went under Carol's pile.",
        "For the rest of this turn Carol takes the tiles that leave the pyramid and chooses where "
        "they fall.",
        "Green coal (1) was in free air and fell left (Carol chose).",
        "Your green coal (1) set fire to the straw: yellow 4 burnt and went under Carol's pile; "
        "the coal left the game.",
        "You have no tile left in hand or pile.",
    ]
    carol = account.turn_lines(events, NAMES, lang=ENGLISH, viewer=2)
    assert carol[3].endswith("(you chose).") and "burnt and went under your pile" in carol[4]
    french = account.turn_lines(events, NAMES, lang=FRENCH, viewer=1)
    assert french[0] == "Vous posez le charbon vert\u00a0(1)."
    assert french[4].startswith("Votre charbon vert (1) met le feu")
    assert french[-1] == "Vous n'avez plus aucune tuile en main ni en pioche."


def test_a_pictures_last_move_is_told_to_the_screens_owner_only() -> None:
    _, events = curse_turn()
    own = " ".join(" ".join(summary(events, NAMES, lang=ENGLISH, viewer=2)).split())
    assert own.startswith("Last move: Alice played green 10.")
    assert "went under your pile" in own and "Carol" not in own
    assert "Carol's pile" in " ".join(summary(events, NAMES, lang=ENGLISH, viewer=None))


def test_the_round_told_on_its_winners_own_screen_says_you() -> None:
    said = narration.result_lines(
        NAMES,
        winner=0,
        round_no=1,
        rounds=2,
        round_scores=[0, 2, 5],
        totals=[0, 2, 5],
        lang=ENGLISH,
        viewer=0,
    )
    assert said[0] == "You win round 1 of 2."
    assert said[2] == "1. Alice: 0 (this round 0)"  # the standings name everyone, as a table
    others = narration.result_lines(
        NAMES,
        winner=0,
        round_no=1,
        rounds=2,
        round_scores=[0, 2, 5],
        totals=[0, 2, 5],
        lang=ENGLISH,
        viewer=1,
    )
    assert others[0] == "Alice wins round 1 of 2."
    end = narration.result_lines(
        NAMES,
        winner=0,
        round_no=2,
        rounds=2,
        round_scores=[0, 2, 5],
        totals=[1, 4, 9],
        lang=FRENCH,
        viewer=0,
    )
    assert end[0] == "Vous gagnez la manche 2 et la partie avec le plus petit total."
