"""Pictures of Flaming Pyramids: a view of the game (from ``engine``) in, PNG or GIF bytes out.

Pure functions of their input: no Discord, no database, no global state but caches of fonts and
tile faces (built once, guarded by a lock), so the bot may call them from worker threads
(``asyncio.to_thread``). The same input always gives the same bytes.

- :func:`render_table`: the pyramid for the channel, after every move.
- :func:`render_hand`: a player's own tiles, for their private message.
- :func:`render_mayhem`: an animated GIF of one turn's chain reaction (ending on the board).
- :func:`render_turn`: the one picture of a turn's message: that GIF, or the board alone.
- :func:`render_turn_screen`: the board with the viewer's own hand below it, for their private
  turn screen (spots lettered as the buttons; a fall drawn with arrows to its landing places).
- :func:`render_spot_screen`: that screen once a tile is chosen, the tile drawn at each spot.
- :func:`spot_labels`: the letters A, B, C... of the spots, as the picture shows them.
- :func:`table_layout` and :class:`render.layout.Layout`: where things are in the picture.
"""

from render.hand import hand_layout, render_hand
from render.layout import Layout, TableLayout
from render.mayhem import TurnPicture, render_mayhem, render_turn
from render.scene import NO_CHIPS, Chips, spot_labels
from render.screen import render_spot_screen, render_turn_screen, turn_screen_layout
from render.table import render_table, table_layout

__all__ = [
    "NO_CHIPS",
    "Chips",
    "Layout",
    "TableLayout",
    "TurnPicture",
    "hand_layout",
    "render_hand",
    "render_mayhem",
    "render_spot_screen",
    "render_table",
    "render_turn",
    "render_turn_screen",
    "spot_labels",
    "table_layout",
    "turn_screen_layout",
]
