"""What a rule module plugs into: its commands, its events, and the moments of play it hooks.

Each rule text is one module (``rules.modules.catalog`` names them). A module subclasses
``RuleModule``
and overrides only the hooks it needs; the engine calls the hooks of the modules in force, in the
order the scenario lists them. A module keeps its own state as JSON-ready data under its name in
``GameState.module_data``, changed only by folding its own events in ``apply``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rules.commands import GameCommand
from rules.events import GameEvent
from rules.forces.markers import Marker
from rules.forces.units import Unit
from rules.ground.grid import Cell
from rules.knowledge.information import InformationModel
from rules.knowledge.levels import MarkerView, UnitView
from rules.knowledge.notes import ModuleNote
from rules.knowledge.overlay import Ground, Overlay
from rules.modules.data import data_of as data_of  # re-exported: modules read their data
from rules.modules.spec import ModuleSpec
from rules.orders.stops import Stop
from rules.turn.offers import Offer

if TYPE_CHECKING:
    from rules.orders.marker_order import MarkerOrder
    from rules.outcome import Outcome
    from rules.scenario.loader import LoadedScenario
    from rules.state import GameState
    from rules.turn.reaction import Question
    from rules.turn.sequence import Step
    from rules.view import SideView


class RuleModule:
    """A rule module. Every hook does nothing unless overridden.

    A module declares itself once, in its ``spec`` (``rules.modules.spec.ModuleSpec``): its
    name, commands and actions are read from it. (A module without a spec, as tests build,
    sets them itself.)"""

    #: The module's declaration (``rules.modules.catalog.SPECS`` lists the same object).
    spec: ClassVar[ModuleSpec | None] = None
    #: The name a scenario uses in ``modules``.
    name: ClassVar[str] = ""
    #: The command classes this module decides.
    commands: ClassVar[tuple[type[GameCommand], ...]] = ()
    #: Actions (as named in a ruleset's phases) this module lets players take.
    actions: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        spec = cls.__dict__.get("spec")
        if isinstance(spec, ModuleSpec):
            cls.name, cls.commands, cls.actions = spec.name, spec.commands, spec.actions

    # -- commands and events ---------------------------------------------------------------------
    def decide(self, out: Outcome, side: str, command: GameCommand) -> None:
        """Decide one of this module's commands, adding events to ``out`` or raising
        ``rules.engine.Refusal``."""

    def apply(self, state: GameState, event: GameEvent) -> GameState | None:
        """The state after one of this module's events, or ``None`` if it is not one."""
        return None

    # -- the turn ----------------------------------------------------------------------------------
    def on_step_begin(self, out: Outcome) -> None:
        """A step of the turn has just begun (``out.state.current``)."""

    def on_step_end(self, out: Outcome) -> None:
        """The current step is about to close."""

    def on_answer(self, out: Outcome, question: Question, choice: str, by_default: bool) -> None:
        """A question this module asked (``rules.turn.reaction.ask``) is answered: ``choice`` is the
        side's, or the default when ``by_default`` (its deadline passed, or the step ended)."""

    def offers(self, state: GameState, side: str, view: SideView, step: Step
               ) -> tuple[Offer, ...]:
        """What this module lets ``side`` do now in ``step`` (asked by ``rules.turn.idle``; never
        asked for a side that is not acting in it). Read from the side's own units and this
        module's records of the side, and the enemy only as ``view`` (the side's
        ``project``) shows it: whether a side has something to do must never depend on what it
        cannot see. Rather generous than strict: an offer the rules might still refuse only
        keeps the step open for the side to decide. Empty: this module offers nothing."""
        return ()

    def plays(self, state: GameState, command: str) -> bool:
        """Whether this module's ``command`` (as its spec's ``phase_commands`` names it:
        ``/fire``) can be played in the game at all, given its ruleset: ``/help`` lists only
        those. The module's orders refuse the others with the same reason."""
        return True

    # -- the game ----------------------------------------------------------------------------------
    def left_out(self, loaded: LoadedScenario) -> frozenset[str]:
        """Ids of units this module takes out of the game before it begins, read from the
        scenario and its options (chosen when the game was created). ``initial_state`` never
        creates them: they are in no state, view, list or log, for any side, and not even
        withdrawn (a withdrawn unit is still listed to its own side)."""
        return frozenset()

    def on_game_start(self, out: Outcome) -> None:
        """The game has just started (``GameStarted`` is in ``out``), before the first step
        begins and before the first sighting pass: remove units, settle options, place
        markers."""

    def on_game_end(self, out: Outcome) -> None:
        """The game is about to end, after its last turn or by the host's ``/game end``, before
        ``GameEnded`` reveals the seed: roll (with ``out.roll``, so that ``vedette verify``
        checks the rolls) and score."""

    # -- movement ----------------------------------------------------------------------------------
    def closed_cells(self, state: GameState, side: str) -> frozenset[Cell]:
        """Cells the side's units may neither enter nor pass through (beyond enemy-held ones)."""
        return frozenset()

    def blocked_cells(self, state: GameState, side: str) -> frozenset[Cell]:
        """Cells where a surprise march of ``side`` reaches a blocked hex beyond those the
        sighting pass gives from the units on the map: the pickets and sight of something that
        is no unit on the map (an enemy concealment marker, say)."""
        return frozenset()

    def stop_reason(self, state: GameState, unit: Unit, cell: Cell) -> Stop | None:
        """A reason for a moving unit to stop after entering ``cell``, or ``None``. A stop is
        never a refusal: the move ends in the last cell the unit may stand in. Asked for every
        step of an ordinary move, and of a surprise column's head."""
        return None

    def foreseen_stop(self, unit: Unit, cell: Cell, markers: tuple[MarkerView, ...],
                      ground: Ground) -> Stop | None:
        """The stop ``stop_reason`` would make after ``unit`` enters ``cell``, as its side can
        foresee it from the enemy markers it sees (``markers``) and the public ground alone: what
        a move's preview says (``rules.orders.foresight``). Never reads the game state."""
        return None

    def seen_stop(self, state: GameState, unit: Unit, cell: Cell) -> Stop | None:
        """A stop ``stop_reason`` makes after ``unit`` enters ``cell`` whose every cause the
        moving side sees under the module's information model, worded for a preview: a preview
        foresees it by the rule itself. Only a module whose stop reads nothing hidden from the
        mover may answer here; ``foreseen_stop`` serves the rest."""
        return None

    def move_marker(self, out: Outcome, side: str, marker: Marker, route: str) -> bool:
        """Move one of ``side``'s markers along ``route`` (a ``Move`` naming the marker), adding
        its events to ``out`` or raising ``Refusal``; ``False`` if this module did not make the
        marker (another module may have)."""
        return False

    def marker_order(self, state: GameState, side: str, marker: Marker, route: str
                     ) -> MarkerOrder | None:
        """``side``'s move of its ``marker`` along ``route`` as the side's own knowledge
        settles it (``rules.orders.marker_order``), the one reading both ``move_marker`` and a
        preview use; raises ``Refusal`` for an order ``move_marker`` would refuse. ``None`` if
        this module did not make the marker."""
        return None

    def after_move(self, out: Outcome, unit_id: str) -> None:
        """A unit has ended a move."""

    def on_positions_changed(self, out: Outcome, units: tuple[str, ...]) -> None:
        """Units have changed place (``units``, sorted ids; empty when only a new step's
        visibility changed): after a move, arrivals, a retreat or advance, a surprise column's
        march, a correction, and at the start of every step. Sighting is already up to date
        (``rules.orders.positions``)."""

    def may_move(self, state: GameState, unit: Unit) -> str | None:
        """Why the unit may not move by an ordinary order now, or ``None`` if it may."""
        return None

    def route_refusal(self, state: GameState, unit: Unit, path: tuple[Cell, ...]) -> str | None:
        """Why an ordinary move of the unit along ``path`` (the cells it would enter, in order)
        is refused by a limit this module puts on the unit's own route (a released scout's
        reach, say), or ``None``. Asked after the core's own checks; only what the moving
        side knows may refuse (an enemy on the way stops a move, never refuses it)."""
        return None

    # -- combat (asked by the combat module) -------------------------------------------------------
    def combat_shield(self, state: GameState, target: Unit, attackers: tuple[Unit, ...],
                      distances: tuple[int, ...]) -> str | None:
        """Whether an attack on ``target`` is secretly not taken. ``distances`` gives each
        attacker's distance in cells, in the order of ``attackers`` (1 for close combat).
        ``"sham"``: the attackers are shown an ordinary-looking result, recorded in the combat
        module's data under ``shams``; the target's strength and morale are unchanged, but a
        retreat in the result is made for real, so that every side sees the same board
        (ruling COMBAT-16); its side is told it ignored the rest. ``"ignored"``: nothing
        happens; the attackers are told the attack had no effect. ``None``: resolved
        normally."""
        return None

    def on_sham(self, out: Outcome, unit_id: str, home: Cell, marker: str) -> None:
        """A sham result (``combat_shield`` said ``"sham"``) has just been shown on ``unit_id``:
        ``home`` is the cell it stood in when attacked (its retreat, if any, is already made),
        ``marker`` the morale state shown to the enemy (empty: none)."""

    def may_fight(self, state: GameState, unit: Unit, action: str) -> str | None:
        """Why the unit may not ``"fire"``, ``"assault"`` or ``"rally"`` now, or ``None``."""
        return None

    def may_recover_stragglers(self, state: GameState, unit: Unit) -> bool:
        """Whether the unit may recover stragglers at the end of this turn (the combat module
        checks the distance from enemy units itself)."""
        return True

    # -- rallying (offered by the combat module) -------------------------------------------------
    def rally_as(self, out: Outcome, unit: Unit) -> str | None:
        """This module's own rally of ``unit`` from the morale state it is given (``unit.morale``:
        a sham marker's, say), for another module to use: ``Refusal`` for whatever would refuse
        that rally (no other module's ``may_fight`` is asked), else its roll, secret to the
        unit's side. The morale state the roll leaves it in (the same when it fails), or
        ``None`` if this module has no rally. No event changes the unit: the caller records
        the result."""
        return None

    def may_rally_as(self, state: GameState, unit: Unit) -> str | None:
        """Why this module's own rally (``rally_as``) would refuse ``unit`` from the morale
        state it is given, as far as the unit's side can tell (an enemy next to it, which the
        side may not see, is left to the rally itself: ruling FLOW-12); ``None`` if nothing
        would, or if this module has no rally."""
        return None

    # -- where units count ------------------------------------------------------------------------
    def counted_cell(self, state: GameState, unit: Unit, cell: Cell | None) -> Cell | None:
        """Where the unit counts as standing (``rules.forces.counting.counts_at``), given the cell
        decided so far (its own on the map, its marker's inside one, else ``None``)."""
        return cell

    # -- what a side sees -------------------------------------------------------------------------
    def information_model(self, state: GameState, viewer: str,
                          model: InformationModel) -> InformationModel:
        """The information model under which ``viewer`` sees its enemies now, given the one
        decided so far (the scenario's, or an earlier module's)."""
        return model

    def appearance(self, state: GameState, viewer: str, unit: Unit) -> Unit:
        """How an enemy unit appears to ``viewer`` (for example where a sham retreat left it)."""
        return unit

    def shows_anonymous(self, state: GameState, viewer: str, unit: Unit) -> bool:
        """Whether the enemy ``unit`` shows to ``viewer`` as anonymous: its kind and formation
        seen, its identity (name, strength, echelon, morale) not (a released scout, say)."""
        return False

    def marker_contents(self, state: GameState, side: str, marker: Marker
                        ) -> tuple[str, ...] | None:
        """The ids of the units under one of ``side``'s own markers (empty for a decoy), or
        ``None`` if this module did not make it. Asked for the owner's view only."""
        return None

    def view_notes(self, state: GameState, side: str) -> ModuleNote | None:
        """This module's typed note for the side's view (its own marches, say), or ``None``.
        Only what the side may know."""
        return None

    def overlay(self, note: ModuleNote | None, enemies: tuple[UnitView, ...],
                ground: Ground) -> Overlay:
        """What this module draws on the side's map (its own routes, the cells it can tell are
        blocked), from the module's own note for the side, the enemy counters in the side's
        view and the public ground only: no game state, so nothing the side does not know."""
        return Overlay()

