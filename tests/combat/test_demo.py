"""``vedette demo`` shows a fire fight and a close combat, and its rolls verify."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.support.combat import answered_texts
from tests.support.demos import Demos
from umpire.verify.check import verify


def test_the_demo_fights(tmp_path: Path, demos: Demos) -> None:
    out = tmp_path / "demo"
    demos.play(out)
    inboxes = {side: (out / side / "inbox.md").read_text(encoding="utf-8")
               for side in ("union", "confederate")}
    # A report the answer to an order showed its player is not DMed again (ruling FLOW-33): it
    # is in that player's /inbox, which holds every delivery addressed to them.
    answered = asyncio.run(answered_texts(out / "game.db"))
    both = "".join(inboxes.values()) + "".join(answered)
    assert "**Fire**:" in both and "**Under fire**:" in both
    assert "**Assault** on" in both and "**Assaulted** at" in both
    assert "Secret roll for" not in (out / "public.md").read_text(encoding="utf-8")
    assert asyncio.run(verify(out / "game.db", None)) == 0
