"""``vedette demo --variant concealed``: the Concealed Forces story plays through the umpire,
its game verifies, each side is told what the story says it learns, and the Union is never told
what is under a Confederate marker."""

from __future__ import annotations

import asyncio
import contextlib
import io
from pathlib import Path

import pytest

from rules.concealed.records import forces
from rules.location import InMarker
from rules.state import GameState
from storage.store import Store
from umpire.demo import run_demo
from umpire.demo_concealed import FINDER, FORCE, STORY
from umpire.dice import roll
from umpire.service import Umpire
from umpire.verify import verify

#: Colston's division as the scenario names its units: never told to the Union while hidden.
HIDDEN_NAMES = ("Colston", "Paxton", "J. R. Jones", "Warren", "Nicholls", "H. P. Jones")
#: What only the owner of a marker is told about it.
OWNER_ONLY = ("which of markers", "the force is now under", "the decoy is marker", "units deploy",
              "concealed under marker", "was found by the enemy")
#: The Union's phase in which its cavalry finds Colston: before it, nothing of his is named.
REVEALING_PHASE = ("Your orders, please: Army of the Potomac Movement and Close Combat Phase, "
                   "turn 5.")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The demo's folder and what it printed."""
    out = tmp_path_factory.mktemp("concealed") / "demo"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert run_demo(out, "concealed") == 0
    return out, printed.getvalue()


@pytest.fixture
def demo(played: tuple[Path, str]) -> Path:
    return played[0]


def read(demo: Path, name: str) -> str:
    return (demo / name).read_text(encoding="utf-8")


async def final_state(db: Path) -> GameState:
    async with Store.open(db) as store:
        return await Umpire(store).state_for("demo")


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
    assert "Vedette demo (concealed): 5 turns of flank-march" in printed
    assert "refused" not in printed
    assert "Colston's division revealed at A2216; 1 Confederate marker(s) left" in printed


def test_the_recorded_game_verifies(demo: Path) -> None:
    assert asyncio.run(verify(demo / "game.db", None)) == 0


def test_the_story_ends_as_told(demo: Path) -> None:
    state = asyncio.run(final_state(demo / "game.db"))
    board = state.loaded.board
    assert board.label(state.units[FINDER].cell) == "A2416"  # stopped where it found Colston
    assert state.units[FINDER].strength < 4  # and was fired on
    colston = [u for u in state.units.values() if u.command == "colston-div"]
    assert all(u.cell is not None for u in colston)  # the division is on the map, revealed
    assert {board.label(state.units[u].cell) for u in ("paxton", "jones")} == {"A2316", "A2317"}
    # one decoy is left, nothing under it; the other was found and removed
    left = [m for m in state.markers.values() if m.side == "confederate"]
    assert len(left) == 1 and forces(state)[left[0].id]["units"] == []
    assert not any(isinstance(u.location, InMarker) for u in state.units.values())


def test_the_confederates_are_told_each_beat(demo: Path) -> None:
    inbox = read(demo, "confederate/inbox.md")
    assert in_order(inbox,
                    "Colston's (Trimble's) Division is concealed under marker",
                    "bred a decoy", "bred a decoy",
                    "was found by the enemy and is removed",
                    "is revealed (an enemy unit came within sight): its 6 units deploy",
                    "**Fire**: Paxton's (Stonewall) brigade and J. R. Jones' brigade fired at "
                    "8th Pennsylvania Cavalry")
    assert inbox.count("Secret roll for which of markers") == 2  # the breeding rolls


def test_the_union_is_stopped_twice_and_fired_on(demo: Path) -> None:
    replies = read(demo, "union/replies.md")
    assert in_order(replies, "It stopped: it came upon an enemy concealed force at A2616",
                    "It stopped: it came upon an enemy concealed force at A2216")
    inbox = read(demo, "union/inbox.md")
    assert in_order(inbox, REVEALING_PHASE, "**Under fire**: 8th Pennsylvania Cavalry was "
                    "fired on by Paxton's (Stonewall) brigade and J. R. Jones' brigade")


def test_the_union_never_learns_what_is_under_a_marker(demo: Path) -> None:
    inbox = read(demo, "union/inbox.md")
    assert REVEALING_PHASE in inbox
    hidden_part = inbox[:inbox.index(REVEALING_PHASE)]
    replies = read(demo, "union/replies.md").split("\n\n")
    while_hidden = [hidden_part, *(r for r in replies if not r.startswith("Turn 5"))]
    for text in while_hidden:
        for name in HIDDEN_NAMES:
            assert name not in text, name
    union = [inbox, *replies, read(demo, "public.md")]
    for text in union:
        for words in OWNER_ONLY:
            assert words not in text, words
    # the public channel never names a unit of the division, even once it is revealed
    for name in HIDDEN_NAMES:
        assert name not in read(demo, "public.md"), name


def test_the_story_is_one_table_of_real_commands() -> None:
    kinds = [beat.command.kind for beat in STORY]
    assert kinds.count("conceal_breed") == 2 and kinds[0] == "conceal"
    assert kinds[-1] == "fire"
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
