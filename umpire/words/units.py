"""The side's own units as ``/units`` lists them, written from the side's view only.

The list comes in sections, in this order (ruling FLOW-42): units on the map that can still move
(MPs left), units on the map that cannot (none left), units under the side's own markers, then
short sections for units still to arrive, eliminated and withdrawn. Within the first three,
units are grouped by command as the order of battle gives it: a corps, then each of its
divisions; a leader or HQ stands first in the group of the command it leads. The list is cut
into pages that fit a Discord embed; a group that runs onto the next page is headed again there.

A ``filter`` narrows the list (ruling FLOW-43): a state word (``movable``, ``arriving``,
``eliminated``), or else a part of a unit's name or of one of its commands' names (a command
takes everything under it).

Everything here reads the ``SideView``: what the side's view does not hold cannot be listed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from rules.forces.location import Arriving, Eliminated, InMarker, Location, OnMap, Withdrawn
from rules.forces.words import COMBAT_KINDS, LEADER_KINDS, Echelon
from rules.scenario.markup import plain
from rules.view import CommandView, OffMapUnit, SideView, UnitView
from umpire.words.markers import detachment_words

#: Unit lines on one page, and the most characters of a page (an embed holds 4096).
PAGE_LINES = 18
PAGE_CHARS = 3500
#: The longest filter a player may give (it travels in the page buttons' ids).
MAX_FILTER = 40


class Section(StrEnum):
    """Where a unit is listed, by what it can do now."""

    MOVABLE = "Can still move"
    SPENT = "On the map, no MPs left"
    MARKED = "Under your markers"
    ARRIVING = "Arriving"
    ELIMINATED = "Eliminated"
    WITHDRAWN = "Withdrawn"


#: Sections of one line a unit, without command headings.
SHORT_SECTIONS = frozenset({Section.ARRIVING, Section.ELIMINATED, Section.WITHDRAWN})


class StateFilter(StrEnum):
    """The state words a ``filter`` may be."""

    MOVABLE = "movable"
    ARRIVING = "arriving"
    ELIMINATED = "eliminated"


_BY_STATE = {StateFilter.MOVABLE: Section.MOVABLE, StateFilter.ARRIVING: Section.ARRIVING,
             StateFilter.ELIMINATED: Section.ELIMINATED}
UNATTACHED = "Unattached"


@dataclass(frozen=True, slots=True)
class Entry:
    """One unit's line, with the section and the command group it is listed under."""

    section: Section
    group: str
    order: tuple[int, int, str]
    line: str
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class UnitsList:
    """The list cut into pages (each a text), and how many units it lists."""

    pages: tuple[str, ...]
    count: int

    def page(self, number: int) -> tuple[int, str]:
        """Page ``number`` (counted from 0, brought within the list) and its text."""
        number = max(0, min(number, len(self.pages) - 1))
        return number, self.pages[number]


@dataclass(frozen=True, slots=True)
class UnitsPage:
    """One page of a player's list as ``/units`` shows it: its text, its number (from 0), the
    number of pages, how many units the whole list holds, and the side's name."""

    text: str
    number: int
    pages: int
    count: int
    side_name: str


class _Commands:
    """The side's chain of command, read from its view: each command's place in the order of
    battle (parents first) and its line of commands up to the army."""

    def __init__(self, commands: Sequence[CommandView]) -> None:
        self.by_id = {c.id: c for c in commands}
        self.order: dict[str, int] = {}
        children: dict[str, list[CommandView]] = {}
        for c in commands:
            parent = c.parent if c.parent in self.by_id else ""
            children.setdefault(parent, []).append(c)

        def walk(parent: str) -> None:
            for c in children.get(parent, []):
                if c.id not in self.order:
                    self.order[c.id] = len(self.order)
                    walk(c.id)

        walk("")

    def line_of(self, command: str) -> list[CommandView]:
        """The command and those above it, the highest first."""
        out: list[CommandView] = []
        c = self.by_id.get(command)
        while c is not None and c not in out:
            out.append(c)
            c = self.by_id.get(c.parent)
        return list(reversed(out))

    def heading(self, command: str) -> str:
        """The group's heading: the corps, then the division (an army's own units: the army)."""
        line = self.line_of(command)
        if not line:
            return UNATTACHED
        below_army = [c for c in line if c.echelon is not Echelon.ARMY] or line
        return " › ".join(plain(c.name) for c in below_army)

    def names(self, command: str) -> tuple[str, ...]:
        return tuple(c.name for c in self.line_of(command))

    def place(self, command: str) -> int:
        return self.order.get(command, len(self.order))


def units_list(view: SideView, filter_text: str = "") -> UnitsList:
    """The side's own units, sectioned, grouped and cut into pages; only those the filter
    keeps."""
    commands = _Commands(view.commands)
    entries = [_entry(view, commands, u) for u in view.own_units()]
    entries += [_off_entry(view, commands, o) for o in view.off_map]
    kept = _filtered(entries, filter_text)
    if not kept:
        return UnitsList((_none_kept(bool(entries), filter_text),), 0)
    ordered = sorted(kept, key=lambda e: (list(Section).index(e.section), e.order))
    return UnitsList(_pages(ordered), len(ordered))


def units_page(view: SideView, page: int = 0, filter_text: str = "") -> UnitsPage:
    """Page ``page`` (from 0, brought within the list) of ``units_list``."""
    listed = units_list(view, filter_text)
    number, text = listed.page(page)
    return UnitsPage(text, number, len(listed.pages), listed.count, view.side_name)


def sides_page(views: Sequence[SideView], page: int = 0, filter_text: str = "") -> UnitsPage:
    """Once the game is over: every side's list, one side after the other, each page headed
    with its side's name, so that the table can go through all of them."""
    pages: list[str] = []
    count = 0
    for view in views:
        listed = units_list(view, filter_text)
        for text in listed.pages:
            headed = f"__{plain(view.side_name)}__\n{text}"
            if pages and len(pages[-1]) + len(headed) + 2 <= PAGE_CHARS:
                pages[-1] += "\n\n" + headed  # small sides share a page
            else:
                pages.append(headed)
        count += listed.count
    number = max(0, min(page, len(pages) - 1))
    return UnitsPage(pages[number], number, len(pages), count, "every side")


def units_text(view: SideView, filter_text: str = "") -> str:
    """The whole list as one text (every page, in order)."""
    return "\n".join(units_list(view, filter_text).pages)


def _none_kept(any_units: bool, filter_text: str) -> str:
    if not any_units:
        return "You have no units."
    wanted = filter_text.strip()[:MAX_FILTER]
    if wanted.casefold() in set(StateFilter):
        return f"None of your units is {_STATE_WORDS[StateFilter(wanted.casefold())]}."
    return (f"None of your units matches “{plain(wanted)}”. A filter is a part of a unit's or "
            "a command's name, or one of: " + ", ".join(f.value for f in StateFilter) + ".")


_STATE_WORDS = {StateFilter.MOVABLE: "able to move now", StateFilter.ARRIVING: "still to arrive",
                StateFilter.ELIMINATED: "eliminated"}


# -- the lines -------------------------------------------------------------------------------------
def _entry(view: SideView, commands: _Commands, u: UnitView) -> Entry:
    mp = u.mp_left or 0
    section = Section.MOVABLE if mp > 0 else Section.SPENT
    line = (f"{_what(u.name, u.kind, u.strength or 0, u.stragglers, u.formation, u.morale)} "
            f"at {plain(view.board.describe(u.cell))}; {mp:g} MP left{_detachment(view, u)}")
    return Entry(section, commands.heading(u.command), _order(commands, u.command, u.kind,
                                                                u.name),
                 line, (u.name, *commands.names(u.command)))


def _detachment(view: SideView, u: UnitView) -> str:
    """``; detached``, or a detachment order waiting for the side's next movement phase
    (ruling CF-27)."""
    said = detachment_words(view, u.ref)
    return f"; {said}" if said else ""


def _off_entry(view: SideView, commands: _Commands, o: OffMapUnit) -> Entry:
    section, where = _off_words(view, o.location)
    if section in SHORT_SECTIONS:
        strength = f", {o.strength} SP" if o.combat and section is Section.ARRIVING else ""
        stragglers = (f", {o.stragglers} straggling" if o.stragglers
                      and section is Section.ELIMINATED else "")
        line = f"{plain(o.name)} ({o.kind}{strength}{stragglers}){where}"
    else:
        line = (f"{_what(o.name, o.kind, o.strength, o.stragglers, o.formation, o.morale)}"
                f"{where}")
    return Entry(section, commands.heading(o.command), _order(commands, o.command, o.kind,
                                                                o.name),
                 line, (o.name, *commands.names(o.command)))


def _off_words(view: SideView, location: Location) -> tuple[Section, str]:
    """The section of a unit not on the map, and where it is in words (each kind of place its
    own words: a unit is never said to be "at" somewhere it is not)."""
    match location:
        case Arriving(turn=turn, cell=cell):
            return Section.ARRIVING, f": arrives turn {turn} at {plain(view.board.describe(cell))}"
        case InMarker(marker_id=mid):
            return Section.MARKED, f" under marker {plain(mid)}"
        case Eliminated():
            return Section.ELIMINATED, ""
        case Withdrawn():
            return Section.WITHDRAWN, ""
        case OnMap(cell=cell):  # not off the map after all; said as on the map
            return Section.SPENT, f" at {plain(view.board.describe(cell))}"


def _what(name: str, kind: str, strength: int, stragglers: int, formation: str,
          morale: str) -> str:
    """A unit's name, kind, strength (and stragglers), formation and morale when not normal."""
    shown = f", {strength} SP" if kind in COMBAT_KINDS else ""
    if stragglers:
        shown += f" and {stragglers} straggling"
    mood = f", {morale}" if morale != "normal" else ""
    return f"{plain(name)} ({kind}{shown}, {formation}{mood})"


def _order(commands: _Commands, command: str, kind: str, name: str) -> tuple[int, int, str]:
    """Groups in the order of battle's order; in a group its leader or HQ first, then by
    name."""
    return (commands.place(command), 0 if kind in LEADER_KINDS else 1, name)


# -- filtering and pages ---------------------------------------------------------------------------
def _filtered(entries: list[Entry], filter_text: str) -> list[Entry]:
    wanted = filter_text.strip().casefold()[:MAX_FILTER]
    if not wanted:
        return entries
    if wanted in set(StateFilter):
        section = _BY_STATE[StateFilter(wanted)]
        return [e for e in entries if e.section is section]
    return [e for e in entries if any(wanted in n.casefold() for n in e.names)]


def _pages(entries: list[Entry]) -> tuple[str, ...]:
    """The entries cut into pages; each page heads its sections and groups (again, marked
    "continued", when one runs on from the page before)."""
    pages: list[str] = []
    lines: list[str] = []
    count = 0
    at: tuple[Section | None, str | None] = (None, None)
    for e in entries:
        size = sum(len(x) + 1 for x in lines)
        if count >= PAGE_LINES or size + len(e.line) + 200 > PAGE_CHARS:
            pages.append("\n".join(lines))
            lines, count = [], 0
            section, group = at
            at = (None, None)
            if section is e.section:
                lines.append(f"**{section.value}** (continued)")
                at = (section, None)
                if group == e.group and section not in SHORT_SECTIONS:
                    lines.append(f"*{e.group}* (continued)")
                    at = (section, group)
        if at[0] is not e.section:
            lines.append(f"**{e.section.value}**")
            at = (e.section, None)
        if e.section not in SHORT_SECTIONS and at[1] != e.group:
            lines.append(f"*{e.group}*")
            at = (e.section, e.group)
        lines.append(f"- {e.line}")
        count += 1
    pages.append("\n".join(lines))
    return tuple(pages)
