"""Done for the turn and standing orders, as the umpire reads them at each commit: which players'
Done for the turn still stands, who is asked again and why, and which acting sides finish the
step now without being called (ruling FLOW-70).

A player's Done for the turn (``/done until:next-turn``, or the Done for the turn button) stands
for the side's later phases of that turn until the side is told something that gives it a new
decision (``rules.orders.standing.asks_again``: only what the side is told). A side whose seated
players' Done all stand (one, under ``ready: any``) is *quiet* when a phase of it begins: no
call for orders, its news held for its next dossier, and the umpire carries out its standing
orders and its Done (``umpire.games.standing_orders``). So is a side in a Command Phase it may
pass on standing orders (``rules.orders.standing.passes_on_standing_orders``) once each of its
players has set one or said Done for the turn (ruling FLOW-74).

Everything here is the side's own business: whether a side is quiet changes only what that side
is sent; the enemy gets what it would have got had the side's players typed ``/done`` at once
(ruling FLOW-75).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from rules import events as ev
from rules.forces.units import Unit
from rules.orders.standing import Standing, StandingOrder, asks_again, passes_on_standing_orders
from rules.reading import event_from_json
from rules.state import GameState
from rules.turn.status import GameStatus
from storage.store import Store


@dataclass(frozen=True, slots=True)
class StandingNow:
    """Where the turn's standing Done stands after a batch.

    ``standing``: by side, the seated players whose Done for the turn still stands;
    ``quiet``: the acting sides that finish the step without a call; ``passes``: those of them
    that pass a Command Phase on standing orders (nothing of theirs to carry out);
    ``lifted``: by side, why a Done that stood before the batch is lifted by it;
    ``was_quiet``: the acting sides that were quiet before the batch."""

    standing: dict[str, tuple[int, ...]] = field(default_factory=dict)
    quiet: frozenset[str] = frozenset()
    passes: frozenset[str] = frozenset()
    lifted: dict[str, str] = field(default_factory=dict)
    was_quiet: frozenset[str] = frozenset()


async def standing_now(store: Store, game_id: str, seated: Mapping[str, Sequence[int]],
                       after: GameState, logged_to: int, batch: Sequence[ev.Event] = (), *,
                       any_one: bool = False) -> StandingNow:
    """The turn's standing Done as of ``after``: the state once ``batch`` (not yet logged) is
    applied after the log's event ``logged_to``. ``any_one``: one player's word is the side's
    (the game's ``ready: any``)."""
    if after.status != GameStatus.ACTIVE:
        return StandingNow()
    marks = await store.turn_done(game_id, after.turn)
    setters: dict[str, set[int]] = {}
    for side in after.sides:
        if passes_on_standing_orders(after, side):
            setters[side] = {who for *_, who in await store.standing_orders(game_id, side)}
    if not marks and not setters:
        return StandingNow()
    logged: list[tuple[int, ev.Event]] = []
    if marks:
        first = min(marks.values())
        logged = [(r.seq, event_from_json(json.dumps(r.payload), r.audience))
                  for r in await store.events(game_id, after_seq=first)
                  if r.seq <= logged_to]
    standing: dict[str, tuple[int, ...]] = {}
    before: dict[str, tuple[int, ...]] = {}
    lifted: dict[str, str] = {}
    for side in after.sides:
        mine = [u for u in seated.get(side, ()) if u in marks]
        stood = [u for u in mine
                 if not _why(side, (e for seq, e in logged if seq > marks[u]))]
        standing[side] = tuple(u for u in stood if not _why(side, batch))
        before[side] = tuple(stood)
        if len(standing[side]) < len(stood):
            lifted[side] = _why(side, batch)
    quiet, passes, was = set(), set(), set()
    for side in after.acting_sides():
        if side in after.done or not seated.get(side):
            continue
        if _all(seated[side], standing[side], any_one):
            quiet.add(side)
        elif side in setters and _all(seated[side], (*standing[side], *setters[side]),
                                      any_one):
            quiet.add(side)
            passes.add(side)
        if _all(seated[side], before[side], any_one):
            was.add(side)
    return StandingNow(standing, frozenset(quiet), frozenset(passes), lifted, frozenset(was))


def _all(seated: Sequence[int], ready: Sequence[int], any_one: bool) -> bool:
    here = set(seated) & set(ready)
    return bool(here) if any_one else bool(seated) and here == set(seated)


def _why(side: str, events: Iterable[ev.Event]) -> str:
    """The first reason among ``events`` to ask ``side`` again ("" for none)."""
    for e in events:
        why = asks_again(side, e)
        if why:
            return why
    return ""


def stored(rows: Sequence[tuple[str, str, str, int]]) -> list[Standing]:
    """A side's stored standing orders, each as the rules read it (a row of an order this code
    no longer knows is left out)."""
    known = {o.value for o in StandingOrder}
    return [Standing(unit, StandingOrder(order), route) for unit, order, route, _ in rows
            if order in known]


def asked_again_text(why: str) -> str:
    """The line that tells a side its players' Done for the turn no longer stands."""
    return (f"**Asked again**: {why}, so your Done for the turn no longer stands. Give your "
            "orders for this phase, then Done (or Done for the turn again).")


def order_words(standing: Standing, name: str) -> str:
    """One standing order as its side reads it."""
    route = f" along {standing.route}" if standing.order is StandingOrder.MARCH else ""
    return f"{name}: {standing.order.words}{route}"


def standing_text(units: Mapping[str, Unit], rows: Sequence[tuple[str, str, str, int]]) -> str:
    """The side's standing orders, one a line, by the names its players know (its dossier's
    "Standing orders" section, and ``/standing list``)."""
    known = stored(rows)
    if not known:
        return "Standing orders: none."
    lines = [order_words(s, units[s.unit].name if s.unit in units else s.unit) for s in known]
    return "Standing orders:\n" + "\n".join(f"- {line}" for line in lines)


def done_for_turn_text(turn: int) -> str:
    """What a player is told on saying Done for the turn."""
    return (f"You are done for the rest of turn {turn}: your side's later phases of it count "
            "you ready, and your standing orders are carried out. You will be asked again if "
            "an enemy comes into sight, one of your units is fired on or assaulted, or a "
            "question is put to your side.")
