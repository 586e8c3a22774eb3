"""What a side's troops see pass in the enemy's phase reaches it in its next report, never at the
moment the enemy moved (rulings INFO-13, INFO-18), and the moving side is told nothing of it
under the hidden model (INFO-19).

In the flank march with enemies hidden until sighted, the Union player says Done for the turn.
In the Confederate Movement Phase Kershaw's brigade steps into the Union's sight and straight
back out of it, or only to and fro out of sight. Right after the move the Union has received
the same thing either way; what its troops saw waits for its next dossier.
"""

from __future__ import annotations

from pathlib import Path

from rules.commands import Move
from storage.records import Recipient
from storage.store import Store
from tests.support.hand_maps import flank_march_union_done
from umpire.reads.maps import MapMaker
from umpire.service import Umpire

UNION, CONFEDERATE = 11, 21
#: Kershaw (at B2812) steps into the Union's sight and back, or stays out of it.
THROUGH_SIGHT = "B2712 B2812"
OUT_OF_SIGHT = "B2912 B2812"


async def _kershaw_walks(folder: Path, route: str) -> tuple[list[str], list[str], list[str]]:
    """The Union player's messages just after Kershaw's move, the Union side's news held for
    its next dossier, and the Confederate player's messages."""
    folder.mkdir()
    async with Store.open(folder / "v.db") as store:
        umpire = Umpire(store, maps=MapMaker(enabled=False))
        await flank_march_union_done(umpire, folder, UNION, CONFEDERATE)
        await umpire.handle("g1", CONFEDERATE, Move(unit="kershaw", route=route))
        union = await store.deliveries_for("g1", Recipient("player", str(UNION)), limit=500)
        held = (await store.held_news("g1")).get("union", [])
        grey = await store.deliveries_for("g1", Recipient("player", str(CONFEDERATE)),
                                          limit=500)
        return [d.text for d in union], [h.text for h in held], [d.text for d in grey]


async def test_what_the_union_saw_pass_waits_for_its_dossier(tmp_path: Path) -> None:
    union_through, held_through, grey_through = await _kershaw_walks(tmp_path / "through",
                                                                     THROUGH_SIGHT)
    union_out, held_out, grey_out = await _kershaw_walks(tmp_path / "out", OUT_OF_SIGHT)
    # Nothing reaches the Union player at the moment of the move, seen or not.
    assert union_through == union_out
    assert any("Seen on the way, then lost from sight: Kershaw" in t for t in held_through)
    assert not any("Seen on the way" in t for t in held_out)
    # The Confederate player is not told whether the Union saw him (hidden model).
    assert not any("Seen by the enemy" in t for t in grey_through)
    assert len(grey_through) == len(grey_out)
