"""The demo's Concealed Forces story (``vedette demo --variant concealed``), on ``flank-march``.

Colston's division goes under a concealment marker on the Brock Road and breeds two decoys: one
feints east towards the XI Corps' line, one slips west along the Plank Road, and the division
itself follows the first behind Stuart's screen. Riding west from Dowdall's Tavern, the 8th
Pennsylvania Cavalry comes upon the feint: nothing is under it, and it is taken off. Riding on,
the troopers come within two hexes of the next marker: Colston's division is revealed and
deploys, and in the Confederate Fire Phase two of its brigades, formed into line next to the
cavalry, fire on it.

The story is one table, ``STORY``: each beat is a real command given in a turn, a phase and by a
side, as a player would type it. A marker is named by its role (``marker("colston")``: the
marker the player's own view shows Colston under; ``marker("decoy 1")``: the decoy bred under
that name), since its id is only known once placed. The finding cavalry is an ordinary unit
moving; a released scout (Cf 3.1) or the revealed division's opportunity fire (Cf 2.1) can
take its beats when those rules are in, and the story grows by adding rows.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import commands as cmd
from rules.combat.commands import Fire
from rules.concealed.commands import BreedDecoy, ConcealForce
from rules.state import GameState
from rules.status import GameStatus
from rules.view import project
from umpire.service import Umpire, UmpireError

UNION = "union"
CONFEDERATE = "confederate"
#: The turns the story takes.
TURNS = 5
#: Its fixed seed (any seed tells it: which of two markers keeps the force is read from the
#: Confederate player's own view).
SEED = bytes([14] * 32)
#: The division under cover, and the unit that finds it.
FORCE = "colston"
FINDER = "8th-pa-cav"
MOVEMENT, FIRE = "movement", "fire"


def marker(role: str) -> str:
    """A stand-in for a marker's id in a scripted command: the marker the side's own view shows
    ``role`` (a unit id) under, or the decoy bred under that name."""
    return f"@{role}"


@dataclass(frozen=True)
class Beat:
    """One scripted command: given in ``turn``'s ``phase`` by ``side``. ``names`` is the role
    a decoy the command breeds takes; ``says`` what the beat is for."""

    turn: int
    phase: str
    side: str
    command: cmd.Command
    says: str
    names: str = ""


STORY: tuple[Beat, ...] = (
    Beat(1, MOVEMENT, CONFEDERATE, ConcealForce(leader=FORCE),
         "Colston's division goes under cover at the Brock Road"),
    Beat(2, MOVEMENT, UNION, cmd.Move(unit=FINDER, route="B1014 B0914 B0813 B0713 B0612 B0512 "
                                                         "B0411"),
         "the 8th Pennsylvania rides for Dowdall's Tavern"),
    Beat(2, MOVEMENT, CONFEDERATE, BreedDecoy(marker=marker(FORCE)),
         "the division breeds a decoy", names="decoy 1"),
    Beat(2, MOVEMENT, CONFEDERATE, cmd.Move(unit=marker("decoy 1"), route="road A2015 A2116 "
                                                                          "A2216"),
         "the decoy sets off east along the Plank Road"),
    Beat(3, MOVEMENT, UNION, cmd.Move(unit=FINDER, route="B0311 B0210 B0111 A3411 A3312 A3212 "
                                                         "A3112 A3012 A2913 A2813"),
         "the troopers take the Plank Road west of Dowdall's"),
    Beat(3, MOVEMENT, CONFEDERATE, BreedDecoy(marker=marker(FORCE)),
         "the division breeds a second decoy", names="decoy 2"),
    Beat(3, MOVEMENT, CONFEDERATE, cmd.Move(unit=marker("decoy 1"), route="A2316 A2416 A2516 "
                                                                          "A2616"),
         "the first decoy feints towards the XI Corps' line"),
    Beat(3, MOVEMENT, CONFEDERATE, cmd.Move(unit=marker("decoy 2"), route="road A1417"),
         "the second slips west along the Plank Road"),
    Beat(3, MOVEMENT, CONFEDERATE, cmd.Move(unit=marker(FORCE), route="road A2015"),
         "the division follows the feint to Burton's Farm"),
    Beat(4, MOVEMENT, UNION, cmd.Move(unit=FINDER, route="A2714 A2715 A2615"),
         "the cavalry rides at the nearest marker and finds a decoy"),
    Beat(4, MOVEMENT, CONFEDERATE, cmd.Move(unit=marker(FORCE), route="A2116 A2216"),
         "the division edges east through the thickets"),
    Beat(5, MOVEMENT, UNION, cmd.Move(unit=FINDER, route="A2716 A2616 A2516 A2416"),
         "the cavalry rides on and comes upon Colston's division"),
    Beat(5, MOVEMENT, CONFEDERATE, cmd.Move(unit="paxton", route="A2316"),
         "the Stonewall Brigade closes on the troopers"),
    Beat(5, MOVEMENT, CONFEDERATE, cmd.SetFormation(unit="paxton", formation="line"),
         "and forms line"),
    Beat(5, MOVEMENT, CONFEDERATE, cmd.Move(unit="jones", route="A2317"),
         "J. R. Jones' brigade comes up beside it"),
    Beat(5, MOVEMENT, CONFEDERATE, cmd.SetFormation(unit="jones", formation="line"),
         "and forms line"),
    Beat(5, FIRE, CONFEDERATE, Fire(units=("paxton", "jones"),
                                    target="8th Pennsylvania Cavalry"),
         "the revealed division fires on the cavalry that found it"),
)


class Roles:
    """The markers' ids behind the story's roles, as the side's own view shows them, and the
    umpire's replies to each side's beats (what its player was answered, in order)."""

    def __init__(self) -> None:
        self.decoys: dict[str, str] = {}
        self.replies: dict[str, list[str]] = {UNION: [], CONFEDERATE: []}

    def marker_id(self, state: GameState, side: str, role: str) -> str:
        own = [m for m in project(state, side).markers if m.contents is not None]
        for m in own:
            if any(u.ref == role for u in m.contents or ()):
                return m.id
        return self.decoys.get(role, role)

    def name_new_decoy(self, state: GameState, side: str, role: str) -> None:
        known = set(self.decoys.values())
        fresh = [m.id for m in project(state, side).markers
                 if m.contents == () and m.id not in known]
        if fresh:
            self.decoys[role] = fresh[0]

    def resolve(self, state: GameState, side: str, command: cmd.Command) -> cmd.Command:
        """The command with every marker stand-in replaced by the marker's id."""
        changes = {field: self.marker_id(state, side, value[1:])
                   for field, value in command.model_dump().items()
                   if isinstance(value, str) and value.startswith("@")}
        return command.model_copy(update=changes) if changes else command


async def play_turn(umpire: Umpire, game_id: str, players: dict[str, int], turn: int,
                    roles: Roles) -> int:
    """Play every step of one turn: each acting side gives the story's beats for that step,
    then is done. Returns the number of beats the umpire refused."""
    refusals = 0
    while True:
        state = await umpire.state_for(game_id)
        if state.turn != turn or state.status != GameStatus.ACTIVE:
            return refusals
        for side in state.acting_sides():
            for beat in STORY:
                if (beat.turn, beat.phase, beat.side) == (turn, state.current.phase.id, side):
                    refusals += await _give(umpire, game_id, players[side], beat, roles)
            await umpire.handle(game_id, players[side], cmd.Done())


async def _give(umpire: Umpire, game_id: str, user: int, beat: Beat, roles: Roles) -> int:
    state = await umpire.state_for(game_id)
    command = roles.resolve(state, beat.side, beat.command)
    try:
        reply = await umpire.handle(game_id, user, command)
    except UmpireError as e:
        print(f"  turn {beat.turn}: {beat.says}: refused ({e})")
        return 1
    roles.replies[beat.side].append(f"Turn {beat.turn}, {beat.phase}: {reply.text}")
    if beat.names:
        roles.name_new_decoy(await umpire.state_for(game_id), beat.side, beat.names)
    return 0


def summary(state: GameState) -> str:
    """Where the story ended, in a line."""
    force = state.units[FORCE]
    where = ("revealed at " + state.loaded.board.label(force.cell) if force.cell is not None
             else "still concealed")
    left = sum(1 for m in state.markers.values() if m.side == CONFEDERATE)
    return (f"concealed forces: Colston's division {where}; {left} Confederate marker(s) left "
            "on the map")
