"""``python -m render demo OUTDIR``: a sample of every picture, to look at.

Writes an empty table, a game in progress with its spots, a fall choice, a full pyramid, a hand,
the animation of the French rules' detailed example (Jenny's yellow coal collapses twice, falls
right twice, and explodes against the red blowtorch), the turn screens of a play and of a fall
(board and the player's own hand), and the end of a match whose last round's winner is not the
match's.
"""

from __future__ import annotations

from pathlib import Path

from engine import view
from render import samples
from render.hand import render_hand
from render.mayhem import render_mayhem
from render.screen import render_turn_screen
from render.table import render_table


def write(outdir: Path) -> list[Path]:
    """Write the samples into ``outdir`` (made if needed); returns the files written."""
    outdir.mkdir(parents=True, exist_ok=True)
    names = samples.NAMES
    mid = samples.mid_game()
    before, events, after = samples.jenny_turn()
    pictures: dict[str, bytes | None] = {
        "1-empty-table.png": render_table(samples.empty_table(), names, title="Table #1"),
        "2-mid-game.png": render_table(view(mid), names, title="Table #2"),
        "3-fall-choice.png": render_table(view(samples.jenny_fall()), names, title="Table #3"),
        "4-full-pyramid.png": render_table(view(samples.full_pyramid()), names, title="Table #4"),
        "5-hand.png": render_hand(view(samples.jenny(), 0), names[0]),
        "6-jenny-mayhem.gif": render_mayhem(
            before, events, names, after=view(after), title="Table #3"
        ),
        "7-after-mayhem.png": render_table(view(after), names, title="Table #3"),
        "8-turn-screen.png": render_turn_screen(view(mid, 1), names, title="Table #2"),
        "9-fall-screen.png": render_turn_screen(
            view(samples.jenny_fall(), 0), names, title="Table #3"
        ),
        "9b-match-over.png": render_table(view(samples.match_over()), names, title="Table #5"),
    }
    written = []
    for name, data in pictures.items():
        if data is None:
            continue
        path = outdir / name
        path.write_bytes(data)
        written.append(path)
    return written
