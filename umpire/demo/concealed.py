"""The demo's Concealed Forces story (``vedette demo --variant concealed``), on ``flank-march``.

Pleasonton's cavalry division goes under a concealment marker at Hazel Grove and, next turn,
releases the 8th Pennsylvania Cavalry as its scout (Cf 3.1): no farther than four leader MPs
from the marker that phase, and shown to the Confederates only as an anonymous cavalry counter
while none of their units on the map sees it. Colston's division, its two leading brigades
formed into line, goes under a marker on the Brock Road and breeds two decoys: one feints east
towards the XI Corps' line, one slips west along the Plank Road, and the division itself
follows the first through the thickets, then waits, having filed where those brigades deploy
if found. Riding west through Dowdall's Tavern, the scout comes upon the feint: nothing is
under it, and it is taken off. Riding on, the troopers come within two hexes of the next
marker: Colston's division is revealed, its brigades deploy next to the cavalry, now seen and
named, and the Confederate player, asked at once, has them fire on it by opportunity fire
(Cf 2.1) while the Union's movement waits.

The story is one table, ``STORY``: each beat is a real command given in a turn, a phase and by a
side, as a player would type it (an answer at once is given in the other side's step). A marker
is named by its role (``marker("colston")``: the marker the player's own view shows Colston
under; ``marker("decoy 1")``: the decoy bred under that name), since its id is only known once
placed; so is a question (``question("colston")``: the question the player's inbox shows about
the force from Colston's marker), since its id is only known once asked. The story grows by
adding rows.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import commands as cmd
from rules.concealed.commands import BreedDecoy, ConcealForce, ConcealPlan, ReleaseScouts
from rules.concealed.records import MODULE
from rules.state import GameState
from rules.turn.reaction import open_questions
from rules.turn.status import GameStatus
from rules.view import project
from umpire.service import Umpire, UmpireError

UNION = "union"
CONFEDERATE = "confederate"
#: The turns the story takes.
TURNS = 6
#: Its fixed seed (any seed tells it: which of two markers keeps the force is read from the
#: Confederate player's own view).
SEED = bytes([14] * 32)
#: The Confederate division under cover; the Union cavalry division that conceals and sends
#: out a scout; the scout, which finds the decoy and then the division.
FORCE = "colston"
SCREEN = "pleasonton"
FINDER = "8th-pa-cav"
MOVEMENT = "movement"


def marker(role: str) -> str:
    """A stand-in for a marker's id in a scripted command: the marker the side's own view shows
    ``role`` (a unit id) under, or the decoy bred under that name."""
    return f"@{role}"


def question(role: str) -> str:
    """A stand-in for a question's id in a scripted answer: the question the side is asked at
    once about the force it had concealed under ``role``'s marker (its id is only known once
    asked)."""
    return f"?{role}"


@dataclass(frozen=True)
class Beat:
    """One scripted command: given in ``turn``'s ``phase`` by ``side``, in that side's own
    step of the phase or, ``during`` another side's, as an answer at once. ``names`` is the role
    a decoy the command breeds takes; ``says`` what the beat is for."""

    turn: int
    phase: str
    side: str
    command: cmd.Command
    says: str
    names: str = ""
    during: str = ""

    @property
    def step_of(self) -> str:
        """The side whose step of the phase the beat is given in."""
        return self.during or self.side


STORY: tuple[Beat, ...] = (
    Beat(1, MOVEMENT, UNION, ConcealForce(leader=SCREEN),
         "Pleasonton's cavalry division goes under cover at Hazel Grove"),
    # A force that moved in the turn of its reveal or the one before deploys in column, which
    # fires at nothing (Cf 2.3): the brigades that are to fire form line before concealing, and
    # the division waits from turn 5.
    Beat(1, MOVEMENT, CONFEDERATE, cmd.SetFormation(unit="paxton", formation="line"),
         "the Stonewall Brigade forms line at the Brock Road crossroads"),
    Beat(1, MOVEMENT, CONFEDERATE, cmd.SetFormation(unit="jones", formation="line"),
         "and J. R. Jones' brigade beside it"),
    Beat(2, MOVEMENT, UNION, ReleaseScouts(marker=marker(SCREEN), units=(FINDER,)),
         "Pleasonton sends out the 8th Pennsylvania as his scout"),
    Beat(2, MOVEMENT, UNION, cmd.Move(unit=FINDER, route="B1014 B0914 B0813"),
         "the scout rides out, no farther than four leader MPs from Hazel Grove"),
    Beat(2, MOVEMENT, CONFEDERATE, ConcealForce(leader=FORCE),
         "Colston's division goes under cover at the Brock Road"),
    Beat(3, MOVEMENT, UNION, cmd.Move(unit=FINDER, route="B0713 B0612 B0512 B0411 B0311 B0210 "
                                                         "B0111 A3411"),
         "the troopers ride through Dowdall's Tavern for the Plank Road"),
    Beat(3, MOVEMENT, CONFEDERATE, BreedDecoy(marker=marker(FORCE)),
         "the division breeds a decoy", names="decoy 1"),
    Beat(3, MOVEMENT, CONFEDERATE, cmd.Move(unit=marker("decoy 1"), route="road A2015 A2116 "
                                                                          "A2216"),
         "the decoy sets off east along the Plank Road"),
    Beat(3, MOVEMENT, CONFEDERATE, cmd.Move(unit=marker(FORCE), route="road A2015"),
         "the division follows it to Burton's Farm"),
    Beat(4, MOVEMENT, UNION, cmd.Move(unit=FINDER, route="A3312 A3212 A3112 A3012 A2913 A2813"),
         "the scout takes the Plank Road west"),
    Beat(4, MOVEMENT, CONFEDERATE, BreedDecoy(marker=marker(FORCE)),
         "the division breeds a second decoy", names="decoy 2"),
    Beat(4, MOVEMENT, CONFEDERATE, cmd.Move(unit=marker("decoy 1"), route="A2316 A2416 A2516 "
                                                                          "A2616"),
         "the first decoy feints towards the XI Corps' line"),
    Beat(4, MOVEMENT, CONFEDERATE, cmd.Move(unit=marker("decoy 2"), route="road A1417"),
         "the second slips west along the Plank Road"),
    Beat(4, MOVEMENT, CONFEDERATE, cmd.Move(unit=marker(FORCE), route="A2116 A2216"),
         "the division edges east through the thickets, then waits"),
    Beat(5, MOVEMENT, UNION, cmd.Move(unit=FINDER, route="A2714 A2715 A2615"),
         "the scout rides at the nearest marker and finds a decoy"),
    Beat(5, MOVEMENT, CONFEDERATE, ConcealPlan(marker=marker(FORCE), unit="paxton", place="NE",
                                               formation="line"),
         "Colston files where his lines deploy if he is found: the Stonewall Brigade north-east"),
    Beat(5, MOVEMENT, CONFEDERATE, ConcealPlan(marker=marker(FORCE), unit="jones", place="SE",
                                               formation="line"),
         "and J. R. Jones' brigade south-east, both facing the Plank Road"),
    Beat(6, MOVEMENT, UNION, cmd.Move(unit=FINDER, route="A2716 A2616 A2516 A2416"),
         "the scout rides on and comes upon Colston's division"),
    # The move stops on the reveal and the Confederate player is asked at once, in the Union's
    # step: the Union's movement waits for the answer.
    Beat(6, MOVEMENT, CONFEDERATE, cmd.Answer(question=question(FORCE), choice="fire"),
         "the revealed division fires at once on the cavalry that found it", during=UNION),
)


class Roles:
    """The markers' and questions' ids behind the story's roles, as the side's own view and
    inbox show them, and the umpire's replies to each side's beats (what its player was
    answered, in order)."""

    def __init__(self) -> None:
        self.decoys: dict[str, str] = {}
        #: The marker each role was last seen under in its own side's view (a question about
        #: a revealed force names the marker it came from, gone by then).
        self.under: dict[str, str] = {}
        self.replies: dict[str, list[str]] = {UNION: [], CONFEDERATE: []}

    def marker_id(self, state: GameState, side: str, role: str) -> str:
        own = [m for m in project(state, side).markers if m.contents is not None]
        for m in own:
            if any(u.ref == role for u in m.contents or ()):
                return m.id
        return self.decoys.get(role, role)

    def question_id(self, state: GameState, side: str, role: str) -> str:
        """The open question put to ``side`` about the force that deployed from ``role``'s
        marker (the one its inbox shows asking about that marker)."""
        marker_id = self.under.get(role, "")
        for q in open_questions(state, side=side, module=MODULE):
            if q.topic.partition(":")[0] == marker_id:
                return q.id
        return role

    def name_new_decoy(self, state: GameState, side: str, role: str) -> None:
        known = set(self.decoys.values())
        fresh = [m.id for m in project(state, side).markers
                 if m.contents == () and m.id not in known]
        if fresh:
            self.decoys[role] = fresh[0]

    def note(self, state: GameState, side: str) -> None:
        """Remember which marker each of the side's concealed roles is under now."""
        for m in project(state, side).markers:
            for u in m.contents or ():
                self.under[u.ref] = m.id

    def resolve(self, state: GameState, side: str, command: cmd.Command) -> cmd.Command:
        """The command with every marker or question stand-in replaced by its id."""
        changes = {}
        for field, value in command.model_dump().items():
            if isinstance(value, str) and value.startswith("@"):
                changes[field] = self.marker_id(state, side, value[1:])
            elif isinstance(value, str) and value.startswith("?"):
                changes[field] = self.question_id(state, side, value[1:])
        return command.model_copy(update=changes) if changes else command


async def play_turn(umpire: Umpire, game_id: str, players: dict[str, int], turn: int,
                    roles: Roles) -> int:
    """Play every step of one turn: the story's beats for that step are given in the table's
    order (an answer at once by the side asked, amid the acting side's own), then each acting
    side is done. Returns the number of beats the umpire refused."""
    refusals = 0
    while True:
        state = await umpire.repository.state_for(game_id)
        if state.turn != turn or state.status != GameStatus.ACTIVE:
            return refusals
        acting = state.acting_sides()
        for side in state.sides:
            roles.note(state, side)
        for beat in STORY:
            if ((beat.turn, beat.phase) == (turn, state.current.phase.id)
                    and beat.step_of in acting):
                refusals += await _give(umpire, game_id, players[beat.side], beat, roles)
        for side in acting:
            await umpire.handle(game_id, players[side], cmd.Done())


async def _give(umpire: Umpire, game_id: str, user: int, beat: Beat, roles: Roles) -> int:
    state = await umpire.repository.state_for(game_id)
    command = roles.resolve(state, beat.side, beat.command)
    try:
        reply = await umpire.handle(game_id, user, command)
    except UmpireError as e:
        print(f"  turn {beat.turn}: {beat.says}: refused ({e})")
        return 1
    roles.replies[beat.side].append(f"Turn {beat.turn}, {beat.phase}: {reply.text}")
    state = await umpire.repository.state_for(game_id)
    roles.note(state, beat.side)
    if beat.names:
        roles.name_new_decoy(state, beat.side, beat.names)
    return 0


def summary(state: GameState) -> str:
    """Where the story ended, in a line."""
    force = state.units[FORCE]
    where = ("revealed at " + state.loaded.board.label(force.cell) if force.cell is not None
             else "still concealed")
    left = sum(1 for m in state.markers.values() if m.side == CONFEDERATE)
    return (f"concealed forces: Colston's division {where}; {left} Confederate marker(s) left "
            "on the map")
