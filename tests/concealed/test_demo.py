"""``vedette demo --variant concealed``: the Concealed Forces story plays through the umpire,
its game verifies, each side is told what the story says it learns, the Union is never told
what is under a Confederate marker, and the Confederates never learn which unit the Union's
cavalry scout is until one of their units sees it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from rules import commands as cmd
from rules.concealed.commands import ConcealForce, ReleaseScouts
from rules.concealed.records import forces
from rules.forces.location import InMarker
from rules.ground.grid import Cell
from rules.state import GameState
from rules.view import ANONYMOUS, project
from storage.store import Store
from tests.support.demos import Demos
from umpire.demo.concealed import (
    CONFEDERATE,
    FINDER,
    FORCE,
    SCREEN,
    SEED,
    STORY,
    UNION,
    Roles,
    play_turn,
    question,
)
from umpire.demo.main import HOST, PLAYERS, SCENARIO
from umpire.games.dice import roll
from umpire.service import Umpire, UmpireError
from umpire.verify.check import verify

#: Colston's division as the scenario names its units: never told to the Union while hidden.
HIDDEN_NAMES = ("Colston", "Paxton", "J. R. Jones", "Warren", "Nicholls", "H. P. Jones")
#: What only the owner of a marker is told about it.
OWNER_ONLY = ("which of markers", "the force is now under", "the decoy is marker", "units deploy",
              "Trimble's) Division is concealed under marker", "was found by the enemy",
              "Deployment plan", "may react at once", "(question ")
#: The Union's phase in which its scout finds Colston: before it, nothing of his is named.
REVEALING_PHASE = ("Your orders, please: Army of the Potomac Movement and Close Combat Phase, "
                   "turn 6 (game `demo`).")
#: What the Confederates are told as Colston's division deploys: the first moment one of their
#: units on the map sees the scout.
REVEALED = "is revealed (an enemy unit came within sight): its 6 units deploy"
#: The scout as the scenario names it: never told to the Confederates before it is seen.
SCOUT_NAMES = ("8th Pennsylvania", FINDER)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory, demos: Demos) -> tuple[Path, str]:
    """The demo's folder and what it printed."""
    out = tmp_path_factory.mktemp("concealed") / "demo"
    return out, demos.play(out, "concealed")


@pytest.fixture
def demo(played: tuple[Path, str]) -> Path:
    return played[0]


def read(demo: Path, name: str) -> str:
    return (demo / name).read_text(encoding="utf-8")


#: Where the after-action report begins: from there on the game is over and every secret is
#: public by design (its rolls included).
REPORT = "**After-action report"


def channel_in_play(demo: Path) -> str:
    """What the channel said while the game was in play (everything before the report)."""
    text = read(demo, "public.md")
    assert REPORT in text  # the demo plays to its end
    return text[:text.index(REPORT)]


async def _moves_of(db: Path, unit: str) -> list[dict[str, Any]]:
    """The recorded moves of ``unit``, in order."""
    async with Store.open(db) as store:
        return [dict(e.payload) for e in await store.events_of_type("demo", "unit_moved")
                if e.payload["unit"] == unit]


async def final_state(db: Path) -> GameState:
    async with Store.open(db) as store:
        return await Umpire(store).repository.state_for("demo")


def in_order(text: str, *parts: str) -> bool:
    at = 0
    for part in parts:
        found = text.find(part, at)
        if found < 0:
            return False
        at = found + len(part)
    return True


def test_the_story_plays_without_a_refusal(played: tuple[Path, str]) -> None:
    _, printed = played
    assert "Vedette demo (concealed): 6 turns of flank-march" in printed
    assert "refused" not in printed
    assert "Colston's division revealed at A2216; 1 Confederate marker(s) left" in printed


def test_the_recorded_game_verifies(demo: Path) -> None:
    assert asyncio.run(verify(demo / "game.db", None)) == 0


def test_the_story_ends_as_told(demo: Path) -> None:
    state = asyncio.run(final_state(demo / "game.db"))
    board = state.loaded.board
    moves = asyncio.run(_moves_of(demo / "game.db", FINDER))
    assert board.label(Cell(*moves[-1]["path"][-1])) == "A2416"  # stopped where it found Colston
    assert state.units[FINDER].strength < 4  # and was fired on
    colston = [u for u in state.units.values() if u.command == "colston-div"]
    assert all(u.cell is not None for u in colston)  # the division is on the map, revealed
    # its two leading brigades deployed by the plan, in line, next to the scout
    assert {board.label(state.units[u].cell) for u in ("paxton", "jones")} == {"A2316", "A2317"}
    assert {state.units[u].formation.value for u in ("paxton", "jones")} == {"line"}
    # one decoy is left, nothing under it; the other was found and removed
    left = [m for m in state.markers.values() if m.side == CONFEDERATE]
    assert len(left) == 1 and forces(state)[left[0].id]["units"] == []
    # the rest of Pleasonton's division is still under its one marker at Hazel Grove
    (screen,) = [m for m in state.markers.values() if m.side == UNION]
    assert board.label(screen.cell) == "B1114"
    inside = {u.id for u in state.units.values() if isinstance(u.location, InMarker)}
    assert inside == set(forces(state)[screen.id]["units"])
    assert SCREEN in inside and FINDER not in inside
    assert not any(state.units[u].command == "colston-div" for u in inside)


def test_the_confederates_are_told_each_beat(demo: Path) -> None:
    inbox = read(demo, "confederate/inbox.md")
    # What answered the Confederate player's own orders is in the answers, and is not DMed
    # to that player again (ruling FLOW-33); the rest comes by DM.
    replies = read(demo, "confederate/replies.md")
    answered = ("Colston's (Trimble's) Division is concealed under marker",
                "bred a decoy", "bred a decoy",
                "Deployment plan for marker", "Deployment plan for marker")
    assert in_order(replies, *answered)
    for words in answered:
        assert words not in inbox, words
    assert in_order(inbox,
                    "A concealment marker of the Army of the Potomac appeared at B1114",
                    "was found by the enemy and is removed",
                    REVEALED,
                    "may react at once: fire (J. R. Jones' brigade, Paxton's (Stonewall) "
                    "brigade)", "(question confederate:q1)",
                    # at once: before the Confederates' own movement and fire phases
                    "Your orders, please: Army of Northern Virginia Movement and Close Combat "
                    "Phase, turn 6 (game `demo`).")
    # the breeding rolls, in the answers to the breeding orders, beside their results
    assert replies.count("Secret roll for which of markers") == 2
    assert "Secret roll for which of markers" not in inbox
    # the answer to the question was the Confederate player's own order, answered with the fire
    # (A2416, 1 hex...); the answer showed it, so it is not DMed to that player again (FLOW-33)
    assert in_order(replies, "Turn 6, movement: **Fire**: J. R. Jones' brigade and Paxton's "
                    "(Stonewall) brigade fired at 8th Pennsylvania Cavalry (A2416, 1 hex")
    assert "**Fire**: J. R. Jones' brigade and Paxton's (Stonewall) brigade fired" not in inbox


def test_the_union_scout_is_stopped_twice_and_fired_on_at_once(demo: Path) -> None:
    replies = read(demo, "union/replies.md")
    assert in_order(replies, "Turn 1, movement: Cavalry division (Pleasonton) is concealed "
                    "under marker",
                    "Turn 2, movement: Marker", "released 8th Pennsylvania Cavalry as scouts at "
                    "B1114",
                    "It stopped: it came upon an enemy concealed force at A2616",
                    "It stopped: it came upon an enemy concealed force at A2216")
    inbox = read(demo, "union/inbox.md")
    # the scout's move was answered with its being seen; the fire's result, and the morale
    # roll beside it, reach the Union at once (its own movement phase), before its fire phase
    assert in_order(replies, "Turn 6, movement: 8th Pennsylvania Cavalry moved",
                    "8th Pennsylvania Cavalry has been seen by the enemy: it is no longer "
                    "anonymous")
    assert in_order(inbox, REVEALING_PHASE,
                    "**Under fire**: 8th Pennsylvania Cavalry was fired on by J. R. Jones' "
                    "brigade and Paxton's (Stonewall) brigade: **1M**",
                    "8th Pennsylvania Cavalry loses 1 strength point",
                    "Secret roll for morale check of 8th Pennsylvania Cavalry (fire)",
                    "Your orders, please: Army of the Potomac Fire Phase, turn 6 (game `demo`).")
    assert (inbox + replies).count("has been seen by the enemy") == 1


def test_the_union_never_learns_what_is_under_a_marker(demo: Path) -> None:
    inbox = read(demo, "union/inbox.md")
    assert REVEALING_PHASE in inbox
    hidden_part = inbox[:inbox.index(REVEALING_PHASE)]
    replies = read(demo, "union/replies.md").split("\n\n")
    while_hidden = [hidden_part, *(r for r in replies if not r.startswith("Turn 6"))]
    for text in while_hidden:
        for name in HIDDEN_NAMES:
            assert name not in text, name
    union = [inbox, *replies, channel_in_play(demo)]
    for text in union:
        for words in OWNER_ONLY:
            assert words not in text, words
    # the public channel never names a unit of the division, even once it is revealed
    for name in HIDDEN_NAMES:
        assert name not in channel_in_play(demo), name


def test_the_scout_is_anonymous_to_the_confederates_until_seen(demo: Path) -> None:
    """Nothing the Confederates are told names the 8th Pennsylvania before Colston's units on
    the map see it; from then on they name it."""
    inbox = read(demo, "confederate/inbox.md")
    assert REVEALED in inbox
    before = inbox[:inbox.index(REVEALED)]
    replies = read(demo, "confederate/replies.md").split("\n\n")
    for text in [before, *(r for r in replies if not r.startswith("Turn 6")),
                 channel_in_play(demo)]:
        for name in SCOUT_NAMES:
            assert name not in text, name
    told = [inbox[inbox.index(REVEALED):], *(r for r in replies if r.startswith("Turn 6"))]
    assert any("fired at 8th Pennsylvania Cavalry" in text for text in told)


@pytest.fixture(scope="module")
def eve(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The story's game on a fresh database, played through the umpire as the demo plays it
    to the eve of the reveal: turn 6 begins, the scout stands next to the found decoy's hex."""
    db = tmp_path_factory.mktemp("concealed-eve") / "game.db"

    async def play() -> None:
        async with Store.open(db) as store:
            umpire = Umpire(store)
            await umpire.create_game(SCENARIO, HOST, game_id="demo", seed=SEED)
            for side, uid in PLAYERS.items():
                await umpire.join("demo", uid, side)
            await umpire.start("demo", HOST)
            roles = Roles()
            for turn in range(1, 6):
                assert await play_turn(umpire, "demo", PLAYERS, turn, roles) == 0

    asyncio.run(play())
    return db


def test_the_confederate_view_shows_the_scout_as_an_anonymous_counter(eve: Path) -> None:
    """The Confederates' own view shows a cavalry counter without a name where the scout
    stands, and nothing named for it; the Union's own view names it."""
    state = asyncio.run(final_state(eve))
    assert state.turn == 6
    scout = state.units[FINDER]
    assert scout.cell is not None and state.loaded.board.label(scout.cell) == "A2715"
    view = project(state, CONFEDERATE)
    there = [u for u in view.units if u.cell == scout.cell]
    assert [(u.level, u.kind, u.name, u.ref) for u in there] == [(ANONYMOUS, "cavalry", "",
                                                                 "anonymous-1")]
    assert not any(u.ref == FINDER or "8th Pennsylvania" in u.name for u in view.units)
    assert any(u.ref == FINDER and u.name == "8th Pennsylvania Cavalry"
               for u in project(state, UNION).units)


def test_an_answer_before_its_question_is_refused(eve: Path) -> None:
    """The question stand-in is read from the side's own open questions: before the question
    is asked it stays a name that the umpire refuses as no question, and nothing changes."""
    async def attempt() -> tuple[str, int, int]:
        async with Store.open(eve) as store:
            umpire = Umpire(store)
            state = await umpire.repository.state_for("demo")
            command = Roles().resolve(state, CONFEDERATE,
                                      cmd.Answer(question=question(FORCE), choice="fire"))
            before = len(await store.events("demo"))
            with pytest.raises(UmpireError) as refused:
                await umpire.handle("demo", PLAYERS[CONFEDERATE], command)
            return str(refused.value), before, len(await store.events("demo"))

    text, before, after = asyncio.run(attempt())
    assert "no question 'colston' is waiting for your answer" in text
    assert before == after


def test_the_story_is_one_table_of_real_commands() -> None:
    kinds = [beat.command.kind for beat in STORY]
    assert kinds.count("conceal") == 2 and kinds.count("conceal_breed") == 2
    assert STORY[0].side == UNION and STORY[0].command == ConcealForce(leader=SCREEN)
    (release,) = [b for b in STORY if b.command.kind == "conceal_scouts"]
    assert (release.side, release.turn) == (UNION, 2)
    assert isinstance(release.command, ReleaseScouts) and release.command.units == (FINDER,)
    # no fire phase: the revealed division fires at once, answering its question in the
    # Union's movement phase, the story's last beat
    assert "fire" not in kinds and STORY[-1].command == cmd.Answer(question=question(FORCE),
                                                                   choice="fire")
    assert (STORY[-1].side, STORY[-1].during, STORY[-1].step_of) == (CONFEDERATE, UNION, UNION)
    assert [b.turn for b in STORY] == sorted(b.turn for b in STORY)
    assert all(beat.says for beat in STORY)
    assert FORCE == "colston"


def test_the_umpire_rolls_the_breeding_die() -> None:
    """Breeding asks for a 1d2 (which marker keeps the force): the umpire's dice roll it, both
    faces come up, and an unknown die is still refused."""
    faces = {roll(bytes(32), "g", seq, "which of markers 0001 and 0002 holds the force", "1d2")
             for seq in range(64)}
    assert faces == {1, 2}
    with pytest.raises(ValueError, match="unknown dice '1d3'"):
        roll(bytes(32), "g", 1, "anything", "1d3")
