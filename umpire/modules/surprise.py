"""Reading a side's own surprise moves for ``/march status`` and the ``/march`` autocomplete, and
previewing a ``/march order`` before it is sent.

Everything here starts from the asking player's own side: its view's notes
(``rules.view.project``), its own commands and units. Nothing names or counts an enemy march.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace

from rules.forces.lookup import same_name
from rules.forces.units import Unit
from rules.ground.grid import Cell
from rules.knowledge.overlay import Route
from rules.refusal import Refusal
from rules.state import GameState
from rules.surprise import records as rec
from rules.surprise.commands import TEXT_LIMIT, OrderSurpriseMove
from rules.surprise.force import resolve
from rules.surprise.march.detached import Detached, detached
from rules.surprise.notes import MarchNote, SurpriseNote
from rules.surprise.offers import MarchOrder as MarchOrder  # re-exported
from rules.surprise.offers import marchers, open_marches, rallying
from rules.surprise.orders import lead_and_path, require_command_phase
from rules.surprise.records import MarchState
from rules.turn.status import GameStatus
from rules.view import SideView, project
from umpire.reads import pending
from umpire.reads.naming import Named, named_unit
from umpire.reads.pending import PendingMarch, new_id
from umpire.service import Umpire, UmpireError

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
    state = await umpire.repository.state_for(game_id)
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




async def march_names(umpire: Umpire, game_id: str, user_id: int,
                      order: MarchOrder = MarchOrder.STATUS) -> list[str]:
    """The player's own surprise moves under way that ``order`` would take now, for the
    ``march:`` autocomplete (``rules.surprise.offers.open_marches``: the order's own check)."""
    state = await umpire.repository.state_for(game_id)
    player = await umpire.player(game_id, user_id)
    if player is None or "surprise_move" not in state.modules:
        return []
    return open_marches(state, player.side, order)


async def march_forces(umpire: Umpire, game_id: str, user_id: int) -> list[Named]:
    """The player's own commands and units a surprise-move order could name as its force now
    (``rules.surprise.offers.marchers``: the order's own check of a force, ruling ORD-55)."""
    state = await umpire.repository.state_for(game_id)
    player = await umpire.player(game_id, user_id)
    if player is None or "surprise_move" not in state.modules or not state.status.in_play:
        return []
    return [Named(ref, name, (same_name(ref), same_name(name)))
            for ref, name in marchers(state, player.side)]


async def march_rallying(umpire: Umpire, game_id: str, user_id: int, march: str = ""
                         ) -> list[Named]:
    """The player's own shammed units of the march named ``march`` (empty: the one the order
    would take) that ``/march rally`` would take now, for its ``units:`` autocomplete
    (``rules.surprise.offers.rallying``: the order's own check of each unit, ruling ORD-60)."""
    state = await umpire.repository.state_for(game_id)
    player = await umpire.player(game_id, user_id)
    if player is None or "surprise_move" not in state.modules or not state.status.in_play:
        return []
    return [named_unit(state.units[ref]) for ref, _ in rallying(state, player.side, march)]


# -- previewing an order ---------------------------------------------------------------------------
#: Buttons for leaving out warned units, one each, at most this many (then one for them all).
MAX_LEAVE_OUT = 8


@dataclass(frozen=True)
class MarchPlan:
    """A previewed ``/march order``: the order Confirm gives, and what to show."""

    order: PendingMarch
    text: str
    image: bytes | None = None
    #: The warned units: (id, name), for the buttons that leave one out.
    warned: tuple[tuple[str, str], ...] = ()


def _plan_text(state: GameState, units: list[Unit], name: str, lead: Unit, path: list[Cell],
               far: list[Detached], forced: int) -> str:
    board = state.loaded.map.board
    assert lead.cell is not None
    shown = [board.describe(c) for c in path]
    route = " > ".join(shown[:MAX_LABELS]) + (" > ..." if len(shown) > MAX_LABELS else "")
    lines = [f"**Surprise move {name}**: {len(units)} unit(s), led by {lead.name} from "
             f"{board.describe(lead.cell)}.",
             "Force: " + ", ".join(u.name for u in units) + ".",
             f"Route: {len(path)} cell(s): {route}."]
    if forced:
        lines.append(f"Forced march: +{forced} MP a turn (secret straggler checks).")
    for d in far:
        assert d.unit.cell is not None
        lines.append(f"Warning: **{d.unit.name}** is {d.hexes} hexes away at "
                     f"{board.describe(d.unit.cell)}"
                     + (", out of command" if d.out_of_command else "")
                     + ": include it? (Leave it out with its button.)")
    lines.append("Confirm to send exactly this order; nothing is sent until you do.")
    return "\n".join(lines)


async def plan_march(umpire: Umpire, game_id: str, user_id: int, command: OrderSurpriseMove, *,
                     turn_step: tuple[int, int] | None = None) -> MarchPlan | None:
    """The preview of a surprise-move order (ruling ORD-20): the force as the rules read it, its
    route from its lead element, a warning for each unit standing apart from it (ruling ORD-21),
    and the order that Confirm gives (the force by unit id). ``None`` when it is not the side's
    Command Phase (then the order is given directly and the umpire answers). Raises
    ``UmpireError`` with the rules' own words for a force or route they refuse. Everything shown
    comes from the side's own units, the public map and the side's view (the picture)."""
    state = await umpire.repository.state_for(game_id)
    side = await umpire.side_of(game_id, user_id)
    if "surprise_move" not in state.modules or state.status != GameStatus.ACTIVE:
        return None
    try:
        require_command_phase(state, side)
    except Refusal:
        return None
    if turn_step is not None and turn_step != (state.turn, state.step):
        return None
    try:
        units, rules_name = resolve(state, side, command.force)
        lead, path = lead_and_path(state, side, units, command.route)
    except Refusal as e:
        raise UmpireError(str(e)) from None
    name = command.name.strip() or rules_name
    far = detached(state, units)
    order = PendingMarch(new_id(), game_id, user_id, tuple(u.id for u in units),
                         tuple(d.unit.id for d in far), name[:60], command.route.strip(),
                         command.forced, command.detour, command.by_initiative,
                         turn=state.turn, step=state.step)
    if len(order.force) > TEXT_LIMIT:
        raise UmpireError("that force is too large for one order: split it into two marches")
    text = _plan_text(state, units, name, lead, path, far, command.forced)
    image = None
    gm = state.loaded.map
    cells = [c for c in (*(u.cell for u in units), *path) if c is not None]
    assert lead.cell is not None
    middle = cells[len(cells) // 2] if not path else path[len(path) // 2]
    radius = max(4, max(gm.grid.distance(middle, c) for c in cells) + 2)
    try:
        planned = Route((lead.cell, *path), f"{name}: planned march")
        image = await umpire.maps.side_map(state, side, around=gm.board.label(middle),
                                           radius=min(radius, 30), routes=(planned,))
    except ValueError:
        image = None
    return MarchPlan(order, text, image, tuple((d.unit.id, d.unit.name) for d in far))


async def plan_without(umpire: Umpire, march: PendingMarch, left_out: tuple[str, ...]
                       ) -> MarchPlan | None:
    """The preview again, with ``left_out`` units taken out of the force (same phase only)."""
    kept = [u for u in march.units if u not in left_out]
    if not kept:
        raise UmpireError("that would leave no unit in the force: use Cancel instead")
    command = OrderSurpriseMove(force=", ".join(kept), route=march.route, forced=march.forced,
                                detour=march.detour, by_initiative=march.by_initiative,
                                name=march.name)
    return await plan_march(umpire, march.game_id, march.user_id, command,
                            turn_step=(march.turn, march.step))


async def save_plan(umpire: Umpire, plan: MarchPlan) -> PendingMarch:
    """Keep the previewed order for its Confirm."""
    return await pending.save_march(umpire.store, plan.order)
