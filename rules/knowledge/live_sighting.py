"""Each game's sighting kept alive between commands, brought up to date by the units that changed.

A command changes the places of a few units, yet a pass from scratch reads all of them. The
live sighting of a game keeps the ``Sighting`` of the units it last saw, and is brought to a new
set of units by the units that differ: a state's units are shared, record for record, with the
state it came from, so a record that is the same object is the same unit in the same place, and
only the others are compared. The answer is always the one a fresh pass would give
(``rules.sighting.sighting_pass.full_pass``); only its cost depends on what changed, and that
cost is paid by the command that changed it, whose own sighting events come first.

Live sightings are kept per sighting rule, visibility, blocked radius and sides, a few games to
each, the least recently used given up first; a state finds the one whose units it shares most.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from itertools import compress, count, islice
from operator import is_not
from types import TracebackType

from rules.forces.lineage import changed_since
from rules.forces.units import Unit
from rules.ground.gamemap import GameMap
from rules.sighting.rule import SightingRule
from rules.sighting.sighting_pass import Presence, Sighting

#: Live sightings kept for each key, and in all. Games of one scenario share a key, so a key
#: keeps one for each game being played at once (20 in ``bench.umpire``): a game whose sighting
#: was given up pays a pass from scratch at its next command.
_PER_KEY = 32
_KEPT = 64
#: How many of a state's units are looked at to find the live sighting it shares most with,
#: when none stands for a set it was made from in at most ``_NEAR`` steps.
_SAMPLE = 12
_NEAR = 16

Key = tuple[object, ...]


class LiveSighting:
    """One game's sighting, and the units it stands for."""

    def __init__(self, rule: SightingRule, visibility: int, radius: int,
                 sides: tuple[str, ...]) -> None:
        self.rule = rule
        self.visibility = visibility
        self.radius = radius
        self.sides = sides
        self.lock = threading.Lock()
        self.units: Mapping[str, Unit] = {}
        self._sighting: Sighting | None = None

    def shares(self, sample: list[tuple[str, Unit]]) -> int:
        """How many of the sampled units are the very records this sighting stands for."""
        units = self.units
        return sum(units.get(uid) is unit for uid, unit in sample)

    def sync(self, units: Mapping[str, Unit]) -> Sighting:
        """The sighting of ``units``, brought up to date from the units it stood for (the
        caller holds ``lock``)."""
        sighting = self._sighting
        if sighting is None:
            sighting = self._sighting = Sighting(
                self.rule, self.visibility, _presences(self.rule.game_map, units),
                blocked_radius=self.radius, sides=self.sides)
            self.units = units
            return sighting
        old = self.units
        if old is units:
            return sighting
        try:
            _bring_up_to_date(sighting, self.rule.game_map, old, units)
        except Exception:
            self._sighting = None  # never kept half brought up to date
            raise
        self.units = units
        return sighting

    def forget(self) -> None:
        """Drop the sighting (it no longer stands for ``units``); the next sync starts anew."""
        self._sighting = None
        self.units = {}


def _presences(gm: GameMap, units: Mapping[str, Unit]) -> list[Presence]:
    return [Presence(u.id, u.side, gm.idx(u.cell), u.combat, u.observer)
            for u in units.values() if u.cell is not None]


def _differing(old: Mapping[str, Unit], units: Mapping[str, Unit]) -> Iterable[str] | None:
    """The ids whose records are not the very objects of ``old``, when both hold the same ids in
    the same order (as a state made from another does); else ``None``. Compared a whole list
    at a time, so that a few changed records among hundreds cost next to nothing."""
    ids = list(units)
    if len(ids) != len(old) or ids != list(old):
        return None
    return [ids[i] for i in compress(count(), map(is_not, old.values(), units.values()))]


def _bring_up_to_date(sighting: Sighting, gm: GameMap, old: Mapping[str, Unit],
                      units: Mapping[str, Unit]) -> None:
    noted = changed_since(old, units)
    if noted is not None:  # only these records were replaced since (``with_units``)
        for uid in sorted(noted):
            _bring_one(sighting, gm, uid, old.get(uid), units[uid])
        return
    differing = _differing(old, units)
    if differing is None:
        _bring_each(sighting, gm, old, units)
        return
    for uid in differing:
        _bring_one(sighting, gm, uid, old[uid], units[uid])


def _bring_each(sighting: Sighting, gm: GameMap, old: Mapping[str, Unit],
                units: Mapping[str, Unit]) -> None:
    """``_bring_up_to_date`` unit by unit, for sets of different ids."""
    placed = sighting.units
    shared = 0
    for uid, unit in units.items():
        was = old.get(uid)
        if was is not None:
            shared += 1
        _bring_one(sighting, gm, uid, was, unit)
    if shared != len(old):  # some units of the old set are gone altogether
        for uid in [u for u in old if u not in units and u in placed]:
            sighting.remove(uid)


def _bring_one(sighting: Sighting, gm: GameMap, uid: str, was: Unit | None, unit: Unit
               ) -> None:
    """The sighting of ``was`` made that of ``unit``, the records of unit ``uid``."""
    if was is not None and (was is unit or (was.cell == unit.cell and was.side == unit.side
                                            and was.kind == unit.kind)):
        return
    placed = sighting.units
    cell = unit.cell
    there = placed.get(uid)
    if cell is None:
        if there is not None:
            sighting.remove(uid)
        return
    index = gm.idx(cell)
    if there is None:
        sighting.add(Presence(uid, unit.side, index, unit.combat, unit.observer))
    elif (there.side, there.combat, there.observer) == (unit.side, unit.combat, unit.observer):
        sighting.move(uid, index)
    else:
        sighting.remove(uid)
        sighting.add(Presence(uid, unit.side, index, unit.combat, unit.observer))


_LIVE: dict[Key, list[LiveSighting]] = {}
_LIVE_LOCK = threading.Lock()


def _kept() -> int:
    return sum(len(found) for found in _LIVE.values())


def live_for(rule: SightingRule, visibility: int, radius: int, sides: tuple[str, ...],
             units: Mapping[str, Unit]) -> LiveSighting:
    """The live sighting that shares most of ``units``, or a new one in place of the least
    recently used."""
    key: Key = (rule, visibility, radius, sides)  # the rule itself: kept alive while kept here
    with _LIVE_LOCK:
        found = _LIVE.setdefault(key, [])
        for live in reversed(found):  # the most recently used first
            if live.units is units or changed_since(live.units, units, _NEAR) is not None:
                if live is not found[-1]:
                    found.remove(live)
                    found.append(live)
                return live
        sample = list(islice(units.items(), _SAMPLE))
        best = max(found, key=lambda live: live.shares(sample), default=None)
        if best is None or (sample and not best.shares(sample)):
            best = LiveSighting(rule, visibility, radius, sides)
            if len(found) >= _PER_KEY:
                found.pop(0)
            elif _kept() >= _KEPT:
                oldest = next(k for k, v in _LIVE.items() if v)
                _LIVE[oldest].pop(0)
                if not _LIVE[oldest]:
                    del _LIVE[oldest]
            found = _LIVE.setdefault(key, [])
        else:
            found.remove(best)
        found.append(best)  # the most recently used last
        return best


class synced:  # lower case: it reads as a call, ``with synced(...) as sighting``
    """The sighting of ``units``, held for the caller alone while the block runs. A caller that
    moves units in it must leave each where ``units`` has it; one that fails in the block
    leaves it to be worked out anew."""

    __slots__ = ("_live", "_units")

    def __init__(self, rule: SightingRule, visibility: int, radius: int,
                 sides: tuple[str, ...], units: Mapping[str, Unit]) -> None:
        self._live = live_for(rule, visibility, radius, sides, units)
        self._units = units

    def __enter__(self) -> Sighting:
        self._live.lock.acquire()
        try:
            return self._live.sync(self._units)
        except BaseException:
            self._live.lock.release()
            raise

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if kind is not None:
            self._live.forget()
        self._live.lock.release()


def clear() -> None:
    """Forget every live sighting (benchmarks time a cold pass this way)."""
    with _LIVE_LOCK:
        _LIVE.clear()
