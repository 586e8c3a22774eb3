"""``vedette demo --scenario chancellorsville-hidden [--raid]``: the Chancellorsville story plays
through the umpire without a refusal, its game verifies, and each beat shows on the enemy's map
what rule text 002 says: a unit on a road in the woods spotted from two hexes, a unit in the
woods seen only from next door (face down meanwhile; under the raid, gone with a ghost left
where it was last seen), Stuart's charge two columns better, and under the raid the victory
roll in the end-of-game post."""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
from pathlib import Path

import pytest

from rules import commands as cmd
from tests.support.demos import Demos
from umpire.cli.main import build_parser
from umpire.demo.chancellorsville import (
    BESIDE_THE_WOODS,
    IN_THE_WOODS,
    ROAD_IN_WOODS,
    STORY,
    STUART,
    WATCH_POST,
)
from umpire.games import catalog
from umpire.verify.check import verify

FITZ_LEE = "Fitz Lee's cavalry brigade"


def play(demos: Demos, out: Path, *, raid: bool) -> tuple[Path, str]:
    return out, demos.play(out, scenario="chancellorsville-hidden", raid=raid)


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory, demos: Demos) -> tuple[Path, str]:
    """The demo without the raid: its folder and what it printed."""
    return play(demos, tmp_path_factory.mktemp("cv") / "demo", raid=False)


@pytest.fixture(scope="module")
def raided(tmp_path_factory: pytest.TempPathFactory, demos: Demos) -> tuple[Path, str]:
    """The demo with the raid: its folder and what it printed."""
    return play(demos, tmp_path_factory.mktemp("cv-raid") / "demo", raid=True)


def read(demo: Path, name: str) -> str:
    return (demo / name).read_text(encoding="utf-8")


def story_lines(demo: Path) -> list[str]:
    return read(demo, "umpire/story.md").strip().split("\n\n")


@pytest.mark.parametrize("variant", ["plain", "raided"])
def test_the_story_plays_without_a_refusal_and_verifies(
        variant: str, request: pytest.FixtureRequest) -> None:
    demo, printed = request.getfixturevalue(variant)
    assert "refused" not in printed and "refused" not in read(demo, "umpire/story.md")
    assert "3 turns of chancellorsville-hidden" in printed
    assert ("(raid)" if variant == "raided" else "(no raid)") in printed
    assert len(story_lines(demo)) == len(STORY)
    assert asyncio.run(verify(demo / "game.db", None)) == 0


@pytest.mark.parametrize("variant", ["plain", "raided"])
def test_stuart_charges_two_columns_better(variant: str,
                                           request: pytest.FixtureRequest) -> None:
    demo, _ = request.getfixturevalue(variant)
    # The last answer: the charge, then the sighting it caused.
    charge = read(demo, "confederate/replies.md").split("Turn ")[-1]
    assert f"**Assault** on {BESIDE_THE_WOODS}: {FITZ_LEE} attacked" in charge
    assert "Devin's brigade" in charge
    assert "stuart vs federal cavalry +2" in charge


def test_the_story_is_one_table_of_real_commands() -> None:
    assert all(isinstance(b.command, cmd.GameCommand) for b in STORY)
    # Where the beats stand: Devin's post two hexes from the road hex and from the woods hex,
    # and the clearing he finds Fitz Lee from next door to the woods.
    assert [b.turn for b in STORY] == sorted(b.turn for b in STORY)
    assert {b.watch for b in STORY if b.watch} == {STUART}
    assert (WATCH_POST, ROAD_IN_WOODS, IN_THE_WOODS, BESIDE_THE_WOODS) == (
        "C2021", "C1822", "C1821", "C1922")


@pytest.mark.parametrize("args", [
    ["--scenario", "chancellorsville-hidden", "--variant", "discovery"],
    ["--raid"],
    ["--scenario", "flank-march", "--raid"],
])
def test_choices_that_do_not_go_together_are_refused(args: list[str], tmp_path: Path) -> None:
    parsed = build_parser().parse_args(["demo", "--out", str(tmp_path / "out"), *args])
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert parsed.func(parsed) == 2
    assert printed.getvalue().startswith("vedette demo: ")
    assert not (tmp_path / "out").exists()  # nothing was written


def test_the_command_line_reaches_the_chancellorsville_demo() -> None:
    parsed = build_parser().parse_args(["demo", "--scenario", "chancellorsville-hidden",
                                        "--raid"])
    assert (parsed.scenario, parsed.raid, parsed.variant) == ("chancellorsville-hidden", True,
                                                              None)
    parsed = build_parser().parse_args(["demo"])
    assert (parsed.scenario, parsed.raid, parsed.variant) == ("flank-march", False, None)


@pytest.mark.parametrize("variant", ["plain", "raided"])
def test_a_unit_on_a_road_in_the_woods_is_spotted_from_two_hexes(
        variant: str, request: pytest.FixtureRequest) -> None:
    demo, _ = request.getfixturevalue(variant)
    halted = story_lines(demo)[1]
    assert halted.startswith("Turn 1, confederate: Fitz Lee rides up the Brock Road")
    assert halted.endswith(f"The union side's map shows: {FITZ_LEE} face up at "
                           f"{ROAD_IN_WOODS}.")


def test_a_unit_in_the_woods_is_face_down_until_an_enemy_is_next_to_it(
        plain: tuple[Path, str]) -> None:
    demo, _ = plain
    lines = story_lines(demo)
    assert lines[2].endswith(f"The union side's map shows: a face-down counter at "
                             f"{IN_THE_WOODS}.")
    assert lines[3].endswith(f"The union side's map shows: {FITZ_LEE} face up at "
                             f"{IN_THE_WOODS}.")


def test_under_the_raid_a_unit_out_of_sight_leaves_a_ghost(raided: tuple[Path, str]) -> None:
    demo, _ = raided
    lines = story_lines(demo)
    assert lines[2].endswith(f"The union side's map shows: nothing at {IN_THE_WOODS}; a ghost "
                             f"of {FITZ_LEE} at {ROAD_IN_WOODS}.")
    assert lines[3].endswith(f"The union side's map shows: {FITZ_LEE} face up at "
                             f"{IN_THE_WOODS}.")


def test_the_raid_demo_ends_with_the_victory_roll(raided: tuple[Path, str]) -> None:
    demo, _ = raided
    channel = read(demo, "public.md")
    assert "The raid option is played: the Federal cavalry, all but" in channel
    # The roll is whatever the seed gives at its place in the log; its words follow from it.
    found = re.search(r"\*\*Victory\.\*\* The Federal raid roll is [1-6] on one die: the raid "
                      r"(succeeded, and the chart is read in its Successful Raid column|came to "
                      r"nothing, and the chart is read in its No Raid column)\.", channel)
    assert found is not None
    assert found.start() < channel.index("**The game is over.**")
    # Both dice of the game (the charge and the raid roll) are checked again from the seed.
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert asyncio.run(verify(demo / "game.db", None)) == 0
    assert "all 2 rolls verified" in printed.getvalue()


def test_without_the_raid_the_chart_is_read_without_a_roll(plain: tuple[Path, str]) -> None:
    demo, _ = plain
    channel = read(demo, "public.md")
    assert "The raid option is played" not in channel
    assert ("**Victory.** The raid was not sent: the chart is read in its No Raid column."
            in channel)


def test_the_raiders_appear_nowhere_in_the_raid_demo(raided: tuple[Path, str]) -> None:
    demo, _ = raided
    told = "".join(read(demo, name) for name in (
        "public.md", "union/inbox.md", "confederate/inbox.md", "union/replies.md",
        "confederate/replies.md"))
    loaded = catalog.load_file(catalog.find_named("chancellorsville-hidden", []))
    raiders = [u for u in loaded.scenario.units if "raid" in u.tags]
    assert len(raiders) == 8
    for unit in raiders:
        for name in (unit.id, unit.name, unit.short):
            assert not name or name not in told, name
