"""Orders waiting for the player's confirmation, kept in the database so that their Confirm and
Cancel buttons work after a restart (the bot reaches them through the umpire's front:
``save_pending_move``, ``pending_move``, ``settle_pending_move`` and their march siblings). A
button's custom id carries the game id and the pending order's id; the order itself is stored
under that id (``storage.pending_orders``), with the turn and step it was previewed in.

A pending order lives as long as its phase (ruling ORD-22): once the step it was previewed in is
over, it is expired, and a click on its buttons changes nothing. The front end is told which
orders expired (``expire_past``) so that it can edit their previews to say so.

A confirmed order is committed through the umpire with a request id derived from the pending
order (``request_id``) *before* the pending order is settled: a crash between the two leaves it
open, and the next click sends it again, which the umpire applies if it was never committed and
answers "already accepted" if it was. An order is therefore never lost to a crash, and never
applied twice."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.forces.markers import Marker
from rules.forces.units import Unit
from rules.ground.board import Board
from rules.state import GameState
from rules.surprise.commands import DetourPolicy, OrderSurpriseMove
from rules.turn.status import GameStatus
from storage.clock import utc_now
from storage.pending_orders import PendingRow
from storage.store import Store

OPEN = "open"
CONFIRMED = "confirmed"
CANCELLED = "cancelled"
#: The umpire refused the confirmed order (the situation changed since the preview).
REFUSED = "refused"
#: Its phase ended before it was confirmed (ruling ORD-22).
EXPIRED = "expired"

MOVE = "move"
MARCH = "march"


@dataclass(frozen=True)
class PendingMove:
    """A previewed ``/move``."""

    id: str
    game_id: str
    user_id: int
    unit: str
    route: str
    status: str = OPEN
    turn: int = 0
    step: int = 0
    #: Where its preview was shown (the front end's own record).
    shown: dict[str, Any] = field(default_factory=dict, compare=False)
    #: The unit as the preview found it (``standing``): Confirm gives the order only while the
    #: unit still stands so, because the preview's steps were worked out from there.
    previewed: str = ""


def standing(unit: Unit, board: Board) -> str:
    """Where and how a unit stands, in the words a preview depends on: its cell, the MPs it
    has left and its formation."""
    cell = board.label(unit.cell) if unit.cell is not None else "off the map"
    return f"{unit.id} at {cell}, {unit.mp_left:g} MP, {unit.formation}"


def marker_standing(marker: Marker, board: Board) -> str:
    """Where one of the side's markers stands, in the words its preview depends on: its id,
    its cell and the phase it last moved in."""
    moved = "" if marker.moved_phase is None else f", moved in {marker.moved_phase}"
    return f"marker {marker.id} at {board.label(marker.cell)}{moved}"


@dataclass(frozen=True)
class PendingMarch:
    """A previewed ``/march order``: exactly the order Confirm gives (``order``)."""

    id: str
    game_id: str
    user_id: int
    #: The force's units as previewed (ids, in the scenario's order).
    units: tuple[str, ...]
    #: The units the preview warned of (ruling ORD-21), still in the force.
    warned: tuple[str, ...]
    #: The march's name as previewed (the player's, or the one the rules gave the force).
    name: str
    route: str
    forced: int = 0
    detour: DetourPolicy = "ask"
    by_initiative: bool = False
    status: str = OPEN
    turn: int = 0
    step: int = 0
    shown: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def force(self) -> str:
        """The force as the order names it: its units' ids (no id holds a comma)."""
        return ",".join(self.units)

    def order(self) -> OrderSurpriseMove:
        """The order this preview gives: its units by id, so that the force confirmed is the
        force previewed, whatever the names or commands it was written with."""
        return OrderSurpriseMove(force=self.force, route=self.route,
                                 forced=self.forced, detour=self.detour,
                                 by_initiative=self.by_initiative, name=self.name)


Pending = PendingMove | PendingMarch


def _key(pending_id: str) -> str:
    return f"pending-move:{pending_id}"


def request_id(move: Pending) -> str:
    """The umpire request id of the order this pending order becomes when confirmed: the same
    for every click, so that it is committed once whatever crashes and clicks came between."""
    if isinstance(move, PendingMarch):
        return f"pending-march:{move.id}"
    return _key(move.id)


def new_id() -> str:
    """A fresh pending order id: 12 hex digits, too many to guess."""
    return secrets.token_hex(6)


def in_its_phase(state: GameState, turn: int, step: int) -> bool:
    """Whether the game is still in the step a pending order was previewed in (a pause does not
    end a phase; the end of the game does)."""
    return (state.status in (GameStatus.ACTIVE, GameStatus.PAUSED)
            and state.turn == turn and state.step == step)


def expired_words(state: GameState, turn: int, step: int) -> str:
    """What an expired preview says, and what a click on it answers. Only the turn sequence
    (public) is named."""
    title = state.steps[step].title if 0 <= step < len(state.steps) else "phase"
    when = f"the {title} of turn {turn}" if turn >= 1 else "an earlier phase"
    return (f"This preview has expired: it was for {when}, which is over. Nothing was "
            "ordered; give the order again if you still want it.")


# -- storing -------------------------------------------------------------------------------------
def _row_of(p: Pending, created: Any = None) -> PendingRow:
    body: dict[str, Any]
    if isinstance(p, PendingMove):
        kind, body = MOVE, {"unit": p.unit, "route": p.route, "previewed": p.previewed}
    else:
        kind, body = MARCH, {"units": list(p.units), "warned": list(p.warned), "name": p.name,
                             "route": p.route, "forced": p.forced, "detour": p.detour,
                             "by_initiative": p.by_initiative}
    return PendingRow(p.id, p.game_id, p.user_id, kind, body, p.turn, p.step, p.status,
                      dict(p.shown), created or utc_now())


def _of_row(row: PendingRow) -> Pending:
    b = row.body
    if row.kind == MARCH:
        detour = str(b.get("detour", "ask"))
        return PendingMarch(row.id, row.game_id, row.user_id,
                            tuple(str(u) for u in b.get("units", ())),
                            tuple(str(u) for u in b.get("warned", ())), str(b.get("name", "")),
                            str(b.get("route", "")), int(b.get("forced", 0)),
                            _policy(detour),
                            bool(b.get("by_initiative", False)), row.status, row.turn,
                            row.step, row.shown)
    return PendingMove(row.id, row.game_id, row.user_id, str(b.get("unit", "")),
                       str(b.get("route", "")), row.status, row.turn, row.step, row.shown,
                       str(b.get("previewed", "")))


def _policy(text: str) -> DetourPolicy:
    if text == "always":
        return "always"
    if text == "never":
        return "never"
    return "ask"


async def save(store: Store, game_id: str, user_id: int, unit: str, route: str, *,
               turn: int = 0, step: int = 0, previewed: str = "") -> PendingMove:
    move = PendingMove(new_id(), game_id, user_id, unit, route, OPEN, turn, step,
                       previewed=previewed)
    await store.add_pending_order(_row_of(move))
    return move


async def save_march(store: Store, march: PendingMarch) -> PendingMarch:
    await store.add_pending_order(_row_of(march))
    return march


async def load_any(store: Store, pending_id: str) -> Pending | None:
    row = await store.pending_order(pending_id)
    return None if row is None else _of_row(row)


async def load(store: Store, pending_id: str) -> PendingMove | None:
    """A pending move (``None`` for no such order, or one that is not a move)."""
    found = await load_any(store, pending_id)
    return found if isinstance(found, PendingMove) else None


async def load_march(store: Store, pending_id: str) -> PendingMarch | None:
    found = await load_any(store, pending_id)
    return found if isinstance(found, PendingMarch) else None


async def settle(store: Store, move: Pending, status: str) -> None:
    await store.set_pending_status(move.id, status)


async def settle_open(store: Store, move: Pending, status: str) -> bool:
    """Settle the order only if it is still open; whether this call settled it."""
    return await store.set_pending_status(move.id, status, only_from=OPEN)


async def note_shown(store: Store, pending_id: str, shown: dict[str, Any]) -> None:
    await store.set_pending_shown(pending_id, shown)


async def expire_past(store: Store, state: GameState, game_id: str) -> Sequence[Pending]:
    """Expire the game's open orders whose phase is over; the ones this call expired (each
    once, whoever else is expiring them)."""
    expired: list[Pending] = []
    for row in await store.open_pending_orders(game_id):
        if in_its_phase(state, row.turn, row.step):
            continue
        if await store.set_pending_status(row.id, EXPIRED, only_from=OPEN):
            expired.append(_of_row(row))
    return expired
