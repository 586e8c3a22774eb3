"""``vedette render``: a scenario's opening as one side (or the umpire) sees it, for authors."""

from __future__ import annotations

from pathlib import Path

from rules.ground.board import LabelError
from rules.scenario.problems import FileProblems
from rules.state import initial_state
from rules.view import project
from umpire.games import catalog
from umpire.reads.maps import draw_side_map


def render_opening(scenario: str, side: str | None, around: str | None, radius: int,
                   out: Path) -> int:
    try:
        loaded = catalog.load_file(catalog.find(scenario))
    except FileNotFoundError as e:
        print(f"vedette render: {e}")
        return 2
    except FileProblems as e:
        print(f"vedette render: {len(e.problems)} problem(s); run `vedette scenario check`:")
        for p in e.problems:
            print(f"  {p}")
        return 1
    sides = [s.id for s in loaded.scenario.sides]
    if side is not None and side not in sides:
        print(f"vedette render: no side {side!r}; sides: {', '.join(sides)}")
        return 2
    # The opening as the scenario sets it up; what each side sees is worked out afresh.
    state = initial_state(loaded)
    try:
        png = draw_side_map(project(state, side), around, radius if around else None)
    except (ValueError, LabelError) as e:
        print(f"vedette render: {e}")
        return 2
    out.write_bytes(png)
    print(f"wrote {out} ({len(png)} bytes)")
    return 0
