"""Which column of a combat table a strength, an odds ratio or a differential reads, and column
shifts clamped at the table's edges."""

from __future__ import annotations

from fractions import Fraction

from rules.scenario.tables import Table, parse_roll_range

BIG = 10**9


def strength_column(table: Table, value: int) -> int:
    """The column whose range (``"5-7"``, ``"23+"``, ``"4"``) holds ``value``; below the first
    column reads the first, above the last reads the last."""
    best = 0
    for n, label in enumerate(table.columns):
        low, high = parse_roll_range(label, 0, BIG)
        if low <= value <= high:
            return n
        if value > high:
            best = n
    return best


def ratio(label: str) -> Fraction:
    """An odds column's ratio: ``"3-2"`` is 3/2."""
    a, sep, b = label.strip().partition("-")
    if not sep:
        a, sep, b = label.strip().partition(":")
    return Fraction(int(a), int(b))


def odds_column(table: Table, attack: int, defence: int) -> int:
    """The highest odds column not above attack:defence (odds are rounded down, in the
    defender's favour); below the lowest reads the lowest."""
    if defence <= 0:
        return len(table.columns) - 1
    actual = Fraction(attack, defence)
    best = 0
    for n, label in enumerate(table.columns):
        if ratio(label) <= actual:
            best = n
    return best


def differential_column(table: Table, attack: int, defence: int) -> int:
    """The highest differential column (``"-3"``, ``"0"``, ``"+4"``, ``"6+"``) not above
    attack minus defence; below the lowest reads the lowest."""
    diff = attack - defence
    best = 0
    for n, label in enumerate(table.columns):
        if int(label.strip().rstrip("+")) <= diff:
            best = n
    return best


def base_column(table: Table, attack: int, defence: int) -> int:
    if table.kind == "differential":
        return differential_column(table, attack, defence)
    return odds_column(table, attack, defence)


def shifted(table: Table, index: int, shift: int) -> int:
    """A column index moved ``shift`` columns (right is better for the attacker), kept on the
    table."""
    return max(0, min(len(table.columns) - 1, index + shift))
