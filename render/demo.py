"""``python -m render demo OUTDIR [--lang fr]``: a sample of every picture, to look at, in
English or in any language with a catalog (``i18n/locales``).

Writes an empty table, a game in progress with its spots, a fall choice, a full pyramid, a hand,
the animation of the French rules' detailed example (Jenny's yellow coal collapses twice, falls
right twice, and explodes against the red blowtorch), the turn screens of a play and of a fall
(board and the player's own hand), and the end of a match whose last round's winner is not the
match's.
"""

from __future__ import annotations

from pathlib import Path

from engine import view
from i18n import Language
from render import samples
from render.hand import render_hand
from render.mayhem import render_mayhem
from render.screen import render_turn_screen
from render.table import render_table


def write(outdir: Path, lang: Language) -> list[Path]:
    """Write the samples into ``outdir`` (made if needed), every word in ``lang``; returns the
    files written."""
    outdir.mkdir(parents=True, exist_ok=True)
    names = samples.NAMES
    mid = samples.mid_game()
    before, events, after = samples.jenny_turn()

    def title(number: int) -> str:
        return lang.gettext("Table #{number}").format(number=number)

    pictures: dict[str, bytes | None] = {
        "1-empty-table.png": render_table(samples.empty_table(), names, title=title(1), lang=lang),
        "2-mid-game.png": render_table(view(mid), names, title=title(2), lang=lang),
        "3-fall-choice.png": render_table(
            view(samples.jenny_fall()), names, title=title(3), lang=lang
        ),
        "4-full-pyramid.png": render_table(
            view(samples.full_pyramid()), names, title=title(4), lang=lang
        ),
        "5-hand.png": render_hand(view(samples.jenny(), 0), names[0], lang=lang),
        "6-jenny-mayhem.gif": render_mayhem(
            before, events, names, after=view(after), title=title(3), lang=lang
        ),
        "7-after-mayhem.png": render_table(view(after), names, title=title(3), lang=lang),
        "8-turn-screen.png": render_turn_screen(view(mid, 1), names, title=title(2), lang=lang),
        "9-fall-screen.png": render_turn_screen(
            view(samples.jenny_fall(), 0), names, title=title(3), lang=lang
        ),
        "9b-match-over.png": render_table(
            view(samples.match_over()), names, title=title(5), lang=lang
        ),
    }
    written = []
    for name, data in pictures.items():
        if data is None:
            continue
        path = outdir / name
        path.write_bytes(data)
        written.append(path)
    return written
