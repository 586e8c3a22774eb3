"""Setting a surprise move off: the forced march's stragglers, then the march itself, in
collision with an enemy march where their routes meet (``rules.surprise.collision``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.surprise import records as rec
from rules.surprise.collision import begin_with_collisions
from rules.surprise.march.straggling import forced_march_stragglers

if TYPE_CHECKING:
    from rules.outcome import Outcome


def begin(out: Outcome, march_id: str, kind: str, *, interactive: bool = True) -> None:
    """Set a march off and carry it out as far as it goes now (collisions included)."""
    record = rec.march(out.state, march_id)
    if kind in ("voluntary", "discovered") and int(record["forced"]) > 0:
        forced_march_stragglers(out, march_id)
    begin_with_collisions(out, march_id, kind, interactive)
