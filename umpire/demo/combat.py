"""The demo's fighting: once the armies meet, the brigades on each side deploy, fire and assault.

Where the armies meet depends on the march (and, under the Surprise Move rules, on the dice), so
the combat orders are not written out turn by turn: from ``FROM_TURN`` on, each side's listed
units act as a player would, looking only at its own side's view (``rules.view.project``). In
the Movement and Close Combat Phase they deploy when the enemy is near (infantry into line,
artillery unlimbered) and the Confederates assault the Union unit most of them stand next to; in
each Fire Phase every listed unit able to fire fires at the nearest enemy troops it can reach.
Orders the umpire refuses (out of range, no line of sight) are simply not given.
"""

from __future__ import annotations

import contextlib

from rules import commands as cmd
from rules.combat.commands import Assault, Fire
from rules.forces.units import Unit
from rules.forces.words import COMBAT_KINDS, Formation, UnitKind
from rules.sighting.height import clear_line
from rules.state import GameState
from rules.view import IDENTIFIED, UnitView, project
from umpire.service import Umpire, UmpireError

#: The first turn on which the demo's units fight.
FROM_TURN = 6
#: The units that fight, by side: Rodes' division and its guns; von Gilsa's flank and its
#: neighbours.
FIGHTERS: dict[str, tuple[str, ...]] = {
    "confederate": ("doles", "iverson", "oneal", "colquitt", "ramseur", "carter-bn"),
    "union": ("von-gilsa", "dieckmann", "mclean", "schimmelfennig", "krzyzanowski"),
}
#: Who assaults (the attacking side of the story).
ASSAULTING = ("confederate",)
#: How near the enemy must be for a unit to deploy: infantry within this many cells.
DEPLOY_WITHIN = 3


async def fight(umpire: Umpire, game_id: str, side: str, user: int, turn: int) -> None:
    """The side's combat orders for the current step, if any."""
    if turn < FROM_TURN:
        return
    state = await umpire.repository.state_for(game_id)
    step = state.current
    if step.allows("close_combat"):
        await _deploy(umpire, game_id, side, user)
        if side in ASSAULTING:
            await _assault(umpire, game_id, side, user)
    if step.allows("fire"):
        await _fire(umpire, game_id, side, user)


def _mine(state: GameState, side: str) -> list[Unit]:
    return [state.units[uid] for uid in FIGHTERS.get(side, ())
            if uid in state.units and state.units[uid].cell is not None]


def _enemy_troops(state: GameState, side: str) -> list[UnitView]:
    return [u for u in project(state, side).enemy_units()
            if u.level == IDENTIFIED and u.kind in COMBAT_KINDS]


async def _give(umpire: Umpire, game_id: str, user: int, command: cmd.Command) -> None:
    """Give an order; one the umpire refuses (out of range, no line of sight) is not given."""
    with contextlib.suppress(UmpireError):
        await umpire.handle(game_id, user, command)


async def _deploy(umpire: Umpire, game_id: str, side: str, user: int) -> None:
    state = await umpire.repository.state_for(game_id)
    grid = state.loaded.board.grid
    enemies = _enemy_troops(state, side)
    rules = state.loaded.ruleset.combat
    for unit in _mine(state, side):
        assert unit.cell is not None
        wanted = {UnitKind.INFANTRY: Formation.LINE,
                  UnitKind.ARTILLERY: Formation.UNLIMBERED}.get(unit.kind)
        reach = DEPLOY_WITHIN if unit.kind == UnitKind.INFANTRY else rules.reach(unit.kind)
        if wanted is None or unit.formation == wanted:
            continue
        if any(grid.distance(unit.cell, e.cell) <= reach for e in enemies):
            await _give(umpire, game_id, user, cmd.SetFormation(unit=unit.id, formation=wanted))


async def _assault(umpire: Umpire, game_id: str, side: str, user: int) -> None:
    state = await umpire.repository.state_for(game_id)
    grid = state.loaded.board.grid
    mine = [u for u in _mine(state, side) if u.kind in (UnitKind.INFANTRY, UnitKind.CAVALRY)]
    best: tuple[int, str, tuple[str, ...]] | None = None
    for enemy in _enemy_troops(state, side):
        next_to = tuple(u.name for u in mine if u.cell is not None
                        and grid.adjacent(u.cell, enemy.cell))
        strength = sum(u.strength for u in mine if u.name in next_to)
        if next_to and (best is None or strength > best[0]):
            best = (strength, enemy.name, next_to)
    if best is not None:
        await _give(umpire, game_id, user, Assault(units=best[2], target=best[1]))


async def _fire(umpire: Umpire, game_id: str, side: str, user: int) -> None:
    state = await umpire.repository.state_for(game_id)
    gm = state.loaded.map
    rules = state.loaded.ruleset.combat
    for unit in _mine(state, side):
        state = await umpire.repository.state_for(game_id)
        unit = state.units[unit.id]
        if unit.cell is None:
            continue
        here = unit.cell
        targets = sorted(
            (gm.grid.distance(here, e.cell), e.name) for e in _enemy_troops(state, side)
            if gm.grid.distance(here, e.cell) <= rules.reach(unit.kind)
            and clear_line(gm, gm.idx(here), gm.idx(e.cell)))
        if targets:
            await _give(umpire, game_id, user, Fire(units=(unit.id,), target=targets[0][1]))
