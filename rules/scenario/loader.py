"""Reading a scenario and its ruleset from TOML text, checking them together, and building the
board and map. Every problem is reported at once, each naming the file, the field and (for map
text) the row and column."""

from __future__ import annotations

import functools
import itertools
import tomllib
from collections import Counter
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from rules.forces.words import COMBAT_KINDS, DEFAULT_MOVEMENT_CLASS, LEADER_KINDS, STACKING_KINDS
from rules.ground.board import Board, LabelError, Place
from rules.ground.gamemap import GameMap, Road, edge
from rules.ground.grid import Cell, make_grid
from rules.modules.catalog import KNOWN_MODULES, SPEC_BY_NAME
from rules.scenario.bounds import MAX_BOARD_SIDE, MAX_CELLS
from rules.scenario.models import WITHDRAWN_OPTION, MapSpec, Scenario
from rules.scenario.nesting import TooDeep, loads_toml
from rules.scenario.problems import FileProblems, Problem, from_validation_error
from rules.scenario.ruleset import Ruleset
from rules.scenario.victory import victory_problems

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class LoadedScenario:
    """A checked scenario with its ruleset, board and map, ready to start a game from."""

    scenario: Scenario
    ruleset: Ruleset
    board: Board
    map: GameMap

    @property
    def id(self) -> str:
        return self.scenario.scenario.id

    @functools.cached_property
    def side_ids(self) -> tuple[str, ...]:
        """The sides' ids, in the scenario's order (asked for at every turn of the rules)."""
        return tuple(s.id for s in self.scenario.sides)


def decode(data: bytes, file: str) -> str:
    """A file's bytes as text: UTF-8 (a leading byte-order mark is dropped), or ``FileProblems``
    naming the file and the offset of the first byte that is not UTF-8."""
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as e:
        problem = Problem(file, "(file)", f"is not UTF-8 text: byte 0x{data[e.start]:02x} at "
                          f"offset {e.start} cannot be read; save the file as UTF-8")
        raise FileProblems([problem]) from None


def parse_toml(text: str, file: str) -> dict[str, Any]:
    """A scenario's or ruleset's TOML text as a dict, or ``FileProblems`` naming the file: a
    syntax error, or nesting deeper than :data:`rules.scenario.nesting.MAX_NESTING` (refused before
    parsing)."""
    try:
        return loads_toml(text)
    except tomllib.TOMLDecodeError as e:
        raise FileProblems([Problem(file, "(TOML syntax)", str(e))]) from None
    except TooDeep as e:
        raise FileProblems([Problem(file, "(file)", str(e))]) from None


def parse_model(model: type[M], text: str, file: str) -> M:
    """Parse TOML text into a model, or raise ``FileProblems`` naming every bad field."""
    data = parse_toml(text, file)
    try:
        return model.model_validate(data)
    except ValidationError as e:
        raise FileProblems(from_validation_error(file, e)) from None


def load(scenario_text: str, scenario_file: str, ruleset_text: str, ruleset_file: str
         ) -> LoadedScenario:
    """Parse and cross-check a scenario and its ruleset; raise ``FileProblems`` listing all."""
    problems: list[Problem] = []
    scenario: Scenario | None = None
    ruleset: Ruleset | None = None
    try:
        scenario = parse_model(Scenario, scenario_text, scenario_file)
    except FileProblems as e:
        problems += e.problems
    try:
        ruleset = parse_model(Ruleset, ruleset_text, ruleset_file)
    except FileProblems as e:
        problems += e.problems
    if scenario is None or ruleset is None:
        raise FileProblems(problems)
    checker = _Checker(scenario, ruleset, scenario_file, ruleset_file)
    loaded = checker.run()
    if checker.problems or loaded is None:
        raise FileProblems(checker.problems)
    return loaded


class _Checker:
    def __init__(self, scenario: Scenario, ruleset: Ruleset, file: str, ruleset_file: str) -> None:
        self.s = scenario
        self.r = ruleset
        self.file = file
        self.ruleset_file = ruleset_file
        self.problems: list[Problem] = []

    def add(self, fld: str, message: str, where: str = "", file: str = "") -> None:
        self.problems.append(Problem(file or self.file, fld, message, where))

    def run(self) -> LoadedScenario | None:
        board = self._board(self.s.map)
        if board is None:
            return None
        terrain, elevation = self._cells(board)
        gm = GameMap(board, self.r, terrain, elevation)
        self._roads(gm)
        self._hexsides(gm)
        self._order_of_battle(gm)
        self._turns()
        self._modules()
        self._sighting()
        loaded = LoadedScenario(self.s, self.r, board, gm)
        self._settings(loaded)
        self._victory()
        return loaded

    # -- map ---------------------------------------------------------------------------------
    def _board(self, m: MapSpec) -> Board | None:
        spots = [s.at for s in m.sheets]
        letters = [s.letter for s in m.sheets]
        for i, sheet in enumerate(m.sheets):
            if spots.count(sheet.at) > 1:
                self.add(f"map.sheets[{i}].at", f"another sheet already sits at {list(sheet.at)}")
            if letters.count(sheet.letter) > 1:
                self.add(f"map.sheets[{i}].letter", f"sheet letter {sheet.letter!r} is used twice")
            if min(sheet.at) < 0:
                self.add(f"map.sheets[{i}].at", "sheet positions count from 0")
        if self.problems:
            return None
        cols = max(s.at[0] for s in m.sheets) + 1
        rows = max(s.at[1] for s in m.sheets) + 1
        if not self._board_fits(cols * m.sheet_width, rows * m.sheet_height):
            return None
        grid = make_grid(m.grid, cols * m.sheet_width, rows * m.sheet_height,
                         m.orientation, m.shifted, m.neighbours)
        try:
            board = Board.build(grid, [(s.letter, *s.at) for s in m.sheets],
                                m.sheet_width, m.sheet_height, m.label)
        except (KeyError, ValueError, IndexError) as e:
            self.add("map.label", f"label format cannot be used: {e}")
            return None
        places = []
        seen: set[str] = set()
        for i, p in enumerate(m.places):
            cell = self._cell(board, p.at, f"map.places[{i}].at")
            if p.name.lower() in seen:
                self.add(f"map.places[{i}].name", f"place {p.name!r} is named twice")
            seen.add(p.name.lower())
            if cell is not None:
                places.append(Place(p.name, cell, p.kind))
        return board.with_places(places)

    def _board_fits(self, width: int, height: int) -> bool:
        """Whether a board of ``width`` x ``height`` cells is within the bounds (checked before
        the board is built, since building it takes memory for every cell)."""
        if width > MAX_BOARD_SIDE or height > MAX_BOARD_SIDE:
            self.add("map.sheets", f"the sheets make a board of {width} x {height} cells; a "
                     f"board is at most {MAX_BOARD_SIDE} cells across and down")
        elif width * height > MAX_CELLS:
            self.add("map.sheets", f"the sheets make a board of {width} x {height} = "
                     f"{width * height} cells; a board has at most {MAX_CELLS} cells")
        else:
            return True
        return False

    def _cell(self, board: Board, text: str, fld: str) -> Cell | None:
        try:
            return board.parse(text)
        except LabelError as e:
            self.add(fld, str(e))
            return None

    def _cells(self, board: Board) -> tuple[list[str], list[int]]:
        m = self.s.map
        size = board.grid.size
        terrain = [""] * size
        elevation = [0] * size
        for i, sheet in enumerate(m.sheets):
            base_col, base_row = sheet.at[0] * m.sheet_width, sheet.at[1] * m.sheet_height
            rows = _rows(sheet.terrain)
            fld = f"map.sheets[{i}].terrain"
            if len(rows) != m.sheet_height:
                self.add(fld, f"has {len(rows)} rows; sheets are {m.sheet_height} rows high")
            for r, line in enumerate(rows[: m.sheet_height]):
                if len(line) != m.sheet_width:
                    self.add(fld, f"has {len(line)} characters; sheets are {m.sheet_width} wide",
                             f"row {r + 1}")
                for c, ch in enumerate(line[: m.sheet_width]):
                    name = m.legend.get(ch)
                    if name is None:
                        self.add(fld, f"character {ch!r} is not in map.legend",
                                 f"row {r + 1}, column {c + 1}")
                        continue
                    if name not in self.r.terrain:
                        self.add(fld, f"terrain {name!r} (legend {ch!r}) is not in the ruleset",
                                 f"row {r + 1}, column {c + 1}")
                        continue
                    terrain[board.grid.index(Cell(base_col + c, base_row + r))] = name
            if not sheet.elevation.strip():
                continue
            fld = f"map.sheets[{i}].elevation"
            erows = _rows(sheet.elevation)
            if len(erows) != m.sheet_height:
                self.add(fld, f"has {len(erows)} rows; sheets are {m.sheet_height} rows high")
            for r, line in enumerate(erows[: m.sheet_height]):
                if len(line) != m.sheet_width:
                    self.add(fld, f"has {len(line)} digits; sheets are {m.sheet_width} wide",
                             f"row {r + 1}")
                for c, ch in enumerate(line[: m.sheet_width]):
                    if not ch.isdigit():
                        self.add(fld, f"{ch!r} is not a digit 0-9", f"row {r + 1}, column {c + 1}")
                        continue
                    elevation[board.grid.index(Cell(base_col + c, base_row + r))] = int(ch)
        fallback = next(iter(self.r.terrain))
        return [t or fallback for t in terrain], elevation

    def _roads(self, gm: GameMap) -> None:
        board = gm.board
        for i, road in enumerate(self.s.map.roads):
            fld = f"map.roads[{i}]"
            if road.kind not in self.r.roads:
                known = ", ".join(self.r.roads) or "none"
                self.add(f"{fld}.kind", f"road kind {road.kind!r} is not in the ruleset ({known})")
                continue
            points = [self._cell(board, p, f"{fld}.path[{j}]") for j, p in enumerate(road.path)]
            if any(p is None for p in points):
                continue
            cells: list[Cell] = []
            for a, b in itertools.pairwise(points):
                assert a is not None and b is not None
                run = board.grid.line(a, b)
                cells += run if not cells else run[1:]
            for j, (a, b) in enumerate(itertools.pairwise(cells)):
                if not board.grid.adjacent(a, b):
                    self.add(f"{fld}.path", f"step {j + 1} from {board.label(a)} to "
                             f"{board.label(b)} does not join adjacent cells")
                elif not gm.enterable(b) or not gm.enterable(a):
                    self.add(f"{fld}.path", f"runs through {board.label(b)}, which cannot be "
                             "entered")
                else:
                    gm.road_edges[edge(gm.idx(a), gm.idx(b))] = road.kind
            gm.roads.append(Road(road.kind, road.name, tuple(cells)))

    def _hexsides(self, gm: GameMap) -> None:
        for i, side in enumerate(self.s.map.hexsides):
            fld = f"map.hexsides[{i}]"
            if side.kind not in self.r.hexsides:
                known = ", ".join(self.r.hexsides) or "none"
                self.add(f"{fld}.kind", f"hexside kind {side.kind!r} is not in the ruleset "
                         f"({known})")
                continue
            for j, (ta, tb) in enumerate(side.pairs):
                a = self._cell(gm.board, ta, f"{fld}.pairs[{j}]")
                b = self._cell(gm.board, tb, f"{fld}.pairs[{j}]")
                if a is None or b is None:
                    continue
                if not gm.grid.adjacent(a, b):
                    self.add(f"{fld}.pairs[{j}]", f"{ta} and {tb} are not adjacent, so no side "
                             "lies between them")
                    continue
                gm.hexsides[edge(gm.idx(a), gm.idx(b))] = side.kind

    # -- order of battle ---------------------------------------------------------------------
    def _order_of_battle(self, gm: GameMap) -> None:
        sides = {s.id for s in self.s.sides}
        for fld, ids in (("sides", [s.id for s in self.s.sides]),
                         ("commands", [f.id for f in self.s.commands]),
                         ("units", [u.id for u in self.s.units])):
            for dup, n in Counter(ids).items():
                if n > 1:
                    self.add(fld, f"id {dup!r} is used {n} times")
        commands = {f.id: f for f in self.s.commands}
        units = {u.id: u for u in self.s.units}
        for i, f in enumerate(self.s.commands):
            fld = f"commands[{i}]"
            if f.side not in sides:
                self.add(f"{fld}.side", f"side {f.side!r} is not one of {sorted(sides)}")
            if f.parent and f.parent not in commands:
                self.add(f"{fld}.parent", f"parent command {f.parent!r} does not exist")
            if f.leader:
                leader = units.get(f.leader)
                if leader is None:
                    self.add(f"{fld}.leader", f"leader {f.leader!r} is not a unit")
                elif leader.kind not in LEADER_KINDS:
                    self.add(f"{fld}.leader", f"leader {f.leader!r} is a {leader.kind}, "
                             "not a leader or HQ")
        self._no_cycles(commands)
        occupancy: Counter[Cell] = Counter()
        for i, u in enumerate(self.s.units):
            fld = f"units[{i}]"
            if u.side not in sides:
                self.add(f"{fld}.side", f"side {u.side!r} is not one of {sorted(sides)}")
            if u.command and u.command not in commands:
                self.add(f"{fld}.command", f"command {u.command!r} does not exist")
            elif u.command and commands[u.command].side != u.side:
                self.add(f"{fld}.command", f"command {u.command!r} belongs to another side")
            if u.kind in COMBAT_KINDS and u.strength == 0:
                self.add(f"{fld}.strength", f"a {u.kind} unit needs a strength above 0")
            mclass = u.movement_class or DEFAULT_MOVEMENT_CLASS[u.kind]
            if u.movement is None and mclass not in self.r.movement_allowance:
                self.add(f"{fld}.movement", f"no movement given and the ruleset has no allowance "
                         f"for class '{mclass}'")
            where = u.at or (u.arrives.at if u.arrives else "")
            cell = self._cell(gm.board, where, f"{fld}.{'at' if u.at else 'arrives.at'}")
            if cell is not None:
                if not gm.enterable(cell):
                    self.add(f"{fld}.at", f"{where} ({gm.terrain_at(cell)}) cannot be entered")
                elif u.at and u.kind in STACKING_KINDS:
                    occupancy[cell] += 1
                    if occupancy[cell] > self.r.stacking_limit:
                        self.add(f"{fld}.at", f"more than {self.r.stacking_limit} units start in "
                                 f"{where} (the ruleset's stacking limit)")
            if u.arrives and u.arrives.turn > max(t.turn for t in self.s.turns):
                self.add(f"{fld}.arrives.turn", f"turn {u.arrives.turn} is after the last turn")
        self._withdrawn(units)

    def _withdrawn(self, units: dict[str, Any]) -> None:
        """The option ``withdrawn`` names units taken out of play before the start."""
        option = self.s.scenario.options.get(WITHDRAWN_OPTION)
        if option is None:
            return
        fld = f"scenario.options.{WITHDRAWN_OPTION}"
        if not isinstance(option, str):
            self.add(fld, "a list of unit ids in one string, separated by commas or spaces")
            return
        unknown = [uid for uid in self.s.withdrawn_units() if uid not in units]
        if unknown:
            self.add(fld, f"not units of this scenario: {', '.join(unknown)}")

    def _no_cycles(self, commands: dict[str, Any]) -> None:
        for fid in commands:
            seen = {fid}
            parent = commands[fid].parent
            while parent and parent in commands:
                if parent in seen:
                    self.add("commands", f"command {fid!r} is its own ancestor")
                    break
                seen.add(parent)
                parent = commands[parent].parent

    def _turns(self) -> None:
        numbers = [t.turn for t in self.s.turns]
        expected = list(range(numbers[0], numbers[0] + len(numbers)))
        if numbers != expected:
            self.add("turns", "turns must be numbered one after another without gaps")

    def _modules(self) -> None:
        for i, module in enumerate(self.s.scenario.modules):
            if module not in KNOWN_MODULES:
                self.add(f"scenario.modules[{i}]", f"unknown rule module {module!r}; known: "
                         f"{', '.join(sorted(KNOWN_MODULES))}")
        for module, tables in self.r.missing_tables(self.s.scenario.modules).items():
            self.add("tables", f"rule module {module!r} needs table(s) {', '.join(tables)}",
                     file=self.ruleset_file)
        self._models()
        self._module_options()
        self._cavalry_rules()

    def _models(self) -> None:
        """A module that may be played only under some information models (Concealed Forces:
        ``open`` or ``concealed``, ruling CF-4) refuses a scenario choosing another for any
        side, naming the module, the side and the models it may use."""
        for module in self.s.scenario.modules:
            spec = SPEC_BY_NAME.get(module)
            if spec is None or not spec.models:
                continue
            allowed = " or ".join(repr(str(m)) for m in sorted(spec.models))
            if self.s.scenario.information not in spec.models:
                self.add("scenario.information",
                         f"rule module {module!r} ({spec.source}) is played under the {allowed} "
                         f"information model only, not {self.s.scenario.information!r}")
            for i, side in enumerate(self.s.sides):
                if side.information is not None and side.information not in spec.models:
                    self.add(f"sides[{i}].information",
                             f"rule module {module!r} ({spec.source}) is played under the "
                             f"{allowed} information model only, for every side: side "
                             f"{side.id!r} chooses {side.information!r}")

    def _module_options(self) -> None:
        """A module option the scenario sets has the kind of value its default has (yes/no, a
        whole number, a word), and a whole number is at least 1 (every one counts something: a
        reaction's seconds)."""
        options = self.s.scenario.options
        for module in self.s.scenario.modules:
            spec = SPEC_BY_NAME.get(module)
            if spec is None:
                continue
            for key, default in spec.options.items():
                if key not in options:
                    continue
                value, fld = options[key], f"scenario.options.{key}"
                if type(value) is not type(default):
                    kind = {bool: "true or false", int: "a whole number", str: "a word"}
                    self.add(fld, f"rule module {module!r}'s option {key!r} is "
                                  f"{kind[type(default)]}, not {value!r}")
                elif isinstance(value, int) and not isinstance(value, bool) and value < 1:
                    self.add(fld, f"rule module {module!r}'s option {key!r} is at least 1")

    def _cavalry_rules(self) -> None:
        """A module whose rule text refers to cavalry rules needs the ruleset to list them
        (stand-ins at least); a played rule limited to a tag needs a unit carrying it, or a
        misspelt tag would silently switch the rule off."""
        for module in self.s.scenario.modules:
            spec = SPEC_BY_NAME.get(module)
            if spec is None:
                continue
            missing = [c for c in spec.cavalry_rules if c not in self.r.cavalry_rules]
            if missing:
                self.add("cavalry_rules", f"rule module {module!r} ({spec.source}) plays cavalry "
                         f"rule(s) {', '.join(missing)}, which the ruleset does not list",
                         file=self.ruleset_file)
        tags = {t for u in self.s.units for t in u.tags}
        for letter, rule in sorted(self.r.cavalry_rules.items()):
            if rule.shift and rule.only_tagged and rule.only_tagged not in tags:
                self.add(f"cavalry_rules.{letter}.only_tagged",
                         f"no unit of scenario {self.s.scenario.id!r} is tagged "
                         f"{rule.only_tagged!r}, so rule {letter} could never be played",
                         file=self.ruleset_file)
    def _settings(self, loaded: LoadedScenario) -> None:
        """Each ``[settings.<module>]`` section belongs to a module in ``modules`` that takes
        settings, and has the shape that module declares; a module in force that takes settings
        is checked even when the scenario gives none (its required fields are then missing)."""
        modules = self.s.scenario.modules
        for name in self.s.settings:
            spec = SPEC_BY_NAME.get(name)
            if name not in modules:
                self.add(f"settings.{name}", f"settings for {name!r}, which is not one of the "
                         f"scenario's modules ({', '.join(modules) or 'none'})")
            elif spec is None or spec.settings is None:
                self.add(f"settings.{name}", f"rule module {name!r} takes no settings")
        for name in modules:
            spec = SPEC_BY_NAME.get(name)
            if spec is None or spec.settings is None:
                continue
            fld = f"settings.{name}"
            try:
                parsed = spec.settings.model_validate(self.s.settings.get(name, {}))
            except ValidationError as e:
                self.problems += from_validation_error(self.file, e, prefix=fld)
                continue
            for sub, message in parsed.problems(loaded):
                self.add(f"{fld}.{sub}" if sub else fld, message)

    def _victory(self) -> None:
        if self.s.victory is not None:
            for sub, message in victory_problems(self.s.victory, self.s, self.r):
                self.add(f"victory.{sub}", message)

    def _sighting(self) -> None:
        from rules.sighting.registry import DEFAULT_RULE, SIGHTING_RULES

        name = self.s.scenario.options.get("sighting", DEFAULT_RULE)
        if name not in SIGHTING_RULES:
            self.add("scenario.options.sighting", f"unknown sighting rule {name!r}; known: "
                     f"{', '.join(sorted(SIGHTING_RULES))}")


def _rows(text: str) -> list[str]:
    """Map text rows: blank lines at either end are dropped, as are leading spaces (so the text may
    be indented inside a TOML multi-line string); a trailing '|' may mark a row's end."""
    lines = text.strip("\n").split("\n")
    return [line.strip().rstrip("|") for line in lines]

