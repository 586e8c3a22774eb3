"""What a side can do now, from its own view: the offers of the current step, and auto-pass.

When a step begins, a side that acts in it and has nothing it could do passes it by itself,
under the game option ``auto_pass`` (ruling FLOW-10): a ``SideDone`` with ``by_itself`` set, and
a line to the side alone saying why. Whether a side has something to do is read from its own
units, its own rule-module records and its view (``rules.view.project``): an enemy counts only as
the side's view shows it, so that hidden enemy units never decide it (ruling FLOW-11).

The core offers movement and changes of formation; every other action is a rule module's and
the module is asked (``RuleModule.offers``): Surprise Move's orders in the Command Phase,
Concealed Forces' markers and concealment orders, combat's fire, close combat and rallies.
An offer is generous rather than strict: a side that might be able to act keeps its step, so
that auto-pass never takes a choice away (ruling FLOW-12).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.modules.registry import in_force
from rules.orders.may import formation_refusal, may_step
from rules.scenario.markup import plain
from rules.state import GameState, remembered
from rules.turn.offers import Offer
from rules.turn.sequence import Step
from rules.view import SideView, project

#: The game option: a side with nothing to do in a step passes it by itself (on for games
#: created by the umpire; absent from games recorded before it existed, which read it as off:
#: ruling FLOW-13).
AUTO_PASS = "auto_pass"

#: The game option that lets a phase one side plays alone pass by itself too (default off:
#: there, the phase's end is public the moment it comes, so a pass would tell the enemy what
#: the side sees and which of its units are held; ruling FLOW-15).
AUTO_PASS_ALONE = "auto_pass_alone"

_YES = frozenset({"true", "yes", "on", "1"})

#: Why a step passed, by the first of its actions the step allows (the side is told).
_NOTHING: tuple[tuple[str, str], ...] = (
    ("move", "none of your units can move"),
    ("fire", "none of your units has a target in sight"),
    ("combat", "none of your units has a target in sight"),
    ("order", "your side has no orders it can give"),
)


def auto_passes(options: Mapping[str, str | int | bool], key: str = AUTO_PASS) -> bool:
    """Whether the game's options ask for steps to pass by themselves (absent: no, ruling
    FLOW-13); with ``key`` ``AUTO_PASS_ALONE``, steps one side plays alone too. Written as a
    TOML boolean, or as yes/no, on/off, 1/0."""
    value = options.get(key, False)
    if isinstance(value, str):
        return value.strip().lower() in _YES
    return bool(value)


@dataclass(frozen=True, slots=True)
class SideOptions:
    """What ``side`` could do now: the step's title, the actions it allows, and the offers."""

    side: str
    phase: str
    allowed: tuple[str, ...]
    offers: tuple[Offer, ...]

    @property
    def idle(self) -> bool:
        """Nothing the side could do in the step."""
        return not self.offers

    def units(self) -> tuple[str, ...]:
        """The side's units (and markers) that could still act, each named once."""
        seen: dict[str, None] = {}
        for offer in self.offers:
            for name in offer.units:
                seen.setdefault(name, None)
        return tuple(seen)

    @property
    def why_idle(self) -> str:
        """Why the side has nothing to do, in its words."""
        for action, words in _NOTHING:
            if action in self.allowed:
                return words
        return "your side has nothing it can do in it"

    def passed_text(self) -> str:
        """The line the side gets when its step passes by itself."""
        return f"{plain(self.phase)} passed: {self.why_idle}."


@remembered()  # (its call for orders, its standing orders and its Done button all ask)
def side_options(state: GameState, side: str) -> SideOptions:
    """What ``side`` could do now in the current step (nothing when it is not acting in it,
    or has finished it)."""
    step = state.current
    allowed = tuple(sorted(step.actions))
    if side not in step.acting(state.sides) or side in state.done:
        return SideOptions(side, step.title, allowed, ())
    view = project(state, side)
    offers = list(core_offers(state, side, view, step))
    for module in in_force(state.modules):
        offers += module.offers(state, side, view, step)
    return SideOptions(side, step.title, allowed, tuple(offers))


def passes_by_itself(state: GameState, side: str) -> SideOptions | None:
    """The side's options when it passes the current step by itself now (the game asks for
    auto-pass and it has nothing to do), else ``None``."""
    options = state.loaded.scenario.scenario.options
    if not auto_passes(options):
        return None
    if state.current.side is not None and not auto_passes(options, AUTO_PASS_ALONE):
        # A step one side plays alone ends in public the moment the side is done: its passing
        # at once would tell the enemy that the side has no target in sight, or that its units
        # are held (a march order), where a typed /done proves nothing (ruling FLOW-15).
        return None
    found = side_options(state, side)
    return found if found.idle else None


# -- the core's offers ---------------------------------------------------------------------------
def core_offers(state: GameState, side: str, view: SideView, step: Step) -> tuple[Offer, ...]:
    """Movement and changes of formation: the side's units on the map (as its view lists them)
    that the order would accept (``rules.orders.may``: no rule module holds them, MPs left for a
    step into a neighbouring cell, or for a change of formation). Enemy units are not looked
    at: where one stands in the way, the order is still the side's to give (it stops the move,
    never refuses it)."""
    out: list[Offer] = []
    mine = [state.units[u.ref] for u in view.own_units() if u.ref in state.units]
    on_map = [u for u in mine if u.cell is not None]
    if step.allows("move"):
        movers = [u for u in on_map if may_step(state, u)]
        if movers:
            out.append(Offer("move", "move units (/move)", tuple(u.name for u in movers),
                             tuple(u.id for u in movers)))
    if step.allows("formation"):
        changers = [u for u in on_map if formation_refusal(state, u) is None]
        if changers:
            out.append(Offer("formation", "change formation (/formation)",
                             tuple(u.name for u in changers), tuple(u.id for u in changers)))
    return tuple(out)
