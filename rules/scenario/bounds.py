"""The largest sizes a scenario or ruleset may ask for.

Generous for any board game (the largest historical maps have a few thousand hexes) yet small
enough that a mistyped or hostile file is refused with a problem instead of filling the memory or
the processor: a board is built cell by cell, sighting looks as far as the visibility, and the
blocked-hex overlay spreads as far as its radius."""

from __future__ import annotations

#: Sheet positions (``map.sheets[].at``) count from 0 up to this, across and down.
MAX_SHEET_POSITION = 15
#: Cells across or down the whole board (sheets times their width or height).
MAX_BOARD_SIDE = 300
#: Cells on the whole board.
MAX_CELLS = 40_000
#: A sheet's width or height in cells.
MAX_SHEET_SIDE = 200
#: A unit's strength (strength points or man-points, as the ruleset counts them).
MAX_STRENGTH = 1_000
#: Visibility in cells, for a turn or the ruleset's default.
MAX_VISIBILITY = 100
#: Movement points a turn (a unit's own, or a class's allowance), and a command range in cells.
MAX_MOVEMENT = 100
#: The blocked-hex radius around an enemy combat unit (Surprise Move).
MAX_BLOCKED_RADIUS = 10
#: Characters in the label format, and the widest field it may pad to.
MAX_LABEL_FORMAT = 40
MAX_LABEL_WIDTH = 8

#: Characters of a name or a title (at most this many).
MAX_NAME = 100
