"""Playing the Chancellorsville sample (``scenarios/chancellorsville-hidden.toml``) through the
umpire, and gathering one side's whole output, for the tests that compare it across games which
differ only in what that side may not know.

A ``Play`` is one game: the sample under an information model and a sighting rule, some of its
units edited (another place, name, strength or kind), more units added (one that arrives later,
say), the game options chosen at creation, and the orders each side gives in its first phase.
``side_output`` plays it for a few turns and returns, in order, everything one side receives:
its ``SideView`` at each of its reads, its answers and refusals, its reads (status, units, log,
inbox), its autocomplete choices, its maps (PNG bytes, in hex) and every delivery addressed to it
or to everyone.

The Chancellorsville sample as the raid tests play it: the scenario, its raid variant, a
started state and dice that answer by purpose.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from rules import commands as cmd
from rules.engine import start
from rules.knowledge.sighted import sight
from rules.scenario.loader import LoadedScenario, load
from rules.state import GameState, initial_state
from rules.view import project
from storage.store import Store
from tests.support.commitments import masked
from tests.support.lockstep import LockstepTransport, heard_by, run_in_lockstep
from tests.support.naming_reads import naming_choices
from umpire.games.catalog import with_options
from umpire.reads.maps import MapMaker
from umpire.service import Umpire, UmpireError

SCENARIOS = Path(__file__).parents[2] / "scenarios"


SAMPLE = SCENARIOS / "chancellorsville-hidden.toml"


HOST, UNION, CONFEDERATE = 1, 10, 20


USERS = {"union": UNION, "confederate": CONFEDERATE}


SEED = bytes(range(32))


#: A TOML value as the sample writes it (a string, a number, a list of strings).
Value = str | int | list[str]


@dataclass(frozen=True)
class Play:
    """One game of the sample. ``units``: fields to set on units, by unit id (``at``, ``name``,
    ``strength``, ``kind``...); ``extra``: more ``[[units]]`` in TOML; ``edits``: other changes
    to the text (old, new), each found exactly once; ``orders``: by side, the
    orders it gives in its first phase (answers to the observing side's are part of its
    output); ``options``: the game's options chosen at creation; ``unseen``: units that must
    stay out of the observing side's sight throughout (checked at every step); ``may_refuse``:
    the other side's orders may be refused (else each must be carried out, or the play would
    prove less than it claims)."""

    information: str = "inverted"
    sighting: str = "los"
    units: Mapping[str, Mapping[str, Value]] = field(default_factory=dict)
    extra: str = ""
    edits: tuple[tuple[str, str], ...] = ()
    orders: Mapping[str, tuple[cmd.Command, ...]] = field(default_factory=dict)
    options: Mapping[str, bool] = field(default_factory=dict)
    unseen: tuple[str, ...] = ()
    may_refuse: bool = False
    #: A limit for the path rule on every turn that sets none (ruling CV-6: it has no range of
    #: its own), so that a play may keep units far off out of sight.
    path_limit: int | None = None


def set_fields(text: str, uid: str, fields: Mapping[str, Value]) -> str:
    """The scenario text with the ``[[units]]`` entry of ``uid`` given those fields (each line
    replaced, or added when the entry has none)."""
    blocks = text.split("\n[[units]]\n")
    found = [n for n, b in enumerate(blocks) if b.startswith(f'id = "{uid}"\n')]
    assert len(found) == 1, uid
    block = blocks[found[0]]
    for key, value in fields.items():
        line = f"{key} = {json.dumps(value)}"
        block, n = re.subn(rf"(?m)^{key} = .*$", line.replace("\\", "\\\\"), block, count=1)
        if n == 0:
            head, _, rest = block.partition("\n")
            block = f"{head}\n{line}\n{rest}"
    blocks[found[0]] = block
    return "\n[[units]]\n".join(blocks)


def sample_text(play: Play) -> str:
    """The sample as ``play`` edits it, with its ruleset found where the sample's is."""
    text = SAMPLE.read_text(encoding="utf-8")
    text = text.replace('ruleset = "classic-1961.ruleset.toml"',
                        f'ruleset = "{SCENARIOS / "classic-1961.ruleset.toml"}"')
    text, n = re.subn(r'(?m)^information = "[a-z]+"$', f'information = "{play.information}"',
                      text, count=1)
    assert n == 1
    # The scenario's own options, with the sighting rule of this play (whatever it named).
    options = re.search(r"(?m)^options = \{(.*)\}$", text)
    assert options is not None
    # Both raid choices are set beforehand, as the host may: no raid and, where a play chooses
    # the raid, the Confederates off the board (the players' own choices: test_raid_election).
    kept = [o.strip() for o in options.group(1).split(",")
            if o.strip() and not o.strip().startswith("sighting")] + PRESET
    line = "options = { " + ", ".join([*kept, f'sighting = "{play.sighting}"']) + " }"
    text = text[:options.start()] + line + text[options.end():]
    if play.sighting != "clear_path":
        # The sample's nights, written for the path rule, keep their meaning under another rule.
        text = text.replace("\nclear_path_limit = ", "\nvisibility = ")
    if play.path_limit is not None:
        text = re.sub(r'(?m)^(turn = \d+\ntime = "[0-9:]+"\nday = \d+\nlight = "day"\n)',
                      rf"\1clear_path_limit = {play.path_limit}\n", text)
    for old, new in play.edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    for uid, fields in play.units.items():
        text = set_fields(text, uid, fields)
    return text + play.extra


def scenario_file(tmp_path: Path, name: str, play: Play) -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(sample_text(play), encoding="utf-8")
    return path


def arriving(uid: str, side: str, name: str, kind: str, strength: int, turn: int, at: str
             ) -> str:
    """A unit that enters the board later (off it until then)."""
    return (f'\n[[units]]\nid = "{uid}"\nside = "{side}"\nname = "{name}"\nkind = "{kind}"\n'
            f'echelon = "brigade"\nstrength = {strength}\nmovement = 4\n'
            f'arrives = {{ turn = {turn}, at = "{at}" }}\n')


def placed(uid: str, side: str, name: str, kind: str, strength: int, at: str,
           command: str = "") -> str:
    """A unit on the board from the start."""
    belongs = f'command = "{command}"\n' if command else ""
    return (f'\n[[units]]\nid = "{uid}"\nside = "{side}"\nname = "{name}"\nkind = "{kind}"\n'
            f'echelon = "brigade"\n{belongs}strength = {strength}\nmovement = 4\nat = "{at}"\n')


async def answer(umpire: Umpire, user: int, command: cmd.Command) -> str:
    """The umpire's answer to an order, or its refusal."""
    try:
        return (await umpire.handle("g1", user, command)).text
    except UmpireError as e:
        return f"refused: {e}"


async def reads(umpire: Umpire, user: int, side: str, around: tuple[str, ...]) -> list[str]:
    """Everything the side's player may read now: its view, status, units, log, inbox, its
    autocomplete choices, the public lists, and its maps (whole, and around some cells)."""
    state = await umpire.repository.state_for("g1")
    heard = [repr(project(state, side)),
             (await umpire.status("g1", user)).text,
             (await umpire.units_text("g1", user)).text,
             masked((await umpire.log_text("g1", user, last=200)).text),
             repr(await umpire.unit_names("g1", user)),
             repr(await umpire.marker_choices("g1", user)),
             repr(await umpire.visible_enemy_names("g1", user)),
             repr(await umpire.visible_enemy_names("g1", user, troops_only=False)),
             *[repr(found) for found in await naming_choices(umpire, user)],
             repr(await umpire.place_names("g1")),
             repr(await umpire.sides("g1"))]
    for cell, radius in ((None, None), *((c, 3) for c in around)):
        shown = await umpire.my_map("g1", user, around=cell, radius=radius)
        heard.append(shown.text + " " + (shown.image or b"").hex())
    items, pages = await umpire.inbox("g1", user, per_page=500)
    heard.append(f"{pages} " + "\n".join(masked(d.text) for d in items))
    return heard


#: One drain of the outbox after a command, as a side got it: (round trip, lane, words).
Timeline = list[list[tuple[int, str, str]]]


async def side_output(tmp_path: Path, name: str, play: Play, observer: str, *,
                      turns: int = 2, around: tuple[str, ...] = (), end: bool = False,
                      last: list[GameState] | None = None,
                      timeline: Timeline | None = None) -> list[str]:
    """Everything ``observer`` receives in ``play`` from the start to the first phase of turn
    ``turns + 1`` (and, with ``end``, as the host then ends the game): its reads at the start
    and at each of its phases, its answers, and every delivery addressed to it or public.
    The game's last state is put in ``last``, for the test to check its premise. With
    ``timeline``, the outbox is drained in lockstep after every command (``tests.support.lockstep``;
    maps off), and ``timeline`` gets, drain by drain, when and in which lane the observer heard
    what (the drains in which it heard nothing left out)."""
    heard: list[str] = []
    user = USERS[observer]
    network = LockstepTransport()
    lanes = {"public:", f"player:{user}", f"side:{observer}"}

    async def drained(umpire: Umpire) -> None:
        if timeline is not None:
            sent = await run_in_lockstep(umpire.store, "g1", network,
                                         lambda: umpire.drain("g1", network))
            if told := [(s.tick, s.lane, masked(s.text)) for s in heard_by(sent, lanes)]:
                timeline.append(told)

    async with Store.open(tmp_path / f"{name}.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=timeline is None))
        await umpire.create_game(str(scenario_file(tmp_path, name, play)), HOST, game_id="g1",
                                 seed=SEED, options=dict(play.options) or None)
        for side, uid in USERS.items():
            await umpire.join("g1", uid, side)
        heard.append(masked((await umpire.start("g1", HOST)).text))
        await drained(umpire)
        heard += await reads(umpire, user, observer, around)
        ordered: set[str] = set()
        while (state := await umpire.repository.state_for("g1")).turn <= turns:
            for side in state.acting_sides():
                if side not in ordered:
                    ordered.add(side)
                    for command in play.orders.get(side, ()):
                        said = await answer(umpire, USERS[side], command)
                        await drained(umpire)
                        if side == observer:
                            heard.append(said)
                        elif not play.may_refuse:
                            assert not said.startswith("refused: "), (command, said)
                        check_unseen(await umpire.repository.state_for("g1"), observer, play)
                said = await answer(umpire, USERS[side], cmd.Done())
                await drained(umpire)
                if side == observer:
                    heard.append(said)
            state = await umpire.repository.state_for("g1")
            check_unseen(state, observer, play)
            if observer in state.acting_sides():
                heard += await reads(umpire, user, observer, around)
        if end:
            heard.append((await umpire.end_game("g1", HOST)).text)
            await drained(umpire)
        if last is not None:
            last.append(await umpire.repository.state_for("g1"))
        for d in await store.pending_deliveries("g1", limit=100_000):
            if d.kind == "public" or d.target in (str(user), observer):
                d = await umpire.with_picture(d)  # drawn as it is sent
                heard.append(f"{d.kind} {d.target} {masked(d.text)} {d.image_name} "
                             + (d.image or b"").hex())
    return heard


def check_unseen(state: GameState, observer: str, play: Play) -> None:
    """The play's premise: its ``unseen`` units stay out of the observer's sight."""
    seen = sight(state)[observer].seen_units
    assert not seen & set(play.unseen), (state.turn, state.current, seen & set(play.unseen))


def mentions(heard: list[str], text: str) -> bool:
    """Whether the output carries ``text`` other than in refusals that echo what the side
    typed itself."""
    echoes = (f"'{text}'", f'"{text}"')
    return any(text in t for t in heard
               if not (t.startswith("refused: ") and any(e in t for e in echoes)))


def differs(one: list[str], two: list[str]) -> list[tuple[str, str]]:
    """The first few pairs of outputs that differ, cut where they part (for a readable
    failure)."""
    out = []
    for a, b in zip(one, two, strict=False):
        if a != b:
            at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                      min(len(a), len(b)))
            out.append((a[max(0, at - 150):at + 150], b[max(0, at - 150):at + 150]))
    if len(one) != len(two):
        out.append((f"{len(one)} items", f"{len(two)} items"))
    return out[:3]


#: The sighting rules the comparisons are played under.
RULES = ("los", "clear_path")


ROOT = Path(__file__).resolve().parents[2]


RULESET = ROOT / "scenarios" / "classic-1961.ruleset.toml"


def dice(seq: int, purpose: str, spec: str) -> int:
    return int(hashlib.sha256(f"{seq}:{purpose}:{spec}".encode()).hexdigest(), 16) % 6 + 1


#: The raid's two choices as these tests set them beforehand (a play or test may override them).
PRESET = ["raid = false", "off_board = true"]


def sample(*edits: tuple[str, str]) -> LoadedScenario:
    """The sample with the raid's choices set beforehand (``PRESET``), edited."""
    text = SAMPLE.read_text(encoding="utf-8").replace(
        "options = { ", "options = { " + "".join(f"{p}, " for p in PRESET), 1)
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    return load(text, "cv.toml", RULESET.read_text(encoding="utf-8"), "classic.toml")


def raided(loaded: LoadedScenario | None = None) -> LoadedScenario:
    return with_options(loaded or sample(), {"raid": True})


def started(loaded: LoadedScenario) -> GameState:
    return start(initial_state(loaded), hashlib.sha256(SEED).hexdigest(), dice).state
