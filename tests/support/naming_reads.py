"""What a player's unit and target autocomplete offers, for the tests that compare everything
a side reads across games alike but for what it cannot see."""

from __future__ import annotations

from umpire.service import Umpire


async def naming_choices(umpire: Umpire, user: int) -> list[object]:
    """What the player's unit and target autocomplete offers now (``umpire.reads.naming``): its own
    units, those that may fire or assault, the forces, and the targets, with no unit named and
    with its first units named."""
    own = await umpire.own_unit_choices("g1", user)
    firing = ",".join(n.ref for n in own[:3])
    return [own, await umpire.fighter_choices("g1", user, "fire"),
            await umpire.fighter_choices("g1", user, "assault"),
            await umpire.force_choices("g1", user),
            *[await umpire.target_choices("g1", user, action, units)
              for action in ("fire", "assault") for units in ("", firing)]]
