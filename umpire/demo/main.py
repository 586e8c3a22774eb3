"""``vedette demo``: the sample game played offline through the umpire, with scripted orders.

It plays the first turns of ``flank-march`` on a database file in the output folder, as two
players would on Discord, and writes what each audience received: ``public.md`` (the game
channel), ``<side>/inbox.md`` (that side's private messages), ``<side>/turn-NN.png`` (that side's
map after each turn), ``umpire/turn-NN.png`` (everything) and ``game.db``.

The Surprise Move rules are in force. Lee sends Jackson's corps (the units tagged ``flank-march``)
a surprise-move order up the Brock Road and east along the Orange Turnpike. In the ``success``
variant the corps saves its MPs unseen for several turns, then sets off and lands on the open
flank of the XI Corps; in the ``discovery`` variant Union cavalry pickets ride out along the
Plank Road, end a move within two hexes of the column's cavalry screen and trigger the march,
which must then spend half its saved MPs at once. The ``concealed`` variant tells a Concealed
Forces story instead (``umpire.demo.concealed``): a division under cover breeds decoys, a
concealed Union cavalry division releases a scout, anonymous to the enemy until seen, which finds
a decoy and then the division, which fires on it at once by opportunity fire. Each variant plays
with its own fixed seed, so that the story is the same every time (the seed is still revealed
and checked at the end).

``--scenario chancellorsville-hidden`` plays the Chancellorsville story instead
(``umpire.demo.chancellorsville``): sighting in the woods and on a road through them, Stuart's
charge, and with ``--raid`` the cavalry raid and the victory roll.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rules import commands as cmd
from rules.ground.grid import Cell
from rules.orders.route import RouteError, expand, parse_route
from rules.state import GameState
from rules.surprise import records as rec
from rules.surprise.commands import ChooseDetour, ExecuteSurpriseMove, OrderSurpriseMove
from rules.turn.status import GameStatus
from rules.view import project
from storage.json_codec import JsonObject
from storage.records import Picture
from storage.store import Store
from umpire.demo import chancellorsville as cv
from umpire.demo import concealed
from umpire.demo.combat import fight
from umpire.games.dice import commitment
from umpire.outbox.drain import Transport
from umpire.reads.maps import draw_side_map
from umpire.service import Umpire, UmpireError

SCENARIO = "flank-march"
#: The scenarios the demo plays: the flank march (with its variants), and Chancellorsville.
SCENARIOS = (SCENARIO, cv.SCENARIO)
TURNS = 9
HOST = 1
PLAYERS = {"union": 101, "confederate": 201}
#: Rule modules the Surprise Move stories play without (no force conceals in them).
WITHOUT = ("concealed_forces",)
CONCEALED = "concealed"
VARIANTS = ("success", "discovery", CONCEALED)
#: Each variant's fixed seed (any seed plays; these tell the story the variant is named for).
SEEDS = {"success": bytes([8] * 32), "discovery": bytes(32), CONCEALED: concealed.SEED}
#: Jackson's march: the route and the MPs saved before he sets it off (success variant).
MARCH_ROUTE = "road A1309 road Luckett's Farm road Talley's Farm"
SET_OFF_AT_MP = 18.0


@dataclass(frozen=True)
class Order:
    """A scripted march: the unit goes as far along the route as this turn's MPs allow."""

    side: str
    unit: str
    route: str


# Jackson's corps is on its surprise move (below); Lee's front shuffles, the Federals shift their
# reserves and Dowdall's Tavern sends its battery forward.
SCRIPT: dict[int, list[Order]] = {
    1: [Order("union", "barlow", "B0915"),
        Order("confederate", "posey", "B2414")],
    2: [Order("union", "6th-ny-cav", "road Dowdall's Tavern"),
        Order("confederate", "wright", "B2215")],
    3: [Order("union", "barlow", "B0713")],
    4: [Order("union", "17th-pa-cav", "road Hazel Grove")],
    5: [Order("union", "von-gilsa", "A2410")],
}

# Discovery: the 8th Pennsylvania rides west along the Plank Road, waits east of Burton's farm,
# then, from turn 6, patrols up to the column's cavalry screen every other turn.
DISCOVERY: dict[int, list[Order]] = {
    2: [Order("union", "8th-pa-cav", "road Dowdall's Tavern road A2813")],
    3: [Order("union", "8th-pa-cav", "road Dowdall's Tavern road A2813")],
    6: [Order("union", "8th-pa-cav", "A2714 A2613 A2514")],
    7: [Order("union", "8th-pa-cav", "A2613")],
    8: [Order("union", "8th-pa-cav", "A2514")],
}


@dataclass(frozen=True)
class Seats:
    """Who plays the flank-march story: the game, and each side's players (the first gives
    the side's orders)."""

    game_id: str = "demo"
    players: Mapping[str, tuple[int, ...]] = field(
        default_factory=lambda: {side: (uid,) for side, uid in PLAYERS.items()})

    def commander(self, side: str) -> int:
        return self.players[side][0]


class FolderTransport(Transport):
    """Writes deliveries to Markdown files, as the bot would post them to Discord (without
    their buttons: the demo's players give their orders as commands)."""

    def __init__(self, out: Path, player_sides: dict[int, str]) -> None:
        self.out = out
        self.player_sides = player_sides
        self.images = 0
        self.edited: set[str] = set()  # the status posts written so far, by key

    async def send(self, kind: str, target: str, text: str, image: bytes | None,
                   image_name: str | None, *, key: str = "",
                   buttons: Sequence[JsonObject] = (), edit_key: str = "",
                   mentions: tuple[int, ...] = (), pictures: Sequence[Picture] = ()) -> None:
        edited = edit_key if kind == "public" else ""  # only public posts are edited
        if edited in self.edited:
            # A file cannot edit what it wrote: each new state of the post follows, marked.
            text = f"_(an earlier post, edited; it now reads:)_\n{text}"
        elif edited:
            self.edited.add(edited)
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
            block += (f"\n\n![map]({name})" if name.endswith(".png")
                      else f"\n\nAttached: [{image_name}]({name})")
        with file.open("a", encoding="utf-8") as f:
            f.write(block + "\n\n---\n\n")


def run_demo(out: Path, variant: str | None = None, *, scenario: str = SCENARIO,
             raid: bool = False) -> int:
    return asyncio.run(_demo(out, variant, scenario=scenario, raid=raid))


def _refusal(variant: str | None, scenario: str, raid: bool) -> str:
    """Why these demo choices cannot be played ("" if they can)."""
    if scenario not in SCENARIOS:
        return f"no demo of {scenario!r}; choose one of {', '.join(SCENARIOS)}"
    if scenario == SCENARIO:
        if raid:
            return f"--raid is an option of the {cv.SCENARIO} demo"
        if variant is not None and variant not in VARIANTS:
            return f"no variant {variant!r}; choose one of {', '.join(VARIANTS)}"
    elif variant is not None:
        return f"the {scenario} demo has no variants (--raid plays the cavalry raid)"
    return ""


async def _demo(out: Path, variant: str | None = None, *, scenario: str = SCENARIO,
                raid: bool = False) -> int:
    refused = _refusal(variant, scenario, raid)
    if refused:
        print(f"vedette demo: {refused}")
        return 2
    variant = variant or "success"
    chancellorsville = scenario == cv.SCENARIO
    story = variant == CONCEALED and not chancellorsville
    label = ("raid" if raid else "no raid") if chancellorsville else variant
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for folder in (*PLAYERS, "umpire"):
        (out / folder).mkdir()
    transport = FolderTransport(out, {uid: side for side, uid in PLAYERS.items()})
    async with Store.open(out / "game.db") as store:
        umpire = Umpire(store)
        turns = cv.TURNS if chancellorsville else concealed.TURNS if story else TURNS
        roles = concealed.Roles()
        notes = cv.Notes()
        if chancellorsville:
            await umpire.create_game(scenario, HOST, game_id="demo", seed=cv.SEEDS[raid],
                                     options=cv.OPTIONS[raid])
        else:
            await umpire.create_game(SCENARIO, HOST, game_id="demo",
                                     without=() if story else WITHOUT, seed=SEEDS[variant])
        for side, uid in PLAYERS.items():
            await umpire.join("demo", uid, side)
        await umpire.start("demo", HOST)
        game = await store.get_game("demo")
        assert game is not None
        refusals = 0
        for turn in range(1, turns + 1):
            # Each side's map as the turn begins, then the turn itself.
            state = await umpire.repository.state_for("demo")
            await asyncio.to_thread(_draw_turn, state, out, turn)
            if chancellorsville:
                refusals += await cv.play_turn(umpire, "demo", PLAYERS, turn, notes)
            elif story:
                refusals += await concealed.play_turn(umpire, "demo", PLAYERS, turn, roles)
            else:
                refusals += await play_turn(umpire, turn, variant)
            await umpire.drain("demo", transport)
        await asyncio.to_thread(_draw_turn, await umpire.repository.state_for("demo"), out,
                                turns + 1)
        state = await umpire.repository.state_for("demo")
        summary = (cv.summary(state) if chancellorsville else concealed.summary(state) if story
                   else await _march_summary(umpire))
        replies = notes.replies if chancellorsville else roles.replies
        for side, said in replies.items():
            if said:  # the umpire's answers to the story's orders, as each player saw them
                (out / side / "replies.md").write_text("\n\n".join(said) + "\n",
                                                       encoding="utf-8")
        if notes.lines:
            (out / "umpire" / "story.md").write_text("\n\n".join(notes.lines) + "\n",
                                                     encoding="utf-8")
        await umpire.end_game("demo", HOST, reason="The demo's scripted turns are over.")
        await umpire.drain("demo", transport)
    print(f"Vedette demo ({label}): {turns} turns of {scenario} played through the umpire.")
    print(f"  {summary}")
    print(f"  public channel:   {out / 'public.md'}")
    for side in PLAYERS:
        print(f"  {side + ' inbox:':17} {out / side / 'inbox.md'} (maps: {out / side}/turn-NN.png)")
    print(f"  umpire's maps:    {out / 'umpire'}/turn-NN.png")
    if notes.lines:
        print(f"  the story:        {out / 'umpire' / 'story.md'} (what each side saw)")
    print(f"  database:         {out / 'game.db'}")
    print(f"  dice commitment:  {commitment(game.seed)} (seed revealed at the end)")
    print(f"  check the dice:   vedette verify --db {out / 'game.db'}")
    if refusals:
        print(f"  ({refusals} scripted order(s) were refused by the umpire; see above)")
    return 0


async def play_turn(umpire: Umpire, turn: int, variant: str = "success",
                    seats: Seats | None = None) -> int:
    """Play every step of one turn: each acting side gives its scripted orders (its first
    player does), then is done (each of its players says so). ``seats``: the game and its
    players, the demo's own by default."""
    seats = seats or Seats()
    refusals = 0
    orders = SCRIPT.get(turn, []) + (DISCOVERY.get(turn, []) if variant == "discovery" else [])
    while True:
        state = await umpire.repository.state_for(seats.game_id)
        if state.turn != turn or state.status != GameStatus.ACTIVE:
            return refusals
        for side in state.acting_sides():
            if state.current.allows("order") and side == "confederate":
                refusals += await _jackson(umpire, turn, variant, seats)
            if state.current.allows("move"):
                await _answer_detours(umpire, side, seats)
                for order in orders:
                    if order.side == side:
                        refusals += await _march(umpire, order, seats)
            await fight(umpire, seats.game_id, side, seats.commander(side), turn)  # .combat
            for player in seats.players[side]:  # a shared side is done when all are
                await umpire.handle(seats.game_id, player, cmd.Done())


def jackson_force(state: GameState) -> str:
    """Jackson's corps and Stuart's screen: the units tagged ``flank-march`` on the map."""
    return ", ".join(u.id for u in state.units.values()
                     if "flank-march" in u.tags and u.cell is not None)


async def _jackson(umpire: Umpire, turn: int, variant: str, seats: Seats) -> int:
    """The Confederate Command Phase: Lee's order on turn 1; in the success variant, Jackson
    sets the march off once it has saved enough MPs."""
    state = await umpire.repository.state_for(seats.game_id)
    player = seats.commander("confederate")
    try:
        if turn == 1:
            await umpire.handle(seats.game_id, player, OrderSurpriseMove(
                force=jackson_force(state), route=MARCH_ROUTE, detour="ask",
                name="Jackson's flank march"))
            return 0
        mine = rec.side_marches(state, "confederate", {rec.ACCUMULATING})
        if variant == "success" and mine and not mine[0]["execute_queued"] \
                and float(mine[0]["accumulated_mp"]) >= SET_OFF_AT_MP:
            await umpire.handle(seats.game_id, player, ExecuteSurpriseMove())
    except UmpireError as e:
        print(f"  turn {turn}: the surprise move order was refused ({e})")
        return 1
    return 0


async def _answer_detours(umpire: Umpire, side: str, seats: Seats) -> None:
    """A column waiting before a blocked hex: its owner tries the detour."""
    state = await umpire.repository.state_for(seats.game_id)
    for record in rec.side_marches(state, side, {rec.RUNNING}):
        if record["run"] and record["run"].get("pending"):
            await umpire.handle(seats.game_id, seats.commander(side),
                                ChooseDetour(march=str(record["id"]), attempt=True))


async def _march_summary(umpire: Umpire) -> str:
    state = await umpire.repository.state_for("demo")
    words = [f"{m['name']}: {rec.STATUS_WORDS.get(str(m['status']), m['status'])}, "
             f"{float(m['accumulated_mp']):g} MP saved over {m['attempts']} turn(s)"
             for m in rec.marches(state)]
    return "surprise move " + ("; ".join(words) if words else "none")


async def _march(umpire: Umpire, order: Order, seats: Seats) -> int:
    state = await umpire.repository.state_for(seats.game_id)
    route = reachable_route(state, order)
    if route is None:
        return 0
    try:
        await umpire.handle(seats.game_id, seats.commander(order.side),
                            cmd.Move(unit=order.unit, route=route))
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
        cost = gm.step_cost(here, cell, unit.movement_class,
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
        (out / side / f"turn-{turn:02d}.png").write_bytes(draw_side_map(project(state, side)))
    (out / "umpire" / f"turn-{turn:02d}.png").write_bytes(draw_side_map(project(state, None)))
