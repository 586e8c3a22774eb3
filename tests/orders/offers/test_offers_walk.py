"""Every offer of both samples is accepted, and a sample of what is not offered is refused.

The flank march under Surprise Move, Concealed Forces and combat, and Chancellorsville, are
played through the umpire as their stories go; at the start of every phase (and after the
phase's first order) the state is kept. In each kept state, for each side, every choice the
side is offered (its call for orders' "you may" lists and its autocomplete lists, which are
made by the same functions) is given to the engine on that state, without keeping the result:
each must be accepted. Only the refusals the rules read from what the side cannot know are let
pass (the enemy's sight of a concealing force, contact with an unseen enemy on a rally: ruling
FLOW-12). Then units the side is not offered are ordered, and must be refused.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from rules import commands as cmd
from rules import engine
from rules.combat.commands import Fire, Rally
from rules.concealed.commands import BreedDecoy, ConcealForce, ReleaseScouts, Unconceal
from rules.forces.chain_of_command import force as force_units
from rules.ground.grid import Cell
from rules.refusal import Refusal
from rules.state import GameState
from rules.surprise.commands import OrderSurpriseMove
from rules.surprise.offers import marchers
from rules.turn.idle import side_options
from storage.store import Store
from umpire.demo import chancellorsville as cv
from umpire.demo import concealed
from umpire.demo.main import SCENARIO as FLANK_MARCH
from umpire.demo.main import SEEDS
from umpire.games.dice import SeededDice
from umpire.modules.concealed import Concealing, concealed_choices
from umpire.reads import naming
from umpire.reads.maps import MapMaker
from umpire.service import Umpire

#: Refusals the rules read from what the side may not know (its offers leave them out).
HIDDEN_REASONS = ("in the enemy's line of sight", "in contact with the enemy")
#: How many choices of each list are tried in a state (spread over the list).
TRIED = 4


class Recording(Umpire):
    """The umpire, keeping the game's state before the first two orders of every phase."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kept: list[GameState] = []
        self.seen: dict[tuple[int, int], int] = {}

    async def handle(self, game_id: str, *args: Any, **kwargs: Any) -> Any:
        state = await self.repository.state_for(game_id)
        at = (state.turn, state.step)
        if self.seen.get(at, 0) < 2:
            self.kept.append(state)
        self.seen[at] = self.seen.get(at, 0) + 1
        return await super().handle(game_id, *args, **kwargs)


async def played(tmp_path: Path, sample: str) -> list[GameState]:
    """The kept states of one sample story (``concealed`` or ``chancellorsville``)."""
    async with Store.open(tmp_path / f"{sample}.db") as store:
        umpire = Recording(store, maps=MapMaker(enabled=False))
        if sample == "concealed":
            await umpire.create_game(FLANK_MARCH, 1, game_id="g1", seed=SEEDS["concealed"])
        else:
            await umpire.create_game(cv.SCENARIO, 1, game_id="g1", seed=cv.SEEDS[False],
                                     options=cv.OPTIONS[False])
        players = {"union": 1, "confederate": 2}
        for side, user in players.items():
            await umpire.join("g1", user, side, in_server=True)
        await umpire.start("g1", 1)
        if sample == "concealed":
            roles = concealed.Roles()
            for turn in range(1, 4):
                await concealed.play_turn(umpire, "g1", players, turn, roles)
        else:
            notes = cv.Notes()
            for turn in range(1, cv.TURNS + 1):
                await cv.play_turn(umpire, "g1", players, turn, notes)
        return umpire.kept


def spread(items: Sequence[Any], most: int = TRIED) -> list[Any]:
    """At most ``most`` of the items, spread from first to last."""
    if len(items) <= most:
        return list(items)
    step = len(items) / most
    return [items[int(i * step)] for i in range(most)]


def dice() -> SeededDice:
    return SeededDice(bytes(32), "walk")


def refusal(state: GameState, side: str, command: cmd.Command) -> str | None:
    """The engine's refusal of the command on the state (nothing is kept), or ``None``."""
    try:
        engine.decide(state, side, command, dice())
    except Refusal as why:
        return str(why)
    return None


def neighbours(state: GameState, cell: Cell | None) -> Iterator[str]:
    if cell is None:
        return
    board = state.loaded.board
    for there in state.loaded.map.grid.neighbours(cell):
        if board.on_a_sheet(there):
            yield board.label(there)


def cell_of(state: GameState, ref: str) -> Cell | None:
    """Where a unit, a marker or a command (its units on the map: the first by id) stands."""
    if ref in state.units:
        return state.units[ref].cell
    if ref in state.commands:
        cells = sorted((u.id, u.cell) for u in force_units(state, ref) if u.cell is not None)
        return cells[0][1] if cells else None
    marker = state.markers.get(ref.removeprefix("marker ").strip())
    return marker.cell if marker is not None else None


def first_route(state: GameState, side: str, make: Any, ref: str) -> str | None:
    """``None`` when some one-step route of ``ref`` is accepted, else the last refusal."""
    why: str | None = "no neighbouring cell"
    for label in neighbours(state, cell_of(state, ref)):
        why = refusal(state, side, make(ref, label))
        if why is None:
            return None
    return why


def offered_and_refused(state: GameState, side: str) -> list[str]:
    """Each offered choice the engine refuses, as a line saying which and why."""
    wrong: list[str] = []

    def expect(what: str, why: str | None, *, hidden_ok: bool = False) -> None:
        if why is not None and not (hidden_ok and any(r in why for r in HIDDEN_REASONS)):
            wrong.append(f"turn {state.turn} {state.current.title} {side}: {what}: {why}")

    options = side_options(state, side)
    for offer in options.offers:
        for ref in spread(offer.refs):
            match offer.action:
                case "move":
                    expect(f"move {ref}", first_route(
                        state, side, lambda r, to: cmd.Move(unit=r, route=to), ref))
                case "formation":
                    unit = state.units[ref]
                    other = next(f for f in unit.formations if f != unit.formation)
                    expect(f"formation {ref}", refusal(
                        state, side, cmd.SetFormation(unit=ref, formation=other)))
                case "conceal":
                    expect(f"conceal {ref}", refusal(state, side, ConcealForce(leader=ref)),
                           hidden_ok=True)
                case "order":
                    expect(f"march {ref}", first_route(
                        state, side, lambda r, to: OrderSurpriseMove(force=r, route=to), ref))
                case "fire":
                    aims = naming.targets(state, side, "fire", ref)
                    expect(f"fire {ref}", refusal(state, side, Fire(units=(ref,),
                                                                    target=aims[0][0]))
                           if aims else "no target offered")
                case "rally":
                    expect(f"rally {ref}", refusal(state, side, Rally(unit=ref)),
                           hidden_ok=True)
    # the autocomplete lists that are not in the call for orders
    for ref, _ in spread(marchers(state, side)):
        expect(f"march force {ref}", first_route(
            state, side, lambda r, to: OrderSurpriseMove(force=r, route=to), ref))
    for marker in spread(concealed_choices(state, side, Concealing.BREEDING)):
        expect(f"breed {marker.ref}", refusal(state, side, BreedDecoy(marker=marker.ref)))
    for marker in spread(concealed_choices(state, side, Concealing.REVEALING)):
        expect(f"reveal {marker.ref}", refusal(state, side, Unconceal(marker=marker.ref)))
    for marker in concealed_choices(state, side, Concealing.SCOUTING):
        scouts = concealed_choices(state, side, Concealing.SCOUTS, marker.ref)
        if not scouts:
            wrong.append(f"{marker.ref} offered for scouting with no scout under it")
        for scout in spread(scouts):
            expect(f"scout {scout.ref} from {marker.ref}", refusal(
                state, side, ReleaseScouts(marker=marker.ref, units=(scout.ref,))))
    return wrong


def not_offered_but_accepted(state: GameState, side: str) -> list[str]:
    """Each not-offered choice (a sample) the engine accepts."""
    wrong: list[str] = []
    options = side_options(state, side)
    movers = {r for o in options.offers if o.action == "move" for r in o.refs}
    leaders = {r for o in options.offers if o.action == "conceal" for r in o.refs}
    own = sorted(u.id for u in state.units_of(side))
    for ref in spread([r for r in own if r not in movers], 4):
        if first_route(state, side, lambda r, to: cmd.Move(unit=r, route=to), ref) is None:
            wrong.append(f"turn {state.turn} {state.current.title}: move {ref} not offered")
    if "concealed_forces" in state.modules:
        for ref in spread([r for r in own if r not in leaders], 4):
            if refusal(state, side, ConcealForce(leader=ref)) is None:
                wrong.append(f"turn {state.turn}: conceal {ref} not offered")
        for marker in state.markers.values():
            if marker.side != side:
                continue
            record = state.module_data["concealed_forces"]["forces"].get(marker.id, {})
            chosen = {n.ref for n in concealed_choices(
                state, side, Concealing.SCOUTS, f"marker {marker.id}")}
            for ref in spread([u for u in record.get("units", ()) if u not in chosen], 3):
                command = ReleaseScouts(marker=f"marker {marker.id}", units=(ref,))
                if refusal(state, side, command) is None:
                    wrong.append(f"turn {state.turn}: scout {ref} not offered")
    return wrong


def autocomplete_agrees(state: GameState, side: str) -> list[str]:
    """The autocomplete lists are the offers' own lists."""
    options = side_options(state, side)
    wrong = []
    for action, listed in (("move", naming.movers(state, side)),
                           ("formation", naming.offered(state, side, "formation")),
                           ("rally", naming.offered(state, side, "rally")),
                           ("conceal", concealed_choices(state, side,
                                                                Concealing.LEADER))):
        refs = [r for o in options.offers if o.action == action for r in o.refs]
        # /move lists markers first: the same choices, in another order
        if sorted(n.ref for n in listed) != sorted(set(refs)):
            wrong.append(f"turn {state.turn} {state.current.title} {side}: {action} lists differ")
    return wrong


@pytest.mark.parametrize("sample", [pytest.param("concealed", marks=pytest.mark.slow),
                                    "chancellorsville"])
async def test_every_offer_is_accepted_and_what_is_not_offered_is_refused(
        tmp_path: Path, sample: str) -> None:
    states = await played(tmp_path, sample)
    assert len(states) > 10
    wrong: list[str] = []
    counted = {"move": 0, "other": 0}
    for state in states:
        for side in state.sides:
            offers = side_options(state, side).offers
            counted["move"] += sum(len(o.refs) for o in offers if o.action == "move")
            counted["other"] += sum(len(o.refs) for o in offers if o.action != "move")
            wrong += offered_and_refused(state, side)
            wrong += not_offered_but_accepted(state, side)
            wrong += autocomplete_agrees(state, side)
    assert counted["move"] > 0 and counted["other"] > 0  # the walk offered something
    assert wrong == [], "\n".join(wrong)
