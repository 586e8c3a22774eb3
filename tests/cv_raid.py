"""The Chancellorsville sample as the raid tests play it: the scenario, its raid variant, a
started state and dice that answer by purpose."""

from __future__ import annotations

import hashlib
from pathlib import Path

from rules.engine import start
from rules.scenario.loader import LoadedScenario, load
from rules.state import GameState, initial_state
from umpire.games.catalog import with_options

ROOT = Path(__file__).resolve().parent.parent

SAMPLE = ROOT / "scenarios" / "chancellorsville-hidden.toml"

RULESET = ROOT / "scenarios" / "classic-1961.ruleset.toml"

SEED = bytes(range(32))

def dice(seq: int, purpose: str, spec: str) -> int:
    return int(hashlib.sha256(f"{seq}:{purpose}:{spec}".encode()).hexdigest(), 16) % 6 + 1

def sample(*edits: tuple[str, str]) -> LoadedScenario:
    text = SAMPLE.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    return load(text, "cv.toml", RULESET.read_text(encoding="utf-8"), "classic.toml")

def raided(loaded: LoadedScenario | None = None) -> LoadedScenario:
    return with_options(loaded or sample(), {"raid": True})

def started(loaded: LoadedScenario) -> GameState:
    return start(initial_state(loaded), hashlib.sha256(SEED).hexdigest(), dice).state
