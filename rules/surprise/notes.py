"""What a side's own view says of its surprise moves, and the route drawn on its map.

Only the owner's view carries its marches (``view_notes``); the enemy learns of a march only by
what the rules tell it (a trigger, sham results) and by what its troops see. A march is shown by
its label, the side's own numbering (``records.label``), never by a number shared with the enemy.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.grid import Cell
from rules.state import GameState
from rules.surprise import records as rec
from rules.surprise.column import route_path


def view_notes(state: GameState, side: str) -> dict[str, Any]:
    board = state.loaded.board
    out: list[dict[str, Any]] = []
    under_way = False
    for record in rec.side_marches(state, side, rec.OPEN):
        under_way = under_way or record["status"] in rec.ACCEPTED | {rec.RUNNING}
        lead, path = route_path(state, record)
        run = record.get("run") or {}
        if record["status"] == rec.RUNNING and run:
            path = [rec.cell_of(c) for c in run.get("path", [])]
        if lead is not None and lead.cell is not None:
            path = [lead.cell, *path]  # drawn from the head of the column
        cancel = record.get("cancel")
        entry: dict[str, Any] = {
            "id": rec.label(record), "name": record["name"], "status": record["status"],
            "status_words": rec.STATUS_WORDS.get(str(record["status"]), ""),
            "units": [state.units[u].name for u in record["units"] if u in state.units],
            "lead": lead.name if lead else "", "route": record["route"],
            "route_cells": [rec.ref(c) for c in path],
            "route_labels": [board.label(c) for c in path],
            "accumulated_mp": float(record["accumulated_mp"]),
            "turns_accumulated": int(record["attempts"]), "forced": int(record["forced"]),
            "detour": record["detour"], "arrives_turn": int(record["arrives_turn"]),
            "execute_queued": bool(record["execute_queued"]),
            "stragglers": sum(int(n) for n in record["stragglers"].values()),
            "cancel": dict(cancel) if cancel else None,
            "pending_detour": (board.label(rec.cell_of(run["pending"]))
                               if run and run.get("pending") else None),
            "detour_route": [board.label(rec.cell_of(c)) for c in run.get("detour", [])]
            if run else [],
        }
        out.append(entry)
    if not out:
        return {}
    return {"marches": out, "show_blocked": under_way}


def route_overlay(notes: Mapping[str, Any], march: str | None = None
                  ) -> tuple[list[Cell], str]:
    """The route cells and the note to draw for one of the side's marches (the first one under
    way when none is named)."""
    marches = list(notes.get("marches", []))
    if march:
        marches = [m for m in marches if march.lower() in (str(m["id"]).lower(),
                                                            str(m["name"]).lower())]
    for m in marches:
        if m["route_cells"]:
            cells = [Cell(int(c[0]), int(c[1])) for c in m["route_cells"]]
            note = f"{m['name']}: {m['accumulated_mp']:g} MP saved"
            if m["status"] == rec.RUNNING:
                note = f"{m['name']}: marching"
            return cells, note
    return [], ""
