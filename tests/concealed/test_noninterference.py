"""Non-interference of concealment markers: what Grey receives depends only on where Blue's
markers stand and move, never on what is under them.

Each test plays the same game on the Concealed Forces test ground (``tests/fixtures/
concealed.toml``) through the umpire, changing only what the markers hide, and compares Grey's
whole output byte for byte: Grey's view (``rules.view.project``) at every step, every message it
is sent or may read (public posts included), the PNG bytes of its maps, its autocomplete
choices, and its answers and refusals to orders that name a Blue marker or go for its hex,
from the moment the markers are placed.

The game: on turn 1 Blue conceals the division at A0505 and then the one at A0509. On turn 2
the marker at A0505 breeds a decoy, and the pair's lower id moves off to A0807; on turn 3 the
other half goes to A0803. Grey probes the markers in each of its phases.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rules import commands as cmd
from rules.concealed import records as rec
from rules.concealed.commands import BreedDecoy, ConcealForce, MarkDetached, Unconceal
from rules.state import GameState
from rules.view import project
from storage.store import Store
from tests.support.commitments import masked
from tests.support.concealed_ground import SCENARIO, scenario_text
from tests.support.lockstep import LockstepTransport, heard_by, run_in_lockstep
from tests.support.naming_reads import naming_choices
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError

HOST, BLUE, GREY = 1, 10, 20
SEED = bytes(range(32))

#: Where each unit of the two Blue divisions stands when they trade places.
TRADED = {"blue-gen": "A0509", "blue-1": "A0509", "blue-2": "A0510", "blue-3": "A0609",
          "blue-gen2": "A0505", "blue-5": "A0505", "blue-6": "A0504"}


@dataclass(frozen=True)
class Variant:
    """One game: the two divisions traded (and the 1st Division's brigades weaker), and how many
    times Blue orders a brigade detached and takes the order back in the Command Phase of turn 1
    (events only Blue hears of, which shift the breeding die's place in the log and so may
    change which half keeps the force)."""

    traded: bool = False
    detours: int = 0
    second_move: str = "A0803"


def scenario(tmp_path: Path, name: str, variant: Variant) -> Path:
    text = scenario_text()
    if variant.traded:
        for uid, label in TRADED.items():
            text, n = re.subn(rf'(id = "{uid}"\n(?:[^\[]*?\n)?at = )"A\d{{4}}"',
                              rf'\g<1>"{label}"', text)
            assert n == 1, uid
        for uid, strength in (("blue-1", 4), ("blue-3", 3)):
            text, n = re.subn(rf'(id = "{uid}"\n(?:[^\[]*?\n)?strength = )\d+',
                              rf'\g<1>{strength}', text)
            assert n == 1, uid
    text = text.replace('ruleset = "surprise.ruleset.toml"',
                        f'ruleset = "{SCENARIO.parent / "surprise.ruleset.toml"}"')
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def blue_markers(state: GameState) -> list[str]:
    return sorted(m.id for m in state.markers.values() if m.side == "blue")


#: One drain of the outbox after a command, as Grey got it: (round trip, lane, words).
Timeline = list[list[tuple[int, str, str]]]
GREY_LANES = {"public:", f"player:{GREY}", "side:grey"}


async def grey_output(tmp_path: Path, name: str, variant: Variant,
                      timeline: Timeline | None = None) -> tuple[list[str], dict[str, str]]:
    """Everything Grey receives over three turns, and what was under each Blue marker (by id:
    the commander, or "decoy"). With ``timeline``, the outbox is drained in lockstep after
    every command (``tests.support.lockstep``; maps off) and ``timeline`` gets, drain by drain, when
    and in which lane Grey heard what (the drains in which it heard nothing left out)."""
    heard: list[str] = []
    network = LockstepTransport()

    async def drained(umpire: Umpire) -> None:
        if timeline is None:
            return
        sent = await run_in_lockstep(umpire.store, "g1", network,
                                     lambda: umpire.drain("g1", network))
        grey = [(s.tick, s.lane, masked(s.text)) for s in heard_by(sent, GREY_LANES)]
        if grey:
            timeline.append(grey)

    async def read(umpire: Umpire) -> None:
        state = await umpire.repository.state_for("g1")
        heard.append(repr(project(state, "grey")))
        heard.append((await umpire.status("g1", GREY)).text)
        heard.append((await umpire.units_text("g1", GREY)).text)
        heard.append(masked((await umpire.log_text("g1", GREY)).text))
        heard.append(repr(await umpire.unit_names("g1", GREY)))
        heard.append(repr(await umpire.visible_enemy_names("g1", GREY)))
        heard.append(repr(await umpire.visible_enemy_names("g1", GREY, troops_only=False)))
        heard.extend(repr(found) for found in await naming_choices(umpire, GREY))
        for around, radius in ((None, None), ("A0606", 3)):
            shown = await umpire.my_map("g1", GREY, around=around, radius=radius)
            heard.append(shown.text + (shown.image or b"").hex())
        items, pages = await umpire.inbox("g1", GREY, per_page=100)
        heard.append(f"{pages} " + "\n".join(masked(d.text) for d in items))

    async def order(umpire: Umpire, user: int, command: cmd.Command) -> str:
        try:
            return (await umpire.handle("g1", user, command)).text
        except UmpireError as e:
            return f"refused: {e}"
        finally:
            await drained(umpire)

    async def probe(umpire: Umpire) -> None:
        """Grey's orders that name each Blue marker or aim at its hex: all refused."""
        state = await umpire.repository.state_for("g1")
        for mid in blue_markers(state):
            label = state.loaded.board.label(state.markers[mid].cell)
            for command in (cmd.Move(unit=mid, route="A2005"),
                            cmd.Move(unit=f"marker {mid}", route=label),
                            cmd.Move(unit="Grey Brigade", route=label),  # far beyond its MPs
                            cmd.SetFormation(unit=mid, formation="column"),
                            BreedDecoy(marker=mid), Unconceal(marker=mid),
                            ConcealForce(leader=mid), MarkDetached(unit=mid)):
                heard.append(await order(umpire, GREY, command))

    async def blue(umpire: Umpire, command: cmd.Command) -> None:
        answer = await order(umpire, BLUE, command)
        assert not answer.startswith("refused"), answer

    under: dict[str, str] = {}
    async with Store.open(tmp_path / f"{name}.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=timeline is None))
        await umpire.create_game(str(scenario(tmp_path, name, variant)), HOST, game_id="g1",
                                 seed=SEED)
        await umpire.join("g1", BLUE, "blue")
        await umpire.join("g1", GREY, "grey")
        await umpire.start("g1", HOST)
        await drained(umpire)  # the start's messages go before anything else is done
        # Before the markers are placed Grey sees both divisions (the model shows every counter
        # on the map): only what Grey receives from then on is compared.
        already = len(await store.pending_deliveries("g1", limit=10_000))
        first = "blue-gen2" if variant.traded else "blue-gen"
        second = "blue-gen" if variant.traded else "blue-gen2"
        for _ in range(variant.detours):
            await blue(umpire, MarkDetached(unit="blue-3"))
            await blue(umpire, MarkDetached(unit="blue-3", detached=False))
        # The Command Phase of turn 1, where detachments are ordered, ends with both sides done.
        await blue(umpire, cmd.Done())
        await order(umpire, GREY, cmd.Done())
        await blue(umpire, ConcealForce(leader=first))
        await blue(umpire, ConcealForce(leader=second))
        await read(umpire)
        while (state := await umpire.repository.state_for("g1")).turn < 4:
            for side in state.acting_sides():
                if side == "blue" and state.current.allows("move"):
                    if state.turn == 2:
                        [parent] = [m.id for m in state.markers.values()
                                    if state.loaded.board.label(m.cell) == "A0505"]
                        await blue(umpire, BreedDecoy(marker=parent))
                        pair = sorted(set(blue_markers(await umpire.repository.state_for("g1")))
                                      - set(blue_markers(state)))
                        await blue(umpire, cmd.Move(unit=pair[0], route="A0807"))
                    if state.turn == 3:
                        now = await umpire.repository.state_for("g1")
                        [other] = [m.id for m in now.markers.values()
                                   if now.loaded.board.label(m.cell) == "A0505"]
                        await blue(umpire, cmd.Move(unit=other, route=variant.second_move))
                if side == "grey" and state.current.allows("move"):
                    await probe(umpire)
                user = BLUE if side == "blue" else GREY
                answer = await order(umpire, user, cmd.Done())
                if user == GREY:
                    heard.append(answer)
            await read(umpire)
        state = await umpire.repository.state_for("g1")
        for mid, record in rec.forces(state).items():
            under[mid] = str(record["commander"] or record["kind"])
        for d in (await store.pending_deliveries("g1", limit=10_000))[already:]:
            if d.kind == "public" or d.target in (str(GREY), "grey"):
                d = await umpire.with_picture(d)  # drawn as it is sent
                heard.append(f"{d.kind} {d.target} {masked(d.text)} {d.image_name} "
                             + (d.image or b"").hex())
    return heard, under


def differs(one: Sequence[str], two: Sequence[str]) -> list[tuple[str, str]]:
    """The first few pairs of Grey's outputs that differ (for a readable failure)."""
    return [(a[:300], b[:300]) for a, b in zip(one, two, strict=False) if a != b][:3]


async def test_swapping_decoy_and_force_under_a_marker_tells_grey_nothing(
        tmp_path: Path) -> None:
    base, base_under = await grey_output(tmp_path, "base", Variant())
    swapped, swapped_under = await grey_output(tmp_path, "swapped", Variant(detours=1))
    # The same marker ids stand in the same hexes; the force and the decoy traded places.
    assert sorted(base_under) == sorted(swapped_under)
    assert base_under != swapped_under
    assert sorted(base_under.values()) == sorted(swapped_under.values())
    assert differs(base, swapped) == []
    assert base == swapped


async def test_which_division_is_under_a_marker_and_its_size_tell_grey_nothing(
        tmp_path: Path) -> None:
    base, base_under = await grey_output(tmp_path, "base", Variant())
    traded, traded_under = await grey_output(tmp_path, "traded", Variant(traded=True))
    assert {m: c for m, c in base_under.items() if c != "decoy"} != {
        m: c for m, c in traded_under.items() if c != "decoy"}
    assert differs(base, traded) == []
    assert base == traded


async def test_control_where_a_marker_goes_does_reach_grey(tmp_path: Path) -> None:
    base, _ = await grey_output(tmp_path, "base", Variant())
    other, _ = await grey_output(tmp_path, "other", Variant(second_move="A0804"))
    assert base != other


async def test_what_is_under_a_marker_changes_neither_when_nor_in_what_order_grey_hears(
        tmp_path: Path) -> None:
    """Ruling INFO-13: the same games, compared on Grey's timeline (which round trip after
    each command, in which lane, saying what) rather than on bytes alone."""
    timelines: dict[str, Timeline] = {}
    for name, variant in (("base", Variant()), ("swapped", Variant(detours=1)),
                          ("traded", Variant(traded=True)),
                          ("control", Variant(second_move="A0804"))):
        timelines[name] = []
        await grey_output(tmp_path, f"{name}-timed", variant, timelines[name])
    assert any(len(drain) > 1 for drain in timelines["base"])
    assert timelines["swapped"] == timelines["base"]
    assert timelines["traded"] == timelines["base"]
    assert timelines["control"] != timelines["base"]  # where a marker goes, Grey does hear
