"""``/help`` lists only the commands the game can play: Chancellorsville's ruleset has no fire
table, so its phases name no ``/fire`` (ruling ORD-57)."""

from __future__ import annotations

from rules import commands as cmd
from rules.engine import decide
from tests.support import chancellorsville as cvs
from umpire.reads.helping import phase_commands


def test_chancellorsville_help_lists_no_fire() -> None:
    state = cvs.started(cvs.sample())
    for _ in range(12):  # every step of the first turns
        listed = phase_commands(state)
        assert "/fire" not in listed
        if state.current.allows("combat"):
            assert "/assault" in listed  # its close-combat table is there
        for side in state.acting_sides():
            state = decide(state, side, cmd.Done(), cvs.dice).state
