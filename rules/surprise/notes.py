"""What a side's own view says of its surprise moves, and the routes and blocked cells drawn on
its map.

Only the owner's view carries its marches (``view_notes``, a ``SurpriseNote``); the enemy learns
of a march only by what the rules tell it (a trigger, sham results) and by what its troops see.
A march is shown by its label, the side's own numbering (``records.label``), never by a number
shared with the enemy. The map's overlay (``overlay``) is worked out from that note, the enemy
counters in the side's view and the public ground: the routes of the side's marches, and, while
one of them is accepted or marching, the cells it can tell are blocked.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.ground.grid import Cell
from rules.knowledge.blocked import blocked_as_known
from rules.knowledge.levels import UnitView
from rules.knowledge.notes import ModuleNote
from rules.knowledge.overlay import Ground, Overlay, Route
from rules.state import GameState
from rules.surprise import records as rec
from rules.surprise.march.column import route_path
from rules.surprise.records import MarchState


@dataclass(frozen=True)
class CancelNote:
    """New orders on their way to a march's force: how they would end it, and when they arrive."""

    mode: str
    arrives_turn: int


@dataclass(frozen=True)
class MarchNote:
    """One of the side's own marches, as its owner knows it."""

    #: The side's own label for it (``m1``...).
    id: str
    name: str
    status: MarchState
    status_words: str
    #: The names of the units in the force.
    units: tuple[str, ...]
    lead: str
    route: str
    #: The cells the route goes through, from the head of the column, and their labels.
    route_cells: tuple[Cell, ...]
    route_labels: tuple[str, ...]
    accumulated_mp: float
    turns_accumulated: int
    forced: int
    detour: str
    arrives_turn: int
    execute_queued: bool
    stragglers: int
    cancel: CancelNote | None
    #: The cell (label) the head of the column waits before, for its owner's detour choice.
    pending_detour: str | None
    detour_route: tuple[str, ...]

    @property
    def route_note(self) -> str:
        """The words drawn at the end of the march's route on its owner's map."""
        if self.status is MarchState.RUNNING:
            return f"{self.name}: marching"
        return f"{self.name}: {self.accumulated_mp:g} MP saved"

    def called(self, wanted: str) -> bool:
        """Whether the owner names this march by ``wanted`` (its label or name, any case)."""
        key = wanted.strip().lower()
        return key in (self.id.lower(), self.name.lower())


@dataclass(frozen=True)
class SurpriseNote(ModuleNote):
    """The side's own open surprise moves, oldest first."""

    marches: tuple[MarchNote, ...]

    @property
    def show_blocked(self) -> bool:
        """Whether the side's map shows blocked cells: while one of its marches is accepted or
        marching."""
        return any(m.status in rec.ACCEPTED | {MarchState.RUNNING} for m in self.marches)

    def find(self, wanted: str | None) -> tuple[MarchNote, ...]:
        """The marches the owner names by ``wanted`` (every one for ``None``)."""
        if wanted is None:
            return self.marches
        return tuple(m for m in self.marches if m.called(wanted))


def view_notes(state: GameState, side: str) -> SurpriseNote | None:
    board = state.loaded.board
    out: list[MarchNote] = []
    for record in rec.side_marches(state, side):
        status = MarchState(record["status"])
        # A march carried out still has its owner's attention while new orders for its force
        # are on their way (ruling SM-14): it is listed, with no route left to draw.
        if status not in rec.OPEN and not record.get("cancel"):
            continue
        lead, path = route_path(state, record) if status in rec.OPEN else (None, [])
        run = record.get("run") or {}
        if status is MarchState.RUNNING and run:
            path = [rec.cell_of(c) for c in run.get("path", [])]
        if lead is not None and lead.cell is not None:
            path = [lead.cell, *path]  # drawn from the head of the column
        cancel = record.get("cancel")
        out.append(MarchNote(
            id=rec.label(record), name=str(record["name"]), status=status,
            status_words=rec.STATUS_WORDS.get(status, ""),
            units=tuple(state.units[u].name for u in record["units"] if u in state.units),
            lead=lead.name if lead else "", route=str(record["route"]),
            route_cells=tuple(path), route_labels=tuple(board.label(c) for c in path),
            accumulated_mp=float(record["accumulated_mp"]),
            turns_accumulated=int(record["attempts"]), forced=int(record["forced"]),
            detour=str(record["detour"]), arrives_turn=int(record["arrives_turn"]),
            execute_queued=bool(record["execute_queued"]),
            stragglers=sum(int(n) for n in record["stragglers"].values()),
            cancel=CancelNote(str(cancel["mode"]), int(cancel["arrives_turn"]))
            if cancel else None,
            pending_detour=(board.label(rec.cell_of(run["pending"]))
                            if run and run.get("pending") else None),
            detour_route=tuple(board.label(rec.cell_of(c)) for c in run.get("detour", []))
            if run else (),
        ))
    return SurpriseNote(tuple(out)) if out else None


def overlay(note: SurpriseNote | None, enemies: tuple[UnitView, ...], ground: Ground) -> Overlay:
    """The side's march routes (each drawn from the head of its column, with its note), and the
    cells it can tell are blocked while a march is accepted or marching."""
    if note is None:
        return Overlay()
    routes = tuple(Route(m.route_cells, m.route_note, m.id) for m in note.marches if m.route_cells)
    blocked = blocked_as_known(ground, enemies) if note.show_blocked else frozenset()
    return Overlay(routes, blocked)
