"""The information models: how much of the enemy a side is shown.

A scenario chooses a model for the game, and may choose another for one side; a rule module may
change it for one side during play (``rules.knowledge.sighted.information_model`` decides, and
nothing else does).
"""

from __future__ import annotations

from enum import StrEnum


class InformationModel(StrEnum):
    """How a side sees the enemy's counters (``UMPIRE``: the umpire's view, which sees all)."""

    OPEN = "open"
    CONCEALED = "concealed"
    INVERTED = "inverted"
    HIDDEN = "hidden"
    UMPIRE = "umpire"

    @property
    def shows_every_enemy(self) -> bool:
        """Whether every enemy counter on the table is shown identified, sighted or not."""
        return self in (InformationModel.OPEN, InformationModel.CONCEALED,
                        InformationModel.UMPIRE)

    @property
    def fog(self) -> bool:
        """Whether the side sees the enemy only through its own troops' sighting."""
        return self in (InformationModel.INVERTED, InformationModel.HIDDEN)

