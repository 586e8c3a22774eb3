"""The sample games ``vedette demo`` plays, played once per test session and copied into each test's
folder (the ``demos`` fixture of ``tests/conftest.py``)."""

from __future__ import annotations

import contextlib
import io
import shutil
from pathlib import Path


class Demos:
    """The sample games ``vedette demo`` plays (``umpire.demo.main.run_demo``), each played once per
    session (per process, under pytest-xdist) and copied for each test that asks: every test
    still has a folder of its own, as if the demo had been played there."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._played: dict[tuple[str | None, str | None, bool], tuple[Path, str]] = {}

    def play(self, out: Path, variant: str | None = None, *, scenario: str | None = None,
             raid: bool = False) -> str:
        """Put the demo's folder at ``out`` (``run_demo(out, variant, ...)`` that returned 0);
        what it printed, naming ``out``."""
        from umpire.demo.main import run_demo

        key = (variant, scenario, raid)
        if key not in self._played:
            folder = self.root / f"demo-{len(self._played)}"
            printed = io.StringIO()
            options = {} if scenario is None else {"scenario": scenario}
            with contextlib.redirect_stdout(printed):
                assert run_demo(folder, variant, raid=raid, **options) == 0
            self._played[key] = (folder, printed.getvalue())
        folder, printed = self._played[key]
        if out.exists():
            shutil.rmtree(out)
        shutil.copytree(folder, out)
        return printed.replace(str(folder), str(out))
