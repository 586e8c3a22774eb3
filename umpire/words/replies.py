"""The words a player reads when asking about a game, written from their side's view only.

Every text here is a function of a ``SideView`` (the player's side's, or the public one for what
everyone may read) and of what the umpire's own records say in public (who is seated, who asks
for a seat): never of the game state. What a view does not hold cannot be worded, so nothing a
side may not know can reach it through these texts. ``umpire.service`` only fetches the view and
hands the words back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from rules import commands as cmd
from rules import events as ev
from rules.forces.words import COMBAT_KINDS, formation_said
from rules.turn.status import GameStatus
from rules.view import IDENTIFIED, SideView
from umpire.words import units as units_list
from umpire.words.deadlines import PhaseDeadline, deadline_line

# -- refusals --------------------------------------------------------------------------------------
#: The same answer whoever asks, so that it tells nothing about the game.
NOT_PLAYING = "you are not playing in this game; join a side first"
HOST_ONLY = "only the game's host can do that"
ALREADY_ACCEPTED = "That order was already accepted."
#: Only after many tries in a row each found another command committed to the game first
#: (``umpire.games.retrying``): a storm no play group makes.
BUSY = ("the umpire is swamped with commands for this game just now; nothing was changed. "
        "Please send it again in a minute")


def no_such_game(game_id: str) -> str:
    return f"there is no game {game_id[:40]!r}"


# -- the turn --------------------------------------------------------------------------------------
def turn_heading(view: SideView) -> str:
    """The turn as the turn track gives it: clock time, day, light and visibility (public)."""
    sight = ("no range limit to sight" if view.visibility is None
             else f"visibility {view.visibility} hexes")
    return f"Turn {view.turn} - {view.time}, day {view.day}, {view.light}; {sight}"


def waiting_text(view: SideView) -> str:
    """Who is still to give orders, as far as everyone may know."""
    if view.waiting_for is None:
        return ("Waiting for: the end of the phase (every side gives its orders at once; who "
                "has finished is not announced)")
    waiting = ", ".join(view.name_of_side(s) for s in view.waiting_for)
    return f"Waiting for: {waiting or 'nobody'}"


def status_text(view: SideView, game_id: str, status: str,
                seated: Mapping[str, Sequence[int]], asking: Iterable[tuple[int, str]],
                deadline: PhaseDeadline | None = None) -> str:
    """The game's status from the public view: scenario, turn, phase, who is still to act (as
    far as that is told), the phase's deadline (public: ruling FLOW-27), each side's players,
    and who asks the host for a seat."""
    lines = [f"**{view.title}** (game `{game_id}`, {status})"]
    if GameStatus(status).in_play:
        lines.append(f"{turn_heading(view)}; {view.phase}"
                     + (f" ({view.name_of_side(view.phasing)})" if view.phasing else ""))
        lines.append(waiting_text(view))
        lines.append(deadline_line(deadline) or "Deadline: none (the phase waits for every side)")
    for side, users in seated.items():
        who = ", ".join(f"<@{u}>" for u in users) or "nobody yet"
        lines.append(f"{view.name_of_side(side)} ({side}): {who}")
    asked = [f"<@{user}> ({side})" for user, side in asking]
    if asked:
        lines.append("Asking the host for a seat: " + ", ".join(asked))
    return "\n".join(lines)


# -- the side's own forces -------------------------------------------------------------------------
def units_text(view: SideView) -> str:
    """The side's own units, as ``/units`` lists them (``umpire.words.units``): where they are,
    formation, strength (and stragglers), morale when not normal, and MPs left; those not on
    the map say when they arrive, or that they are eliminated or withdrawn."""
    return units_list.units_text(view)


def own_unit_names(view: SideView) -> list[str]:
    """Names of the side's own units (on the map or not), for autocomplete."""
    return sorted([u.name for u in view.own_units()] + [o.name for o in view.off_map])


def visible_enemy_names(view: SideView, *, troops_only: bool = True) -> list[str]:
    """Names of the enemy units (``troops_only``: combat units) the side sees identified now."""
    return sorted({u.name for u in view.enemy_units() if u.level == IDENTIFIED
                   and (u.kind in COMBAT_KINDS or not troops_only)})


def map_caption(view: SideView) -> str:
    return f"{view.side_name}, turn {view.turn}."


def log_text(texts: Iterable[str]) -> str:
    """The messages a player has received (public and their side's), oldest first."""
    return "\n\n".join(texts) or "Nothing has happened yet."


# -- answers to orders -----------------------------------------------------------------------------
def acknowledgement(own: SideView, command: cmd.Command, events: Iterable[ev.Event],
                    full: Callable[[], SideView]) -> str:
    """The reply to the commanding player, from their own side's knowledge after the command and
    the events addressed to their side only: ``own`` (``rules.view.own_view``) for what their
    own units did, ``full`` (their side's whole view, worked out only when asked) for a rule
    module's report."""
    view = own
    events = list(events)
    for e in events:
        if isinstance(e, ev.UnitMoved):
            unit = view.unit(e.unit)
            end = view.board.describe(unit.cell) if unit else "?"
            name = unit.name if unit else e.unit
            left = f"{unit.mp_left:g}" if unit and unit.mp_left is not None else "?"
            text = (f"{name} moved {len(e.path)} cell(s) to {end}, spending {e.mp:g} MP "
                    f"({left} left).")
            return text + (f" It stopped: {e.stopped}." if e.stopped else "")
        if isinstance(e, ev.UnitHalted):
            return (f"{_own_name(view, e.unit)} {e.reason} and halts where it stands for the "
                    "rest of this phase.")
        if isinstance(e, ev.FormationChanged):
            return f"{_own_name(view, e.unit)} is now {formation_said(e.formation)}."
    if isinstance(command, cmd.Done):
        return "Noted: your side has finished this phase."
    if isinstance(command, cmd.Correct):
        return ("Done: the correction is logged. The game's channel is told that you made one "
                "(not what), and the end of the game lists it in full.")
    if view.side:
        mine = ev.side_audience(view.side)
        for e in events:  # a rule module's order: the first report to the side
            if e.audience == mine and type(e).report is not ev.GameEvent.report:
                text = e.report(full())
                if text:
                    return text
    return "Done."


def _own_name(view: SideView, ref: str) -> str:
    """One of the side's own units by name, on the map or off it (yet to arrive), never by its
    id."""
    unit = view.unit(ref) or next((u for u in view.off_map if u.ref == ref), None)
    return unit.name if unit else ref

