"""Telling a player, once, that their direct messages are closed.

When a DM to a user fails because they do not accept DMs (Discord codes 50007 and 50278), the
transport records that a notice is owed. At the user's next interaction with the bot the notice
is added to the (ephemeral) answer, once. When DMs reach them again the record is cleared, so a
later failure is explained again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from storage.store import Store

NOTICE = (
    "**I could not send you a direct message.** Your game messages are kept for you: read them "
    "with /inbox. To get them as DMs, allow direct messages from this server: open the server "
    "menu (click the server's name) > Privacy Settings > turn on *Direct Messages* (on some "
    "versions: *Allow direct messages from server members*). New messages then come as DMs."
)

OWED = "owed"
TOLD = "told"


def _key(user_id: int) -> str:
    return f"dm-notice:{user_id}"


async def dm_failed(store: Store, user_id: int) -> None:
    """A DM to this user was refused: owe them the notice unless they have had it."""
    if await store.get_state(_key(user_id)) not in (OWED, TOLD):
        await store.set_state(_key(user_id), OWED)


async def dm_worked(store: Store, user_id: int) -> None:
    """A DM reached this user: forget any earlier failure."""
    if await store.get_state(_key(user_id)):
        await store.set_state(_key(user_id), "")


async def take_notice(store: Store, user_id: int) -> str | None:
    """The notice if one is owed to this user (then it counts as told)."""
    if await store.get_state(_key(user_id)) != OWED:
        return None
    await store.set_state(_key(user_id), TOLD)
    return NOTICE
