"""``vedette demo`` shows a fire fight and a close combat, and its rolls verify."""

from __future__ import annotations

import asyncio
from pathlib import Path

from umpire.demo import run_demo
from umpire.verify import verify


def test_the_demo_fights(tmp_path: Path, capsys: object) -> None:
    out = tmp_path / "demo"
    assert run_demo(out) == 0
    inboxes = {side: (out / side / "inbox.md").read_text(encoding="utf-8")
               for side in ("union", "confederate")}
    both = "".join(inboxes.values())
    assert "**Fire**:" in both and "**Under fire**:" in both
    assert "**Assault** on" in both and "**Assaulted** at" in both
    assert "Secret roll for" not in (out / "public.md").read_text(encoding="utf-8")
    assert asyncio.run(verify(out / "game.db", None)) == 0
