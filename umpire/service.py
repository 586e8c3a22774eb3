"""The umpire service: games as a play group uses them, independent of Discord.

``Umpire.handle(game_id, user_id, command)`` takes the game's lock, loads its state, checks who
the user is in the game, asks the rules engine, and stores the events with the deliveries they
imply in one transaction. Only then does it answer, so an accepted command is durable before the
player hears that it was accepted. Deliveries wait in the outbox until a transport (the bot, or
the demo) sends them and marks them sent.

The work is split by concern: ``umpire.repository`` (loading, snapshots, the cache, committing),
``umpire.setting_up`` (games and seats), ``umpire.deciding`` (commands), ``umpire.reading``
(reading for players). ``Umpire`` is the one class the rest of the program uses.
"""

from __future__ import annotations

from umpire.answers import Reply, UmpireError
from umpire.deciding import Deciding
from umpire.reading import Reading
from umpire.repository import SNAPSHOT_EVERY
from umpire.setting_up import SettingUp

__all__ = ["SNAPSHOT_EVERY", "Reply", "Umpire", "UmpireError"]


class Umpire(SettingUp, Deciding, Reading):
    """The umpire of every game in one store: set up, decide, read (see the modules above)."""
