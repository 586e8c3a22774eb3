"""The demo's Chancellorsville story (``vedette demo --scenario chancellorsville-hidden``).

Rule text 002 on ``chancellorsville-hidden``: counters face down until sighted, sighting by clear
paths, Stuart's cavalry. On 1 May Pleasonton sends Devin's cavalry brigade down the Furnace Road
to Catharine Furnace, and Stuart sends Fitz Lee's brigade up the Brock Road and east along the
road through the thickets. Fitz Lee halts on the road two hexes from Devin: a unit on a road in
the woods is sighted along a clear path two hexes long, and the Union turns his counter face up.
Next turn he slips off the road into the woods, where only an enemy next to him can see him: his
counter goes face down again on the Union's map. Devin rides up beside the woods to look, finds
him next door, and Fitz Lee charges: Stuart's troopers fight two columns better than the odds
against Federal cavalry.

With ``--raid`` the game is created with the raid option set by the host (the Confederates off
the board): the Federal cavalry raid goes before
the first turn (Devin's brigade, of Pleasonton's division, stays), the Confederates see every
Federal unit face up, and the Union sees Fitz Lee only while he is sighted, then keeps a ghost
where he was last seen; at the end of the game the raid's die is rolled and the victory chart
read in the column it picks.

The story is one table, ``STORY``: each beat is a real command given in a turn by a side, as a
player would type it, with the unit whose sighting it shows (``watch``). After each watched beat
the story notes what the enemy's own view shows of that unit (``seen_as``); the notes are the
umpire's narration (``umpire/story.md``), since only the umpire knows which counter is which.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules import commands as cmd
from rules.combat.commands import Assault
from rules.forces.location import Eliminated
from rules.state import GameState
from rules.turn.status import GameStatus
from rules.view import GHOST, IDENTIFIED, MARKER, project
from umpire.service import Umpire, UmpireError

SCENARIO = "chancellorsville-hidden"
UNION = "union"
CONFEDERATE = "confederate"
#: The turns the story takes; the host then ends the game, which rolls for the raid.
TURNS = 3
#: The game options of each variant, by whether the raid goes.
#: The host sets both of the players' choices beforehand (rulings CV-39, CV-40), so that the
#: story starts at once: no raid, or the raid with the Confederates off the board.
OPTIONS: dict[bool, dict[str, str | int | bool]] = {False: {"raid": False},
                                                    True: {"raid": True, "off_board": True}}
#: Each variant's fixed seed (any seed tells the story; these decide the charge and the raid).
SEEDS: dict[bool, bytes] = {False: bytes([3] * 32), True: bytes([1] * 32)}
#: Stuart's brigade and the Federal cavalry it meets.
STUART = "fitz-lee"
FEDERAL_CAVALRY = "pleasonton-devin"
#: Where the story happens: Devin's watch post at the furnace road, the road hex in the woods
#: two hexes west where Fitz Lee halts, the woods next to it he slips into, and the clearing on
#: the road beside those woods where Devin finds him.
WATCH_POST = "C2021"
ROAD_IN_WOODS = "C1822"
IN_THE_WOODS = "C1821"
BESIDE_THE_WOODS = "C1922"


@dataclass(frozen=True)
class Beat:
    """One scripted command, given in ``turn`` by ``side`` in its player turn; ``watch`` is the
    unit whose sighting by its enemy the beat shows, ``says`` what the beat is for."""

    turn: int
    side: str
    command: cmd.Command
    says: str
    watch: str = ""


STORY: tuple[Beat, ...] = (
    Beat(1, UNION, cmd.Move(unit=FEDERAL_CAVALRY, route="C2317 C2318 C2319 C2320 C2220 C2121 "
                                                        + WATCH_POST),
         "Devin's brigade rides down the Furnace Road past Catharine Furnace"),
    Beat(1, CONFEDERATE, cmd.Move(unit=STUART, route="C1426 C1425 C1424 C1423 C1523 C1622 "
                                                     "C1723 " + ROAD_IN_WOODS),
         "Fitz Lee rides up the Brock Road and halts on the road through the woods, two hexes "
         "from Devin, with a clear hex between them", watch=STUART),
    Beat(2, CONFEDERATE, cmd.Move(unit=STUART, route=IN_THE_WOODS),
         "Fitz Lee slips off the road into the woods, still two hexes from Devin",
         watch=STUART),
    Beat(3, UNION, cmd.Move(unit=FEDERAL_CAVALRY, route=BESIDE_THE_WOODS),
         "Devin rides up beside the woods to look", watch=STUART),
    Beat(3, CONFEDERATE, Assault(units=(STUART,), target=BESIDE_THE_WOODS),
         "Fitz Lee charges Devin's brigade: Stuart's cavalry against Federal cavalry"),
)


@dataclass
class Notes:
    """What happened to the story's beats: the umpire's narration, one line a beat, and the
    umpire's replies to each side's beats (what its player was answered, in order)."""

    lines: list[str] = field(default_factory=list)
    replies: dict[str, list[str]] = field(default_factory=lambda: {UNION: [], CONFEDERATE: []})


def enemy_of(state: GameState, side: str) -> str:
    return next(s for s in state.sides if s != side)


def seen_as(state: GameState, watcher: str, unit_id: str) -> str:
    """What ``watcher``'s own view shows of the enemy unit ``unit_id``, in words: face up where
    it is, a face-down counter there, or nothing there (and a ghost where it was last seen)."""
    unit = state.units[unit_id]
    board = state.loaded.board
    if unit.cell is None:
        return "nothing: the unit is off the map"
    where = board.label(unit.cell)
    view = project(state, watcher)
    here = [u for u in view.at(unit.cell) if u.side == unit.side]
    if any(u.level == IDENTIFIED and u.name == unit.name for u in here):
        return f"{unit.name} face up at {where}"
    if any(u.level == MARKER for u in here):
        return f"a face-down counter at {where}"
    ghosts = [u for u in (*view.units, *view.memory)
              if u.level == GHOST and u.name == unit.name]
    ghost = f"; a ghost of {unit.name} at {board.label(ghosts[0].cell)}" if ghosts else ""
    return f"nothing at {where}{ghost}"


async def play_turn(umpire: Umpire, game_id: str, players: dict[str, int], turn: int,
                    notes: Notes) -> int:
    """Play every step of one turn: the acting side gives the story's beats for it, then is
    done. Returns the number of beats the umpire refused."""
    refusals = 0
    while True:
        state = await umpire.repository.state_for(game_id)
        if state.turn != turn or state.status != GameStatus.ACTIVE:
            return refusals
        for side in state.acting_sides():
            for beat in STORY:
                if beat.turn == turn and beat.side == side:
                    refusals += await _give(umpire, game_id, players[side], beat, notes)
            await umpire.handle(game_id, players[side], cmd.Done())


async def _give(umpire: Umpire, game_id: str, user: int, beat: Beat, notes: Notes) -> int:
    try:
        reply = await umpire.handle(game_id, user, beat.command)
    except UmpireError as e:
        print(f"  turn {beat.turn}: {beat.says}: refused ({e})")
        notes.lines.append(f"Turn {beat.turn}, {beat.side}: {beat.says}: refused ({e}).")
        return 1
    notes.replies[beat.side].append(f"Turn {beat.turn}: {reply.text}")
    line = f"Turn {beat.turn}, {beat.side}: {beat.says}."
    if beat.watch:
        state = await umpire.repository.state_for(game_id)
        watcher = enemy_of(state, state.units[beat.watch].side)
        line += f" The {watcher} side's map shows: {seen_as(state, watcher, beat.watch)}."
    notes.lines.append(line)
    return 0


def summary(state: GameState) -> str:
    """Where the story ended, in a line."""
    words = []
    for uid in (STUART, FEDERAL_CAVALRY):
        unit = state.units[uid]
        where = ("eliminated" if isinstance(unit.location, Eliminated)
                 else f"at {state.loaded.board.label(unit.cell)}" if unit.cell is not None
                 else "off the map")
        words.append(f"{unit.name} {where}")
    return "chancellorsville: " + "; ".join(words)
