"""What a screen reader reads of each picture (:mod:`render.alttext`): the pyramid row by row
from the top with its spots, whose decision it is, the viewer's own hand on their screens only,
what each spot would do, in the reader's language, and never over Discord's 1,024 characters.

The rows are also read back into a pyramid here, as a player who cannot see the picture would
rebuild it: for random games the rebuilt pyramid is the one drawn, spots included."""

from __future__ import annotations

import random
import re
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

import i18n
from engine import Event, Game, Play, Pos, View, parse_pos, preview, view
from engine.tiles import ALL_TILES
from i18n import ENGLISH, Language
from render import alttext, samples
from render.narration import tile_name
from render.records import CardRow
from render.scene import table_scene

FRENCH = i18n.catalogs.language("fr")
NB = "\u00a0"


def gap_game() -> Game:
    """Three players; the base has a gap (spot B), a tile rests on its right, and a spot (A)
    waits on the left: the second row reads a spot, two empty places, then a tile."""
    return Game(
        3,
        pyramid={(0, 0): "Y30", (0, 2): "R10", (0, 6): "B20", (0, 8): "G40", (1, 7): "B40"},
        hands=[["Y20", "G2"], ["G60", "R6"], ["B4"]],
        piles=[["G10"], ["B2"], ["Y2", "Y4"]],
        removed=["R7"],
        active=1,
    )


# --- a known position, read row by row ------------------------------------------------------------


def test_the_channel_reads_a_known_position_row_by_row_from_the_top_in_english() -> None:
    said = alttext.table_text(
        view(gap_game()), ["Léa", "Max", "Zoé"], title="Table #4", lang=ENGLISH
    )
    assert said.splitlines() == [
        "Table #4.",
        "Max to play a tile on one of the 2 spots, A to B.",
        "Turn 1, Standard rules.",
        "Pyramid, top row first; place N rests on places N and N+1 of the row below.",
        "Row 2: spot A, 2 empty places, blue 40.",
        "Row 1: yellow 30, red 10, spot B, blue 20, green 40.",
        "Players: Léa: 2 in hand, 1 in pile; Max: 2 in hand, 1 in pile; Zoé: 1 in hand, 2 in pile.",
        "Out of the game: red blowtorch (7).",
    ]


def test_the_same_position_in_french() -> None:
    said = alttext.table_text(
        view(gap_game()), ["Léa", "Max", "Zoé"], title="Table n° 4", lang=FRENCH
    )
    assert said.splitlines() == [
        "Table n° 4.",
        "À Max de poser une tuile sur l'un des 2 emplacements, d'A à B.",
        "Tour 1, Règles de base.",
        f"Pyramide, de l'étage du haut à la base{NB}; la place N repose sur les places N et N+1 "
        "de l'étage du dessous.",
        f"Étage 2{NB}: emplacement A, 2 places vides, bleu 40.",
        f"Étage 1{NB}: jaune 30, rouge 10, emplacement B, bleu 20, vert 40.",
        f"Joueurs{NB}: Léa{NB}: 2 en main, 1 en pioche{NB}; Max{NB}: 2 en main, 1 en pioche"
        f"{NB}; Zoé{NB}: 1 en main, 2 en pioche.",
        f"Hors du jeu{NB}: chalumeau rouge (7).",
    ]


def test_a_players_screen_tells_them_their_hand_and_the_decision_that_is_theirs() -> None:
    game = gap_game()
    said = alttext.screen_text(view(game, 1), ["Léa", "Max", "Zoé"], fitting=["R6"], lang=ENGLISH)
    lines = said.splitlines()
    assert lines[:2] == [
        "Your turn: choose a tile of your hand, then one of the 2 spots, A to B.",
        "Your hand: green 60 (stone), red 6 (straw, fits); 1 tile in your pile.",
    ]
    assert "Row 2: spot A, 2 empty places, blue 40." in lines
    assert "Players: Léa: 2 in hand, 1 in pile; Max (you): 2 in hand, 1 in pile; " in said
    # Another player's screen: their hand, and who is awaited.
    theirs = alttext.screen_text(view(game, 0), ["Léa", "Max", "Zoé"], lang=FRENCH).splitlines()
    assert theirs[:2] == [
        "À Max de poser une tuile sur l'un des 2 emplacements, d'A à B.",
        f"Votre main{NB}: jaune 20 (bois), vert 2 (paille){NB}; 1 tuile dans votre pioche.",
    ]


def test_the_spot_step_says_what_playing_on_each_spot_would_do() -> None:
    game = gap_game()
    spots = game.pending.spots if game.pending is not None else ()
    previews = [preview(game, Play("G60", at)) for at in spots]
    names = ["Léa", "Max", "Zoé"]
    said = alttext.spots_text(
        view(game, 1), names, "G60", previews, title="Choose a spot", lang=ENGLISH
    )
    assert said.splitlines()[:3] == [
        "Choose a spot.",
        "Where do you play green 60? A: collapse: 2 tiles to your pile. B: fits.",
        "Your hand: green 60 (stone), red 6 (straw); 1 tile in your pile.",
    ]
    french = alttext.spots_text(view(game, 1), names, "G60", previews, lang=FRENCH)
    assert french.splitlines()[0] == (
        f"Où posez-vous le vert{NB}60{NB}? A{NB}: effondrement{NB}: 2 tuiles sous votre pioche. "
        f"B{NB}: stable."
    )
    # Without previews at this table: the spots only.
    plain = alttext.spots_text(view(game, 1), names, "G60", None, lang=ENGLISH)
    assert plain.splitlines()[0] == "Where do you play green 60? Spots: A, B."


def test_spots_that_would_do_the_same_are_said_together() -> None:
    game = samples.jenny()
    spots = game.pending.spots if game.pending is not None else ()
    previews = [preview(game, Play("Y20", at)) for at in spots]
    said = alttext.spots_text(view(game, 0), list(samples.NAMES), "Y20", previews, lang=ENGLISH)
    assert said.splitlines()[0] == (
        "Where do you play yellow 20? A, B: collapse: 2 tiles to your pile."
    )


def test_a_fall_shows_the_falling_tile_and_its_two_landing_places() -> None:
    game = samples.jenny_fall()
    names = list(samples.NAMES)
    public = alttext.table_text(view(game), names, lang=ENGLISH).splitlines()
    assert public[0] == "Jenny chooses where yellow coal (1) falls, left or right."
    assert "Row 4: yellow coal (1) (falling)." in public
    assert "Row 3: landing place if it falls left, landing place if it falls right." in public
    mine = alttext.screen_text(view(game, 0), names, lang=ENGLISH).splitlines()
    assert mine[0] == "Your decision: where does yellow coal (1) fall, left or right?"
    french = alttext.screen_text(view(game, 0), names, lang=FRENCH).splitlines()
    assert (
        french[0]
        == f"À vous de décider{NB}: où glisse le charbon jaune{NB}(1), à gauche ou à droite{NB}?"
    )


def test_the_animation_tells_what_happened_then_the_board_it_ends_on() -> None:
    before, events, game = samples.jenny_turn()
    del before
    said = alttext.turn_text(events, view(game), list(samples.NAMES), lang=ENGLISH)
    first = said.splitlines()[0]
    assert first.startswith("Animation of the move, ending on the board: Jenny played yellow coal")
    assert "Last move:" not in said  # the animation's account is the last move
    assert "Row 1: " in said


def test_records_cards_read_their_rows_and_a_file_says_what_it_holds() -> None:
    rows = [CardRow("Matches", "12"), CardRow("1. Léa", "31.2 · 14 matches")]
    said = alttext.card_text("Leaderboard · page 1 of 2", rows, "Rating μ − 3σ", lang=ENGLISH)
    assert said.splitlines() == [
        "Leaderboard, page 1 of 2.",
        "Rating μ − 3σ.",
        "Matches: 12.",
        "1. Léa: 31.2, 14 matches.",
    ]
    assert alttext.card_text("Stats", rows, lang=FRENCH).splitlines()[1] == f"Matches{NB}: 12."
    assert alttext.scenario_file(7, lang=FRENCH) == (
        f"Toute la partie de la table n° 7 dans un fichier{NB}: chaque main telle qu'elle a été "
        "distribuée et chaque coup."
    )


def test_a_summary_tells_each_moment_then_the_final_board() -> None:
    deal = view(samples.jenny())
    _, _, game = samples.jenny_turn()
    said = alttext.summary_text(
        [(deal, "The deal"), (view(game), "The end")], list(samples.NAMES), lang=ENGLISH
    ).splitlines()
    assert said[0] == "Animation of 2 moments of the match:"
    assert said[1] == "The deal: Jenny to play a tile on one of the 2 spots, A to B."
    assert said[2].startswith("The end: Last move: Jenny played yellow coal (1)")
    assert "The final board:" in said


# --- privacy ------------------------------------------------------------------------------------


def _played(seed: int, turns: int, players: int = 4) -> Game:
    game = Game.new(players, seed=seed)
    rng = random.Random(seed)
    while game.pending is not None and game.turn < turns:
        game.apply(rng.choice(game.legal_actions()))
    return game


def _reshuffle_hidden(game: Game, seed: int) -> Game:
    """The same game with every tile nobody has seen (in a hand or a pile, those everyone saw
    go there aside) dealt differently, in the same places."""
    state = game.to_dict()
    seen = [set(s) for s in state["seen_in_hands"]]
    slots = [("hands", i, k) for i, h in enumerate(state["hands"]) for k, t in enumerate(h)]
    slots = [(w, i, k) for w, i, k in slots if state[w][i][k] not in seen[i]]
    slots += [("piles", i, k) for i, n in enumerate(state["hidden_piles"]) for k in range(n)]
    hidden = [state[w][i][k] for w, i, k in slots]
    random.Random(seed).shuffle(hidden)
    for (w, i, k), tile in zip(slots, hidden, strict=True):
        state[w][i][k] = tile
    return Game.from_dict(state)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 30), st.integers(0, 99))
def test_a_channel_picture_is_described_from_what_everyone_sees_only(
    seed: int, turns: int, shuffle: int
) -> None:
    """The channel's description never depends on a hidden tile: no hand is in it, even when a
    player's own view (which holds their hand) is what it is made from."""
    game = _played(seed, turns)
    other = _reshuffle_hidden(game, shuffle)
    for lang in (ENGLISH, FRENCH):
        public = alttext.table_text(view(game), samples.NAMES, lang=lang)
        assert alttext.table_text(view(other), samples.NAMES, lang=lang) == public
        for seat in range(game.players):
            assert alttext.table_text(view(game, seat), samples.NAMES, lang=lang) == public
        assert "Your hand" not in public and "Votre main" not in public
        if game.pending is not None and game.turn > 0:
            before = list(game.turn_events) or list(view(game).last_events)
            animated = alttext.turn_text(before, view(game), samples.NAMES, lang=lang)
            assert alttext.turn_text(before, view(other), samples.NAMES, lang=lang) == animated
            assert "Your hand" not in animated and "Votre main" not in animated


# --- read back: the rows are enough to rebuild the pyramid ----------------------------------------


def _names_of(lang: Language) -> dict[str, str]:
    return {tile_name(t, lang): t for t in ALL_TILES}


def read_back(description: str, lang: Language) -> tuple[dict[Pos, str], dict[str, Pos]]:
    """The tiles and the spots a listener rebuilds from a description's rows, placed on the
    grid the rows are read on (place ``n`` of row ``r`` at ``x = r - 1 + 2 (n - 1)``)."""
    row = lang.gettext("Row {row}: {places}.")
    pattern = re.compile(
        "^" + re.escape(row).replace(r"\{row\}", r"(\d+)").replace(r"\{places\}", "(.*)") + "$"
    )
    spot = re.compile(
        "^" + re.escape(lang.gettext("spot {letter}")).replace(r"\{letter\}", "([A-Z]+)") + "$"
    )
    empty = lang.pgettext("place", "empty")
    empties = re.compile(r"^(\d+) ")
    named = _names_of(lang)
    marks = [lang.gettext("{tile} (just played)"), lang.gettext("{tile} (falling)")]
    landings = {
        lang.gettext("landing place if it falls left"),
        lang.gettext("landing place if it falls right"),
    }
    tiles: dict[Pos, str] = {}
    spots: dict[str, Pos] = {}
    for line in description.splitlines():
        found = pattern.match(line)
        if not found:
            continue
        r = int(found.group(1)) - 1
        place = 0
        for item in found.group(2).split(lang.pgettext("list", ", ")):
            for mark in marks:
                before, _, after = mark.partition("{tile}")
                if item.startswith(before) and item.endswith(after) and after:
                    item = item[len(before) : len(item) - len(after)]
            if item == empty or item in landings:
                place += 1
            elif (many := empties.match(item)) and not item.startswith(tuple(named)):
                place += int(many.group(1))
            elif (letter := spot.match(item)) is not None:
                spots[letter.group(1)] = (r, r + 2 * place)
                place += 1
            else:
                tiles[(r, r + 2 * place)] = named[item]
                place += 1
    return tiles, spots


def on_grid(game: Game) -> tuple[dict[Pos, str], dict[str, Pos]]:
    """The pyramid and spots of ``game``, moved onto the rows' grid (its left edge at 0)."""
    scene = table_scene(view(game), samples.NAMES, ENGLISH, viewer=None)
    shown = set(scene.pyramid) | set(scene.spots.values())
    if scene.fall is not None:
        shown |= {scene.fall.at, scene.fall.left, scene.fall.right}
    left = min(x - r for r, x in shown)
    return (
        {(r, x - left): t for (r, x), t in scene.pyramid.items()},
        {k: (r, x - left) for k, (r, x) in scene.spots.items()},
    )


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 40), st.integers(2, 4))
def test_the_rows_read_back_into_the_pyramid_drawn(seed: int, turns: int, players: int) -> None:
    game = _played(seed, turns, players)
    for lang in (ENGLISH, FRENCH):
        said = alttext.table_text(view(game), samples.NAMES, lang=lang)
        assert read_back(said, lang) == on_grid(game), said


def test_a_known_position_reads_back_exactly() -> None:
    game = gap_game()
    tiles, spots = read_back(alttext.table_text(view(game), [], lang=ENGLISH), ENGLISH)
    assert tiles == {(0, 0): "Y30", (0, 2): "R10", (0, 6): "B20", (0, 8): "G40", (1, 7): "B40"}
    assert spots == {"A": (1, 1), "B": (0, 4)}


# --- never over Discord's limit -------------------------------------------------------------------


LONG_NAMES = [f"{i}" + "W" * 31 for i in range(6)]
"""Six names of Discord's longest, 32 characters (wide letters, nothing to shorten them)."""


def worst_game() -> Game:
    """Six players, every option, round 2 of 3, the full pyramid but its top three rows (each
    player holds one of those tiles)."""
    pyramid = {parse_pos(k): t for k, t in samples.FULL_PYRAMID.items()}
    hands = [[pyramid.pop(p)] for p in sorted(p for p in pyramid if p[0] >= 6)]
    game = Game(
        6, curse=True, fire_die=True, rounds=3, pyramid=pyramid, hands=hands, piles=[[]] * 6
    )
    game.round = 2
    game.scores = [101, 202, 303, 404, 505, 606]
    return game


def with_long_last_move(v: View) -> View:
    """The view with a long last move and a full tray, as a big turn leaves them."""
    events = (
        Event("placed", 0, "R6", (6, 6)),
        *(
            Event(
                "collapsed",
                0,
                "R6",
                (6, 6),
                to_pile=(("Y2", (5, 5)), ("G2", (5, 7))),
                detail="overweight",
            ),
        )
        * 6,
    )
    return replace(v, last_events=events, removed=("Y1", "G1", "R7", "B7"))


def test_the_worst_case_stays_within_discords_limit_and_keeps_what_a_player_needs() -> None:
    """Six players with 32-character names, the full pyramid: the tray, the last move, the turn
    line and the long names go first; whose decision it is, the hand, the spots' outcomes and
    every row of the pyramid stay."""
    game = worst_game()
    spots = game.pending.spots if game.pending is not None else ()
    tile = game.hands[0][0]
    previews = [preview(game, Play(tile, at)) for at in spots]
    for lang in (ENGLISH, FRENCH):
        row = lang.gettext("Row {row}: {places}.").split("{row}")[0]
        public = with_long_last_move(view(game))
        mine = with_long_last_move(view(game, 0))
        said = {
            "table": alttext.table_text(
                public, LONG_NAMES, title="Flaming Pyramids · table #12345 · round 2/3", lang=lang
            ),
            "screen": alttext.screen_text(
                mine, LONG_NAMES, title="Flaming Pyramids · table #12345", fitting=[tile], lang=lang
            ),
            "spots": alttext.spots_text(
                mine, LONG_NAMES, tile, previews, title="Choose a spot", lang=lang
            ),
            "turn": alttext.turn_text(public.last_events, public, LONG_NAMES, lang=lang),
            "summary": alttext.summary_text(
                [(public, "Step 40 of 41")] * 14, LONG_NAMES, lang=lang
            ),
        }
        for kind, text in said.items():
            assert 0 < len(text) <= alttext.LIMIT, (kind, len(text))
            if kind != "summary":
                assert sum(line.startswith(row) for line in text.splitlines()) == 7, (kind, text)
        assert LONG_NAMES[0] in said["table"].splitlines()[1]  # whose turn, named in full
        assert lang.gettext("Your hand: {tiles}; {pile}.").split("{tiles}")[0] in said["screen"]
        assert (
            said["spots"]
            .splitlines()[1]
            .startswith(lang.gettext("Where do you play {tile}?").split("{tile}")[0])
        )
        assert alttext.clip("x" * 2000) == "x" * 1023 + "…"


def test_what_goes_first_on_a_big_table() -> None:
    """Over the limit, the tray goes first, then the last move, then the turn line, then the
    names are shortened in the players' list, and only then is that list dropped."""
    public = with_long_last_move(view(worst_game()))
    said = alttext.table_text(public, LONG_NAMES, lang=ENGLISH)
    assert "Out of the game" not in said and "Last move" not in said
    assert "Standard rules" not in said and "Options" not in said
    assert "Players: 0WWWWWWWWWW…: 1 in hand, 0 in pile, score 101; " in said
    short = alttext.table_text(public, ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"], lang=ENGLISH)
    assert "Players: Ann: 1 in hand, 0 in pile, score 101; Bob: " in short
    assert "Options: curse, fire die" in short
