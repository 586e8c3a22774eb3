"""The probe module's fixture and scenario: a rule module that records every hook the engine
calls, and the way to a question it asks."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from rules import commands as cmd
from tests.conftest import FIXTURES
from tests.probe_module import Probe, registered
from umpire.service import Umpire

HOST, BLUE, GREY = 1, 10, 20

@pytest.fixture
def probe() -> Iterator[Probe]:
    with registered() as module:
        yield module

# -- vedette verify re-derives the end hook's roll -------------------------------------------------
def probe_scenario(tmp_path: Path) -> str:
    text = (FIXTURES / "tiny.toml").read_text(encoding="utf-8")
    text = text.replace('information = "open"\n', 'information = "open"\nmodules = ["probe"]\n')
    shutil.copy(FIXTURES / "tiny.ruleset.toml", tmp_path / "tiny.ruleset.toml")
    path = tmp_path / "probe.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)

# -- the umpire's clock ----------------------------------------------------------------------------
async def _question_asked(umpire: Umpire, probe: Probe, tmp_path: Path, game_id: str) -> None:
    """A game in which Blue's move has just put Grey a question with a 60-second clock."""
    await umpire.create_game(probe_scenario(tmp_path), HOST, game_id=game_id, channel_id=None)
    await umpire.join(game_id, BLUE, "blue")
    await umpire.join(game_id, GREY, "grey")
    await umpire.start(game_id, HOST)
    probe.alarm = (await umpire.state_for(game_id)).loaded.board.parse("A0304")
    await umpire.handle(game_id, BLUE, cmd.Move(unit="1st Brigade", route="A0304"))
