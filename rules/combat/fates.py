"""What a combat does to each unit in it (its *fate*), worked out before anything changes: so
that the same result can be applied for real, or only shown to the attacker as a sham result;
and worded for each side from what that side may know."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.combat import events as cev
from rules.combat.ledger import take_losses
from rules.combat.sides import Knowledge
from rules.events import GameEvent, side_audience
from rules.forces.units import Unit
from rules.ground.grid import Cell
from rules.state import GameState


def _points(n: int) -> str:
    return f"{n} strength point" + ("" if n == 1 else "s")


@dataclass
class Fate:
    """One unit's fate in a combat: losses (casualties and stragglers), a new morale state,
    the cells of a retreat (and the points lost for cells it could not retreat), an advance."""

    unit: Unit
    casualties: int = 0
    stragglers: int = 0
    shortfall: int = 0
    morale: str = ""
    checked: bool = False
    retreat: list[Cell] = field(default_factory=list)
    advance: list[Cell] = field(default_factory=list)

    def lose(self, casualties: int, stragglers: int = 0) -> None:
        """Add losses, never beyond the strength the unit has left."""
        c, s = take_losses(self.strength_left, casualties, stragglers)
        self.casualties += c
        self.stragglers += s

    @property
    def strength_left(self) -> int:
        return self.unit.strength - self.casualties - self.stragglers - self.shortfall

    @property
    def lost(self) -> int:
        return self.casualties + self.stragglers + self.shortfall

    @property
    def eliminated(self) -> bool:
        return self.lost > 0 and self.strength_left <= 0

    def block_retreat(self, wanted: int, loss_per_cell: int) -> None:
        """Cells of a retreat that could not be made cost strength points."""
        short = max(0, wanted - len(self.retreat)) * loss_per_cell
        self.shortfall += min(short, self.unit.strength - self.casualties - self.stragglers)

    def events(self) -> list[GameEvent]:
        """The events that make this fate so."""
        audience = side_audience(self.unit.side)
        uid = self.unit.id
        out: list[GameEvent] = []
        if self.casualties or self.stragglers:
            out.append(cev.LossesTaken(audience=audience, unit=uid, casualties=self.casualties,
                                       stragglers=self.stragglers))
        if self.unit.strength - self.casualties - self.stragglers <= 0 and (
                self.casualties or self.stragglers):
            return out
        if self.morale:
            out.append(cev.MoraleChanged(audience=audience, unit=uid, morale=self.morale))
        if self.retreat:
            out.append(cev.UnitRetreated(audience=audience, unit=uid,
                                         path=tuple((c.col, c.row) for c in self.retreat)))
        if self.shortfall:
            out.append(cev.LossesTaken(audience=audience, unit=uid, casualties=self.shortfall))
        if self.advance and not self.eliminated:
            out.append(cev.UnitAdvanced(audience=audience, unit=uid,
                                        path=tuple((c.col, c.row) for c in self.advance)))
        return out

    def paths(self) -> dict[str, list[Cell]]:
        """The way the unit went, when it retreated or advanced: the cells it stood in, from
        where it stood before."""
        way = self.retreat or (self.advance if not self.eliminated else [])
        if not way or self.unit.cell is None:
            return {}
        return {self.unit.id: [self.unit.cell, *way]}

    def sham_events(self, by_side: str) -> list[GameEvent]:
        """This fate as a result the unit secretly ignores: its record, and the retreat, which
        is made for real so that every side sees the same board (ruling COMBAT-16). Losses and
        morale are not taken."""
        end = self.retreat[-1] if self.retreat else None
        audience = side_audience(self.unit.side)
        out: list[GameEvent] = [cev.ShamResult(
            audience=audience, unit=self.unit.id, by_side=by_side, strength_lost=self.lost,
            stragglers=self.stragglers, morale=self.morale,
            retreat_to=(end.col, end.row) if end else None, eliminated=self.eliminated)]
        if self.retreat and not self.eliminated:
            out.append(cev.UnitRetreated(audience=audience, unit=self.unit.id,
                                         path=tuple((c.col, c.row) for c in self.retreat)))
        return out

    def phrases(self, state: GameState, know: Knowledge) -> list[str]:
        """This fate as ``know``'s side would tell it: in full for its own unit, as seen for an
        enemy unit it has identified, and not at all for one it has not."""
        if not know.knows(self.unit):
            return []
        name = know.name(self.unit)
        board = state.loaded.board
        rules = state.loaded.ruleset.combat
        own = self.unit.side == know.side
        out: list[str] = []
        if self.casualties or self.stragglers:
            if own:
                split = [f"{self.casualties} casualt" + ("y" if self.casualties == 1 else "ies")
                         ] if self.casualties else []
                split += [f"{self.stragglers} straggling"] if self.stragglers else []
                out.append(f"{name} loses {_points(self.casualties + self.stragglers)} "
                           f"({', '.join(split)})")
            else:
                out.append(f"{name} loses {_points(self.casualties + self.stragglers)}")
        if self.morale and not self.unit.strength - self.casualties - self.stragglers <= 0:
            marker = rules.state(self.morale).marker
            out.append(f"{name} is {self.morale}" + (f" ({marker})" if marker else ""))
        elif self.checked and not self.eliminated:
            out.append(f"{name} holds")
        if self.retreat:
            end = self.retreat[-1]
            if own or know.sees_cell(end):
                out.append(f"{name} falls back to {board.describe(end)}")
            else:
                out.append(f"{name} falls back out of sight")
        if self.shortfall:
            out.append(f"{name} cannot complete its retreat and loses "
                       f"{_points(self.shortfall)}" + (" more" if self.casualties else ""))
        if self.eliminated:
            out.append(f"{name} is eliminated")
        elif self.advance:
            out.append(f"{name} advances into {board.describe(self.advance[-1])}")
        return out
