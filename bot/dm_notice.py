"""Telling a player, once, that their direct messages are closed.

When a DM to a user fails because they do not accept DMs (Discord codes 50007 and 50278), the
transport tells the umpire that a notice is owed (``Umpire.dm_failed``). At the user's next
interaction with the bot the notice is added to the (ephemeral) answer, once. When DMs reach them
again the record is cleared (``Umpire.dm_worked``), so a later failure is explained again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from umpire.service import Umpire

NOTICE = (
    "**I could not send you a direct message.** Your game messages are kept for you: read them "
    "with /inbox. To get them as DMs, allow direct messages from this server: open the server "
    "menu (click the server's name) > Privacy Settings > turn on *Direct Messages* (on some "
    "versions: *Allow direct messages from server members*). New messages then come as DMs."
)


async def take_notice(umpire: Umpire, user_id: int) -> str | None:
    """The notice if one is owed to this user (then it counts as told)."""
    return NOTICE if await umpire.take_dm_notice(user_id) else None
