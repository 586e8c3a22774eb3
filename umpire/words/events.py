"""The words of events for their audience, in the players' terms: printed labels and unit names,
never internal ids or coordinates.

Every text here is built from the event (whose audience already limits who gets it) and from the
addressed side's own view, so a message to one side never carries what that side may not know.
What authors and players wrote (titles, names, reasons) goes in through ``plain``: it reads as
written and never formats the message or mentions anyone. Which audience is told of an event is
decided in ``umpire.games.routing``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rules import events as ev
from rules.forces.location import Withdrawn, location_words
from rules.ground.board import Board, Place
from rules.ground.grid import Cell
from rules.knowledge.levels import IDENTIFIED, UnitView
from rules.knowledge.sighted import known_name, known_order
from rules.scenario.markup import plain
from rules.turn.idle import SideOptions
from rules.view import SideView
from umpire.words.deadlines import PhaseDeadline, orders_due


def started_text(view: SideView, sha: str, binding: str) -> str:
    texts = (f"\nScenario commitment (binds the scenario and ruleset texts this game "
             f"is played from): `{binding}`." if binding else "")
    return (f"**{plain(view.title)}** has begun.\n"
            f"Dice commitment (SHA-256 of the secret seed): `{sha}`.{texts} The seed is "
            "published when the game ends, so every roll can be checked; keep this "
            "message to compare with `vedette verify`.")


def _whose(view: SideView) -> str:
    return f"{plain(view.name_of_side(view.phasing))} " if view.phasing else ""


#: Units named for each thing a side may do in its call for orders (the rest are counted).
NAMED_UNITS = 4


def orders_text(view: SideView, options: SideOptions | None = None,
                own: SideView | None = None, deadline: PhaseDeadline | None = None,
                game_id: str = "") -> str:
    """The call for orders of the step the public ``view`` stands in; with the side's
    ``options`` (``rules.turn.idle``), what it may do now and which of its units can (with the MPs
    they have left, from the side's ``own`` view); with the step's ``deadline``, when the orders
    are due (public: ruling FLOW-27). Its first line, the dossier's title, names the game
    (``game_id``): one player's DMs from the bot hold every game he plays."""
    game = f" (game `{plain(game_id)}`)" if game_id else ""
    head = f"Your orders, please: {_whose(view)}{plain(view.phase)}, turn {view.turn}{game}."
    if deadline is not None:
        head += f" {orders_due(deadline)}"
    if options is None:
        return head
    if not options.offers:
        # A phase the side plays alone waits for its word even with nothing to do in it
        # (ruling FLOW-15): say so, from the side's own view.
        return f"{head}\nNothing to do in it: {options.why_idle}. Press Done, or /done."
    lines = [head, "You may:"]
    for offer in options.offers:
        lines.append(f"- {offer.words}" + (f": {_some(offer.units, own)}" if offer.units
                                           else ""))
    lines.append("When you have finished, /done.")
    return "\n".join(lines)


def _some(names: tuple[str, ...], own: SideView | None) -> str:
    """The first few of ``names`` (each with its MPs left, when the side's view has it), and
    how many more."""
    mps = {u.name: u.mp_left for u in own.own_units()} if own is not None else {}
    shown = []
    for name in names[:NAMED_UNITS]:
        mp = mps.get(name)
        shown.append(plain(name) + (f" ({mp:g} MP)" if mp is not None else ""))
    more = len(names) - NAMED_UNITS
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def host_ended_text(view: SideView) -> str:
    """The host's end of the phase the public view stands in, told to everyone."""
    return f"The host has ended the {_whose(view)}{plain(view.phase)} (turn {view.turn})."


def arrivals_text(view: SideView, ids: Iterable[str]) -> str:
    """Reinforcements, as their own side's view shows them on the map."""
    parts = []
    for ref in ids:
        unit = view.unit(ref)
        parts.append(f"{plain(unit.name)} at {_at(view.board, unit.cell)}" if unit
                     else plain(ref))
    return f"Reinforcements arrive: {'; '.join(parts)}."


def sighted_text(view: SideView, seen: Mapping[str, Mapping[str, Any]],
                 lost: Iterable[str], earlier: Iterable[UnitView] = ()) -> str:
    """What changed in the side's sight of the enemy since its last report: units its troops
    sight that were not in sight, units in sight that moved or now show otherwise (as the event
    records them), and units lost from sight (as the side's memory holds them). ``earlier`` is
    the side's memory before the event (``rules.view.memory_of``): a unit still in sight as it
    was is not told again. Empty when the side sees every enemy anyway."""
    if view.information.shows_every_enemy:
        return ""  # the side sees every enemy anyway; sighting is not news
    in_sight = {u.ref: u for u in earlier if u.level == IDENTIFIED}
    new: list[Mapping[str, Any]] = []
    moved: list[Mapping[str, Any]] = []
    changed: list[Mapping[str, Any]] = []
    for ref, w in seen.items():
        was = in_sight.get(ref)
        if was is None:
            new.append(w)
        elif Cell(*w["cell"]) != was.cell:
            moved.append(w)
        else:
            changed.append(w)
    board = view.board
    parts = []
    if new:
        # Anonymous units by what shows of them, never by who they are.
        parts.append("Your troops sight:" + by_place(view, [
            (Cell(*w["cell"]),
             f"{plain(known_name(w))} ({sighted_what(w)}) at {_at(board, Cell(*w['cell']))}")
            for w in _identified_first(new)]))
    if moved:
        parts.append("Still in sight, moved:" + by_place(view, [
            (Cell(*w["cell"]), f"{plain(known_name(w))} to {_at(board, Cell(*w['cell']))}")
            for w in _identified_first(moved)]))
    if changed:
        parts.append("Still in sight, now seen as: " + "; ".join(
            f"{plain(known_name(w))} ({sighted_what(w)}"
            + (f", {plain(str(w['formation']))}" if w.get("formation") else "") + ")"
            for w in _identified_first(changed)))
    lost = list(lost)
    if lost:
        parts.append("Lost from sight:" + by_place(view, [
            (_last_seen(view, uid), _ghost_name(view, uid))
            for uid in _lost_in_order(view, lost)]))
    return "\n".join(parts)


#: A unit this many cells or fewer from a named place is told as near it.
NEAR_PLACE = 3


def by_place(view: SideView, told: list[tuple[Cell | None, str]]) -> str:
    """Units told in a line, or, when they are near more than one named place of the map, a
    line for each place (the nearest within ``NEAR_PLACE`` cells; the rest last, as
    elsewhere), in the order each place first comes."""
    groups: dict[str, list[str]] = {}
    for cell, words in told:
        place = _near_place(view, cell)
        groups.setdefault(f"near {plain(place.name)}" if place else "elsewhere",
                          []).append(words)
    if len(groups) < 2:
        return " " + "; ".join(words for _, words in told)
    elsewhere = groups.pop("elsewhere", None)
    lines = [f"- {where}: " + "; ".join(words) for where, words in groups.items()]
    if elsewhere:
        lines.append("- elsewhere: " + "; ".join(elsewhere))
    return "\n" + "\n".join(lines)


def _near_place(view: SideView, cell: Cell | None) -> Place | None:
    """The named place nearest ``cell`` within ``NEAR_PLACE`` cells (the first listed, at equal
    distance)."""
    if cell is None:
        return None
    grid = view.game_map.grid
    near = [(grid.distance(cell, p.cell), i, p) for i, p in enumerate(view.board.places)]
    near = [n for n in near if n[0] <= NEAR_PLACE]
    return min(near)[2] if near else None


def _last_seen(view: SideView, uid: str) -> Cell | None:
    m = next((u for u in view.memory if u.ref == uid), None)
    return None if m is None else m.cell


def correction_for_host(e: ev.UnitCorrected, before: SideView) -> str:
    """The host's note of a correction, each change as it was and as it is now ("strength 8
    → 6, cell A0504 → A0605"): the host sees the game whole. ``before`` is the unit's own
    side's view before the correction (``rules.view.own_view``), which holds the unit in full
    wherever it is."""
    was = correctable_fields(before, e.unit)
    changed = []
    for key, value in e.changes.items():
        if key == "cell":
            now = (before.board.describe(Cell(*value)) if value is not None
                   else location_words(Withdrawn(), before.board.describe))
        else:
            now = str(value)
        old = was.get(key)
        changed.append(f"{key} {plain(old)} → {plain(now)}" if old is not None and old != now
                       else f"{key} {plain(now)}")
    what = ", ".join(changed) or "nothing changed"
    return f"Correction logged for {plain(e.name or e.unit)}: {what} ({plain(e.reason)})"


def correctable_fields(view: SideView, ref: str) -> dict[str, str]:
    """The fields a correction may change, in words, of the side's own unit ``ref`` as the
    view holds it (on the map or not); empty for a unit the view does not hold."""
    unit = view.unit(ref)
    if unit is not None:
        return {"cell": view.board.describe(unit.cell), "strength": str(unit.strength),
                "stragglers": str(unit.stragglers), "formation": unit.formation,
                "morale": unit.morale}
    off = next((o for o in view.off_map if o.ref == ref), None)
    if off is None:
        return {}
    return {"cell": location_words(off.location, view.board.describe),
            "strength": str(off.strength), "stragglers": str(off.stragglers),
            "formation": off.formation, "morale": off.morale}


def correction_text(view: SideView, e: ev.UnitCorrected, user: int | None) -> str:
    """Everyone hears that a correction was made and by whom, never what or where (the unit
    may be hidden from the other side), nor its place in the log (which counts the other
    side's hidden events). The game's end lists it in full."""
    by = f"<@{user}>" if user is not None else "the host"
    return (f"**Correction**: {by} corrected a unit of {plain(view.name_of_side(e.side))} by "
            "hand. Every correction is listed in full when the game ends.")


def roll_text(e: ev.DieRolled, game_id: str = "", number: int | None = None,
              meaning: str = "") -> str:
    """A secret roll in words; ``number`` is its place among the rolls told to the side.
    ``meaning`` is what the result means (the table's ``results``), or for a roll read on no
    table what came of it (``rules.events.roll_outcome``): a roll says what came of it, not only
    its code or its number, so that "**I**" reads as the initiative taken and a breeding die
    as the marker that kept the force."""
    mods = ", ".join(f"{k.replace('_', ' ')} {v:+d}" for k, v in e.modifiers.items())
    text = f"Secret roll for {e.purpose}: {e.value} on {e.dice}"
    if mods:
        text += f" ({mods})"
    if e.table:
        text += f"; {e.table.replace('_', ' ')} table" + (f", column {e.column}" if e.column
                                                           else "")
        text += f": **{e.result}**" + (f" ({meaning})" if meaning else "")
    elif meaning:
        text += f": {meaning}"
    if number is not None:
        game = f"game `{game_id}`, " if game_id else ""
        text += (f" ({game}your side's roll {number}; after the game `vedette verify --rolls` "
                 "shows it in the log)")
    return text


def _at(board: Board, cell: Cell) -> str:
    """A cell as players speak of it (``Board.describe``), the place's name made plain."""
    place = board.place_at(cell)
    return f"{board.label(cell)} ({plain(place.name)})" if place else board.label(cell)


def _ghost_name(view: SideView, uid: str) -> str:
    m = next((u for u in view.memory if u.ref == uid), None)
    if m is None:
        return "an enemy unit"
    return f"{plain(m.name)}, last seen at {view.board.label(m.cell)}"


def sighted_what(seen: Mapping[str, object]) -> str:
    """The kind and, when it was made out, the strength of a sighted unit."""
    strength = seen.get("strength")
    return f"{seen['kind']}, {strength}" if strength is not None else str(seen["kind"])


def _identified_first(seen: list[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """Sighted units as the event lists them, anonymous ones last, by what shows of them."""
    return ([w for w in seen if not w.get("anonymous")]
            + sorted((w for w in seen if w.get("anonymous")), key=known_order))


def _lost_in_order(view: SideView, lost: Iterable[str]) -> list[str]:
    """Units lost from sight as the event lists them, anonymous ones last, by what showed (the
    side's memory lists them in that order)."""
    lost = list(lost)
    anonymous = [u.ref for u in view.memory if u.ref in lost and u.anonymous]
    return [u for u in lost if u not in anonymous] + anonymous
