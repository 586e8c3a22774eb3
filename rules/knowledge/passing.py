"""Seen on the way: what each side's troops saw while units moved, and what the movers' owners
learn of it (rulings INFO-18 and INFO-19).

A move is watched as it is made (``rules.sighting.along``). Once the side's sighting of where
the move ended is recorded (``Sighted``), this module adds what only the way showed:

* an enemy unit seen at some step and out of sight at the end is remembered lost from sight
  where it was last seen, as it showed there, with the stretch of its way that was in sight
  (``SeenPassing``): under every model, so the map can draw its trail and, where the side sees
  the enemy only by sighting, its ghost;
* a moving enemy unit still in sight at the end keeps the stretch of its way that was seen;
* a counter seen only as anonymous leaves no trail (nothing follows one from place to place,
  ruling INFO-12), and one seen to move on from where the side had last seen it stand leaves
  no ghost there;
* a moving unit identified on the way by an enemy side playing face-down counters, and face
  down again at the end, was turned face up as it passed, which its owner sees on the table:
  he is told once the command is done (``SeenOnTheWay``; one face up at the end is told as
  turned where it stands, ruling CV-38). Under the hidden model the owner is told nothing: the
  enemy's sight is not his to know.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from rules import events as ev
from rules.ground.grid import Cell
from rules.knowledge.information import InformationModel
from rules.knowledge.sighted import (
    ANONYMOUS_SLOT,
    anonymous_look,
    anonymous_slot,
    appearance,
    information_model,
    live_sighting,
    seen_payload,
    shows_anonymous,
    sight,
)
from rules.sighting.along import cell_at_step, steps_of, walk_along
from rules.state import GameState, with_units
from rules.turn.status import GameStatus

#: The cells each moving unit stood in, in order, from where it started, by unit id.
Paths = Mapping[str, Sequence[Cell]]


def passing_events(state: GameState, paths: Paths,
                   just_lost: Mapping[str, Sequence[str]] | None = None
                   ) -> tuple[list[ev.SeenPassing], dict[str, dict[str, tuple[Cell, ...]]]]:
    """What the move of ``paths`` showed each side on the way, beyond what it sees now: the
    news for each side that saw something (``SeenPassing``), and by side the stretches on
    which its own moving units were turned face up (ruling INFO-19).

    ``state`` is the game after the move, its sighting of the end already recorded;
    ``just_lost``: by side, the memory keys that record lost from sight (an anonymous counter
    seen to move on from one of them leaves no ghost there)."""
    if state.status == GameStatus.SETUP:
        return [], {}
    gm = state.loaded.map
    walked = {uid: [gm.idx(c) for c in cells] for uid, cells in paths.items()
              if len(cells) > 1 and uid in state.units and state.units[uid].cell == cells[-1]}
    if steps_of(walked) < 2:
        return [], {}  # a step of one cell has no way between where it starts and ends
    with live_sighting(state) as sighting:  # every unit where the move left it
        steps = walk_along(sighting, walked)
    # Each side's sightings on the way (where the move starts, and every step but the last,
    # which is its end), by unit.
    on_the_way: dict[str, dict[str, list[int]]] = {side: {} for side in state.sides}
    for step, seen in enumerate(steps[:-1]):
        for side, ids in seen.items():
            for uid in ids:
                on_the_way.setdefault(side, {}).setdefault(uid, []).append(step)
    for by_unit in on_the_way.values():
        # Seen only where the move began: what the side saw before it, nothing on the way.
        for uid in [uid for uid, steps in by_unit.items() if steps == [0]]:
            del by_unit[uid]
    if not any(on_the_way.values()):
        return [], {}
    way = _Way(state, walked)
    now = sight(state)
    out: list[ev.SeenPassing] = []
    for side in state.sides:
        passing = _seen_passing(way, side, on_the_way.get(side, {}), now[side].seen_units,
                                (just_lost or {}).get(side, ()))
        if passing is not None:
            out.append(passing)
    return out, turned_on_the_way(way, on_the_way, now)


class _Way:
    """The move as it was made: where each unit stood after each step, and the state then."""

    def __init__(self, state: GameState, walked: Mapping[str, Sequence[int]]) -> None:
        self.state = state
        self.walked = walked
        self._states: dict[int, GameState] = {}

    def cell(self, uid: str, step: int) -> Cell:
        path = self.walked.get(uid)
        if path is None:
            cell = self.state.units[uid].cell
            assert cell is not None
            return cell
        return self.state.loaded.map.grid.cell(cell_at_step(path, step))

    def stretch(self, uid: str, steps: Sequence[int], end: bool) -> tuple[Cell, ...]:
        """The cells the unit stood in at ``steps`` (and at the end, when ``end``), each once
        in a row."""
        cells = [self.cell(uid, s) for s in steps]
        if end:
            cells.append(self.cell(uid, len(self.walked[uid]) - 1))
        return tuple(c for i, c in enumerate(cells) if i == 0 or c != cells[i - 1])

    def at(self, step: int) -> GameState:
        """The game as it stood after ``step`` steps (only where the units are differs)."""
        if step not in self._states:
            grid = self.state.loaded.map.grid
            self._states[step] = with_units(self.state, {
                uid: self.state.units[uid].placed(grid.cell(cell_at_step(path, step)))
                for uid, path in self.walked.items()})
        return self._states[step]


def _seen_passing(way: _Way, side: str, seen_on_the_way: Mapping[str, list[int]],
                  seen_now: frozenset[str], just_lost: Sequence[str]) -> ev.SeenPassing | None:
    state = way.state
    memory = state.memory.get(side, {})
    passed: dict[str, dict[str, Any]] = {}
    trails: dict[str, tuple[Cell, ...]] = {}
    trail: tuple[Cell, ...]
    for uid in sorted(seen_on_the_way):
        steps = seen_on_the_way[uid]
        if uid in seen_now:
            # Still in sight: only the stretch before the end is news, for a unit that moved
            # and that the side makes out as itself.
            if uid in way.walked and uid in memory and not memory[uid].seen.get("anonymous"):
                trail = way.stretch(uid, steps, end=True)
                if len(trail) > 1 and memory[uid].trail != trail:
                    trails[uid] = trail
            continue
        last = way.at(steps[-1])
        face = appearance(last, side, last.units[uid])
        anonymous = shows_anonymous(last, side, face)
        payload = seen_payload(face, anonymous)
        if anonymous:
            key = _ghost_slot(payload, memory, passed)
            trail = ()
        else:
            key = uid
            trail = way.stretch(uid, steps, end=False) if uid in way.walked else ()
        m = memory.get(key)
        if (m is not None and not m.in_sight and m.turn == state.turn and dict(m.seen) == payload
                and m.trail == trail):
            continue  # remembered so already: nothing new
        passed[key] = payload
        if trail:
            trails[key] = trail
    forgotten = _moved_on(memory, passed, just_lost)
    if not passed and not trails and not forgotten:
        return None
    return ev.SeenPassing(audience=ev.side_audience(side), side=side, passed=passed,
                          trails={k: tuple((c.col, c.row) for c in t) for k, t in trails.items()},
                          forgotten=forgotten)


def _ghost_slot(payload: Mapping[str, Any], memory: Mapping[str, Any],
                passed: Mapping[str, Any]) -> str:
    """The memory key of an anonymous counter seen on the way: the ghost of the same look
    already remembered in that cell, if there is one, else a new slot there."""
    taken = {**memory, **passed}
    key = anonymous_slot(payload, {})
    base = key.rsplit(":", 1)[0]
    n = 0
    while f"{base}:{n}" in taken:
        m = memory.get(f"{base}:{n}")
        if m is not None and not m.in_sight and f"{base}:{n}" not in passed:
            return f"{base}:{n}"
        n += 1
    return f"{base}:{n}"


def _moved_on(memory: Mapping[str, Any], passed: Mapping[str, Mapping[str, Any]],
              just_lost: Sequence[str]) -> tuple[str, ...]:
    """Anonymous counters just lost from sight where they stood, as many of each look as were
    seen on the way: as far as the side can tell, those moved on (no ghost stays behind)."""
    moving = Counter(anonymous_look(p) for k, p in passed.items()
                     if k.startswith(ANONYMOUS_SLOT))
    out = []
    for key in sorted(just_lost):
        m = memory.get(key)
        if (key.startswith(ANONYMOUS_SLOT) and key not in passed and m is not None
                and moving[anonymous_look(m.seen)] > 0):
            moving[anonymous_look(m.seen)] -= 1
            out.append(key)
    return tuple(out)


def turned_on_the_way(way: _Way, on_the_way: Mapping[str, Mapping[str, list[int]]],
                      now: Mapping[str, Any]) -> dict[str, dict[str, tuple[Cell, ...]]]:
    """By side, its moving units that an enemy playing face-down counters identified on the way
    and no longer does at the end: the stretch on which each was face up. A unit face up at
    the end is told as turned face up where it stands (``faces_turned``)."""
    state = way.state
    stretches: dict[str, dict[str, tuple[Cell, ...]]] = {}
    for observer, seen in on_the_way.items():
        if information_model(state, observer) is not InformationModel.INVERTED:
            continue
        for uid, steps in seen.items():
            unit = state.units[uid]
            if uid not in way.walked or (uid in now[observer].seen_units and not shows_anonymous(
                    state, observer, appearance(state, observer, unit))):
                continue
            identified = [s for s in steps if not shows_anonymous(
                way.at(s), observer, appearance(way.at(s), observer, way.at(s).units[uid]))]
            if not any(s > 0 for s in identified):
                continue
            stretch = way.stretch(uid, identified, end=False)
            mine = stretches.setdefault(unit.side, {})
            if uid not in mine or len(stretch) > len(mine[uid]):
                mine[uid] = stretch
    return stretches


def seen_on_the_way(turned: Mapping[str, Mapping[str, tuple[tuple[int, int], ...]]]
                    ) -> list[ev.SeenOnTheWay]:
    """The events telling each side where its units were turned face up on the way."""
    return [ev.SeenOnTheWay(audience=ev.side_audience(side), side=side,
                            stretches=dict(sorted(units.items())))
            for side, units in sorted(turned.items()) if units]
