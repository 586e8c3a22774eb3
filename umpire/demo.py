"""``vedette demo``: the sample game played offline through the umpire, with scripted orders.

It plays the first turns of ``flank-march`` on a database file in the output folder, as two
players would on Discord, and writes what each audience received: ``public.md`` (the game
channel), ``<side>/inbox.md`` (that side's private messages), ``<side>/turn-NN.png`` (that side's
map after each turn), ``umpire/turn-NN.png`` (everything) and ``game.db``.
"""

from __future__ import annotations

import asyncio
import shutil
from dataclasses import dataclass
from pathlib import Path

from rules import commands as cmd
from rules.grid import Cell
from rules.route import RouteError, expand, parse_route
from rules.state import GameState
from storage.store import Store
from umpire.demo_combat import fight
from umpire.dice import commitment
from umpire.maps import draw_side_map
from umpire.outbox import Transport, drain
from umpire.service import Umpire, UmpireError

SCENARIO = "flank-march"
TURNS = 9
HOST = 1
PLAYERS = {"union": 101, "confederate": 201}


@dataclass(frozen=True)
class Order:
    """A scripted march: the unit goes as far along the route as this turn's MPs allow."""

    side: str
    unit: str
    route: str


# Jackson's divisions march up the Brock Road and turn east along the Turnpike towards the
# open right flank of the XI Corps; the Federals shuffle their reserves and send cavalry west.
SCRIPT: dict[int, list[Order]] = {
    1: [Order("confederate", "doles", "road A1309 road Luckett's Farm"),
        Order("confederate", "iverson", "road A1309 road Luckett's Farm"),
        Order("confederate", "oneal", "road A1309"),
        Order("confederate", "rodes", "road A1309"),
        Order("union", "6th-ny-cav", "road Dowdall's Tavern road Talley's Farm"),
        Order("union", "barlow", "B0915")],
    2: [Order("confederate", "doles", "road Luckett's Farm"),
        Order("confederate", "colquitt", "road A1309"),
        Order("confederate", "ramseur", "road A1309"),
        Order("union", "6th-ny-cav", "road Talley's Farm road Luckett's Farm")],
    3: [Order("confederate", "paxton", "road A1513 road A1309"),
        Order("confederate", "jones", "road A1513 road A1309"),
        Order("union", "barlow", "B0713")],
    4: [Order("confederate", "iverson", "A1908"),
        Order("confederate", "doles", "A2010"),
        Order("union", "17th-pa-cav", "road Hazel Grove")],
    5: [Order("confederate", "colquitt", "road Luckett's Farm"),
        Order("confederate", "oneal", "A1807"),
        Order("union", "von-gilsa", "A2410")],
    6: [Order("confederate", "doles", "A2310"),
        Order("confederate", "iverson", "A2208")],
    7: [Order("confederate", "ramseur", "road Luckett's Farm")],
}


class FolderTransport(Transport):
    """Writes deliveries to Markdown files, as the bot would post them to Discord."""

    def __init__(self, out: Path, player_sides: dict[int, str]) -> None:
        self.out = out
        self.player_sides = player_sides
        self.images = 0

    async def send(self, kind: str, target: str, text: str, image: bytes | None,
                   image_name: str | None) -> None:
        if kind == "public":
            folder, file = self.out, self.out / "public.md"
        elif kind == "player":
            side = self.player_sides[int(target)]
            folder, file = self.out / side, self.out / side / "inbox.md"
        elif kind == "side":
            folder, file = self.out / target, self.out / target / "inbox.md"
        else:
            folder, file = self.out / "umpire", self.out / "umpire" / "host.md"
        folder.mkdir(parents=True, exist_ok=True)
        block = text
        if image is not None:
            self.images += 1
            name = f"msg-{self.images:03d}-{image_name or 'map.png'}"
            (folder / name).write_bytes(image)
            block += f"\n\n![map]({name})"
        with file.open("a", encoding="utf-8") as f:
            f.write(block + "\n\n---\n\n")


def run_demo(out: Path) -> int:
    return asyncio.run(_demo(out))


async def _demo(out: Path) -> int:
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for folder in (*PLAYERS, "umpire"):
        (out / folder).mkdir()
    transport = FolderTransport(out, {uid: side for side, uid in PLAYERS.items()})
    async with Store.open(out / "game.db") as store:
        umpire = Umpire(store)
        await umpire.create_game(SCENARIO, HOST, game_id="demo",
                                 without=("surprise_move", "concealed_forces"))
        for side, uid in PLAYERS.items():
            await umpire.join("demo", uid, side)
        await umpire.start("demo", HOST)
        game = await store.get_game("demo")
        assert game is not None
        refusals = 0
        for turn in range(1, TURNS + 1):
            # Each side's map as the turn begins, then the turn itself.
            state = await umpire.state_for("demo")
            await asyncio.to_thread(_draw_turn, state, out, turn)
            refusals += await _play_turn(umpire, turn)
            await drain(store, transport)
        await asyncio.to_thread(_draw_turn, await umpire.state_for("demo"), out, TURNS + 1)
        await umpire.end_game("demo", HOST, reason="The demo's scripted turns are over.")
        await drain(store, transport)
    print(f"Vedette demo: {TURNS} turns of {SCENARIO} played through the umpire.")
    print(f"  public channel:   {out / 'public.md'}")
    for side in PLAYERS:
        print(f"  {side + ' inbox:':17} {out / side / 'inbox.md'} (maps: {out / side}/turn-NN.png)")
    print(f"  umpire's maps:    {out / 'umpire'}/turn-NN.png")
    print(f"  database:         {out / 'game.db'}")
    print(f"  dice commitment:  {commitment(game.seed)} (seed revealed at the end)")
    print(f"  check the dice:   vedette verify --db {out / 'game.db'}")
    if refusals:
        print(f"  ({refusals} scripted order(s) were refused by the umpire; see above)")
    return 0


async def _play_turn(umpire: Umpire, turn: int) -> int:
    """Play every step of one turn: each acting side gives its scripted orders, then is done."""
    refusals = 0
    while True:
        state = await umpire.state_for("demo")
        if state.turn != turn or state.status != "active":
            return refusals
        for side in state.acting_sides():
            if state.current.allows("move"):
                for order in SCRIPT.get(turn, []):
                    if order.side == side:
                        refusals += await _march(umpire, order)
            await fight(umpire, "demo", side, PLAYERS[side], turn)  # umpire.demo_combat
            await umpire.handle("demo", PLAYERS[side], cmd.Done())


async def _march(umpire: Umpire, order: Order) -> int:
    state = await umpire.state_for("demo")
    route = reachable_route(state, order)
    if route is None:
        return 0
    try:
        await umpire.handle("demo", PLAYERS[order.side], cmd.Move(unit=order.unit, route=route))
    except UmpireError as e:
        print(f"  turn {state.turn}: {order.unit} could not move ({e})")
        return 1
    return 0


def reachable_route(state: GameState, order: Order) -> str | None:
    """The order's route cut to the cells the unit can reach this phase, written cell by cell."""
    unit = state.units[order.unit]
    gm = state.loaded.map
    if unit.cell is None:
        return None
    try:
        path = expand(gm, parse_route(gm, order.route), unit.cell)
    except RouteError:
        return None
    occupied = {u.cell for u in state.units.values() if u.cell is not None and u.id != unit.id}
    spent, here, reach = 0.0, unit.cell, 0
    for n, cell in enumerate(path, start=1):
        cost = gm.step_cost(here, cell, unit.movement_class,  # type: ignore[arg-type]
                            unit.formation)
        if cost is None or spent + cost > unit.mp_left:
            break
        spent, here = spent + cost, cell
        if cell not in occupied:
            reach = n
    cells: list[Cell] = path[:reach]
    return " ".join(gm.board.label(c) for c in cells) if cells else None


def _draw_turn(state: GameState, out: Path, turn: int) -> None:
    for side in PLAYERS:
        (out / side / f"turn-{turn:02d}.png").write_bytes(draw_side_map(state, side))
    (out / "umpire" / f"turn-{turn:02d}.png").write_bytes(draw_side_map(state, None))
