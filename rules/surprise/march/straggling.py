"""The secret straggler checks of a force on a forced march (ruling SM-16), in the column of the
forced-march MPs chosen for the turn (the record's ``forced``: ruling SM-24), saving, reversing
or setting off alike. Rolls and losses go to the owner's side alone."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.events import side_audience
from rules.surprise import events as sev
from rules.surprise import force as frc
from rules.surprise import records as rec
from rules.surprise import rolls
from rules.turn.sequence import is_night

if TYPE_CHECKING:
    from rules.outcome import Outcome

#: The ruleset table the checks are read from.
STRAGGLERS = "straggler"


def forced_march_stragglers(out: Outcome, march_id: str) -> None:
    """One secret straggler check for each combat unit of a force marching forced."""
    record = rec.march(out.state, march_id)
    forced = int(record["forced"])
    if forced <= 0:
        return
    state = out.state
    table = state.loaded.ruleset.tables[STRAGGLERS]
    column = rolls.band_column(table, forced)
    side = str(record["side"])
    night = is_night(state.loaded.scenario, state.turn)
    units = frc.on_map(state, record["units"])
    leader_cells = {u.cell for u in units if u.is_leader}
    for unit in units:
        if not unit.combat:
            continue
        mods: dict[str, int] = {}
        if night and "night" in table.modifiers:
            mods["night"] = table.modifiers["night"]
        if unit.morale != "normal" and "low_morale" in table.modifiers:
            mods["low_morale"] = table.modifiers["low_morale"]
        if unit.cell in leader_cells and "leader_with_unit" in table.modifiers:
            mods["leader_with_unit"] = table.modifiers["leader_with_unit"]
        _, result = out.roll(f"forced-march stragglers, {unit.name}", table.dice,
                             side_audience(side), table=STRAGGLERS, column=column,
                             modifiers=mods)
        count = int(result) if result.strip().isdigit() else 0
        already = int(rec.march(out.state, march_id)["stragglers"].get(unit.id, 0))
        count = min(count, max(0, unit.strength - already))
        if count:
            out.add(sev.StragglersNoted(audience=side_audience(side), march=march_id,
                                        name=rec.name_of(out.state, march_id),
                                        unit=unit.id, count=count))
