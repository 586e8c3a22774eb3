"""Ready players on a shared side: the rule, its words and the Done button's record.

Several players may share a side. Each seated player has a ready state for the current step of
play (``/done``, or the Done button under the orders message). The game option ``ready`` says
when the side has finished its step:

- ``all`` (the default): when every seated player of the side is ready. Until then a player's
  ``/done`` only records them ready and tells their side-mates; the last one's becomes the
  rules' ``Done`` for the side (ruling FLOW-1).
- ``any``: the first player's ``/done`` ends the side's step, as when a side has one player.

Readiness is the side's own business: nothing of it is told outside the side (ruling FLOW-3).
It cannot be taken back; a ready player may still give orders while the side waits (FLOW-2).
A player who leaves or loses their seat no longer counts: when everyone still seated is ready,
the side has finished (FLOW-4).

This module is pure (the words and the decisions); ``umpire.games.readying`` applies it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import Enum

from rules.modules.spec import OptionValue
from rules.scenario.markup import plain
from storage.json_codec import JsonObject
from umpire.games.seats import mention
from umpire.words.dossier import TITLE

#: The game option: when a side shared by several players has finished its step.
READY_OPTION = "ready"


class ReadyRule(Enum):
    """When a side has finished its step."""

    ALL = "all"  # every seated player is ready
    ANY = "any"  # one seated player is ready


READY_CHOICES: tuple[str, ...] = tuple(r.value for r in ReadyRule)
READY_DEFAULT = ReadyRule.ALL.value

#: What the create post says of each choice.
READY_WORDS: dict[OptionValue, str] = {
    ReadyRule.ALL.value: "a side shared by several players finishes a phase when all of them "
                         "are done",
    ReadyRule.ANY.value: "a side shared by several players finishes a phase as soon as one of "
                         "them is done",
}

#: The Done button's record in a delivery (``NewDelivery.buttons``): the front end turns it into
#: its own button.
DONE_ACTION = "done"
#: The Done for the turn button's record: the presser's ``/done until:next-turn``.
DONE_TURN_ACTION = "done-turn"

PHASE_OVER = "that phase is over; nothing was changed"
NOT_YOUR_SIDE = ("this button belongs to the orders of a side you do not command; nothing was "
                 "changed")


def rule_of(value: object) -> ReadyRule:
    """The rule a game's option value names (the default for anything else)."""
    return ReadyRule(value) if value in READY_CHOICES else ReadyRule(READY_DEFAULT)


@dataclass(frozen=True)
class SideReadiness:
    """Where a side's seated players stand in one step: who is ready (first ready first) and who
    is still giving orders (in seating order)."""

    ready: tuple[int, ...]
    waiting: tuple[int, ...]

    @property
    def finished(self) -> bool:
        """Everyone still seated is ready (a side with nobody seated never finishes by itself:
        the host ends its phase)."""
        return bool(self.ready) and not self.waiting


def readiness(seated: Sequence[int], ready: Sequence[int]) -> SideReadiness:
    """The side's readiness from its seated players and the users recorded ready in the step.
    Someone recorded ready who is no longer seated does not count."""
    here = set(seated)
    return SideReadiness(tuple(u for u in ready if u in here),
                         tuple(u for u in seated if u not in set(ready)))


def side_finishes(rule: ReadyRule, seated: Sequence[int], ready: Collection[int],
                  user: int) -> bool:
    """Whether ``user``'s ``/done`` finishes their side's step."""
    if rule is ReadyRule.ANY:
        return True
    return readiness(seated, [*ready, user]).finished


def _people(users: Sequence[int]) -> str:
    return ", ".join(mention(u) for u in users)


def you_are_ready(waiting: Sequence[int], *, already: bool = False) -> str:
    """The answer to a ready player whose side still waits for others."""
    start = "You are already ready" if already else "You are ready"
    return (f"{start}; still giving orders: {_people(waiting)}. Your side finishes the phase "
            "when they are done too; until then you may still give orders.")


def mates_text(phase: str, turn: int, state: SideReadiness) -> str:
    """What a ready player's side-mates are told."""
    return (f"{READY_NOTE}{plain(phase)} (turn {turn}): {_people(state.ready)}. Still "
            f"giving orders: {_people(state.waiting)}.")


#: How a readiness note begins (``mates_text``).
READY_NOTE = "Ready to end the "


def with_readiness(orders: str, note: str) -> str:
    """A side's orders message with a readiness note, in place of the one it had: under a
    dossier's title (who on the side is still to act heads it), or at the end of a message
    without one."""
    if orders.startswith(TITLE):
        head, _, rest = orders.partition("\n\n")
        title = head.split("\n")[0]
        return f"{title}\n{note}" + (f"\n\n{rest}" if rest else "")
    base, _, _ = orders.partition(f"\n\n{READY_NOTE}")
    return f"{base}\n\n{note}"


def cut_short_text(phase: str, turn: int) -> str:
    """The DM to a player whose side the host ended the phase for before they were done."""
    return (f"The host ended the {plain(phase)} (turn {turn}) before you had finished. The "
            "orders your side gave stand; the game has moved on to the next phase.")


def orders_key(side: str, turn: int, step: int) -> str:
    """The key of a side's orders message for ``turn``'s ``step`` (its turn dossier): each
    player's copy is edited in place when a side-mate is ready (ruling FLOW-3), never sent
    again."""
    return f"orders:{side}:{turn}:{step}"


#: The button under a side's orders message that opens a form for one unit's move.
MOVE_ACTION = "move"


def move_button(game_id: str) -> JsonObject:
    """The Move button under a side's orders message, when the phase lets the side move: a
    form for one unit and its route, given as ``/move`` gives it."""
    return {"action": MOVE_ACTION, "game": game_id}


def done_button(game_id: str, side: str, turn: int, step: int, *,
                turn_over: bool = False) -> JsonObject:
    """The Done button under a side's orders message for ``turn``'s ``step``; with
    ``turn_over``, the Done for the turn button beside it (ruling FLOW-70)."""
    return {"action": DONE_TURN_ACTION if turn_over else DONE_ACTION, "game": game_id,
            "side": side, "turn": turn, "step": step}
