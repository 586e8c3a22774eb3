"""The ``[combat]`` section of a ruleset: what the combat tables' results mean, and when their
named modifiers and column shifts apply.

The tables themselves (``fire``, ``close_combat``, ``morale``, ``straggler``) are ordinary
ruleset tables; this section makes their result codes machine-readable (``fire_results``,
``close_combat_results``, the morale states' ``marker`` codes) and gives every named die-roll
modifier and column shift a *condition* in a small language (``conditions``), so that a play
group that enters its own game's tables can also say when each line of them applies.

Conditions: ``atom``, ``not atom``, joined with ``and`` (binding tighter) and ``or``. Atoms:

* ``night``: a full or partial night turn;
* ``range=<band>``: the fire's range band (the farthest firer's);
* ``converging``: the attacking (or firing) cells lie at least 90 degrees apart as seen from the
  target; ``opposite``: at least 150 degrees apart (attacked from both sides);
* ``uphill``: the target's cell stands higher than every attacker's cell;
* ``attackers:<p>`` / ``any_attacker:<p>``: every attacking unit / at least one has property p;
  likewise ``defenders:<p>`` / ``any_defender:<p>`` for the target units, and ``unit:<p>`` for
  the unit checking morale or stragglers. Properties: ``kind=X``, ``class=X`` (the unit's
  movement class: ``foot``, ``horse``, ``wheeled``, ``leader``), ``tag=X``, ``side=X``,
  ``formation=X``, ``morale=X``, ``echelon=X``, ``terrain=X`` (a terrain id, or one of the flags
  ``woods``, ``hill``, ``fort``), and ``leader`` (a leader of its side shares its cell).

A modifier or shift without a condition never applies (and says so in the rulings).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

if TYPE_CHECKING:
    from rules.scenario.tables import Table

# -- the condition language ----------------------------------------------------------------------

#: Atoms that stand alone.
PLAIN_ATOMS = frozenset({"night", "converging", "opposite", "uphill"})
#: Atoms that take a value after ``=``.
VALUE_ATOMS = frozenset({"range"})
#: Who a unit property is asked of.
SUBJECTS = frozenset({"attackers", "any_attacker", "defenders", "any_defender", "unit"})
#: Unit properties with a value after ``=``.
PROPERTIES = frozenset({"kind", "class", "tag", "side", "formation", "morale", "echelon",
                        "terrain"})
#: Unit properties without a value.
FLAGS = frozenset({"leader"})
#: Properties of a target that anyone can tell from the map (its cell's terrain).
PUBLIC_PROPERTIES = frozenset({"terrain"})

_WORD = re.compile(r"^[A-Za-z0-9_.-]+$")


@dataclass(frozen=True, slots=True)
class Atom:
    """One test: ``subject`` is empty for plain atoms; ``prop`` names the property or the plain
    atom; ``value`` is what it must equal (empty for flags and plain atoms)."""

    subject: str
    prop: str
    value: str
    negated: bool = False


#: A condition: a disjunction of conjunctions of atoms.
Condition = tuple[tuple[Atom, ...], ...]


class ConditionError(ValueError):
    pass


def parse_condition(text: str) -> Condition:
    """Read a condition, or raise ``ConditionError`` naming what is wrong."""
    if not text.strip():
        raise ConditionError("a condition cannot be empty")
    out: list[tuple[Atom, ...]] = []
    for part in re.split(r"\s+or\s+", text.strip()):
        conj: list[Atom] = []
        for lit in re.split(r"\s+and\s+", part.strip()):
            conj.append(_atom(lit.strip()))
        out.append(tuple(conj))
    return tuple(out)


def _atom(text: str) -> Atom:
    negated = False
    if text.startswith("not "):
        negated, text = True, text[4:].strip()
    if text in PLAIN_ATOMS:
        return Atom("", text, "", negated)
    if ":" in text:
        subject, _, prop = text.partition(":")
        if subject not in SUBJECTS:
            raise ConditionError(f"unknown subject {subject!r} in {text!r}; known: "
                                 f"{', '.join(sorted(SUBJECTS))}")
        if prop in FLAGS:
            return Atom(subject, prop, "", negated)
        name, eq, value = prop.partition("=")
        if not eq or name not in PROPERTIES or not _WORD.match(value):
            raise ConditionError(f"{text!r}: a property is one of "
                                 f"{', '.join(sorted(PROPERTIES))} followed by =value, or "
                                 f"{', '.join(sorted(FLAGS))}")
        return Atom(subject, name, value, negated)
    name, eq, value = text.partition("=")
    if eq and name in VALUE_ATOMS and _WORD.match(value):
        return Atom("", name, value, negated)
    raise ConditionError(f"unknown condition {text!r}; known: {', '.join(sorted(PLAIN_ATOMS))}, "
                         "range=BAND, or SUBJECT:PROPERTY=VALUE")


def hidden_from_firer(condition: Condition) -> bool:
    """Whether the condition reads something about the target that only an observer who has
    identified it could know (anything but its cell's terrain)."""
    return any(a.subject in ("defenders", "any_defender") and a.prop not in PUBLIC_PROPERTIES
               for conj in condition for a in conj)


def side_warnings(conditions: Mapping[str, Mapping[str, str]],
                  sides: Collection[str]) -> tuple[str, ...]:
    """What a scenario author should hear about conditions that name a side id the scenario
    does not have (``side=X`` in any subject): no unit ever matches it, so a shift written for
    one side's units is silently lost. One line for each condition, naming it and the sides.
    Not a load problem: a ruleset serves scenarios whose sides are named differently."""
    out: list[str] = []
    for table, named in conditions.items():
        for name, text in named.items():
            try:
                condition = parse_condition(text)
            except ConditionError:
                continue  # the section's own validation reports it
            unknown = sorted({a.value for conj in condition for a in conj
                              if a.subject and a.prop == "side" and a.value not in sides})
            if unknown:
                out.append(f"combat.conditions.{table}.{name} names side(s) "
                           f"{', '.join(unknown)}, which this scenario does not have (its "
                           f"sides: {', '.join(sides)}): no unit ever matches that test")
    return tuple(out)


# -- the section's shapes ------------------------------------------------------------------------

class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RangeBand(_Frozen):
    """A range band for one kind of unit: up to ``up_to`` cells; its strength counts
    ``factor`` times (canister doubles a battery's guns, say)."""

    name: str = Field(min_length=1)
    up_to: int = Field(ge=1)
    factor: float = Field(1.0, gt=0)


class MoraleState(_Frozen):
    """A morale state and its marker. ``marker`` is the morale table's result code that puts a
    unit in this state (empty for the normal state). A unit entering the state falls back
    ``fall_back`` cells."""

    name: str = Field(min_length=1, max_length=30)
    marker: str = ""
    may_move: bool = True
    may_fire: bool = True
    may_assault: bool = True
    fall_back: int = Field(0, ge=0)
    rally_needs_leader: bool = False


class FireEffect(_Frozen):
    """What one fire result does to the target: strength points lost as casualties (gone for
    good) and as stragglers (recoverable), and whether it checks morale."""

    casualties: int = Field(0, ge=0)
    stragglers: int = Field(0, ge=0)
    morale_check: bool = False


Loss = int | Literal["all"]


class CloseCombatEffect(_Frozen):
    """What one close-combat result does. Losses are strength points for the side (``all``:
    every unit of that side is eliminated); retreats are cells; ``*_morale`` names a morale
    state imposed; ``exchange``: the weaker side is eliminated and the other loses as much."""

    attacker_losses: Loss = 0
    defender_losses: Loss = 0
    attacker_retreat: int = Field(0, ge=0)
    defender_retreat: int = Field(0, ge=0)
    attacker_morale: str = ""
    defender_morale: str = ""
    exchange: bool = False

    @field_validator("attacker_losses", "defender_losses")
    @classmethod
    def _not_negative(cls, v: Loss) -> Loss:
        if isinstance(v, int) and v < 0:
            raise ValueError("losses cannot be negative")
        return v


class StragglerRecovery(_Frozen):
    """At the end of each turn a unit with stragglers, with no enemy combat unit within
    ``distance`` cells, gets back up to ``points`` of them."""

    distance: int = Field(4, ge=0)
    points: int = Field(1, ge=0)


def _default_bands() -> dict[str, tuple[RangeBand, ...]]:
    return {
        "infantry": (RangeBand(name="close", up_to=1), RangeBand(name="long", up_to=2)),
        "cavalry": (RangeBand(name="close", up_to=1),),
        "artillery": (RangeBand(name="canister", up_to=2, factor=2),
                      RangeBand(name="close", up_to=5), RangeBand(name="long", up_to=10)),
    }


def _default_formations() -> dict[str, tuple[str, ...]]:
    return {"infantry": ("line",), "cavalry": ("dismounted",), "artillery": ("unlimbered",)}


def _default_states() -> tuple[MoraleState, ...]:
    return (
        MoraleState(name="normal"),
        MoraleState(name="shaken", marker="Sh", may_assault=False),
        MoraleState(name="disorganized", marker="Dg", may_fire=False, fall_back=2),
        MoraleState(name="routed", marker="Rt", may_move=False, may_fire=False,
                    may_assault=False, fall_back=3, rally_needs_leader=True),
    )


class CombatRules(_Frozen):
    """The ``[combat]`` section of a ruleset (every field has a stand-in default)."""

    #: Range bands by unit kind, nearest first; the last band's reach is the unit's range.
    range_bands: dict[str, tuple[RangeBand, ...]] = Field(default_factory=_default_bands)
    #: Formations in which each kind of unit may fire.
    fire_formations: dict[str, tuple[str, ...]] = Field(default_factory=_default_formations)
    fire_results: dict[str, FireEffect] = Field(default_factory=dict)
    close_combat_results: dict[str, CloseCombatEffect] = Field(default_factory=dict)
    #: Morale states from best to worst; the first is every unit's state at the start.
    morale_states: tuple[MoraleState, ...] = Field(default_factory=_default_states)
    #: Morale table results that leave a unit as it is (and rally it, on a rally roll).
    holds: tuple[str, ...] = ("-",)
    #: A unit's morale grade (the morale table's column) comes from a ``grade:X`` tag, else this.
    default_grade: str = "C"
    #: The straggler table's column for the checks after a close combat ("" for none).
    straggler_column: str = "combat"
    straggler_recovery: StragglerRecovery = Field(default_factory=StragglerRecovery)
    #: Strength points lost for each cell of a retreat that cannot be made.
    retreat_shortfall_loss: int = Field(1, ge=0)
    #: By table id: the condition of each named modifier and column shift.
    conditions: dict[str, dict[str, str]] = Field(default_factory=dict)

    @field_validator("range_bands")
    @classmethod
    def _bands_ascend(cls, v: dict[str, tuple[RangeBand, ...]]
                      ) -> dict[str, tuple[RangeBand, ...]]:
        for kind, bands in v.items():
            reach = [b.up_to for b in bands]
            if reach != sorted(set(reach)):
                raise ValueError(f"range bands for {kind} must reach farther one after another")
        return v

    @field_validator("conditions")
    @classmethod
    def _conditions_parse(cls, v: dict[str, dict[str, str]]) -> dict[str, dict[str, str]]:
        for table, named in v.items():
            for name, text in named.items():
                try:
                    parse_condition(text)
                except ConditionError as e:
                    raise ValueError(f"conditions.{table}.{name}: {e}") from None
        return v

    @model_validator(mode="after")
    def _states_make_sense(self) -> CombatRules:
        names = [s.name for s in self.morale_states]
        if not names:
            raise ValueError("morale_states needs at least the normal state")
        if len(set(names)) != len(names):
            raise ValueError("morale state names repeat")
        if self.morale_states[0].marker:
            raise ValueError("the first morale state is the normal one and has no marker")
        markers = [s.marker for s in self.morale_states[1:]]
        if "" in markers or len(set(markers)) != len(markers):
            raise ValueError("every morale state after the first needs its own marker")
        for code, effect in self.close_combat_results.items():
            for state in (effect.attacker_morale, effect.defender_morale):
                if state and state not in names:
                    raise ValueError(f"close_combat_results.{code}: no morale state {state!r}")
        return self

    # -- reading ---------------------------------------------------------------------------------
    def state(self, name: str) -> MoraleState:
        """A morale state by name (an unknown name, set by hand, reads as the normal state)."""
        for s in self.morale_states:
            if s.name == name:
                return s
        return self.morale_states[0]

    def rank(self, name: str) -> int:
        """0 for the normal state, higher for worse ones."""
        for n, s in enumerate(self.morale_states):
            if s.name == name:
                return n
        return 0

    def state_for_marker(self, code: str) -> MoraleState | None:
        for s in self.morale_states[1:]:
            if s.marker == code:
                return s
        return None

    def bands(self, kind: str) -> tuple[RangeBand, ...]:
        return self.range_bands.get(kind, ())

    def reach(self, kind: str) -> int:
        bands = self.bands(kind)
        return bands[-1].up_to if bands else 0

    def band_at(self, kind: str, distance: int) -> RangeBand | None:
        for band in self.bands(kind):
            if distance <= band.up_to:
                return band
        return None

    def condition(self, table: str, name: str) -> Condition | None:
        text = self.conditions.get(table, {}).get(name)
        return parse_condition(text) if text else None

    def table_problems(self, tables: Mapping[str, Table]) -> list[str]:
        """Result codes of the combat tables that this section does not explain (checked only
        for the tables whose meanings it gives), and conditions named for tables that lack
        such a modifier or shift."""
        out: list[str] = []
        checks: list[tuple[str, Collection[str], str]] = [
            ("fire", self.fire_results, "fire_results"),
            ("close_combat", self.close_combat_results, "close_combat_results"),
        ]
        for table_id, known, field in checks:
            table = tables.get(table_id)
            if table is None or not known:
                continue
            codes = {r for row in table.rows for r in row.results}
            missing = sorted(codes - set(known))
            if missing:
                out.append(f"combat.{field} does not say what {', '.join(missing)} mean(s)")
        morale = tables.get("morale")
        if morale is not None:
            codes = {r for row in morale.rows for r in row.results}
            markers = {s.marker for s in self.morale_states[1:]} | set(self.holds)
            missing = sorted(codes - markers)
            if missing:
                out.append(f"morale results {', '.join(missing)} are neither a morale state's "
                           "marker nor in combat.holds")
        for table_id, named in self.conditions.items():
            table = tables.get(table_id)
            if table is None:
                out.append(f"combat.conditions.{table_id}: the ruleset has no such table")
                continue
            unknown = sorted(set(named) - set(table.modifiers) - set(table.shifts))
            if unknown:
                out.append(f"combat.conditions.{table_id}: {', '.join(unknown)} is neither a "
                           "modifier nor a shift of that table")
        return out
