"""The board: a grid cut into lettered sheets, with the labels printed on the map and the named
places a player may type instead of a label.

A label such as ``A3315`` is sheet ``A``, column 33, row 15 of that sheet, counted from 1 as
printed. On a one-sheet board the sheet letter may be left out. A place name may be typed in any
case, or shortened to a prefix that only one place starts with.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from rules.ground.grid import Cell, HexGrid, SquareGrid


class LabelError(ValueError):
    """A typed location that names no cell or place; the message suggests the nearest ones."""


@dataclass(frozen=True, slots=True)
class Sheet:
    letter: str
    sheet_col: int
    sheet_row: int


@dataclass(frozen=True, slots=True)
class Place:
    name: str
    cell: Cell
    kind: str = "place"


@dataclass
class Board:
    """Grid, sheets and names. ``sheet_width`` x ``sheet_height`` cells a sheet."""

    grid: HexGrid | SquareGrid
    sheets: tuple[Sheet, ...]
    sheet_width: int
    sheet_height: int
    label_format: str = "{sheet}{col:02}{row:02}"
    places: tuple[Place, ...] = ()
    _labels: tuple[str, ...] = field(init=False, repr=False)
    _by_label: Mapping[str, Cell] = field(init=False, repr=False)
    _by_place: dict[str, Place] = field(init=False, repr=False)
    _names: Mapping[str, str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._labels, self._by_label = _sheet_labels(
            self.grid.width, self.grid.height, self.sheets, self.sheet_width, self.sheet_height,
            self.label_format)
        self._by_place = {_key(p.name): p for p in self.places}
        self._names: Mapping[str, str] = {
            **{_key(lbl): lbl for lbl in self._labels if lbl},
            **{k: p.name for k, p in self._by_place.items()},
        }

    def __reduce__(self) -> tuple[type[Board], tuple[object, ...]]:
        # What defines the board; its label tables are built again where it is unpickled.
        return Board, (self.grid, self.sheets, self.sheet_width, self.sheet_height,
                       self.label_format, self.places)

    @classmethod
    def build(
        cls,
        grid: HexGrid | SquareGrid,
        sheets: Iterable[tuple[str, int, int]],
        sheet_width: int,
        sheet_height: int,
        label_format: str = "{sheet}{col:02}{row:02}",
    ) -> Board:
        return cls(
            grid,
            tuple(Sheet(letter, c, r) for letter, c, r in sheets),
            sheet_width,
            sheet_height,
            label_format,
        )

    def with_places(self, places: Iterable[Place]) -> Board:
        return Board(
            self.grid, self.sheets, self.sheet_width, self.sheet_height, self.label_format,
            tuple(places),
        )

    # -- labels ------------------------------------------------------------------------------
    def on_a_sheet(self, cell: Cell) -> bool:
        """True when the cell is on the board and lies on one of its sheets."""
        return self.grid.contains(cell) and bool(self._labels[self.grid.index(cell)])

    def label(self, cell: Cell) -> str:
        """The label printed on the map for a cell."""
        return self._labels[self.grid.index(cell)]

    def place_at(self, cell: Cell) -> Place | None:
        for p in self.places:
            if p.cell == cell:
                return p
        return None

    def describe(self, cell: Cell) -> str:
        """A cell as players speak of it: its label, with the place there if it has one."""
        place = self.place_at(cell)
        return f"{self.label(cell)} ({place.name})" if place else self.label(cell)

    def parse(self, text: str) -> Cell:
        """Read a typed location: a label, or a named place (any case, or a unique prefix)."""
        cell = self.find(text)
        if cell is not None:
            return cell
        key = _key(text)
        if not key:
            raise LabelError("no location given: type a map label such as "
                             f"{self._example()} or a place name")
        starts = [p for k, p in self._by_place.items() if k.startswith(key)]
        if len(starts) > 1:
            names = ", ".join(sorted(p.name for p in starts))
            raise LabelError(f"{text.strip()!r} could be any of: {names}")
        raise LabelError(self._unknown(text))

    def find(self, text: str) -> Cell | None:
        """The cell a typed location names, or ``None`` (no error is worded: this is the cheap
        test that route reading makes for every run of words)."""
        key = _key(text)
        if key in self._by_label:
            return self._by_label[key]
        if key in self._by_place:
            return self._by_place[key].cell
        starts = [p for k, p in self._by_place.items() if k.startswith(key)] if key else []
        return starts[0].cell if len(starts) == 1 else None

    def suggestions(self, text: str, limit: int = 3) -> list[str]:
        """Labels and place names closest to what was typed: for something shaped like a label,
        the nearest cell on that sheet first; then the most alike by spelling."""
        key = _key(text)
        out: list[str] = []
        shaped = _LABEL_SHAPE.match(key)
        if shaped:
            out += self._clamped(*shaped.groups())
        names = self._names
        close = difflib.get_close_matches(key, list(names), n=limit, cutoff=0.5)
        out += [names[c] for c in close if names[c] not in out]
        return out[:limit]

    def _clamped(self, letter: str, col: str, row: str) -> list[str]:
        """The label of the cell nearest to an out-of-range column and row on a sheet."""
        sheets = [s for s in self.sheets if s.letter.lower() == letter] or (
            list(self.sheets) if not letter and len(self.sheets) == 1 else [])
        if not sheets:
            return []
        sheet = sheets[0]
        c = min(max(int(col), 1), self.sheet_width) - 1 + sheet.sheet_col * self.sheet_width
        r = min(max(int(row), 1), self.sheet_height) - 1 + sheet.sheet_row * self.sheet_height
        return [self.label(Cell(c, r))]

    def _unknown(self, text: str) -> str:
        shown = text.strip()[:40]
        near = self.suggestions(text)
        hint = f"; nearest: {', '.join(near)}" if near else ""
        return (f"{shown!r} is not a label on this map or a named place "
                f"(labels look like {self._example()}){hint}")

    def _example(self) -> str:
        cell = Cell(min(4, self.grid.width - 1), min(6, self.grid.height - 1))
        return self._labels[self.grid.index(cell)] or "A0101"


_SPACES = re.compile(r"[\s_]+")
_LABEL_SHAPE = re.compile(r"^([a-z]{0,2})(\d{2})(\d{2})$")


@functools.lru_cache(maxsize=8)
def _sheet_labels(width: int, height: int, sheets: tuple[Sheet, ...], sheet_width: int,
                  sheet_height: int, label_format: str
                  ) -> tuple[tuple[str, ...], Mapping[str, Cell]]:
    """Each cell's printed label (empty off the sheets), and the cell of each label as typed.
    Worked out once for the last few layouts of sheets: every load of a scenario asks for the
    same ones, and a large board has thousands of labels."""
    labels = [""] * (width * height)
    by_label: dict[str, Cell] = {}
    sheet_at = {(s.sheet_col, s.sheet_row): s for s in sheets}
    single = len(sheets) == 1
    for row in range(height):
        for col in range(width):
            sheet = sheet_at.get((col // sheet_width, row // sheet_height))
            if sheet is None:
                continue
            on_sheet_col, on_sheet_row = col % sheet_width + 1, row % sheet_height + 1
            text = label_format.format(sheet=sheet.letter, col=on_sheet_col, row=on_sheet_row)
            cell = Cell(col, row)
            labels[row * width + col] = text
            by_label[_key(text)] = cell
            if single:
                bare = label_format.format(sheet="", col=on_sheet_col, row=on_sheet_row)
                by_label.setdefault(_key(bare), cell)
    return tuple(labels), MappingProxyType(by_label)


def _key(text: str) -> str:
    """Normalise typed text for lookup: case and runs of spaces do not matter."""
    return _SPACES.sub(" ", text.strip().lower())
