"""Reading a side's own surprise moves for ``/march status`` and the ``/march`` autocomplete.

Everything here starts from the asking player's own side: its view's notes
(``rules.view.project``), its own commands and units. Nothing names or counts an enemy march.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace

from rules.state import GameState
from rules.surprise import records as rec
from rules.surprise.notes import MarchNote, SurpriseNote
from rules.surprise.records import MarchState
from rules.view import SideView, project
from umpire.service import Umpire

MAX_LABELS = 40


@dataclass(frozen=True)
class PendingDetour:
    """A march of the side waiting for its owner's detour choice."""

    march: str
    name: str
    cell: str
    detour: tuple[str, ...]


@dataclass(frozen=True)
class MarchStatus:
    text: str
    image: bytes | None = None
    pending: tuple[PendingDetour, ...] = ()


def _own_view(state: GameState, side: str) -> tuple[SideView, SurpriseNote | None]:
    view = project(state, side)
    note = view.notes.get(rec.MODULE)
    return view, note if isinstance(note, SurpriseNote) else None


def describe(m: MarchNote) -> str:
    """One march, in words, for its owner."""
    lines = [f"**{m.name}** ({m.id}): {m.status_words}."]
    lines.append("Force: " + ", ".join(m.units) + ".")
    labels = list(m.route_labels)
    shown = " > ".join(labels[:MAX_LABELS]) + (" > ..." if len(labels) > MAX_LABELS else "")
    lines.append(f"Route: {m.route}" + (f" ({shown})" if shown else "") + ".")
    if m.status is MarchState.SENT:
        lines.append(f"The order reaches the force in turn {m.arrives_turn}, then is rolled "
                     "for at the end of each Command Phase.")
    else:
        lines.append(f"Saved: {m.accumulated_mp:g} MP over {m.turns_accumulated} turn(s)"
                     + (f"; forced march +{m.forced} MP a turn" if m.forced else "")
                     + (f"; {m.stragglers} straggler(s) waiting on the roster"
                        if m.stragglers else "") + ".")
    if m.execute_queued:
        lines.append("Set to go at the start of your next movement phase.")
    if m.cancel:
        lines.append(f"New orders ({m.cancel.mode}) on their way: they arrive in turn "
                     f"{m.cancel.arrives_turn}.")
    lines.append(f"Before a blocked hex: {m.detour}.")
    if m.pending_detour:
        lines.append(f"**Waiting for you**: the head of the column is about to enter "
                     f"{m.pending_detour}; a detour by {', '.join(m.detour_route)} can "
                     "be tried. Use the buttons below.")
    return "\n".join(lines)


async def march_status(umpire: Umpire, game_id: str, user_id: int, march: str | None = None
                       ) -> MarchStatus:
    """The side's own surprise moves, with its map showing the route of one of them."""
    state = await umpire.state_for(game_id)
    side = await umpire.side_of(game_id, user_id)
    view, note = await asyncio.to_thread(_own_view, state, side)
    marches = list(note.find(march)) if note else []
    if not marches:
        return MarchStatus("You have no surprise move under way." if not march else
                           f"You have no surprise move under way called {march.strip()[:60]!r}.")
    text = "\n\n".join(describe(m) for m in marches)
    pending = tuple(PendingDetour(m.id, m.name, m.pending_detour, m.detour_route)
                    for m in marches if m.pending_detour)
    first = marches[0]
    image = None
    route = first.route_cells
    if route:
        # The map round the first march named, with that march's route only.
        gm = view.game_map
        middle = route[len(route) // 2]
        radius = max(4, max(gm.grid.distance(middle, c) for c in route) + 2)
        shown = replace(view, routes=tuple(r for r in view.routes if r.key == first.id))
        try:
            image = await umpire.maps.view_map(shown, around=gm.board.label(middle),
                                               radius=min(radius, 30))
        except ValueError:
            image = None
    return MarchStatus(text, image, pending)


async def force_names(umpire: Umpire, game_id: str, user_id: int) -> list[str]:
    """The player's own commands and units, for the ``force:`` autocomplete."""
    state = await umpire.state_for(game_id)
    player = await umpire.player(game_id, user_id)
    if player is None:
        return []
    commands = sorted(c.name for c in state.commands.values() if c.side == player.side)
    units = sorted(u.name for u in state.units_of(player.side) if u.cell is not None)
    return commands + units


async def march_names(umpire: Umpire, game_id: str, user_id: int) -> list[str]:
    """The player's own surprise moves under way, for the ``march:`` autocomplete."""
    state = await umpire.state_for(game_id)
    player = await umpire.player(game_id, user_id)
    if player is None or "surprise_move" not in state.modules:
        return []
    return [str(m["name"]) for m in rec.side_marches(state, player.side, rec.OPEN)]
