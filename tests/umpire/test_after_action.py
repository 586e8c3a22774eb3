"""After the game, through the umpire on real database files: the after-action report (each
side's losses, the victory result or why there is none, the seed, every secret roll), the check
of a finished game (``/game verify``'s), and the whole truth for a finished game's readers
(never before the end)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from rules import commands as cmd
from rules.combat.commands import Assault
from rules.forces.location import Eliminated, Withdrawn
from rules.state import initial_state, with_units
from rules.view import project
from storage.records import DeliveryRecord
from storage.store import Store
from tests.support.chancellorsville import SAMPLE, SEED
from tests.support.combat_games import CONFEDERATE, UNION, new_game, reach, variant
from tests.support.tiny_games import told
from umpire.games import catalog
from umpire.reads.maps import MapMaker, draw_side_map
from umpire.service import Umpire, UmpireError
from umpire.verify.record import LoggedEvent
from umpire.words import after_action, whole_truth
from umpire.words import verdict as verdict_words

FIXTURES = Path(__file__).parents[1] / "fixtures"
TINY = str(FIXTURES / "tiny.toml")
HOST, BLUE, GREY = 1, 10, 20
CONTACT = (('at = "A0704"\ntags', 'at = "A0604"\ntags'), ('at = "A0504"', 'at = "A0605"'))


async def public(store: Store, gid: str = "g1") -> list[DeliveryRecord]:
    return [d for d in await store.pending_deliveries(gid, limit=10_000) if d.kind == "public"]


def the_report(deliveries: list[DeliveryRecord]) -> DeliveryRecord:
    [report] = [d for d in deliveries if d.text.startswith("**After-action report")]
    return report


async def tiny_game(store: Store, *, maps: bool = False) -> Umpire:
    umpire = Umpire(store, maps=MapMaker(enabled=maps))
    await umpire.create_game(TINY, HOST, game_id="g1", seed=SEED)
    await umpire.join("g1", BLUE, "blue")
    await umpire.join("g1", GREY, "grey")
    await umpire.start("g1", HOST)
    return umpire


# -- losses ----------------------------------------------------------------------------------------
def test_losses_are_measured_against_the_order_of_battle() -> None:
    state = initial_state(catalog.load_file(Path(TINY)))
    units = state.units
    state = with_units(state, {
        "blue-1": replace(units["blue-1"], strength=5, stragglers=1),  # 8: 2 lost, 1 straggling
        "blue-2": replace(units["blue-2"], strength=0, location=Eliminated()),  # 6 lost
        "blue-cav": replace(units["blue-cav"], location=Withdrawn(), strength=0),  # not lost
        "grey-1": replace(units["grey-1"], strength=9),  # corrected up: no loss, no gain
        "grey-bat": replace(units["grey-bat"], strength=1),  # 2: 1 lost
    })
    blue, grey = after_action.losses(state)
    assert (blue.strength_lost, blue.stragglers, blue.eliminated) == (8, 1, ("2nd Brigade",))
    assert (grey.strength_lost, grey.stragglers, grey.eliminated) == (1, 0, ())
    assert after_action.losses_line(blue) == (
        "- Blue Army: 8 strength point(s) lost, 1 straggling at the end, 1 unit(s) eliminated "
        "(2nd Brigade).")


async def test_the_report_gives_each_sides_losses_and_every_secret_roll(tmp_path: Path) -> None:
    scenario = variant(tmp_path, "contact", *CONTACT)
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await new_game(store, scenario)
        start = {u.id: u.strength
                 for u in (await umpire.repository.state_for("g1")).loaded.scenario.units}
        await reach(umpire, "g1", "movement", "confederate")
        await umpire.handle("g1", CONFEDERATE, Assault(units=("Rebel Brigade",),
                                                       target="Union Brigade"))
        assert not [d for d in await public(store) if "After-action" in d.text]  # not yet
        await umpire.end_game("g1", HOST)
        state = await umpire.repository.state_for("g1")
        report = the_report(await public(store))
        rolls = [e for e in await store.events("g1")
                 if e.type == "die_rolled" and e.audience != "public"]
    # Worked out here from the final state, unit by unit.
    total = 0
    for side in state.sides:
        units = [u for u in state.units.values() if u.side == side and u.combat]
        lost = sum(start[u.id] - u.strength - u.stragglers for u in units)
        straggling = sum(u.stragglers for u in units)
        total += lost + straggling
        assert (f"- {state.side_name(side)}: {lost} strength point(s) lost, {straggling} "
                "straggling at the end") in report.text
    assert total > 0  # the assault cost someone something
    assert f"Seed: `{SEED.hex()}`" in report.text
    assert "defines no victory conditions" in report.text
    assert rolls and any(r.audience == "side:union" for r in rolls)
    listed = report.text if report.image is None else report.image.decode("utf-8")
    for r in rolls:
        assert f"log event {r.seq} (" in listed
        # The umpire's rolls name the units their purpose gives by id (ruling INFO-16).
        purpose = after_action.named_purpose(state, str(r.payload["purpose"]))
        assert f"{purpose}: {r.payload['value']} on {r.payload['dice']}" in listed


def test_many_rolls_go_in_an_attached_file() -> None:
    state = initial_state(catalog.load_file(Path(TINY)))
    events = [LoggedEvent(n, "die_rolled", "side:blue" if n % 2 else "umpire",
                          {"purpose": f"check {n}", "dice": "1d6", "value": n % 6 + 1})
              for n in range(1, 31)]
    few = after_action.report_delivery(state, "g1", "ab", events[:4])
    assert few.image is None and "- log event 1 (Blue Army roll 1): check 1: 2 on 1d6" in few.text
    assert "- log event 2 (umpire only): check 2: 3 on 1d6" in few.text
    many = after_action.report_delivery(state, "g1", "ab", events)
    assert many.image is not None and many.image_name == "vedette-g1-secret-rolls.txt"
    body = many.image.decode("utf-8")
    assert "log event 29 (Blue Army roll 15): check 29: 6 on 1d6" in body
    assert body.count("log event") == 30
    assert "log event" not in many.text and "all 30 are in the attached file" in many.text


async def test_the_last_turn_posts_the_report_before_the_record(tmp_path: Path) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await tiny_game(store)
        while (await umpire.repository.state_for("g1")).status != "ended":
            await umpire.handle("g1", HOST, cmd.ForceEndPhase())
        posted = await public(store)
        report = the_report(posted)
        assert "Secret rolls: none were made in this game." in report.text
        assert "Blue Army: 0 strength point(s) lost" in report.text
        record = next(d for d in posted if d.image_name == "vedette-g1-record.json")
        assert report.id < record.id


async def chancellorsville_ended(db: Path, options: dict[str, str | int | bool]
                                 ) -> list[DeliveryRecord]:
    async with Store.open(db) as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(str(SAMPLE), HOST, game_id="g1", seed=SEED, options=options)
        await umpire.join("g1", UNION, "union")
        await umpire.join("g1", CONFEDERATE, "confederate")
        await umpire.start("g1", HOST)
        await umpire.end_game("g1", HOST)
        return await public(store)


async def test_the_victory_result_is_in_the_report(tmp_path: Path) -> None:
    posted = await chancellorsville_ended(tmp_path / "cv.db", {"raid": True, "off_board": True})
    [victory] = [d.text for d in posted if d.text.startswith("**Victory.**")]
    assert victory in the_report(posted).text
    unread = await chancellorsville_ended(tmp_path / "off.db", {"raid": False,
                                                                "victory_roll": False})
    report = the_report(unread).text
    assert "**Result.** The victory chart was not read in this game" in report
    assert "Victory" not in report  # no result is made up


# -- /game verify ----------------------------------------------------------------------------------
async def test_verify_needs_a_finished_game_and_finds_a_changed_roll(tmp_path: Path) -> None:
    db = tmp_path / "v.db"
    scenario = variant(tmp_path, "contact", *CONTACT)
    async with Store.open(db) as store:
        umpire = await new_game(store, scenario)
        await reach(umpire, "g1", "movement", "confederate")
        await umpire.handle("g1", CONFEDERATE, Assault(units=("Rebel Brigade",),
                                                       target="Union Brigade"))
        last = await store.last_seq("g1")
        with pytest.raises(UmpireError) as refused:
            await umpire.verify_game("g1", UNION)
        assert str(refused.value) == verdict_words.NOT_OVER
        assert await store.last_seq("g1") == last  # nothing changed
        await umpire.end_game("g1", HOST)
        rolls = sum(1 for e in await store.events("g1") if e.type == "die_rolled")
        assert rolls > 0
        good = await umpire.verify_game("g1", CONFEDERATE)
        assert good.text.startswith(f"**Game `g1` verified**: all {rolls} rolls match")
    with sqlite3.connect(db) as conn:
        seq, payload = conn.execute("SELECT seq, payload FROM events WHERE type = 'die_rolled' "
                                    "ORDER BY seq").fetchone()
        data = json.loads(payload)
        data["value"] = data["value"] % 6 + 1
        conn.execute("DROP TRIGGER IF EXISTS events_append_only")
        conn.execute("UPDATE events SET payload = ? WHERE seq = ?", (json.dumps(data), seq))
        conn.execute("DELETE FROM snapshots")
    async with Store.open(db) as store:
        bad = await Umpire(store, maps=MapMaker(enabled=False)).verify_game("g1", UNION)
    assert bad.text.startswith("**Game `g1` does not match the rules**")
    assert f"event {seq}" in bad.text


# -- the whole truth, after the end only -----------------------------------------------------------
async def test_a_finished_games_reads_show_the_whole_truth_and_not_before(tmp_path: Path
                                                                          ) -> None:
    async with Store.open(tmp_path / "v.db") as store:
        umpire = await tiny_game(store, maps=True)
        await umpire.handle("g1", HOST, cmd.Correct(unit="grey-1", changes={"strength": 5},
                                                    reason="misread"))
        before_units = (await umpire.units_text("g1", BLUE)).text
        assert "1st Brigade" in before_units and "Grey Brigade" not in before_units
        before_page = await umpire.units_page("g1", BLUE)
        assert "Grey Brigade" not in before_page.text and before_page.side_name != "every side"
        before_map = await umpire.my_map("g1", BLUE)
        state = await umpire.repository.state_for("g1")
        assert before_map.image == draw_side_map(project(state, "blue"), fitted=True)
        assert whole_truth.MAP_NOTE not in before_map.text
        grey_said = await told(store, "grey", GREY)  # held for Grey's next phase
        assert grey_said
        before_log = (await umpire.log_text("g1", BLUE)).text
        assert "[Grey Army]" not in before_log

        await umpire.end_game("g1", HOST)
        state = await umpire.repository.state_for("g1")
        after_units = (await umpire.units_text("g1", BLUE)).text
        assert "**Grey Army**" in after_units and "Grey Brigade (infantry, 5 SP" in after_units
        assert "1st Brigade" in after_units
        pages = [await umpire.units_page("g1", BLUE, n) for n in range(4)]
        assert pages[0].side_name == "every side"
        paged = "\n".join(p.text for p in pages[: pages[0].pages])
        assert "__Grey Army__" in paged and "Grey Brigade" in paged and "1st Brigade" in paged
        after_map = await umpire.my_map("g1", BLUE)
        assert after_map.image == draw_side_map(project(state, None), fitted=True)
        assert after_map.text.endswith(whole_truth.MAP_NOTE)
        after_log = (await umpire.log_text("g1", BLUE, last=100)).text
        assert f"[Grey Army] {grey_said[0]}" in after_log
        assert after_log.count(f"[Grey Army] {grey_said[0]}") == 1
