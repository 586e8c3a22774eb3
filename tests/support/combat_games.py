"""Combat games through the umpire on a database: the sample ruleset, a scenario variant
made by editing the sample, a started game and the way to a phase."""

from __future__ import annotations

from pathlib import Path

from rules.commands import Done
from storage.store import Store
from tests.support.combat import FIELD
from umpire.reads.maps import MapMaker
from umpire.service import Umpire

RULESET = Path(__file__).resolve().parents[2] / "scenarios" / "brigade-series.ruleset.toml"

HOST, UNION, CONFEDERATE = 1, 101, 201

SEED = bytes(range(32))

def variant(tmp_path: Path, name: str, *edits: tuple[str, str]) -> Path:
    """The combat field with text edits, in its own file."""
    text = FIELD.read_text(encoding="utf-8")
    text = text.replace('"../../scenarios/brigade-series.ruleset.toml"', f'"{RULESET}"')
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path

async def new_game(store: Store, scenario: Path, gid: str = "g1") -> Umpire:
    umpire = Umpire(store, maps=MapMaker(enabled=False))
    await umpire.create_game(str(scenario), HOST, game_id=gid, seed=SEED)
    await umpire.join(gid, UNION, "union")
    await umpire.join(gid, CONFEDERATE, "confederate")
    await umpire.start(gid, HOST)
    return umpire

async def reach(umpire: Umpire, gid: str, phase: str, side: str) -> None:
    """Say done for every acting side until ``side``'s ``phase``."""
    users = {"union": UNION, "confederate": CONFEDERATE}
    for _ in range(30):
        state = await umpire.repository.state_for(gid)
        if state.current.phase.id == phase and state.current.side == side:
            return
        for acting in state.acting_sides():
            await umpire.handle(gid, users[acting], Done())
    raise AssertionError(f"never reached the {side} {phase} phase")

# -- the firer learns only what it could see -------------------------------------------------------
NIGHT = ('time = "14:00"', 'time = "14:00"\nlight = "night"\nvisibility = 1')

INVERTED = ('information = "open"', 'information = "inverted"')
