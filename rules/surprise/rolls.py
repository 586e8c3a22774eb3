"""Reading the ruleset's tables the way the Surprise Move module rolls on them.

* The MP Accumulation Table's column is the number of the turn being attempted (``1``, ``2``,
  ``3``, ``4+``): the last column whose number is not above it.
* The initiative table's column is a band of the leader's rating (``0-3``, ``4-5``, ...).
* A bonus (the cavalry's +1) or a penalty (night) on the initiative roll is turned towards or
  against success, whichever end of the table succeeds (ruling SM-5).
"""

from __future__ import annotations

import re

from rules.scenario.tables import Table, parse_roll_range

_NUMBER = re.compile(r"^\s*(\d+)\s*\+?\s*$")


def turn_column(table: Table, attempt: int) -> str:
    """The column for the ``attempt``-th turn of accumulation (1 for the first)."""
    best = table.columns[0]
    best_n = -1
    for col in table.columns:
        m = _NUMBER.match(col)
        if m and best_n < int(m.group(1)) <= attempt:
            best, best_n = col, int(m.group(1))
    return best


def band_column(table: Table, value: int) -> str:
    """The column whose band (``4-5``, ``10-12``, ``6+``, ``7``) holds ``value``; values past
    either end read the end column."""
    low, high = -10**6, 10**6
    for col in table.columns:
        try:
            first, last = parse_roll_range(col, low, high)
        except ValueError:
            continue
        if first <= value <= last:
            return col
    firsts = []
    for col in table.columns:
        try:
            firsts.append((parse_roll_range(col, low, high)[0], col))
        except ValueError:
            continue
    if not firsts:
        return table.columns[0]
    firsts.sort()
    return firsts[0][1] if value < firsts[0][0] else firsts[-1][1]


def success_is_low(table: Table, column: str, success: str) -> bool:
    """Whether low rolls read ``success`` in that column (as on the stand-in initiative table,
    where the leader must roll his rating or less)."""
    low, high = table.bounds
    return table.lookup(low, column) == success and table.lookup(high, column) != success


def toward_success(table: Table, column: str, success: str, bonus: int) -> int:
    """The roll modifier that gives ``bonus`` (positive helps, negative hurts) on this table."""
    return -bonus if success_is_low(table, column, success) else bonus
