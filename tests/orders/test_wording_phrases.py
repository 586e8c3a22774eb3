"""The wordings players read, one at a time: a change of formation said as a sentence says it
(from Discord), the end of a phase that is itself an end, a victory result said once, and the
after-action list of rolls naming the units of the umpire's rolls and whose reports gave them.
``test_wording_samples`` reads every message of the samples for the same faults."""

from __future__ import annotations

import re
from pathlib import Path

from rules.chancellorsville.events import VictoryDecided, result_words
from rules.combat.commands import Assault
from rules.forces.words import Formation, formation_said
from rules.knowledge.sighted import end_of
from rules.view import public_view
from storage.store import Store
from tests.fakediscord import FakeDiscord
from tests.support.botkit import FIXTURES, private_answer, started_game, text_of
from tests.support.combat_games import CONFEDERATE, HOST, new_game, reach, variant

TINY = FIXTURES / "tiny.toml"
SEED = bytes(range(32))
#: The combat field with the two brigades next to each other (as tests/umpire's after-action
#: tests set it).
CONTACT = (('at = "A0704"\ntags', 'at = "A0604"\ntags'), ('at = "A0504"', 'at = "A0605"'))


# -- formations ----------------------------------------------------------------------------------
def test_a_formation_is_said_with_in_only_when_it_is_a_line_or_a_column() -> None:
    assert [f.said for f in Formation] == ["in line", "in column", "limbered", "unlimbered",
                                           "mounted", "dismounted"]
    assert formation_said("square") == "in square"  # a ruleset's own word


async def test_a_change_of_formation_reads_is_now_unlimbered_and_is_now_in_line(
        fake: FakeDiscord, tmp_path: Path) -> None:
    async with started_game(fake, tmp_path, TINY, ("blue", "grey"), seed=SEED) as (_, alice, bob):
        foot = text_of(await private_answer(fake, "formation", alice,
                                            {"unit": "1st Brigade", "formation": "line"}))
        await private_answer(fake, "done", alice, {})
        guns = text_of(await private_answer(fake, "formation", bob,
                                            {"unit": "Grey Battery", "formation": "unlimbered"}))
        again = text_of(await private_answer(fake, "formation", bob,
                                             {"unit": "Grey Battery", "formation": "unlimbered"}))
    assert "1st Brigade is now in line." in foot
    assert "Grey Battery is now unlimbered." in guns
    assert "Grey Battery is already unlimbered" in again
    assert not re.search(r"\bin (dismounted|mounted|limbered|unlimbered)\b", guns + again)


async def test_a_unit_yet_to_arrive_is_named_in_the_answer_to_its_order(
        fake: FakeDiscord, tmp_path: Path) -> None:
    """Blue Horse arrives on turn 2: the answer names it as its counter does, not "blue-cav"."""
    async with started_game(fake, tmp_path, TINY, ("blue", "grey"), seed=SEED) as (_, alice, _b):
        said = text_of(await private_answer(fake, "formation", alice,
                                            {"unit": "Blue Horse", "formation": "dismounted"}))
    assert "Blue Horse is now dismounted." in said and "blue-cav" not in said


# -- the end of a phase --------------------------------------------------------------------------
def test_the_end_of_the_end_of_turn_is_the_end_of_turn() -> None:
    assert end_of("End of Turn") == "End of Turn"
    assert end_of("Fire Phase") == "End of the Fire Phase"
    assert end_of("Player Turn (movement and combat)") == (
        "End of the Player Turn (movement and combat)")


# -- the victory result --------------------------------------------------------------------------
def test_a_result_is_said_by_its_meaning_and_its_code_only_when_it_differs() -> None:
    assert result_words("DRAW", "draw") == "**Draw**"
    assert result_words("USA-M", "Union marginal victory") == "**Union marginal victory** (USA-M)"
    assert result_words("X", "") == "**X**"


def test_a_drawn_game_reads_result_draw_once(tmp_path: Path) -> None:
    from rules.state import initial_state
    from tests.support.tiny_games import load_tiny
    view = public_view(initial_state(load_tiny()))
    drawn = VictoryDecided(audience="public", raid=False, column="No Raid", federal=8,
                           confederate=8, margin=0, result="DRAW", words="draw")
    text = drawn.report(view)
    assert text.endswith("Federal margin +0. Result: **Draw**.")
    assert "(draw)" not in text


# -- the after-action list of rolls --------------------------------------------------------------
async def test_the_umpires_roll_is_named_and_labelled_with_the_sides_told(tmp_path: Path) -> None:
    """A close combat between units both sides see: its roll is the umpire's, and both sides'
    reports gave its result; the list names the attacker, never its id."""
    scenario = variant(tmp_path, "contact", *CONTACT)
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store, scenario)
        await reach(umpire, "g1", "movement", "confederate")
        await umpire.handle("g1", CONFEDERATE, Assault(units=("Rebel Brigade",),
                                                       target="Union Brigade"))
        await umpire.end_game("g1", HOST)
        state = await umpire.repository.state_for("g1")
        events = await store.events("g1")
        posted = [d.text for d in await store.pending_deliveries("g1", limit=10_000)
                  if d.kind == "public"]
    [rolled] = [e for e in events if e.type == "die_rolled" and e.audience == "umpire"]
    attacker = state.units[str(rolled.payload["purpose"]).split(" by ")[1].split(" at ")[0]]
    [report] = [t for t in posted if t.startswith("**After-action report")]
    [line] = [x for x in report.splitlines() if f"log event {rolled.seq} (" in x]
    assert line.startswith(f"- log event {rolled.seq} (the umpire's roll, its result told to "
                           "Confederates and Union): close combat by "
                           f"{attacker.name} at ")
    assert "umpire only" not in line and not re.search(rf"(?<![\w-]){attacker.id}(?![\w-])",
                                                        line)
    assert re.search(r"column \S+: \S+ \([^)]+\)$", line)  # the result, and what it means
