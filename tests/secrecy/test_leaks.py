"""No leaks: what a side receives depends only on what it may know. Each test varies hidden enemy
state and compares one side's whole output, word for word."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from rules import commands as cmd
from rules.combat.commands import Fire
from rules.knowledge.sighted import bits_to_cells, sight
from rules.state import GameState
from rules.surprise.commands import OrderSurpriseMove
from rules.surprise.notes import SurpriseNote
from rules.view import project
from storage.store import Store
from tests.support.commitments import masked
from tests.support.surprise import FORCE, ROUTE, SAMPLE_RULESET, Dice, Game, load_ground
from umpire.games.routing import messages_for
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError

FIXTURES = Path(__file__).parents[1] / "fixtures"
HOST, BLUE, GREY = 1, 10, 20

#: A Blue supply train far out of sight of every Blue observer (wagons observe nothing).
TRAIN = """
[[units]]
id = "blue-train"
side = "blue"
name = "Supply Train"
kind = "wagon"
at = "A0801"
"""


def tiny_hidden(tmp_path: Path, name: str, grey_at: str, extra: str = "") -> Path:
    """The tiny skirmish under the hidden model, with a Blue train (and ``extra`` units), and
    the Grey Brigade at ``grey_at``: hidden from Blue wherever it is."""
    text = (FIXTURES / "tiny.toml").read_text(encoding="utf-8")
    text = text.replace('ruleset = "tiny.ruleset.toml"',
                        f'ruleset = "{FIXTURES / "tiny.ruleset.toml"}"')
    text = text.replace('information = "open"', 'information = "hidden"')
    assert 'at = "B0704"' in text
    text = text.replace('at = "B0704"', f'at = "{grey_at}"') + TRAIN + extra
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


async def blue_answer(tmp_path: Path, name: str, grey_at: str, route: str) -> list[str]:
    """Blue's answer to moving the train along ``route``, then everything Blue was sent."""
    async with Store.open(tmp_path / f"{name}.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await umpire.create_game(str(tiny_hidden(tmp_path, name, grey_at)), HOST, game_id="g1",
                                 seed=bytes(range(32)))
        await umpire.join("g1", BLUE, "blue")
        await umpire.join("g1", GREY, "grey")
        await umpire.start("g1", HOST)
        state = await umpire.repository.state_for("g1")
        assert state.current.phase.id == "movement" and state.current.side == "blue"
        try:
            answer = (await umpire.handle("g1", BLUE, cmd.Move(unit="Supply Train",
                                                                 route=route))).text
        except UmpireError as e:
            answer = f"refused: {e}"
        sent = [masked(d.text) for d in await store.pending_deliveries("g1")
                if d.kind == "public" or (d.kind == "player" and d.target == str(BLUE))]
        return [answer, *sent]


async def test_a_move_beyond_its_mps_does_not_find_a_hidden_enemy(tmp_path: Path) -> None:
    """The train's 8 MPs take it to B0502 (the woods cost 4); the next step, B0601, is beyond
    them. Whether the unseen Grey Brigade stands in B0601 must not change Blue's answer: troops
    that cannot take the step cannot run into anyone there (CORE-3 is for cells they enter)."""
    there = await blue_answer(tmp_path, "there", "B0601", "B0801")
    away = await blue_answer(tmp_path, "away", "B0704", "B0801")
    assert away[0] == ("Supply Train moved 5 cell(s) to B0502, spending 8 MP (0 left). It "
                       "stopped: its MPs ran out at B0502.")  # ORD-1: no longer a refusal
    assert there == away


#: Two Blue wagon parks filling A0802, next to the train (wagons count for stacking and see
#: nothing, so A0803 beyond them stays unseen).
WAGONS = "".join(f"""
[[units]]
id = "blue-wagons-{n}"
side = "blue"
name = "Wagon Park {n}"
kind = "wagon"
at = "A0802"
""" for n in (1, 2))


async def blue_moves(tmp_path: Path, name: str, grey_at: str, routes: list[str]
                     ) -> tuple[list[str], dict[str, tuple[str, float]]]:
    """Blue's answers to moving the train along each route in turn (next to the full wagon
    park), and where every Blue unit then stands with its MPs left."""
    async with Store.open(tmp_path / f"{name}.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        scenario = tiny_hidden(tmp_path, name, grey_at, WAGONS)
        await umpire.create_game(str(scenario), HOST, game_id="g1", seed=bytes(range(32)))
        await umpire.join("g1", BLUE, "blue")
        await umpire.join("g1", GREY, "grey")
        await umpire.start("g1", HOST)
        answers = []
        for route in routes:
            try:
                answers.append((await umpire.handle("g1", BLUE, cmd.Move(
                    unit="Supply Train", route=route))).text)
            except UmpireError as e:
                answers.append(f"refused: {e}")
        state = await umpire.repository.state_for("g1")
        board = state.loaded.board
        assert state.units["grey-1"].id not in sight(state)["blue"].seen_units
        where = {u.id: (board.label(u.cell) if u.cell else "-", u.mp_left)
                 for u in state.units_of("blue")}
        return answers, where


async def test_contact_beyond_a_full_friendly_cell_is_a_halt_not_a_refusal(
        tmp_path: Path) -> None:
    """CORE-3: the train's way to A0803 passes through A0802, which the wagon parks fill. With
    the unseen Grey Brigade in A0803 the train cannot stop in A0802: it halts where it stood,
    its MPs gone, exactly as an order that found nobody is carried out. No refusal, in either
    case, so the order probes nothing for free."""
    clear, moved = await blue_moves(tmp_path, "clear", "B0704", ["A0802 A0803"])
    held, halted = await blue_moves(tmp_path, "held", "A0803", ["A0802 A0803", "A0702"])
    assert not clear[0].startswith("refused") and moved["blue-train"][0] == "A0803"
    assert not held[0].startswith("refused")
    assert held[0] == ("Supply Train ran into the enemy at A0803 past full friendly cells "
                       "and halts where it stands for the rest of this phase.")
    assert halted["blue-train"] == ("A0801", 0.0)  # the contact is committed
    assert held[1] == ("refused: Supply Train has no MP left this phase: its first step "
                       "(A0801 to A0702, clear) costs 1 MP")


async def test_a_route_beyond_the_mps_meets_the_enemy_only_where_they_pay(
        tmp_path: Path) -> None:
    """ORD-1: where the MPs run out is settled before any enemy is looked for. The unseen Grey
    Brigade early on the way stops the train as it would stop any move (CORE-3: the contact
    counts); with nobody there the train goes as far as its MPs pay, told so."""
    route = ["B0102 B0801"]
    clear, moved = await blue_moves(tmp_path, "clear", "B0704", route)
    held, where = await blue_moves(tmp_path, "held", "B0302", route)
    assert clear[0].endswith("It stopped: its MPs ran out at B0502.")
    assert moved["blue-train"] == ("B0502", 0.0)
    assert "ran into the enemy" in held[0] and "MPs ran out" not in held[0]
    assert where["blue-train"][0] != "B0502"


def sham_variant(on_surprise_move: bool) -> list[str]:
    """Grey's battery fires from five hexes at the 1st Brigade (hidden model, daylight: in
    sight), which is on a surprise move or not; everything Grey hears until Blue's next
    movement phase, and Grey's view of the Blue units."""
    loaded = load_ground(('modules = ["surprise_move"]', 'modules = ["surprise_move", "combat"]'),
                         ('information = "open"', 'information = "hidden"'),
                         ruleset=SAMPLE_RULESET)
    game = Game(loaded, Dice(initiative=[2], fire=[12, 12]))
    if on_surprise_move:
        game.do("blue", OrderSurpriseMove(force=FORCE, route=ROUTE, by_initiative=True))
    game.place(**{"grey-bat": "A0905"})
    game.to(1, "fire", "grey")
    heard: list[str] = []
    commands: list[tuple[str, cmd.Command]] = [
        ("grey", Fire(units=("Grey Battery",), target="1st Brigade"))]
    while True:
        for side, command in commands:
            before = game.state
            out = game.do(side, command)
            heard += [f"{m.kind}: {m.text}" for m in messages_for(before, out.events, game.state)
                      if m.kind == "public" or (m.kind == "side" and m.target == "grey")]
        if game.at(2, "movement", "blue"):
            break
        commands = [(side, cmd.Done()) for side in game.state.acting_sides()]
    view = project(game.state, "grey")
    heard += [f"{u.level} {u.name} {u.cell} {u.strength} {u.morale}" for u in view.enemy_units()]
    heard += [f"memory {uid} {m.cell} {dict(m.seen)}"
              for uid, m in sorted(game.state.memory["grey"].items())]
    return heard


def test_a_sham_result_reads_like_a_real_one_to_the_firer() -> None:
    """SM-19, SM-21: the firer cannot tell a waiting force from a marching one. Under the hidden
    model its troops' sighting reports, end-of-phase reports and memory must show the sham as
    they would show a real result."""
    real = sham_variant(on_surprise_move=False)
    sham = sham_variant(on_surprise_move=True)
    # The brigade stays in sight: the report tells what changed, its strength as now seen.
    assert any("Still in sight, now seen as: 1st Brigade (infantry, 7" in t for t in real)
    assert sham == real


# -- ids a side sees ---------------------------------------------------------------------------
async def blue_with_grey_orders(tmp_path: Path, name: str, grey_orders: bool) -> list[str]:
    """Blue writes two surprise orders in turn 1 and plays to turn 3; Grey writes one first, or
    not. Everything Blue is sent or answered (maps included), and its ``/march status``."""
    from rules.surprise.commands import ExecuteSurpriseMove
    from tests.support.surprise import RULESET, SCENARIO
    from umpire.modules.surprise import march_status

    text = SCENARIO.read_text(encoding="utf-8").replace(
        'ruleset = "surprise.ruleset.toml"', f'ruleset = "{RULESET}"')
    scenario = tmp_path / f"{name}.toml"
    scenario.write_text(text, encoding="utf-8")
    heard: list[str] = []

    async def blue(command: cmd.Command) -> None:
        try:
            heard.append((await umpire.handle("g1", BLUE, command)).text)
        except UmpireError as e:
            heard.append(f"refused: {e}")

    async with Store.open(tmp_path / f"{name}.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=True))
        await umpire.create_game(str(scenario), HOST, game_id="g1", seed=bytes(range(32)))
        await umpire.join("g1", BLUE, "blue")
        await umpire.join("g1", GREY, "grey")
        await umpire.start("g1", HOST)
        if grey_orders:  # Grey's secret order comes first in the log
            await umpire.handle("g1", GREY, OrderSurpriseMove(
                force="Grey Horse, General Ash", route="A2410"))
        await blue(OrderSurpriseMove(force="Blue Horse", route="A0305 road A1005"))
        await blue(OrderSurpriseMove(force="1st Division", route="road A1005"))
        await blue(ExecuteSurpriseMove())  # which one? The refusal lists them by id
        await blue(ExecuteSurpriseMove(march="m1"))
        while (state := await umpire.repository.state_for("g1")).turn < 3:
            for side in state.acting_sides():
                await umpire.handle("g1", BLUE if side == "blue" else GREY, cmd.Done())
        status = await march_status(umpire, "g1", BLUE)
        heard += [status.text, repr(status.pending), (status.image or b"").hex()]
        for d in await store.pending_deliveries("g1", limit=10_000):
            if d.target in ("", str(BLUE), "blue"):
                d = await umpire.with_picture(d)  # drawn as it is sent
                heard.append(f"{d.kind} {d.target} {d.text} {d.image_name}"
                             + (d.image or b"").hex())
        if grey_orders:
            marches = (await umpire.repository.state_for("g1")
                       ).module_data["surprise_move"]["marches"]
            assert any(m["side"] == "grey" for m in marches.values())
    return heard


async def test_a_sides_march_ids_do_not_count_the_enemys_orders(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Marches are numbered per side: Blue's first march is its m1 whether or not Grey has
    written a secret order before it, in every answer, report, status and map Blue gets.
    (Scripted dice: a roll's value may follow its place in the log, which is not an id.)"""
    from tests.support.surprise import Dice
    from umpire.games import dice as umpire_dice

    monkeypatch.setattr(umpire_dice, "SeededDice", lambda seed, gid: Dice())
    alone = await blue_with_grey_orders(tmp_path, "alone", grey_orders=False)
    watched = await blue_with_grey_orders(tmp_path, "watched", grey_orders=True)
    assert "refused: which surprise move? You have 2: m1 (Blue Horse), m2 (1st Division)" \
        in alone
    assert any("(m1)" in t for t in alone) and any(".png" in t for t in alone)
    assert watched == alone


# -- the blocked cells a side on a surprise move is shown --------------------------------------
GREY_WAGONS = """[[units]]
id = "grey-wagons"
side = "grey"
name = "Grey Wagons"
kind = "wagon"
at = "A2410"

[[turns]]
turn = 1
"""


def marching_blue(information: str) -> Game:
    """The surprise test ground under ``information`` (and a Grey wagon train, which neither
    fights nor sees), with Blue's march accepted (so Blue's view carries its blocked cells)."""
    loaded = load_ground(('information = "open"', f'information = "{information}"'),
                         ("[[turns]]\nturn = 1\n", GREY_WAGONS))
    game = Game(loaded, Dice(initiative=[2]))
    game.do("blue", OrderSurpriseMove(force=FORCE, route=ROUTE, by_initiative=True))
    note = project(game.state, "blue").notes["surprise_move"]
    assert isinstance(note, SurpriseNote) and note.show_blocked
    return game


def placed(game: Game, **where: str) -> GameState:
    game.place(**where)
    return game.state


async def test_the_blocked_overlay_comes_from_what_the_side_knows(tmp_path: Path) -> None:
    """Hidden model: wherever the unseen Grey Battery stands, Blue's blocked cells and Blue's map
    are the same, byte for byte, though the cells its pickets and gunners truly block change."""
    game = marching_blue("hidden")
    game.place(**{"grey-cav": "A1002"})  # in Blue's sight
    board, grid = game.board, game.loaded.map.grid
    unseen = [c for c in sorted(grid.cells()) if game.loaded.map.enterable(c)
              and game.loaded.board.on_a_sheet(c)
              and not sight(placed(game, **{"grey-bat": board.label(c)}))["blue"].sees_cell(
                  game.loaded.map.idx(c))]
    assert len(unseen) > 35
    overlays, truths, pictures = set(), set(), set()
    maps = MapMaker(enabled=True)
    for n, cell in enumerate(unseen):
        state = placed(game, **{"grey-bat": board.label(cell)})
        assert "grey-bat" not in sight(state)["blue"].seen_units
        overlays.add(project(state, "blue").blocked_cells)
        truths.add(sight(state)["blue"].blocked_cells)
        if n % max(1, len(unseen) // 12) == 0:
            pictures.add(await maps.side_map(state, "blue"))
    assert len(truths) > 10  # the battery really does block other cells from each place
    assert len(overlays) == 1 and len(pictures) == 1
    assert game.cell("A1103") in next(iter(overlays))  # by the Grey Horse, which Blue sees


def test_a_blank_marker_blocks_as_if_it_could_fight_and_see() -> None:
    """Inverted model: Blue sees blank markers; whether the battery or the wagons (which
    neither fight nor see) stand under the one in A1502 does not change Blue's blocked cells,
    though the cells truly blocked differ."""
    game = marching_blue("inverted")
    night = 7  # short sight: the true blocked cells show who is where
    one = replace(placed(game, **{"grey-bat": "A1502", "grey-wagons": "A2403"}), turn=night)
    two = replace(placed(game, **{"grey-bat": "A2403", "grey-wagons": "A1502"}), turn=night)
    assert [u.level for u in project(one, "blue").enemy_units()].count("marker") >= 2
    assert sight(one)["blue"].blocked_cells != sight(two)["blue"].blocked_cells
    assert project(one, "blue").blocked_cells == project(two, "blue").blocked_cells
    assert game.cell("A1503") in project(one, "blue").blocked_cells  # by the marker in A1502


def test_under_the_open_model_the_overlay_is_the_truth() -> None:
    game = marching_blue("open")
    truth = bits_to_cells(sight(game.state)["blue"].blocked_cells, game.loaded.map.grid)
    assert project(game.state, "blue").blocked_cells == truth
